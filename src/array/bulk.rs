//! Plain numeric arrays at memcpy speed: [`Bulk<T>`] and
//! `#[serde(with = "npy_serde::bulk")]` for `Vec<T>` of numbers.
//!
//! serde's own `Vec<T>` asks the format for one element at a time (about 30
//! instructions per `f64`), however plain the data. When the file holds
//! exactly the element's type (`'<f8'` for `f64`, shape `(n, 3)` of `'<f4'`
//! for `[f32; 3]`), a `Bulk<T>` instead takes the data section's bytes in
//! one piece (from a slice) or in chunks of whole elements of about 64 KiB
//! (from a reader, an `.npz` member, a deflated one too) and converts them
//! with `from_le_bytes` in a loop the compiler vectorises.
//!
//! Big-endian data of exactly the element's type (`'>f8'` for `f64`) is
//! taken in one piece too, byte-swapped in a loop of its own.
//! Everything else reads exactly as `Vec<T>` reads it, with the same values
//! and the same error messages: another width or kind (`'<f4'` into `f64`,
//! records, strings), another shape. Writing
//! is `Vec<T>`'s too: the same bytes, the same dtype, except that an empty
//! one still has its element type (`'<f4'` of shape `(0,)`, `(0, 3)` for
//! `[f32; 3]`, as `np.save` writes them) where an empty `Vec<T>` has none.
//! Other serde formats see an ordinary newtype over a sequence (JSON:
//! `[1.0, 2.0]`).
//!
//! The element types ([`Element`]) are `bool`, `i8`..`i64`, `u8`..`u64`,
//! `f32`, `f64`, `half::f16` (feature `half`), and arrays `[E; N]` of them
//! (`[f32; 3]` is a row of an `(n, 3)` array, or a `(3,)` subarray field).
//!
//! ```
//! use npy_serde::Bulk;
//! use serde::{Deserialize, Serialize};
//!
//! let xs: Vec<f64> = (0..1000).map(|i| i as f64 * 0.5).collect();
//! let bytes = npy_serde::to_vec(&xs)?; // '<f8', shape (1000,)
//! let back: Bulk<f64> = npy_serde::from_slice(&bytes)?;
//! assert_eq!(*back, xs);
//!
//! // as struct fields: an .npz archive of columns
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Columns {
//!     #[serde(with = "npy_serde::bulk")]
//!     t: Vec<f64>,
//!     #[serde(with = "npy_serde::bulk")]
//!     pos: Vec<[f32; 3]>,
//! }
//! let cols = Columns { t: vec![0.0, 0.1], pos: vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] };
//! let mut file = std::io::Cursor::new(Vec::new());
//! npy_serde::npz::to_writer(&mut file, &cols)?; // t.npy '<f8' (2,), pos.npy '<f4' (2, 3)
//! file.set_position(0);
//! assert_eq!(npy_serde::npz::from_reader::<Columns>(&mut file)?, cols);
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! # How it works
//!
//! `Bulk<T>` asks for the newtype `"npy_serde::bulk"` (a name no Rust type
//! can have). This crate's reader answers on an array of plain numbers
//! with a one-entry map: the key describes the array (`"f4,1000,3"`: base
//! type, `>` first when big-endian, then the shape), the value is the array. When
//! the key is exactly `T`'s layout, the value is taken as raw bytes;
//! otherwise it is read as `Vec<T>`, through the ordinary path. Any other
//! array, and any other format, answers with an ordinary newtype.
//!
//! From a reader the length in the header is a claim: the vector grows as
//! bytes arrive (doubling, capped at the claimed length), so a header that
//! lies costs nothing beyond the bytes present.

// Sizes and counts here come from untrusted headers: every operation is
// checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::format::dtype::at_least_one;
use crate::kinds::number::Number;
use crate::kinds::special::BULK;

/// A `Vec<T>` of plain numbers that reads matching numpy data in bulk (see
/// the [module docs](self)). Writes exactly what `Vec<T>` writes.
///
/// ```
/// use npy_serde::Bulk;
/// let rows: Bulk<[f32; 3]> = Bulk(vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
/// let bytes = npy_serde::to_vec(&rows)?; // '<f4', shape (2, 3), as Vec<[f32; 3]> writes
/// assert_eq!(bytes, npy_serde::to_vec(&rows.0)?);
/// let back: Bulk<[f32; 3]> = npy_serde::from_reader(&bytes[..])?;
/// assert_eq!(back, rows);
/// // a mismatch reads (or fails) exactly as Vec<T> does
/// let wide = npy_serde::to_vec(&[[1.0f32, 2.0, 3.0, 4.0]])?;
/// let err = npy_serde::from_slice::<Bulk<[f32; 3]>>(&wide).unwrap_err();
/// let same = npy_serde::from_slice::<Vec<[f32; 3]>>(&wide).unwrap_err();
/// assert_eq!(err.to_string(), same.to_string());
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Bulk<T>(pub Vec<T>);

impl<T> Bulk<T> {
    /// The vector.
    ///
    /// ```
    /// let b = npy_serde::Bulk(vec![1u8, 2]);
    /// assert_eq!(b.into_inner(), [1, 2]);
    /// ```
    pub fn into_inner(self) -> Vec<T> {
        self.0
    }
}

impl<T> Deref for Bulk<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> DerefMut for Bulk<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<T> From<Vec<T>> for Bulk<T> {
    fn from(v: Vec<T>) -> Self {
        Bulk(v)
    }
}

impl<T> From<Bulk<T>> for Vec<T> {
    fn from(b: Bulk<T>) -> Self {
        b.0
    }
}

impl<T> FromIterator<T> for Bulk<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Bulk(iter.into_iter().collect())
    }
}

impl<T: Element> Serialize for Bulk<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize(&self.0, serializer)
    }
}

impl<'de, T: Element> Deserialize<'de> for Bulk<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer).map(Bulk)
    }
}

/// Serializes a slice of numbers as `Vec<T>` does (the same bytes here, a
/// sequence in other formats); for `#[serde(with = "npy_serde::bulk")]`.
/// An empty slice still writes `T`'s dtype.
///
/// ```
/// let json = npy_serde::bulk::serialize(&[1.5f64, 2.0], serde_json::value::Serializer).unwrap();
/// assert_eq!(json, serde_json::json!([1.5, 2.0]));
/// // empty: '<f4' of shape (0, 3), where an empty Vec<[f32; 3]> has no dtype
/// let bytes = npy_serde::to_vec(&npy_serde::Bulk::<[f32; 3]>(vec![]))?;
/// assert!(String::from_utf8_lossy(&bytes).contains("'descr': '<f4', 'fortran_order': False, 'shape': (0, 3)"));
/// assert!(npy_serde::to_vec(&Vec::<[f32; 3]>::new()).is_err());
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn serialize<T: Element, S: Serializer>(
    values: &[T],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_newtype_struct(T::NAME, values)
}

/// Deserializes a `Vec<T>` of numbers, in bulk when the data is exactly
/// `T`'s type; for `#[serde(with = "npy_serde::bulk")]`.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Rec {
///     #[serde(deserialize_with = "npy_serde::bulk::deserialize")]
///     xs: Vec<u16>,
/// }
/// let rec: Rec = serde_json::from_str(r#"{"xs": [1, 2, 3]}"#).unwrap();
/// assert_eq!(rec.xs, [1, 2, 3]);
/// // in a record, a (3,) subarray field reads in one piece
/// #[derive(serde::Serialize)]
/// struct Out { xs: [u16; 3] }
/// let bytes = npy_serde::to_vec(&[Out { xs: [4, 5, 6] }])?;
/// let back: Vec<Rec> = npy_serde::from_slice(&bytes)?;
/// assert_eq!(back[0].xs, [4, 5, 6]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn deserialize<'de, T: Element, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    deserializer.deserialize_newtype_struct(BULK, BulkVisitor(PhantomData))
}

mod sealed {
    use crate::kinds::special::BULK_TYPED;

    /// What the reader needs to know about an element type; private so the
    /// set of types stays closed (the byte layout is this crate's promise).
    pub trait Layout: Sized {
        /// Bytes of one element in the file.
        const SIZE: usize;
        /// The base scalar, as in the reader's key: `"f8"`, `"b1"`.
        const CODE: &'static str;
        /// The dims after the first axis, comma-separated decimal (`",3"`
        /// for `[E; 3]`; empty for a scalar), as in the reader's key and
        /// the name of the newtype.
        const DIMS: NameText = NameText::EMPTY;
        /// The name a `Bulk<T>` is written under: [`BULK_TYPED`], then the
        /// element's type (`"npy_serde::bulk:f4,3"` for `[f32; 3]`), so that
        /// an empty one still has a dtype (read by `ser::infer`). The reader
        /// asks for `BULK` itself.
        const TEXT: NameText = NameText::EMPTY
            .push(Some(BULK_TYPED.as_bytes()))
            .push(Some(Self::CODE.as_bytes()))
            .push(Self::DIMS.bytes());
        /// [`TEXT`](Self::TEXT) as a string.
        const NAME: &'static str = NameText::as_str(&Self::TEXT);
        /// One element from exactly `SIZE` little-endian bytes (zeros for a
        /// shorter slice, which the callers never pass).
        fn decode(bytes: &[u8]) -> Self;
        /// The same from big-endian bytes.
        fn decode_be(bytes: &[u8]) -> Self;
    }

    /// The text of a newtype name built at compile time (a fixed buffer: the
    /// standard library cannot concatenate strings in a const of a generic
    /// type). `len` counts every byte pushed; past the buffer the text is
    /// full, and the name falls back to `npy_serde::bulk` (no element type).
    #[derive(Clone, Copy)]
    pub struct NameText {
        buf: [u8; 120],
        len: usize,
    }

    // Const fns cannot call `get`; every index is below the length it was
    // checked against, and these run at compile time only (a panic would
    // be a compile error).
    #[allow(clippy::indexing_slicing)]
    impl NameText {
        pub(crate) const EMPTY: NameText = NameText {
            buf: [0; 120],
            len: 0,
        };

        /// The text, `None` when full.
        pub(crate) const fn bytes(&self) -> Option<&[u8]> {
            match self.buf.split_at_checked(self.len) {
                Some((text, _)) => Some(text),
                None => None,
            }
        }

        /// Appends `bytes`; `None` (a full text's bytes) makes this one full.
        pub(crate) const fn push(mut self, bytes: Option<&[u8]>) -> NameText {
            let Some(bytes) = bytes else {
                self.len = usize::MAX;
                return self;
            };
            let mut i = 0;
            while i < bytes.len() {
                if self.len < self.buf.len() {
                    self.buf[self.len] = bytes[i];
                }
                self.len = self.len.saturating_add(1);
                i = i.wrapping_add(1);
            }
            self
        }

        /// Appends `",n"` in decimal.
        pub(crate) const fn dim(self, n: usize) -> NameText {
            let mut digits = [b','; 21];
            let (mut k, mut n) = (digits.len(), n);
            loop {
                k = k.wrapping_sub(1);
                digits[k] = b'0'.wrapping_add((n % 10) as u8);
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            self.push(Some(digits.split_at(k.wrapping_sub(1)).1))
        }

        pub(crate) const fn as_str(&'static self) -> &'static str {
            if let Some(bytes) = self.bytes() {
                if let Ok(s) = std::str::from_utf8(bytes) {
                    return s;
                }
            }
            crate::kinds::special::BULK
        }
    }
}

use sealed::{Layout, NameText};

/// The element types of [`Bulk<T>`] (sealed): `bool`, `i8`, `i16`, `i32`,
/// `i64`, `u8`, `u16`, `u32`, `u64`, `f32`, `f64`, `half::f16` (feature
/// `half`), and `[E; N]` of these (nested too: `[[f64; 4]; 4]`) for the `N`
/// serde implements arrays for (0 to 32; `[E; 0]` always reads through the
/// ordinary path, its bytes cannot say how many there are).
///
/// ```
/// fn takes<T: npy_serde::bulk::Element>() {}
/// takes::<f64>();
/// takes::<[i16; 2]>();
/// takes::<[[f32; 4]; 4]>();
/// ```
pub trait Element: Layout + Copy + Send + Sync + Serialize + DeserializeOwned + 'static {}

/// The numbers' layout is the kinds table's, which also lists which of them
/// are [`Element`]s.
impl<T: Number> Layout for T {
    const SIZE: usize = T::SIZE;
    const CODE: &'static str = T::CODE;
    #[inline(always)]
    fn decode(bytes: &[u8]) -> Self {
        T::read_le(bytes)
    }
    #[inline(always)]
    fn decode_be(bytes: &[u8]) -> Self {
        T::read_be(bytes)
    }
}

impl<E: Element, const N: usize> Layout for [E; N] {
    const SIZE: usize = E::SIZE * N;
    const CODE: &'static str = E::CODE;
    const DIMS: NameText = NameText::EMPTY.dim(N).push(E::DIMS.bytes());
    #[inline(always)]
    fn decode(bytes: &[u8]) -> Self {
        std::array::from_fn(|i| E::decode(nth::<E>(bytes, i)))
    }
    #[inline(always)]
    fn decode_be(bytes: &[u8]) -> Self {
        std::array::from_fn(|i| E::decode_be(nth::<E>(bytes, i)))
    }
}
impl<E: Element, const N: usize> Element for [E; N] where [E; N]: Serialize + DeserializeOwned {}

/// The bytes from the `i`-th element of `E` on (empty past the end).
#[inline(always)]
fn nth<E: Element>(bytes: &[u8], i: usize) -> &[u8] {
    i.checked_mul(E::SIZE)
        .and_then(|at| bytes.get(at..))
        .unwrap_or(&[])
}

/// The byte order of the data a key claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Endian {
    Little,
    Big,
}

/// Bytes of file data per chunk, the least a thread decodes (or encodes)
/// at once: big enough that splitting the work is noise. A bulk read
/// splits at twice this; `par/` chunks files and records by it.
#[cfg(feature = "rayon")]
pub(crate) const CHUNK_BYTES: usize = 256 << 10;

/// Bytes into elements, appended; `bytes` holds whole elements (checked by
/// the callers) and `T::SIZE` is not 0. Each order is its own loop of
/// loads, which the compiler vectorises (a byte swap per element). With
/// feature `rayon`, large data is split across the pool's threads, each
/// writing its elements in place (rayon's indexed `par_extend`): they share
/// the page faults of a fresh output, which bound a lone thread here.
#[inline]
fn extend<T: Element>(out: &mut Vec<T>, bytes: &[u8], endian: Endian) {
    if T::SIZE == 0 {
        return;
    }
    #[cfg(feature = "rayon")]
    if bytes.len() >= 2 * CHUNK_BYTES {
        use rayon::prelude::*;
        let elements = bytes
            .par_chunks_exact(T::SIZE)
            .with_min_len(CHUNK_BYTES.checked_div(T::SIZE).unwrap_or(1));
        match endian {
            Endian::Little => out.par_extend(elements.map(T::decode)),
            Endian::Big => out.par_extend(elements.map(T::decode_be)),
        }
        return;
    }
    match endian {
        Endian::Little => out.extend(bytes.chunks_exact(T::SIZE).map(T::decode)),
        Endian::Big => out.extend(bytes.chunks_exact(T::SIZE).map(T::decode_be)),
    }
}

/// The key the reader offers is `T`'s layout: the number of elements it
/// claims and their byte order, `None` when it is another array.
fn claimed_len<T: Element>(key: &str) -> Option<(u64, Endian)> {
    if T::SIZE == 0 {
        // nothing in the bytes says how many; the ordinary path counts
        return None;
    }
    let (code, rest) = key.split_once(',')?;
    let endian = match code.strip_prefix('>') {
        Some(c) if c == T::CODE => Endian::Big,
        None if code == T::CODE => Endian::Little,
        _ => return None,
    };
    let (n, dims) = rest.split_at(rest.find(',').unwrap_or(rest.len()));
    let n = n.parse::<u64>().ok()?;
    (Some(dims.as_bytes()) == T::DIMS.bytes()).then_some((n, endian))
}

struct BulkVisitor<T>(PhantomData<T>);

impl<'de, T: Element> Visitor<'de> for BulkVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // what serde's Vec<T> expects, so fallback messages are the same
        f.write_str("a sequence")
    }

    /// An ordinary newtype (another format, or numpy data of another type):
    /// `Vec<T>` reads it.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        Vec::<T>::deserialize(d)
    }

    /// Formats that present a newtype as its contents.
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Vec<T>, A::Error> {
        Vec::<T>::deserialize(de::value::SeqAccessDeserializer::new(seq))
    }

    /// This crate's offer: the array's layout, then the array.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<T>, A::Error> {
        let Some(claim) = map.next_key_seed(KeySeed::<T>(PhantomData))? else {
            return Err(de::Error::invalid_length(0, &self));
        };
        let Some((n, endian)) = claim else {
            return map.next_value::<Vec<T>>();
        };
        let mut out = Vec::new();
        map.next_value_seed(Append {
            out: &mut out,
            n,
            endian,
        })?;
        if out.len() as u64 != n {
            let want = format!("{n} elements of {} bytes", T::SIZE);
            return Err(de::Error::invalid_length(out.len(), &want.as_str()));
        }
        Ok(out)
    }
}

/// Reads the key: `Some((n, order))` when it is `T`'s layout with `n`
/// elements.
struct KeySeed<T>(PhantomData<T>);

impl<'de, T: Element> DeserializeSeed<'de> for KeySeed<T> {
    type Value = Option<(u64, Endian)>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, T: Element> Visitor<'de> for KeySeed<T> {
    type Value = Option<(u64, Endian)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array layout")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(claimed_len::<T>(key))
    }
}

/// The array's data, appended to `out` (`n` elements in all): one slice
/// (`visit_bytes`: sized exactly once) or chunks of whole elements from a
/// stream (`visit_seq`, each chunk appended as it arrives).
struct Append<'a, T> {
    out: &'a mut Vec<T>,
    n: u64,
    endian: Endian,
}

impl<'de, T: Element> DeserializeSeed<'de> for Append<'_, T> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_bytes(self)
    }
}

impl<'de, T: Element> Visitor<'de> for Append<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "whole elements of {} bytes", T::SIZE)
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<(), E> {
        let size = at_least_one(T::SIZE);
        let k = bytes.len() / size;
        let len = self.out.len();
        let left = usize::try_from(self.n)
            .unwrap_or(usize::MAX)
            .saturating_sub(len);
        if k.checked_mul(size.get()) != Some(bytes.len()) || k > left {
            return Err(E::invalid_length(bytes.len(), &self));
        }
        // len <= capacity (Vec's invariant)
        if self.out.capacity().wrapping_sub(len) < k {
            // double what is held (bytes that arrived), never past the claim
            self.out.reserve_exact(len.max(k).min(left));
            crate::huge_pages::advise(self.out.spare_capacity_mut());
        }
        extend(self.out, bytes, self.endian);
        Ok(())
    }

    /// Chunks from a stream: the vector grows with the bytes that arrive,
    /// or is sized once when the stream says how many chunks are coming
    /// (its data is known present: a file whose length was checked).
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Append { out, n, endian } = self;
        if seq.size_hint().is_some() {
            out.reserve_exact(usize::try_from(n).unwrap_or(0));
            crate::huge_pages::advise(out.spare_capacity_mut());
        }
        while seq
            .next_element_seed(Append {
                out: &mut *out,
                n,
                endian,
            })?
            .is_some()
        {}
        Ok(())
    }
}
