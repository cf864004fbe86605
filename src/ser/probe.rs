//! One look at the top of a value, without walking it, for every question
//! the write side asks there:
//!
//! - [`probe`]: the inner value of a special newtype (complex, datetime,
//!   half, padding): one number or a `[re, im]` pair, without allocating;
//! - [`key_text`]: a map key read as a name, for every serializer that
//!   takes maps (record fields by name in `encode` and `infer`, npz member
//!   names, the column `pick.rs` keeps);
//! - [`top`], [`shape_of`] and [`parts`]: an n-d array's shape and order
//!   (its newtype over `{shape, order, data}`, see `nd.rs`), and its flat
//!   data handed to a serializer of the caller's; [`raw`]: the data as the
//!   bytes an array of numbers serializes to a binary serializer (all of
//!   this crate's are; see `nd_serde`);
//! - [`top_of`] and [`first_is_record`]: what a value is (a struct, a map,
//!   a sequence, `None`), for npz's dispatch.
//!
//! One serializer ([`Look`]) answers them all; it stops at the first call
//! that settles the question, so no element is visited (a pair's two parts,
//! a tuple's first element and an n-d array's parts aside; the array's
//! data goes to the caller's serializer). One place decides which
//! serialized keys are text: strings, chars and unit enum variants,
//! through `Some` and newtype wrappers. Anything else is refused with its
//! kind (`"integer"`, `"sequence"`, ...), and each caller words the refusal
//! for its own context. The text is handed to a closure while it is
//! borrowed, so finding a known name allocates nothing.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;

use serde::Serialize;
use serde::ser;

use crate::error::Error;
use crate::format::dtype::ScalarType;
use crate::kinds::special::{self, Special};
use crate::ser::nd::NdShape;
use crate::ser::{DynValue, Found};

/// What a probed value turned out to be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Captured {
    Bool(bool),
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    /// A 2-element sequence of numbers; `true` when both parts were `f32`.
    Pair(f64, f64, bool),
    /// The crate's padding newtype with its size.
    Padding(u64),
    /// Anything else (string, record, longer sequence...).
    Other,
}

impl Captured {
    /// The number as `f64` and whether it came from an `f32`, for complex
    /// parts; integers are accepted when exact.
    pub(crate) fn part(self) -> Option<(f64, bool)> {
        match self {
            Captured::F32(v) => Some((crate::kinds::convert::f32_to_f64(v), true)),
            Captured::F64(v) => Some((v, false)),
            Captured::Int(v) => crate::kinds::convert::i64_to_f64_exact(v).map(|f| (f, false)),
            Captured::UInt(v) => crate::kinds::convert::u64_to_f64_exact(v).map(|f| (f, false)),
            _ => None,
        }
    }

    /// What a captured number is in serde's data model (a pair or padding
    /// is only captured by [`probe`]).
    fn found(self) -> Found {
        match self {
            Captured::Bool(_) => Found::Bool,
            Captured::Int(_) | Captured::UInt(_) => Found::Int,
            Captured::F32(_) | Captured::F64(_) => Found::Float,
            Captured::Pair(..) => Found::Seq,
            Captured::Padding(_) | Captured::Other => Found::UnitStruct,
        }
    }
}

/// Probes `value`: a number, a pair or padding, or [`Captured::Other`].
pub(crate) fn probe<T: ?Sized + Serialize>(value: &T) -> Captured {
    let seen = value.serialize(Bare::Value);
    if let Ok(Seen::Value(captured)) = seen {
        // a number owns nothing to drop: forgetting it spares the
        // datetime fast path of `encode.rs` a call to the result's drop
        // glue, which the optimizer does not always inline
        std::mem::forget(seen);
        return captured;
    }
    Captured::Other
}

/// The inner value of the crate's complex newtype: its `[re, im]` and its
/// type (`c8` when both parts were `f32`).
pub(crate) fn complex<T: ?Sized + Serialize>(value: &T) -> Result<(f64, f64, ScalarType), Error> {
    match probe(value) {
        Captured::Pair(re, im, f32_parts) => {
            Ok((re, im, ScalarType::Complex(if f32_parts { 8 } else { 16 })))
        }
        _ => Err(Error::mismatch(
            "malformed complex value (expected [re, im])",
        )),
    }
}

/// [`probe`] of a value behind `dyn` ([`DynValue`]): the elements of a
/// sequence looked at, whatever their type.
#[inline(never)]
fn probe_dyn(value: &DynValue<'_>) -> Captured {
    probe(value)
}

/// Why a key is not a name.
#[derive(Debug)]
pub(crate) enum KeyError {
    /// The key is not text; its kind, for the caller's message.
    NotText(&'static str),
    /// The key's own `Serialize` failed (or used a type serde refuses by
    /// default, such as `i128`).
    Custom(String),
}

impl KeyError {
    /// The crate error: `not_text` words a key that is not text; a custom
    /// error keeps its message.
    pub(crate) fn into_error(self, not_text: impl FnOnce(&'static str) -> Error) -> Error {
        match self {
            KeyError::NotText(kind) => not_text(kind),
            KeyError::Custom(msg) => <Error as ser::Error>::custom(msg),
        }
    }
}

/// Calls `on_text` with the key's text. `through_some`: whether `Some(k)`
/// is the key `k` (else it is refused as `"Some"`). A thin shim over
/// [`key_text_dyn`], whose serializer is one type whatever the caller's
/// closure: a recursive value (a record holding records) instantiates it
/// once per type, not once per nesting level.
pub(crate) fn key_text<T, R, F>(key: &T, through_some: bool, on_text: F) -> Result<R, KeyError>
where
    T: ?Sized + Serialize,
    F: FnOnce(&str) -> R,
{
    let mut on_text = Some(on_text);
    let mut out = None;
    key_text_dyn(&key, through_some, &mut |text| {
        if let Some(f) = on_text.take() {
            out = Some(f(text));
        }
    })?;
    // a key's text is taken once when the look succeeds
    out.ok_or(KeyError::NotText("unit"))
}

/// [`key_text`] with the text handed to a `dyn` callback, the key behind
/// `dyn` ([`DynValue`]).
#[inline(never)]
fn key_text_dyn(
    key: &DynValue<'_>,
    through_some: bool,
    on_text: &mut dyn FnMut(&str),
) -> Result<(), KeyError> {
    // a key look stops at anything but text, a number or `Some`
    let look = Bare::Key(through_some, on_text);
    Err(match erased_serde::serialize(key, look) {
        Ok(Seen::Text) => return Ok(()),
        Ok(Seen::Value(captured)) => KeyError::NotText(key_word(captured.found())),
        Err(Stop::Is(found)) => KeyError::NotText(key_word(found)),
        Err(Stop::Some) => KeyError::NotText("Some"),
        Err(Stop::Custom(msg)) => KeyError::Custom(msg),
        _ => KeyError::NotText("special value"),
    })
}

/// What a value is at its top, without walking it (`Some` and plain
/// newtypes looked through): [`Stop::Is`] with its kind, [`Stop::Special`]
/// for one of the crate's special newtypes, and for a tuple (or `[T; N]`)
/// [`Stop::First`]. Only npz member dispatch asks this.
#[cfg(feature = "npz")]
pub(crate) fn top_of<T: ?Sized + Serialize>(value: &T) -> Stop {
    kind_dyn(&value)
}

/// Whether `value` is a tuple (or `[T; N]`) whose first element is a
/// record (a struct or a map), or an empty one: a sequence of records, as
/// a `Vec` would be. Only the first element is looked at.
#[cfg(feature = "npz")]
pub(crate) fn first_is_record<T: ?Sized + Serialize>(value: &T) -> bool {
    matches!(top_of(value), Stop::First(true))
}

/// [`top_of`], the value behind `dyn` ([`DynValue`]). A tuple's first
/// element is looked at the same way: one that is a tuple gives
/// [`Stop::First`], so that a tuple of tuples is no sequence of records.
#[inline(never)]
fn kind_dyn(value: &DynValue<'_>) -> Stop {
    match erased_serde::serialize(value, Bare::Kind) {
        Ok(Seen::Value(captured)) => Stop::Is(captured.found()),
        // a kind look takes nothing but numbers
        Ok(_) => Stop::Is(Found::Bytes),
        Err(stop) => stop,
    }
}

fn malformed() -> Error {
    Error::schema("malformed n-d array (expected {shape, order, data})")
}

/// An n-d look's refusal: the data's own error ([`Stop::Data`]), a
/// custom error kept, anything else a malformed n-d array.
fn nd_error(stop: Stop) -> Error {
    match stop {
        Stop::Data(e) => e,
        Stop::Custom(msg) => <Error as ser::Error>::custom(msg),
        _ => malformed(),
    }
}

/// Reads the parts of an n-d array (`value`, its newtype or the inner
/// value of it, then `code`: the element's numpy type its newtype's name
/// carries, see [`NdShape::code`]): its shape and order, then its flat
/// data serialized by the serializer `make` makes for that shape (numbers
/// that come as their bytes, see `nd_serde`, as the numbers they are).
/// The data's element count is the serializer's to check.
pub(crate) fn parts<V, S, M>(
    value: &V,
    code: &'static str,
    make: M,
) -> Result<(NdShape, S::Ok), Error>
where
    V: ?Sized + Serialize,
    S: ser::Serializer<Error = Error>,
    M: FnOnce(&NdShape) -> Result<S, Error>,
{
    let mut out = None;
    let take = Data {
        make,
        out: &mut out,
    };
    match value.serialize(Look::Nd(Some(code), take)) {
        Ok(Seen::Nd(nd)) => Ok((nd, out.ok_or_else(malformed)?)),
        Ok(_) => Err(malformed()),
        Err(stop) => Err(nd_error(stop)),
    }
}

/// What an n-d array's shape and bytes are handed to.
type TakeBytes<'a> = dyn FnMut(&NdShape, &[u8]) -> Result<(), Error> + 'a;

/// Hands the data of the n-d array at the top of `value` (`NdArray`,
/// `NdView`, through `Some` and plain newtypes; behind `dyn`,
/// [`DynValue`]) as the bytes it serializes to a binary serializer to
/// `write` with the shape while they are borrowed: the array's numbers as
/// numpy's little-endian type of [`NdShape::code`], in its order.
/// `Ok(false)` when `value` is anything else or its data are elements (not
/// numbers, see `nd_serde`): then nothing was handed to `write`.
#[inline(never)]
pub(crate) fn raw(value: &DynValue<'_>, write: &mut TakeBytes<'_>) -> Result<bool, Error> {
    let mut handed = false;
    let take = &mut |nd: &NdShape, bytes: &[u8]| {
        handed = true;
        write(nd, bytes)
    };
    match value.serialize(Look::Nd(None, Raw(take))) {
        Err(Stop::Data(e)) => Err(e),
        _ => Ok(handed),
    }
}

/// The shape and order of an n-d array (`value`, the inner value of its
/// newtype), its data not looked at.
pub(crate) fn shape_of<V: ?Sized + Serialize>(value: &V) -> Result<NdShape, Error> {
    nd_look_dyn(&value, true)
}

/// The shape and order of `value` when it is an n-d array (`NdArray`,
/// `NdView`, through `Some` and plain newtypes); any other value is left
/// at its first call.
pub(crate) fn top<V: ?Sized + Serialize>(value: &V) -> Option<NdShape> {
    nd_look_dyn(&value, false).ok()
}

/// [`shape_of`] (`inside` the array's newtype) or [`top`], the value
/// behind `dyn` ([`DynValue`]): the look stops at the data with the shape.
#[inline(never)]
fn nd_look_dyn(value: &DynValue<'_>, inside: bool) -> Result<NdShape, Error> {
    match erased_serde::serialize(value, Bare::Nd(inside.then_some(""), Nothing)) {
        Err(Stop::Shape(nd)) => Ok(nd),
        Ok(_) => Err(malformed()),
        Err(stop) => Err(nd_error(stop)),
    }
}

/// Hands the bytes `data` serializes to (an n-d array's data, see
/// `nd_serde`) to `take` with the shape `nd`: `Ok(false)` when `data` is
/// not bytes (nothing was handed); a lone number is refused.
#[inline(never)]
fn bytes_dyn(data: &DynValue<'_>, nd: &NdShape, take: &mut TakeBytes<'_>) -> Result<bool, Stop> {
    match erased_serde::serialize(data, Bare::Bytes(&mut |bytes| take(nd, bytes))) {
        Ok(Seen::Bytes) => Ok(true),
        Err(Stop::Is(_)) => Ok(false),
        Ok(_) => Err(Stop::Is(Found::Struct)),
        Err(stop) => Err(stop),
    }
}

/// A key's kind, in the words of the messages about keys.
pub(crate) fn key_word(found: Found) -> &'static str {
    match found {
        Found::Bool => "bool",
        Found::Int => "integer",
        Found::Float => "float",
        Found::Char | Found::Str => "string",
        Found::Bytes => "bytes",
        Found::None => "None",
        Found::Unit | Found::UnitStruct => "unit",
        Found::Seq => "sequence",
        Found::Tuple => "tuple",
        Found::TupleStruct => "tuple struct",
        Found::Map => "map",
        Found::Struct => "struct",
        Found::UnitVariant(..)
        | Found::NewtypeVariant(..)
        | Found::TupleVariant(..)
        | Found::StructVariant(..) => "enum variant",
    }
}

/// Where [`Look`] stopped: the value is not what was asked.
#[derive(Debug)]
pub(crate) enum Stop {
    /// What the value is.
    Is(Found),
    /// `Some`, where it is not looked through.
    Some,
    /// One of the crate's special newtypes (asking the kind, or another
    /// than an n-d array where one is looked for).
    Special,
    /// A tuple's first element is a record, or there is none (`true`).
    First(#[cfg_attr(not(feature = "npz"), allow(dead_code))] bool),
    /// The value's own `Serialize` failed (or used a type serde refuses by
    /// default, such as `i128`, for a key).
    Custom(String),
    /// An n-d array's shape and order, its data not looked at ([`shape_of`],
    /// [`top`]).
    Shape(NdShape),
    /// An n-d array's data failed in the serializer [`parts`] handed it to.
    Data(Error),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Stop::Custom(msg.to_string())
    }
}

/// What the look at the top of a value is asked, with what takes what it
/// finds: the one serializer of this module. Numbers are captured by
/// every look; anything a look does not take stops it with its kind.
enum Look<'a, H> {
    /// A special newtype's inner value ([`probe`]): numbers, a pair,
    /// padding; the other special newtypes are no value.
    Value,
    /// A map key's text, handed to the callback while it is borrowed:
    /// every newtype is looked through, `Some` only when the flag says so;
    /// serde's defaults for `i128`/`u128` (an error).
    Key(bool, &'a mut dyn FnMut(&str)),
    /// What the value is ([`top_of`]): `Some` looked through, the crate's
    /// special newtypes are scalars, `i128`/`u128` integers; of a tuple,
    /// whether its first element is a record.
    #[cfg_attr(not(feature = "npz"), allow(dead_code))]
    Kind,
    /// A sequence of sizes (an n-d array's shape).
    Dims,
    /// Bytes, and nothing else, handed to the callback while they are
    /// borrowed ([`bytes_dyn`]).
    Bytes(&'a mut dyn FnMut(&[u8]) -> Result<(), Error>),
    /// An n-d array's parts ([`parts`], [`shape_of`], [`top`]), the data
    /// handed to the taker: their struct only inside the array's newtype
    /// (`Some` of the element's numpy type its name carries, see
    /// [`NdShape::code`]), which `None` looks for through plain newtypes
    /// and `Some`.
    Nd(Option<&'static str>, H),
}

/// What [`Look`] saw at the top.
enum Seen {
    /// A number (any [`Look`]), a pair or padding ([`Look::Value`]).
    Value(Captured),
    /// Text, as the taker took it ([`Look::Key`]).
    Text,
    /// Sizes ([`Look::Dims`]).
    Dims(Vec<u64>),
    /// An n-d array's shape and order, its data taken by the taker.
    Nd(NdShape),
    /// Bytes, as the taker took them ([`Look::Bytes`]).
    Bytes,
}

/// A look that takes no n-d array's data.
type Bare<'a> = Look<'a, Nothing>;

/// What takes an n-d array's data ([`Look::Nd`]): by default nothing.
/// The takers are named types, not closures: a closure made in a generic
/// function is a new type per instantiation, and each would instantiate
/// the probed value's `serialize` again.
trait Take: Sized {
    /// The flat data of an n-d array of `nd`: by default the look stops
    /// there with the shape ([`Stop::Shape`]).
    fn data<T: ?Sized + Serialize>(self, nd: &NdShape, _: &T) -> Result<(), Stop> {
        Err(Stop::Shape(nd.clone()))
    }
}

/// Nothing taken: an n-d array's shape, or a look that takes no data.
struct Nothing;

impl Take for Nothing {}

/// An n-d array's data as the bytes it offers ([`raw`]), handed with the
/// shape to the callback.
struct Raw<'a, 'b>(&'a mut TakeBytes<'b>);

impl Take for Raw<'_, '_> {
    /// Data that are not bytes are handed nothing ([`raw`] says so).
    fn data<T: ?Sized + Serialize>(self, nd: &NdShape, data: &T) -> Result<(), Stop> {
        bytes_dyn(&data, nd, self.0).map(drop)
    }
}

/// An n-d array's data, serialized by the serializer `make` makes for its
/// shape ([`parts`]), what it returns kept in `out`. Numbers come as their
/// bytes to this binary look (see `nd_serde`): they are serialized as the
/// numbers they are ([`expand`]); anything else is serialized as it is.
struct Data<'o, M, S: ser::Serializer> {
    make: M,
    out: &'o mut Option<S::Ok>,
}

impl<M, S> Take for Data<'_, M, S>
where
    M: FnOnce(&NdShape) -> Result<S, Error>,
    S: ser::Serializer<Error = Error>,
{
    fn data<T: ?Sized + Serialize>(self, nd: &NdShape, data: &T) -> Result<(), Stop> {
        let mut make = Some(self.make);
        if !expand(&data, nd, &mut make, self.out)? {
            let make = make.ok_or(Stop::Is(Found::Bytes))?;
            let serializer = make(nd).map_err(Stop::Data)?;
            let done = data.serialize(serializer);
            *self.out = Some(done.map_err(|e| Stop::Data(placed(e, nd)))?);
        }
        Ok(())
    }
}

/// An n-d array's data that come as their numbers' bytes, as the
/// sequence of those numbers into the serializer `make` makes for its
/// shape (`Ok(true)`); `make` is left when the data are not bytes.
fn expand<M, S>(
    data: &DynValue<'_>,
    nd: &NdShape,
    make: &mut Option<M>,
    out: &mut Option<S::Ok>,
) -> Result<bool, Stop>
where
    M: FnOnce(&NdShape) -> Result<S, Error>,
    S: ser::Serializer<Error = Error>,
{
    bytes_dyn(data, nd, &mut |nd, bytes| {
        let make = make.take().ok_or_else(malformed)?;
        let serializer = make(nd)?;
        let done = crate::kinds::number::serialize_le(nd.code, bytes, serializer);
        *out = Some(done.ok_or_else(malformed)?.map_err(|e| placed(e, nd))?);
        Ok(())
    })
}

/// An element's error placed by its n-d position, not its index in the
/// flat data.
fn placed(e: Error, nd: &NdShape) -> Error {
    crate::array::nd::flat_to_nd(e, &nd.dims, nd.fortran, false)
}
impl<H: Take> Look<'_, H> {
    fn refuse(self, found: Found) -> Stop {
        Stop::Is(found)
    }

    /// Text, for [`Look::Key`] (no text elsewhere).
    fn text(self, found: Found, text: &str) -> Result<Seen, Stop> {
        match self {
            Look::Key(_, take) => {
                take(text);
                Ok(Seen::Text)
            }
            _ => Err(Stop::Is(found)),
        }
    }

    /// A 128-bit integer: serde's default refusal for a key, else an
    /// integer (no value to capture).
    fn wide(self, ty: &str) -> Stop {
        match self {
            Look::Key(..) => Stop::Custom(format!("{ty} is not supported")),
            _ => Stop::Is(Found::Int),
        }
    }
}

/// Collects a pair of numbers ([`Look::Value`]), sizes ([`Look::Dims`]),
/// or stops at a tuple's first element ([`Look::Kind`]).
enum Items {
    /// The parts so far and their count; past 2 (or a part that is no
    /// number) the sequence is no pair.
    Pair([(f64, bool); 2], usize),
    Dims(Vec<u64>),
    First,
}

impl Items {
    /// The items `look` takes of a sequence or tuple (`found`), else the
    /// stop.
    fn of<H>(look: &Look<'_, H>, found: Found) -> Result<Items, Stop> {
        match (look, found) {
            (Look::Value, _) => Ok(Items::Pair([(0.0, false); 2], 0)),
            (Look::Dims, _) => Ok(Items::Dims(Vec::new())),
            (Look::Kind, Found::Tuple) => Ok(Items::First),
            _ => Err(Stop::Is(found)),
        }
    }

    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Stop> {
        match self {
            Items::First => Err(Stop::First(matches!(
                kind_dyn(&value),
                Stop::Is(Found::Struct | Found::Map)
            ))),
            Items::Dims(dims) => {
                let Captured::UInt(n) = probe_dyn(&value) else {
                    return Err(Stop::Is(Found::Seq));
                };
                dims.push(n);
                Ok(())
            }
            Items::Pair(parts, n) => {
                *n = match (probe_dyn(&value).part(), parts.get_mut(*n)) {
                    (Some(part), Some(slot)) => {
                        *slot = part;
                        // below 2: a slot was there
                        n.saturating_add(1)
                    }
                    _ => 3,
                };
                Ok(())
            }
        }
    }

    #[inline(never)]
    fn finish(self) -> Result<Seen, Stop> {
        match self {
            Items::First => Err(Stop::First(true)),
            Items::Dims(dims) => Ok(Seen::Dims(dims)),
            Items::Pair([(re, a), (im, b)], 2) => Ok(Seen::Value(Captured::Pair(re, im, a && b))),
            Items::Pair(..) => Ok(Seen::Value(Captured::Other)),
        }
    }
}

elements!(impl[] Items => Seen, Stop: SerializeSeq SerializeTuple);

/// The fields of an n-d array's parts ([`Look::Nd`]), in the order
/// written: the shape and order, then the data handed to the taker.
struct NdParts<H> {
    take: Option<H>,
    dims: Option<Vec<u64>>,
    fortran: bool,
    code: &'static str,
    done: Option<NdShape>,
}

impl<H: Take> NdParts<H> {
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), Stop> {
        // anything but the parts in order is a malformed n-d array
        let malformed = Stop::Is(Found::Struct);
        match key {
            "shape" => match value.serialize(Bare::Dims) {
                Ok(Seen::Dims(dims)) => self.dims = Some(dims),
                _ => return Err(malformed),
            },
            "order" => {
                self.fortran = key_text(value, false, |t| t == "F").map_err(|_| malformed)?;
            }
            "data" => {
                let (Some(dims), Some(take)) = (self.dims.take(), self.take.take()) else {
                    return Err(malformed);
                };
                let nd = NdShape {
                    dims,
                    fortran: self.fortran,
                    code: self.code,
                };
                take.data(&nd, value)?;
                self.done = Some(nd);
            }
            _ => return Err(malformed),
        }
        Ok(())
    }
    fn finish(self) -> Result<Seen, Stop> {
        self.done.map(Seen::Nd).ok_or(Stop::Is(Found::Struct))
    }
}

elements!(impl[H: Take] NdParts<H> => Seen, Stop: SerializeStruct);

/// The number methods of [`Look`]: each value captured as it is (the
/// integers widened to 64 bits).
macro_rules! capture {
    ($($method:ident($ty:ty) => $captured:ident;)*) => {$(
        fn $method(self, v: $ty) -> Result<Seen, Stop> {
            Ok(Seen::Value(Captured::$captured(v.into())))
        }
    )*};
}

impl<H: Take> ser::Serializer for Look<'_, H> {
    serializer_types!(Seen, Stop; (Items) (Items) _ _ _ (NdParts<H>) _);

    /// Every look's items through one loop per item type, not one per
    /// taker.
    fn collect_seq<I>(self, iter: I) -> Result<Seen, Stop>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        collect_items(Items::of(&self, Found::Seq), iter)
    }

    refuse!(serialize_none serialize_unit serialize_unit_struct serialize_newtype_variant);

    capture! {
        serialize_bool(bool) => Bool;
        serialize_i8(i8) => Int;
        serialize_i16(i16) => Int;
        serialize_i32(i32) => Int;
        serialize_i64(i64) => Int;
        serialize_u8(u8) => UInt;
        serialize_u16(u16) => UInt;
        serialize_u32(u32) => UInt;
        serialize_u64(u64) => UInt;
        serialize_f32(f32) => F32;
        serialize_f64(f64) => F64;
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Seen, Stop> {
        match self {
            Look::Bytes(take) => take(v).map(|()| Seen::Bytes).map_err(Stop::Data),
            _ => Err(Stop::Is(Found::Bytes)),
        }
    }
    fn serialize_i128(self, _: i128) -> Result<Seen, Stop> {
        Err(self.wide("i128"))
    }
    fn serialize_u128(self, _: u128) -> Result<Seen, Stop> {
        Err(self.wide("u128"))
    }
    fn serialize_char(self, v: char) -> Result<Seen, Stop> {
        self.text(Found::Char, v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<Seen, Stop> {
        self.text(Found::Str, v)
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Seen, Stop> {
        self.text(Found::UnitVariant(name, variant), variant)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Seen, Stop> {
        match self {
            Look::Key(false, _) => Err(Stop::Some),
            _ => value.serialize(self),
        }
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Seen, Stop> {
        match self {
            Look::Value => match Special::of(name) {
                Some(Special::Padding) => Ok(Seen::Value(match probe(value) {
                    Captured::UInt(n) => Captured::Padding(n),
                    _ => Captured::Other,
                })),
                // half floats are their bits here
                None | Some(Special::Bits(_) | Special::Foreign) => value.serialize(self),
                Some(_) => Ok(Seen::Value(Captured::Other)),
            },
            Look::Kind if special::is_token(name) => Err(Stop::Special),
            Look::Nd(code, take) => match Special::of(name) {
                Some(Special::NdArray(code)) => value.serialize(Look::Nd(Some(code), take)),
                None => value.serialize(Look::Nd(code, take)),
                Some(_) => Err(Stop::Special),
            },
            _ => value.serialize(self),
        }
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Items, Stop> {
        Items::of(&self, Found::Seq)
    }
    fn serialize_tuple(self, _: usize) -> Result<Items, Stop> {
        Items::of(&self, Found::Tuple)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<NdParts<H>, Stop> {
        match self {
            Look::Nd(Some(code), take) => Ok(NdParts {
                take: Some(take),
                dims: None,
                fortran: false,
                code,
                done: None,
            }),
            _ => Err(Stop::Is(Found::Struct)),
        }
    }
}

/// The items of a `collect_seq` (a `Vec`, a slice), one look whatever the
/// caller's [`Take`]: the loop is instantiated once per item type (out
/// of line, so that no taker's `collect_seq` takes a copy).
#[inline(never)]
fn collect_items<I>(items: Result<Items, Stop>, iter: I) -> Result<Seen, Stop>
where
    I: IntoIterator,
    I::Item: Serialize,
{
    let mut items = items?;
    for item in iter {
        items.element(&item)?;
    }
    items.finish()
}

#[cfg(test)]
mod tests;
