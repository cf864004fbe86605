//! The read path: the bytes of an array (or of one element) -> any serde type.
//!
//! The header has been parsed by `header_read`; what is left is a dtype, a
//! shape and exactly the data bytes. The deserializers here walk the dtype
//! over those bytes: [`array::ArrayDe`] presents the shape as nested
//! sequences, [`element::ElementDe`] one element (record, subarray, scalar),
//! [`scalar::ScalarDe`] one scalar in the file's byte order.
//!
//! One deserializer serves both borrowed input (`from_slice`, where `S` and
//! `V` fields are handed out as `&'de [u8]`) and copied input (`from_reader`,
//! a buffer reused per record), like serde_json's `Reference`: [`Bytes`],
//! one type for both kinds (they differ only where bytes are handed out),
//! so each deserializer is instantiated once per visitor, not per kind.
//!
//! Speed: the per-file [`plan::Plan`] decides once per node what the hot
//! paths test per record — a [`plan::Fast`] tag for scalars that are one
//! little-endian load of the asked type (and a `swapped` one, checked only
//! when that missed, for the same number big-endian: one byte-swapping
//! load), the count of one-axis subarrays of scalars, each field's offset,
//! the datetime token of the file's own unit. Everything else (other byte
//! swaps, conversions, checks, messages) is the general path, out of line;
//! `fast_tests` proves both give the same result.
//! Record fields are matched by name (serde's `visit_str` per key) until
//! one record proved a type's field list is the file's names in order
//! (`plan::ByPosition`, once per file and type); then by position.
//! A one-axis run (`[f64; 3]` fields, rows of `[f32; 3]` or of records, a
//! `Vec<f64>`) is [`array::run_seq`]: its only state is the bytes not yet
//! handed out, with the fast tag and size read once; the sequence goes to
//! the visitor by value (a loop that is not inlined keeps it in
//! registers), its elements by reference ([`element::RowDe`], one word:
//! the run's element, its bytes moved along in place), and its visitor is
//! inlined at one place per caller (every other sequence is out of line).
//! Rows of a stream are handed by reference too.
//! A record, read in order or by name, gives each field a
//! [`element::FieldDe`]: the field and its record, two words, free to make; its fast numbers and
//! runs read at the field's offset, anything else is [`element::ElementDe`]'s
//! over bytes that run on to the end of the record (one bounds check per
//! field); paths other than the fast scalars take exactly the element's
//! bytes first. A proven type that reads all of a record's fields reads
//! a number of them the compiler knows (a derive's field list is a
//! constant).
//!
//! Code size: a visitor is instantiated once per deserializer and per
//! sequence or map type it can be handed, and so is every generic method
//! that calls it, per derived type of the user's. So the read side hands
//! out few types: one [`Bytes`] for both kinds of input; the hot paths
//! their own sequences (a run, a record read in order, the rows of a 2-d
//! array), every other presentation one [`seq::Elements`]: an array met
//! by a struct or `deserialize_any` (`ArrayDe::elements`), a
//! scalar's parts (`[re, im]`, the `u8`s of bytes), a record's fields
//! picked by a proven list or met by a sequence request. A number met by
//! a sequence, map or struct request is refused without calling the
//! visitor (`ScalarDe::compound`). What does not call the visitor (an
//! array's layout, a scalar's self-describing form, messages, the
//! by-name proof) is not generic, so only the calls are per visitor.
//!
//! Entry points for other readers (npz): [`data::deserialize_data_in`]
//! (a whole array's data in memory) and
//! `crate::npy::reader::NpyReader::from_parsed` (record by record from a
//! non-seekable stream);
//! `ReadOptions::cfg()` gives the [`Cfg`] they take.
//!
//! Positions are attached while errors unwind (`.in_field`, `.at_index`,
//! `.at_record`); serde's own "invalid type" messages are rewritten to name
//! the numpy type that was found (see [`fix_error`]).

// Sizes, counts and offsets here come from untrusted headers and data:
// every operation is checked or proven bounded (de/*.rs too).
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

/// The read side's shared `Deserializer` methods, so each deserializer
/// writes only what is its own:
///
/// - `some`: `deserialize_option` is always `Some` (numpy has no missing
///   value); `newtype`: a newtype struct is its inner value; `ignored`:
///   `deserialize_ignored_any` takes nothing;
/// - `refuse(f) method "what" ...`: each listed method is `Err(f("what"))`
///   (the word may be left out: `f("")`; `f` may be a closure, and its
///   error any deserializer's), refuse-by-default as `crate::ser::refuse!`
///   is on the write side;
/// - `forward(path) method ...`: each listed method is that of the
///   deserializer `self.path` is (`forward(0)`, `forward(element()?)`);
/// - `via(helper) method ...`: each listed method is
///   `self.helper(visitor, f)`, `f` calling the same method (with the same
///   arguments) on the deserializer `helper` hands it;
/// - `to(target) method ...`: each listed method is `self.target(visitor)`
///   (its other arguments unused).
///
/// `via` and `to` take the methods' attributes first: `via(#[inline] helper)`.
macro_rules! de_methods {
    (some) => {
        $crate::de::de_methods!(@emit deserialize_option() [#[inline]]
            |self, visitor| visitor.visit_some(self));
    };
    (newtype) => {
        $crate::de::de_methods!(@emit deserialize_newtype_struct(name: &'static str) []
            |self, visitor| visitor.visit_newtype_struct(self));
    };
    // skipped: fine whatever it holds
    (ignored) => {
        $crate::de::de_methods!(@emit deserialize_ignored_any() [#[inline]]
            |self, visitor| visitor.visit_unit());
    };
    (refuse($f:expr) $($m:ident $($what:literal)?)*) => {$(
        $crate::de::de_methods!(@args $m refuse ($f, concat!("", $($what)?)));
    )*};
    (forward $path:tt $($m:ident)*) => {$(
        $crate::de::de_methods!(@args $m forward $path);
    )*};
    (via $x:tt $($m:ident)*) => {$(
        $crate::de::de_methods!(@args $m via $x);
    )*};
    (to $x:tt $($m:ident)*) => {$(
        $crate::de::de_methods!(@args $m to $x);
    )*};
    // the methods' own parameters, then `@refuse`, `@forward`, `@via` or `@to`
    (@args deserialize_unit_struct $to:ident $x:tt) => {
        $crate::de::de_methods!(@$to deserialize_unit_struct(name: &'static str) $x);
    };
    (@args deserialize_newtype_struct $to:ident $x:tt) => {
        $crate::de::de_methods!(@$to deserialize_newtype_struct(name: &'static str) $x);
    };
    (@args deserialize_tuple $to:ident $x:tt) => {
        $crate::de::de_methods!(@$to deserialize_tuple(len: usize) $x);
    };
    (@args deserialize_tuple_struct $to:ident $x:tt) => {
        $crate::de::de_methods!(@$to deserialize_tuple_struct(name: &'static str, len: usize) $x);
    };
    (@args deserialize_struct $to:ident $x:tt) => {
        $crate::de::de_methods!(@$to deserialize_struct(
            name: &'static str,
            fields: &'static [&'static str]
        ) $x);
    };
    (@args deserialize_enum $to:ident $x:tt) => {
        $crate::de::de_methods!(@$to deserialize_enum(
            name: &'static str,
            variants: &'static [&'static str]
        ) $x);
    };
    (@args $m:ident $to:ident $x:tt) => {
        $crate::de::de_methods!(@$to $m() $x);
    };
    // each kind's body, then `@emit`
    (@refuse $m:ident $args:tt ($f:expr, $what:expr)) => {
        $crate::de::de_methods!(@emit $m $args [] |self, _visitor| Err(($f)($what)));
    };
    (@forward $m:ident($($a:ident: $t:ty),*) ($($path:tt)*)) => {
        $crate::de::de_methods!(@emit $m($($a: $t),*) [#[inline]]
            |self, visitor| self.$($path)*.$m($($a,)* visitor));
    };
    (@via $m:ident($($a:ident: $t:ty),*) ($(#[$attr:meta])* $helper:ident)) => {
        $crate::de::de_methods!(@emit $m($($a: $t),*) [$(#[$attr])*] |self, visitor| {
            self.$helper(visitor, |de, v| ::serde::de::Deserializer::$m(de, $($a,)* v))
        });
    };
    (@to $m:ident $args:tt ($(#[$attr:meta])* $target:ident)) => {
        $crate::de::de_methods!(@emit $m $args [$(#[$attr])*]
            |self, visitor| self.$target(visitor));
    };
    // one method: its parameters, attributes, and body over `self` and the visitor
    (@emit $m:ident($($a:ident: $t:ty),*) [$($attr:tt)*] |$s:ident, $v:ident| $body:expr) => {
        $($attr)*
        fn $m<V: ::serde::de::Visitor<'de>>(
            $s,
            $($a: $t,)*
            $v: V,
        ) -> ::core::result::Result<V::Value, Self::Error> {
            let _ = ($($a,)*);
            $body
        }
    };
}
pub(crate) use de_methods;

pub(crate) mod array;
pub(crate) mod bulk_offer;
pub(crate) mod data;
pub(crate) mod element;
pub(crate) mod nd;
pub(crate) mod plan;
pub(crate) mod scalar;
pub(crate) mod seq;
pub(crate) mod stream;
pub(crate) mod time_token;

use std::fmt;

use crate::error::{Error, ErrorKind, Result, Segment};
use crate::format::dtype::{Dtype, ScalarType};

/// Caps serde size hints: never more elements than this many bytes of
/// Rust values would take, whatever the header claims.
pub(crate) const SIZE_HINT_BYTES: usize = 4 << 20;

/// The bytes of one element or of a run of elements: part of the
/// caller's input (`from_slice`: may be handed to the visitor as
/// `&'de [u8]`) or of a scratch buffer (`from_reader`, reordered data:
/// handed out as a transient `&[u8]`), like serde_json's `Reference`.
///
/// One type rather than a type parameter, so every deserializer and
/// sequence exists once per visitor whatever input it reads; and not an
/// enum, so the hot paths (splitting, loading numbers) work on the bytes
/// alone, as before: only handing the bytes themselves out
/// ([`Bytes::visit`], [`Bytes::visit_str`]) asks whether they are the
/// input's, finding them in it by their address.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bytes<'de, 'a> {
    bytes: &'a [u8],
    /// The caller's whole input, of which `bytes` is a part; `None` for a
    /// reused buffer.
    input: Option<&'de [u8]>,
}

#[allow(non_snake_case)]
impl<'de> Bytes<'de, 'de> {
    /// Bytes of the caller's input.
    #[inline]
    pub(crate) fn Borrowed(input: &'de [u8]) -> Self {
        Bytes {
            bytes: input,
            input: Some(input),
        }
    }
}

#[allow(non_snake_case)]
impl<'a> Bytes<'_, 'a> {
    /// Bytes of a reused buffer.
    #[inline]
    pub(crate) fn Copied(bytes: &'a [u8]) -> Self {
        Bytes { bytes, input: None }
    }
}

impl<'de, 'a> Bytes<'de, 'a> {
    /// The bytes.
    #[inline(always)]
    pub(crate) fn slice(&self) -> &'a [u8] {
        self.bytes
    }

    /// Length in bytes.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The same kind of bytes over `bytes` (a part of these).
    #[inline(always)]
    fn part(self, bytes: &'a [u8]) -> Self {
        Bytes {
            bytes,
            input: self.input,
        }
    }

    /// Moves to `next`, another part of the same input (the next element
    /// of a run): only the bytes change.
    #[inline(always)]
    pub(crate) fn move_to(&mut self, next: Self) {
        self.bytes = next.bytes;
    }

    /// The bytes from `start` to `end`, of the same kind.
    #[inline]
    pub(crate) fn range(self, start: usize, end: usize) -> Result<Self> {
        match self.bytes.get(start..end) {
            Some(b) => Ok(self.part(b)),
            None => Err(internal()),
        }
    }

    /// The first `n` bytes and the rest, of the same kind; `None` when
    /// fewer than `n` bytes are left.
    #[inline(always)]
    pub(crate) fn split_checked(self, n: usize) -> Option<(Self, Self)> {
        let (a, r) = self.bytes.split_at_checked(n)?;
        Some((self.part(a), self.part(r)))
    }

    /// The bytes as the input's own (`None` for a reused buffer's): found
    /// in it by their address (they are a part of it).
    #[inline]
    fn borrowed(self) -> Option<Result<&'de [u8]>> {
        let input = self.input?;
        let start = (self.bytes.as_ptr() as usize).checked_sub(input.as_ptr() as usize);
        let part = start.and_then(|s| input.get(s..s.checked_add(self.bytes.len())?));
        Some(part.ok_or_else(internal))
    }

    /// Hands the bytes to the visitor, borrowed when possible.
    #[inline]
    pub(crate) fn visit<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.borrowed() {
            Some(b) => visitor.visit_borrowed_bytes(b?),
            None => visitor.visit_bytes(self.bytes),
        }
    }

    /// Hands the bytes to the visitor as a string when they are UTF-8, as
    /// bytes otherwise (the visitor then says what it expected).
    #[inline]
    pub(crate) fn visit_str<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.borrowed() {
            Some(b) => {
                let b = b?;
                match std::str::from_utf8(b) {
                    Ok(s) => visitor.visit_borrowed_str(s),
                    Err(_) => visitor.visit_borrowed_bytes(b),
                }
            }
            None => match std::str::from_utf8(self.bytes) {
                Ok(s) => visitor.visit_str(s),
                Err(_) => visitor.visit_bytes(self.bytes),
            },
        }
    }
}

/// A one-entry map handed to a visitor: what the `NdArray` and `Bulk`
/// offers are (see `nd` and `bulk_offer`); the key, then the value.
pub(crate) struct OneEntry<K, D> {
    key: Option<K>,
    value: Option<D>,
}

impl<K, D> OneEntry<K, D> {
    pub(crate) fn new(key: K, value: D) -> Self {
        OneEntry {
            key: Some(key),
            value: Some(value),
        }
    }
}

impl<'de, K, D> serde::de::MapAccess<'de> for OneEntry<K, D>
where
    K: serde::de::IntoDeserializer<'de, Error>,
    D: serde::Deserializer<'de, Error = Error>,
{
    type Error = Error;

    fn next_key_seed<S: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>> {
        match self.key.take() {
            Some(key) => seed.deserialize(key.into_deserializer()).map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<S: serde::de::DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        seed.deserialize(self.value.take().ok_or_else(internal)?)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.key.is_some()))
    }
}

/// Sizes are checked before a deserializer is built; reaching this means a
/// bug in this crate, reported as an error rather than a panic.
#[cold]
pub(crate) fn internal() -> Error {
    Error::data("internal error: element bytes do not match the dtype")
}

/// Options the deserializers consult per element (copied into every
/// element's deserializer: keep it small; whole-file limits such as
/// `max_elements` travel with the top-level deserializers instead).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cfg {
    /// Allow rounding conversions into `f32`/`f64`.
    pub(crate) lossy: bool,
    /// `ReadOptions::long_double`: the format of `'<f16'`.
    pub(crate) long_double: Option<crate::LongDouble>,
}

/// Rewrites serde's own `invalid type: X, expected Y` into
/// `expected Y, found '<f8'` and `invalid value: X, expected Y` into
/// `expected Y, found X in '<i8'`, for errors fresh from a visitor (no
/// position yet). Other errors pass unchanged.
#[cold]
pub(crate) fn fix_error(err: Error, found: &dyn fmt::Display) -> Error {
    match serde_message(&err) {
        Some((false, _, exp)) => Error::mismatch(format!("expected {exp}, found {found}")),
        Some((true, unexp, exp)) => {
            Error::mismatch(format!("expected {exp}, found {unexp} in {found}"))
        }
        None => err,
    }
}

/// serde's fresh `invalid type: X, expected Y` (`false`, X, Y) or
/// `invalid value: X, expected Y` (`true`, X, Y), no position attached
/// yet.
pub(crate) fn serde_message(err: &Error) -> Option<(bool, &str, &str)> {
    if err.path().next().is_some() {
        return None;
    }
    let ErrorKind::Message(msg) = err.kind() else {
        return None;
    };
    let (value, rest) = match msg.strip_prefix("invalid type: ") {
        Some(rest) => (false, rest),
        None => (true, msg.strip_prefix("invalid value: ")?),
    };
    let (unexp, exp) = rest.rsplit_once(", expected ")?;
    Some((value, unexp, exp))
}

/// A type that wanted one element per record but met a row of a 2-d (or
/// more) array is told the shape and the types that read it: the mismatch
/// at record 0 of a plain array whose row is a subarray, or of a record
/// array whose row is a sequence of records.
#[cold]
pub(crate) fn with_shape_hint(err: Error, header: &crate::format::header::Header) -> Error {
    let path: Vec<&Segment> = err.path().collect();
    let ErrorKind::Mismatch(msg) = err.kind() else {
        return err;
    };
    // (a row of the wrong length for a fixed-size array says so already)
    let plain_row = path == [&Segment::Record(0)]
        && msg.contains(", found subarray of shape")
        && !msg.contains(" elements, found");
    let record_row = path == [&Segment::Record(0), &Segment::Index(0)]
        && matches!(header.descr, Dtype::Record(_))
        && msg.contains(", found record");
    if header.shape.len() < 2 || !(plain_row || record_row) {
        return err;
    }
    let element = match (&header.descr, msg.split_once("expected ")) {
        (Dtype::Scalar(_), Some((_, rest))) => rest
            .split_once(',')
            .map(|(e, _)| e)
            .filter(|e| !e.contains(' '))
            .unwrap_or("T"),
        _ => "T",
    }
    .to_owned();
    let note = format!(
        "; the file holds a {}-d array of shape {}: read it as NdArray<{element}> (shape and \
         flat data) or as nested Vecs (Vec<Vec<{element}>>)",
        header.shape.len(),
        crate::format::dtype::ShapeRepr(&header.shape)
    );
    err.with_mismatch_note(&note)
}

/// Refuses dtypes whose data cannot be read at all (`O`: the data section is
/// a pickle, so not even its size is known), naming the field.
pub(crate) fn check_readable(dtype: &Dtype) -> Result<()> {
    match dtype {
        Dtype::Scalar(s) if s.ty() == ScalarType::Object => Err(Error::unsupported(
            "'|O' (pickled Python objects) cannot be read without pickle; \
             save the array with a fixed-size dtype",
        )),
        Dtype::Scalar(_) => Ok(()),
        Dtype::Subarray(base, _) => check_readable(base),
        Dtype::Record(r) => {
            for field in r.fields() {
                check_readable(field.dtype()).map_err(|e| e.in_field(field.name()))?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod bulk_tests;
#[cfg(test)]
mod fast_tests;
#[cfg(test)]
mod tests;
