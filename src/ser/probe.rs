//! One look at the top of a value, without walking it, for every question
//! the write side asks there:
//!
//! - [`probe`]: the inner value of a special newtype (complex, datetime,
//!   half, padding): one number or a `[re, im]` pair, without allocating;
//! - [`key_text`]: a map key read as a name, for every serializer that
//!   takes maps (record fields by name in `encode` and `infer`, npz member
//!   names, the column `pick.rs` keeps);
//! - [`dims`]: a sequence of sizes (an n-d array's shape);
//! - [`top`], [`shape_of`] and [`parts`]: an n-d array's shape and order
//!   (its newtype over `{shape, order, data}`, see `nd.rs`), and its flat
//!   data handed to a serializer of the caller's; [`raw`]: the data as the
//!   bytes an array of numbers serializes to a binary serializer (all of
//!   this crate's are; see `nd_serde`);
//! - [`top_of`] and [`first_is_record`]: what a value is (a struct, a map,
//!   a sequence, `None`), for npz's dispatch.
//!
//! One serializer ([`Probe`]) answers them all; it stops at the first call
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
use std::marker::PhantomData;

use serde::Serialize;
use serde::ser;

use crate::error::Error;
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
    let seen = value.serialize(Probe::new(Look::Value, NoText));
    if let Ok(Seen::Value(captured)) = seen {
        // a number owns nothing to drop: forgetting it spares the
        // datetime fast path of `encode.rs` a call to the result's drop
        // glue, which the optimizer does not always inline
        std::mem::forget(seen);
        return captured;
    }
    Captured::Other
}

/// [`probe`] of a value behind `dyn` ([`DynValue`]): the elements of a
/// sequence looked at, whatever their type.
#[inline(never)]
fn probe_dyn(value: &DynValue<'_>) -> Captured {
    probe(value)
}

/// Whether a value behind `dyn` is a record (a struct or a map).
#[inline(never)]
fn is_record_dyn(value: &DynValue<'_>) -> bool {
    matches!(
        value.serialize(Probe::new(Look::Kind, NoText)),
        Err(Stop::Is(Found::Struct | Found::Map))
    )
}

/// Probes `value` as a sequence of sizes (an n-d array's shape): `None`
/// when it is anything else.
pub(crate) fn dims<T: ?Sized + Serialize>(value: &T) -> Option<Vec<u64>> {
    match value.serialize(Probe::new(Look::Dims, NoText)) {
        Ok(Seen::Dims(dims)) => Some(dims),
        _ => None,
    }
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
    let look = Probe::new(Look::Key { through_some }, KeyTake(on_text));
    let seen = erased_serde::serialize(key, look);
    match seen {
        Ok(Seen::Text(())) => Ok(()),
        Ok(Seen::Value(captured)) => Err(KeyError::NotText(key_word(captured.found()))),
        Ok(Seen::Dims(_)) => Err(KeyError::NotText(key_word(Found::Seq))),
        Err(Stop::Is(found)) => Err(KeyError::NotText(key_word(found))),
        Err(Stop::Some) => Err(KeyError::NotText("Some")),
        Err(Stop::Special | Stop::First(_)) => Err(KeyError::NotText("special value")),
        Err(Stop::Custom(msg)) => Err(KeyError::Custom(msg)),
        // only an n-d look sees an n-d array's parts
        Ok(Seen::Nd(..) | Seen::Bytes(_)) | Err(Stop::Shape(_) | Stop::Data(_)) => {
            Err(KeyError::NotText(key_word(Found::Struct)))
        }
    }
}

/// What a value is at its top, without walking it (`Some` and plain
/// newtypes looked through): `Ok` with the kind of text it is (a string, a
/// char, a unit variant's name), or the [`Stop`] that says what else.
/// Only npz member dispatch asks this.
#[cfg(feature = "npz")]
pub(crate) fn top_of<T: ?Sized + Serialize>(value: &T) -> Result<Found, Stop> {
    top_of_dyn(&value)
}

/// [`top_of`], the value behind `dyn` ([`DynValue`]).
#[cfg(feature = "npz")]
#[inline(never)]
fn top_of_dyn(value: &DynValue<'_>) -> Result<Found, Stop> {
    match erased_serde::serialize(value, Probe::new(Look::Kind, KindOf))? {
        Seen::Text(found) => Ok(found),
        Seen::Value(captured) => Err(Stop::Is(captured.found())),
        Seen::Dims(_) => Err(Stop::Is(Found::Seq)),
        Seen::Nd(..) => Err(Stop::Is(Found::Struct)),
        Seen::Bytes(_) => Err(Stop::Is(Found::Bytes)),
    }
}

/// Whether `value` is a tuple (or `[T; N]`) whose first element is a
/// record (a struct or a map), or an empty one: a sequence of records, as
/// a `Vec` would be. Only the first element is looked at.
#[cfg(feature = "npz")]
pub(crate) fn first_is_record<T: ?Sized + Serialize>(value: &T) -> bool {
    first_is_record_dyn(&value)
}

/// [`first_is_record`], the value behind `dyn` ([`DynValue`]).
#[cfg(feature = "npz")]
#[inline(never)]
fn first_is_record_dyn(value: &DynValue<'_>) -> bool {
    matches!(
        erased_serde::serialize(value, Probe::new(Look::First, NoText)),
        Err(Stop::First(true))
    )
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
/// data serialized by the serializer `data` makes for that shape (numbers
/// that come as their bytes, see `nd_serde`, as the numbers they are).
/// The data's element count is the serializer's to check.
pub(crate) fn parts<V, S, M>(
    value: &V,
    code: &'static str,
    data: M,
) -> Result<(NdShape, S::Ok), Error>
where
    V: ?Sized + Serialize,
    S: ser::Serializer<Error = Error>,
    M: FnOnce(&NdShape) -> Result<S, Error>,
{
    let look = Look::Nd { inside: true, code };
    match value.serialize(Probe {
        take: Data(data),
        look,
    }) {
        Ok(Seen::Nd(nd, ok)) => Ok((nd, ok)),
        Ok(_) => Err(malformed()),
        Err(stop) => Err(nd_error(stop)),
    }
}

/// The data of the n-d array at the top of `value` (`NdArray`, `NdView`,
/// through `Some` and plain newtypes) as the bytes it serializes to a
/// binary serializer, handed to `write` with the shape while they are
/// borrowed: the array's numbers as numpy's little-endian type of
/// [`NdShape::code`], in its order. `Ok(None)` when `value` is anything
/// else or its data are elements (not numbers, see `nd_serde`): then
/// nothing was handed to `write`.
pub(crate) fn raw<V, R, F>(value: &V, write: F) -> Result<Option<R>, Error>
where
    V: ?Sized + Serialize,
    F: FnOnce(&NdShape, &[u8]) -> Result<R, Error>,
{
    let (mut write, mut out) = (Some(write), None);
    raw_dyn(&value, &mut |nd, bytes| {
        if let Some(write) = write.take() {
            out = Some(write(nd, bytes)?);
        }
        Ok(())
    })?;
    Ok(out)
}

/// What [`raw_dyn`] hands an n-d array's shape and bytes to.
type TakeBytes<'a> = dyn FnMut(&NdShape, &[u8]) -> Result<(), Error> + 'a;

/// [`raw`], the value behind `dyn` ([`DynValue`]) and the bytes handed to
/// a `dyn` callback.
#[inline(never)]
fn raw_dyn(value: &DynValue<'_>, write: &mut TakeBytes<'_>) -> Result<Option<()>, Error> {
    let look = Look::Nd {
        inside: false,
        code: "",
    };
    match value.serialize(Probe {
        take: Raw { nd: None, write },
        look,
    }) {
        Ok(Seen::Nd(_, out)) => Ok(Some(out)),
        Err(Stop::Data(e)) => Err(e),
        _ => Ok(None),
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
    let look = Look::Nd { inside, code: "" };
    match erased_serde::serialize(value, Probe::new(look, NoText)) {
        Err(Stop::Shape(nd)) => Ok(nd),
        Ok(_) => Err(malformed()),
        Err(stop) => Err(nd_error(stop)),
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

/// Where [`Probe`] stopped: the value is not what was asked.
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

/// What [`Probe`] is asked.
#[derive(Clone, Copy)]
enum Look {
    /// A special newtype's inner value ([`probe`]): numbers, a pair,
    /// padding; the other special newtypes are no value.
    Value,
    /// A map key's text: every newtype is looked through, `Some` only with
    /// `through_some`; serde's defaults for `i128`/`u128` (an error).
    Key { through_some: bool },
    /// What the value is: `Some` looked through, the crate's special
    /// newtypes are scalars, `i128`/`u128` integers.
    #[cfg_attr(not(feature = "npz"), allow(dead_code))]
    Kind,
    /// Whether a tuple's first element is a record ([`first_is_record`]).
    #[cfg_attr(not(feature = "npz"), allow(dead_code))]
    First,
    /// A sequence of sizes ([`dims`]).
    Dims,
    /// Bytes, and nothing else ([`raw`]).
    Bytes,
    /// An n-d array's parts ([`parts`], [`shape_of`], [`top`]): their struct
    /// only `inside` the array's newtype, which is looked for through plain
    /// newtypes and `Some`; `code`: the element's numpy type the newtype's
    /// name carries (see [`NdShape::code`]).
    Nd { inside: bool, code: &'static str },
}

/// What [`Probe`] saw at the top.
enum Seen<R> {
    /// A number (any [`Look`]), a pair or padding ([`Look::Value`]).
    Value(Captured),
    /// Text, as `on_text` took it.
    Text(R),
    /// Sizes ([`Look::Dims`]).
    Dims(Vec<u64>),
    /// An n-d array's shape and order, and what its data's serializer
    /// returned ([`parts`]) or what its bytes' taker did ([`raw`]).
    Nd(NdShape, R),
    /// Bytes, as the taker took them ([`Look::Bytes`]).
    Bytes(R),
}

/// What the caller of [`Probe`] takes from what it finds: text while it is
/// borrowed, an n-d array's data, bytes.
trait Take: Sized {
    type Out;
    /// Text (a key, a kind), with what it was.
    fn text(self, found: Found, text: &str) -> Result<Self::Out, Stop>;
    /// The flat data of an n-d array of `nd`: by default the look stops
    /// there with the shape ([`Stop::Shape`]).
    fn data<T: ?Sized + Serialize>(self, nd: &NdShape, _: &T) -> Result<Self::Out, Stop> {
        Err(Stop::Shape(nd.clone()))
    }
    /// Bytes, while they are borrowed: refused unless taken.
    fn bytes(self, _: &[u8]) -> Result<Self::Out, Stop> {
        Err(Stop::Is(Found::Bytes))
    }
}

/// Text taken as nothing (a look that only asks what a value is); at an
/// n-d array's data it stops with the shape: only [`Data`] and [`Raw`]
/// look at the data. The takers are named types, not closures:
/// a closure made in a generic function is a new type per instantiation,
/// and each would instantiate the probed value's `serialize` again.
struct NoText;

impl Take for NoText {
    type Out = ();
    #[inline]
    fn text(self, _: Found, _: &str) -> Result<(), Stop> {
        Ok(())
    }
}

/// Text taken as what it was ([`top_of`]).
#[cfg(feature = "npz")]
struct KindOf;

#[cfg(feature = "npz")]
impl Take for KindOf {
    type Out = Found;
    fn text(self, found: Found, _: &str) -> Result<Found, Stop> {
        Ok(found)
    }
}

/// A key's text handed to the callback while it is borrowed ([`key_text`]).
struct KeyTake<'a>(&'a mut dyn FnMut(&str));

impl Take for KeyTake<'_> {
    type Out = ();
    fn text(self, _: Found, text: &str) -> Result<(), Stop> {
        (self.0)(text);
        Ok(())
    }
}

/// An n-d array's data, serialized by the serializer the closure makes for
/// its shape ([`parts`]); no text is taken. Numbers come as their bytes
/// to this binary look (see `nd_serde`): [`Expand`] serializes them as
/// the numbers they are; anything else is serialized as it is.
struct Data<M>(M);

impl<M, S> Take for Data<M>
where
    M: FnOnce(&NdShape) -> Result<S, Error>,
    S: ser::Serializer<Error = Error>,
{
    type Out = S::Ok;
    fn text(self, found: Found, _: &str) -> Result<S::Ok, Stop> {
        Err(Stop::Is(found))
    }
    fn data<T: ?Sized + Serialize>(self, nd: &NdShape, data: &T) -> Result<S::Ok, Stop> {
        let mut make = Some(self.0);
        let take = Expand {
            make: &mut make,
            nd,
        };
        match data.serialize(Probe {
            take,
            look: Look::Bytes,
        }) {
            Ok(Seen::Bytes(ok)) => return Ok(ok),
            Err(Stop::Is(_)) => {}
            Ok(_) => return Err(Stop::Is(Found::Struct)),
            Err(stop) => return Err(stop),
        }
        let make = make.ok_or(Stop::Is(Found::Bytes))?;
        let serializer = make(nd).map_err(Stop::Data)?;
        data.serialize(serializer).map_err(|e| placed(e, nd))
    }
}

/// An element's error placed by its n-d position, not its index in the
/// flat data.
fn placed(e: Error, nd: &NdShape) -> Stop {
    Stop::Data(crate::array::nd::flat_to_nd(e, &nd.dims, nd.fortran, false))
}

/// An n-d array's data that came as its numbers' bytes ([`Data`]), as the
/// sequence of those numbers, into the serializer `make` makes for its
/// shape; `make` is left when the data are not bytes.
struct Expand<'a, M> {
    make: &'a mut Option<M>,
    nd: &'a NdShape,
}

impl<M, S> Take for Expand<'_, M>
where
    M: FnOnce(&NdShape) -> Result<S, Error>,
    S: ser::Serializer<Error = Error>,
{
    type Out = S::Ok;
    fn text(self, found: Found, _: &str) -> Result<S::Ok, Stop> {
        Err(Stop::Is(found))
    }
    fn data<T: ?Sized + Serialize>(self, _: &NdShape, _: &T) -> Result<S::Ok, Stop> {
        Err(Stop::Is(Found::Struct))
    }
    fn bytes(self, bytes: &[u8]) -> Result<S::Ok, Stop> {
        let make = self.make.take().ok_or(Stop::Is(Found::Bytes))?;
        let serializer = make(self.nd).map_err(Stop::Data)?;
        match crate::kinds::number::serialize_le(self.nd.code, bytes, serializer) {
            Some(done) => done.map_err(|e| placed(e, self.nd)),
            None => Err(Stop::Data(malformed())),
        }
    }
}

/// An n-d array's data as the bytes it offers ([`raw`]), handed with the
/// shape to the closure; no text is taken. At the top `nd` is `None`; the
/// array's data is then probed for its bytes with the shape (`Some`).
struct Raw<'n, F> {
    nd: Option<&'n NdShape>,
    write: F,
}

impl<F, R> Take for Raw<'_, F>
where
    F: FnOnce(&NdShape, &[u8]) -> Result<R, Error>,
{
    type Out = R;
    fn text(self, found: Found, _: &str) -> Result<R, Stop> {
        Err(Stop::Is(found))
    }
    fn data<T: ?Sized + Serialize>(self, nd: &NdShape, data: &T) -> Result<R, Stop> {
        if self.nd.is_some() {
            return Err(Stop::Is(Found::Struct));
        }
        let take = Raw {
            nd: Some(nd),
            write: self.write,
        };
        match data.serialize(Probe {
            take,
            look: Look::Bytes,
        })? {
            Seen::Bytes(out) => Ok(out),
            _ => Err(Stop::Is(Found::Seq)),
        }
    }
    fn bytes(self, bytes: &[u8]) -> Result<R, Stop> {
        let nd = self.nd.ok_or(Stop::Is(Found::Bytes))?;
        (self.write)(nd, bytes).map_err(Stop::Data)
    }
}

/// The top of a value: text goes to `take` (with what it was), numbers
/// are captured, an n-d array's data is handed to `take`, anything else
/// stops the serializer with its kind.
struct Probe<H> {
    take: H,
    look: Look,
}

impl<H: Take> Probe<H> {
    /// A look whose text goes to `take`.
    #[inline]
    fn new(look: Look, take: H) -> Self {
        Probe { take, look }
    }

    fn refuse(self, found: Found) -> Stop {
        Stop::Is(found)
    }

    /// Text, for [`Look::Key`] and [`Look::Kind`] (no text elsewhere).
    fn text(self, found: Found, text: &str) -> Result<Seen<H::Out>, Stop> {
        match self.look {
            Look::Key { .. } | Look::Kind => Ok(Seen::Text(self.take.text(found, text)?)),
            Look::Value | Look::First | Look::Dims | Look::Nd { .. } | Look::Bytes => {
                Err(Stop::Is(found))
            }
        }
    }

    /// A 128-bit integer: serde's default refusal for a key, else an
    /// integer (no value to capture).
    fn wide(self, ty: &str) -> Stop {
        match self.look {
            Look::Key { .. } => Stop::Custom(format!("{ty} is not supported")),
            _ => Stop::Is(Found::Int),
        }
    }

    /// A sequence or a tuple: a pair's parts, a tuple's first element.
    fn elements(self, found: Found) -> Result<Elements<H::Out>, Stop> {
        Ok(Elements {
            items: Items::of(self.look, found)?,
            out: PhantomData,
        })
    }
}

/// The elements of a sequence or tuple, for every [`Take`]: the items'
/// state ([`Items`]) and the output type.
struct Elements<R> {
    items: Items,
    out: PhantomData<fn() -> R>,
}

impl<R> Elements<R> {
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Stop> {
        self.items.element(value)
    }
    #[inline]
    fn finish(self) -> Result<Seen<R>, Stop> {
        self.items.finish()
    }
}

elements!(impl[R] Elements<R> => Seen<R>, Stop: SerializeSeq SerializeTuple);

/// The items of a `collect_seq` (a `Vec`, a slice), one look whatever the
/// caller's [`Take`]: the loop is instantiated once per item type (out
/// of line, so that no taker's `collect_seq` takes a copy).
#[inline(never)]
fn collect_items<I>(look: Look, iter: I) -> Result<Items, Stop>
where
    I: IntoIterator,
    I::Item: Serialize,
{
    let mut items = Items::of(look, Found::Seq)?;
    for item in iter {
        items.element(&item)?;
    }
    Ok(items)
}

/// Collects a pair of numbers ([`Look::Value`]), sizes ([`Look::Dims`]),
/// or stops at a tuple's first element ([`Look::First`]).
struct Items {
    parts: [Option<(f64, bool)>; 2],
    n: usize,
    bad: bool,
    first: bool,
    /// [`Look::Dims`]: the sizes so far.
    dims: Option<Vec<u64>>,
}

impl Items {
    /// The items `look` takes of a sequence or tuple (`found`), else the
    /// stop.
    fn of(look: Look, found: Found) -> Result<Items, Stop> {
        match (look, found) {
            (Look::Value | Look::Dims, _) | (Look::First, Found::Tuple) => Ok(Items {
                parts: [None, None],
                n: 0,
                bad: false,
                first: matches!(look, Look::First),
                dims: matches!(look, Look::Dims).then(Vec::new),
            }),
            _ => Err(Stop::Is(found)),
        }
    }

    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Stop> {
        if self.first {
            return Err(Stop::First(is_record_dyn(&value)));
        }
        if let Some(dims) = self.dims.as_mut() {
            match probe_dyn(&value) {
                Captured::UInt(n) => dims.push(n),
                _ => return Err(Stop::Is(Found::Seq)),
            }
            return Ok(());
        }
        match (probe_dyn(&value).part(), self.parts.get_mut(self.n)) {
            (Some(p), Some(slot)) => *slot = Some(p),
            _ => self.bad = true,
        }
        // past 2 the pair is refused (bad is set): saturation is harmless
        self.n = self.n.saturating_add(1);
        Ok(())
    }
    #[inline(never)]
    fn finish<R>(self) -> Result<Seen<R>, Stop> {
        if self.first {
            return Err(Stop::First(true));
        }
        if let Some(dims) = self.dims {
            return Ok(Seen::Dims(dims));
        }
        Ok(Seen::Value(match (self.bad, self.parts) {
            (false, [Some((re, a)), Some((im, b))]) if self.n == 2 => {
                Captured::Pair(re, im, a && b)
            }
            _ => Captured::Other,
        }))
    }
}

/// The fields of an n-d array's parts ([`Look::Nd`]), in the order
/// written: the shape and order, then the data handed to the taker.
struct NdParts<H: Take> {
    take: Option<H>,
    dims: Option<Vec<u64>>,
    fortran: bool,
    code: &'static str,
    done: Option<(NdShape, H::Out)>,
}

impl<H: Take> NdParts<H> {
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), Stop> {
        // anything but the parts in order is a malformed n-d array
        let malformed = Stop::Is(Found::Struct);
        match key {
            "shape" => self.dims = Some(dims(value).ok_or(malformed)?),
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
                let out = take.data(&nd, value)?;
                self.done = Some((nd, out));
            }
            _ => return Err(malformed),
        }
        Ok(())
    }
    fn finish(self) -> Result<Seen<H::Out>, Stop> {
        let (nd, out) = self.done.ok_or(Stop::Is(Found::Struct))?;
        Ok(Seen::Nd(nd, out))
    }
}

elements!(impl[H: Take] NdParts<H> => Seen<H::Out>, Stop: SerializeStruct);

/// The number methods of [`Probe`]: each value captured as it is (the
/// integers widened to 64 bits).
macro_rules! capture {
    ($($method:ident($ty:ty) => $captured:ident;)*) => {$(
        fn $method(self, v: $ty) -> Result<Seen<H::Out>, Stop> {
            Ok(Seen::Value(Captured::$captured(v.into())))
        }
    )*};
}

impl<H: Take> ser::Serializer for Probe<H> {
    serializer_types!(Seen<H::Out>, Stop; (Elements<H::Out>) (Elements<H::Out>) _ _ _ (NdParts<H>) _);

    /// Every look's items through one loop per item type
    /// ([`collect_items`]), not one per taker.
    fn collect_seq<I>(self, iter: I) -> Result<Seen<H::Out>, Stop>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        collect_items(self.look, iter)?.finish()
    }

    refuse!(serialize_none serialize_unit serialize_unit_struct
        serialize_newtype_variant serialize_tuple_struct serialize_tuple_variant serialize_map
        serialize_struct_variant);

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
    fn serialize_bytes(self, v: &[u8]) -> Result<Seen<H::Out>, Stop> {
        self.take.bytes(v).map(Seen::Bytes)
    }
    fn serialize_i128(self, _: i128) -> Result<Seen<H::Out>, Stop> {
        Err(self.wide("i128"))
    }
    fn serialize_u128(self, _: u128) -> Result<Seen<H::Out>, Stop> {
        Err(self.wide("u128"))
    }
    fn serialize_char(self, v: char) -> Result<Seen<H::Out>, Stop> {
        self.text(Found::Char, v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<Seen<H::Out>, Stop> {
        self.text(Found::Str, v)
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Seen<H::Out>, Stop> {
        self.text(Found::UnitVariant(name, variant), variant)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Seen<H::Out>, Stop> {
        match self.look {
            Look::Key {
                through_some: false,
            } => Err(Stop::Some),
            _ => value.serialize(self),
        }
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Seen<H::Out>, Stop> {
        match self.look {
            Look::Value => match Special::of(name) {
                Some(Special::Padding) => Ok(Seen::Value(match probe(value) {
                    Captured::UInt(n) => Captured::Padding(n),
                    _ => Captured::Other,
                })),
                // half floats are their bits here
                None | Some(Special::Bits(_) | Special::Foreign) => value.serialize(self),
                Some(_) => Ok(Seen::Value(Captured::Other)),
            },
            Look::Kind if special::is_own(name) => Err(Stop::Special),
            Look::Nd { .. } => match Special::of(name) {
                Some(Special::NdArray(code)) => {
                    let look = Look::Nd { inside: true, code };
                    value.serialize(Probe { look, ..self })
                }
                None => value.serialize(self),
                Some(_) => Err(Stop::Special),
            },
            _ => value.serialize(self),
        }
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Elements<H::Out>, Stop> {
        self.elements(Found::Seq)
    }
    fn serialize_tuple(self, _: usize) -> Result<Elements<H::Out>, Stop> {
        self.elements(Found::Tuple)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<NdParts<H>, Stop> {
        match self.look {
            Look::Nd { inside: true, code } => Ok(NdParts {
                take: Some(self.take),
                dims: None,
                fortran: false,
                code,
                done: None,
            }),
            _ => Err(Stop::Is(Found::Struct)),
        }
    }
}

#[cfg(test)]
mod tests;
