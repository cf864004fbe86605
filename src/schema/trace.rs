//! The dtype of a Rust type, from the type alone: [`Dtype::of`].
//!
//! serde has no reflection, but a type's `Deserialize` impl tells a
//! deserializer exactly what it wants: `deserialize_struct` with the field
//! names, `deserialize_tuple` with the length, `deserialize_f64`, and so on.
//! Driving `T::deserialize` with a deserializer that *records* those requests
//! and answers each with a harmless dummy value (so the trace goes on) yields
//! the dtype without any record at hand, the way serde_arrow's `from_type`
//! works. That lets an empty array be written and a stream start its header
//! before the first record exists.
//!
//! Whatever the type alone cannot settle is refused with an error that names
//! the field and says how to fix it: string widths and `Vec` lengths need a
//! sample or an explicit `.dtype(...)`; `Option`, maps, `flatten`, untagged
//! enums and enums with data have no fixed numpy layout.
//!
//! Two serde features need more than one look at the type, so the trace may
//! run `T::deserialize` several times (a handful of passes for ordinary
//! types):
//! - `#[serde(alias)]`: serde lists aliases among the field names it passes to
//!   `deserialize_struct`, in an order that does not say which name is the
//!   field's own. Handing the derived visitor a second name of the same field
//!   makes it report `duplicate_field(own_name)`; the trace then remembers to
//!   skip that key, names the field by its own name, and starts again.
//! - unit-only enums: a visitor looks at one variant per visit, so each enum
//!   is shown variant 0 in the first pass, variant 1 in the next, and so on
//!   until every variant was checked to carry no data.
//!
//! # `Padding<N>` protocol
//! `N` is not visible in serde's data model, so padding reports it by
//! counting. `Padding<N>`'s `Deserialize` calls `deserialize_option`; the
//! trace answers `visit_some(d)`; the visitor calls
//! `d.deserialize_newtype_struct("$npy_serde::padding", visitor)`; the trace
//! answers `visit_seq` with an endless sequence and the visitor takes exactly
//! `N` elements (as `IgnoredAny`) and returns. The number taken is the gap.
//! Other formats stay unaffected: JSON holds `N` and answers the newtype with
//! `visit_newtype_struct`, a missing field answers `visit_none`.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::collections::HashMap;
use std::fmt;

use serde::Deserialize;
use serde::de::value::{BorrowedStrDeserializer, U8Deserializer};
use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

use crate::de::de_methods;
use crate::error::{Error, Result};
use crate::format::dtype::{Dtype, ScalarType};
use crate::kinds::special::Special;
use crate::options::DEFAULT_MAX_DEPTH;

/// Most passes over the type before giving up (aliases and enum variants
/// each cost one pass; real types need a few).
const MAX_PASSES: usize = 4096;
/// Largest padding the counting protocol measures, in bytes.
const MAX_PADDING: usize = 1 << 24;

impl Dtype {
    /// The dtype of one record of type `T`, derived from the type alone.
    ///
    /// A sequence type is peeled once, so `Dtype::of::<Vec<Particle>>()`
    /// equals `Dtype::of::<Particle>()`; a fixed array `[f64; 3]` gives the
    /// subarray `('<f8', (3,))`. Types whose layout depends on the values
    /// (strings, `Vec` fields, `Option`, maps, `flatten`, untagged enums,
    /// enums with data) are refused with an error naming the field; give the
    /// dtype explicitly with [`WriteOptions::dtype`](crate::WriteOptions::dtype)
    /// or write a sample instead.
    ///
    /// The bound is `Deserialize<'de>` for any `'de`, not `DeserializeOwned`,
    /// so types that borrow (`&'a [u8]` with `#[serde(borrow)]`) can be
    /// traced too; the trace itself never hands out borrowed data except
    /// `'static` field and variant names.
    ///
    /// Nesting deeper than 64 levels is an error (a recursive type such as
    /// `struct Node { next: Box<Node> }` would never end); see
    /// [`Dtype::of_with_depth`].
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// #[derive(serde::Deserialize)]
    /// struct Particle {
    ///     id: u32,
    ///     pos: [f64; 3],
    ///     charge: f32,
    /// }
    /// let dt = Dtype::of::<Particle>().unwrap();
    /// assert_eq!(dt.to_string(), "[('id', '<u4'), ('pos', '<f8', (3,)), ('charge', '<f4')]");
    /// assert_eq!(Dtype::of::<Vec<Particle>>().unwrap(), dt);
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Named {
    ///     name: String,
    /// }
    /// let err = Dtype::of::<Named>().unwrap_err();
    /// assert!(err.to_string().starts_with("field name: the width of a string"));
    /// ```
    pub fn of<'de, T: Deserialize<'de>>() -> Result<Dtype> {
        Self::of_with_depth::<T>(DEFAULT_MAX_DEPTH)
    }

    /// [`Dtype::of`] with another limit on nesting (records, arrays,
    /// tuples and newtypes each count one level).
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// type Deep = [[[[f32; 2]; 2]; 2]; 2];
    /// assert!(Dtype::of_with_depth::<Deep>(3).is_err());
    /// assert_eq!(Dtype::of_with_depth::<Deep>(4).unwrap().to_string(), "('<f4', (2, 2, 2, 2))");
    /// ```
    pub fn of_with_depth<'de, T: Deserialize<'de>>(max_depth: usize) -> Result<Dtype> {
        let mut plan = TracePlan::default();
        let mut first: Option<Traced> = None;
        for _ in 0..MAX_PASSES {
            let mut ctx = Ctx {
                plan,
                depth: 0,
                max_depth,
                result: None,
            };
            let outcome = T::deserialize(Tracer {
                ctx: &mut ctx,
                top: true,
            });
            plan = ctx.plan;
            match outcome {
                Ok(_) => {}
                Err(TraceError::Restart) => continue,
                Err(TraceError::Npy(e)) => return Err(e),
                Err(e @ TraceError::Duplicate(_)) => return Err(Error::schema(e.to_string())),
            }
            first.get_or_insert_with(|| ctx.result.take().unwrap_or(Traced::Ignored));
            let next_pass = plan.variant_pass.saturating_add(1);
            if next_pass < plan.max_variants {
                plan.variant_pass = next_pass;
                continue;
            }
            return match first {
                Some(Traced::Dtype(dt)) => Ok(dt),
                Some(Traced::Gap(_)) => Err(Error::schema(
                    "padding alone has no dtype: use it as a field of a struct",
                )),
                Some(Traced::Ignored) | None => Err(Error::schema(
                    "the type asked for nothing that has a dtype (`IgnoredAny`?)",
                )),
            };
        }
        Err(Error::limit(format!(
            "tracing the type took more than {MAX_PASSES} passes (aliases and enum variants)"
        )))
    }
}

/// What one traced value turned out to be.
#[derive(Clone, Debug, PartialEq)]
enum Traced {
    Dtype(Dtype),
    /// `Padding<N>`: a gap of N bytes, not a field.
    Gap(usize),
    /// `IgnoredAny`: takes no room.
    Ignored,
}

/// What earlier passes learned, keyed by the names serde passes.
#[derive(Default)]
struct TracePlan {
    /// Per struct (name, field list), per key: `None` to leave it out (an
    /// alias), or the field's own name for the key that stays.
    aliases: HashMap<(&'static str, &'static [&'static str]), Keys>,
    /// Which variant every enum shows in this pass.
    variant_pass: usize,
    /// The most variants any enum met so far has: the passes needed.
    max_variants: usize,
}

/// A struct's keys that earlier passes learned about (see [`TracePlan`]).
type Keys = HashMap<&'static str, Option<&'static str>>;

/// State shared by the tracer and its accessors during one pass.
struct Ctx {
    plan: TracePlan,
    depth: usize,
    max_depth: usize,
    /// The dtype of the value traced last; taken by the parent.
    result: Option<Traced>,
}

impl Ctx {
    fn enter(&mut self) -> Result<(), TraceError> {
        self.depth = self.depth.saturating_add(1);
        if self.depth > self.max_depth {
            return Err(TraceError::Npy(Error::limit(format!(
                "the type nests deeper than {} levels (a recursive type?): raise it with \
                 `Dtype::of_with_depth`",
                self.max_depth
            ))));
        }
        Ok(())
    }

    /// One level up, the value traced as `traced` (`None`: as what was
    /// traced inside it).
    fn leave(&mut self, traced: Option<Traced>) {
        self.depth = self.depth.saturating_sub(1);
        self.result = Some(traced.unwrap_or_else(|| self.take()));
    }

    fn take(&mut self) -> Traced {
        self.result.take().unwrap_or(Traced::Ignored)
    }

    /// Traces the value `seed` asks for inside the one traced: the value
    /// and what it was traced as.
    fn trace<'de, S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<(S::Value, Traced), TraceError> {
        self.result = None;
        let value = seed.deserialize(Tracer {
            ctx: &mut *self,
            top: false,
        })?;
        Ok((value, self.take()))
    }
}

/// The tracer's error: the crate's error, plus two signals that must travel
/// unchanged through derived code to the pass loop.
#[derive(Debug)]
enum TraceError {
    Npy(Error),
    /// A derived struct visitor saw a second name of one field.
    Duplicate(&'static str),
    /// The plan changed: run the pass again.
    Restart,
}

impl TraceError {
    /// The crate's error changed by `f`; the signals pass unchanged.
    fn map(self, f: impl FnOnce(Error) -> Error) -> Self {
        match self {
            TraceError::Npy(e) => TraceError::Npy(f(e)),
            other => other,
        }
    }
}

impl From<Error> for TraceError {
    fn from(e: Error) -> Self {
        TraceError::Npy(e)
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Npy(e) => fmt::Display::fmt(e, f),
            TraceError::Duplicate(name) => write!(f, "duplicate field `{name}`"),
            TraceError::Restart => f.write_str("trace restarted"),
        }
    }
}

impl std::error::Error for TraceError {}

impl de::Error for TraceError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        TraceError::Npy(<Error as de::Error>::custom(msg))
    }
    fn duplicate_field(field: &'static str) -> Self {
        TraceError::Duplicate(field)
    }
}

fn refuse(msg: &str) -> TraceError {
    TraceError::Npy(Error::schema(msg))
}

const WIDTH_HINT: &str = "give `.dtype(...)` or write a sample";

fn refuse_option() -> TraceError {
    refuse(
        "an `Option` has no dtype: numpy has no missing value, so `None` cannot be written; \
         make the field non-optional",
    )
}

/// Drives one `Deserialize` impl and records what it asks for.
struct Tracer<'a> {
    ctx: &'a mut Ctx,
    /// At the top level a sequence is the array itself, not a field.
    top: bool,
}

impl Tracer<'_> {
    /// Traces `len` positional elements (`indexed`: errors get the
    /// element's index), then lays them out with `layout` (a subarray or a
    /// record of `f0, f1, ...`).
    fn elements<'de, V: Visitor<'de>>(
        self,
        len: usize,
        indexed: bool,
        visitor: V,
        layout: fn(Vec<Traced>) -> Result<Traced, TraceError>,
    ) -> Result<V::Value, TraceError> {
        self.ctx.enter()?;
        let mut access = Elements {
            ctx: &mut *self.ctx,
            len,
            elems: Vec::new(),
            indexed,
        };
        let value = visitor.visit_seq(&mut access)?;
        let traced = layout(access.elems)?;
        self.ctx.leave(Some(traced));
        Ok(value)
    }
}

macro_rules! trace_scalar {
    ($($method:ident => $ty:expr, $visit:ident($val:expr);)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
            self.ctx.result = Some(Traced::Dtype(Dtype::scalar($ty)));
            visitor.$visit($val)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Tracer<'_> {
    type Error = TraceError;

    /// numpy is a binary format: like the serializer, ask types for their
    /// compact form (`IpAddr` as octets, not text), so the trace predicts
    /// what is written.
    fn is_human_readable(&self) -> bool {
        false
    }

    trace_scalar! {
        deserialize_bool => ScalarType::Bool, visit_bool(false);
        deserialize_i8 => ScalarType::Int(1), visit_i8(1);
        deserialize_i16 => ScalarType::Int(2), visit_i16(1);
        deserialize_i32 => ScalarType::Int(4), visit_i32(1);
        deserialize_i64 => ScalarType::Int(8), visit_i64(1);
        deserialize_u8 => ScalarType::UInt(1), visit_u8(1);
        deserialize_u16 => ScalarType::UInt(2), visit_u16(1);
        deserialize_u32 => ScalarType::UInt(4), visit_u32(1);
        deserialize_u64 => ScalarType::UInt(8), visit_u64(1);
        deserialize_f32 => ScalarType::Float(4), visit_f32(0.0);
        deserialize_f64 => ScalarType::Float(8), visit_f64(0.0);
        deserialize_char => ScalarType::Unicode(1), visit_char('a');
    }

    de_methods!(refuse(|name| TraceError::Npy(Error::unsupported(format!(
        "{name} has no numpy dtype"
    )))) deserialize_i128 "i128" deserialize_u128 "u128");
    de_methods!(refuse(|what| refuse(&format!(
        "the width of a {what} cannot be known from the type: {WIDTH_HINT}"
    ))) deserialize_str "string" deserialize_string "string"
        deserialize_bytes "byte string" deserialize_byte_buf "byte string");
    de_methods!(refuse(|_| refuse(&format!(
        "a map (or `#[serde(flatten)]`) has no field names known from the type: {WIDTH_HINT}"
    ))) deserialize_map);
    de_methods!(refuse(|_| refuse(&format!(
        "the type decides its layout from the data (untagged or internally tagged enum, \
         `flatten`, or `deserialize_any`): {WIDTH_HINT}"
    ))) deserialize_any deserialize_identifier);

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        self.ctx.result = Some(Traced::Ignored);
        visitor.visit_unit()
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        self.ctx.result = Some(Traced::Dtype(Dtype::record().build()?));
        visitor.visit_unit()
    }

    de_methods!(to (deserialize_unit) deserialize_unit_struct);

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        // `Option<T>` goes on to `T::deserialize(probe)`, which refuses;
        // `Padding<N>` goes on to the padding newtype, which the probe measures.
        self.ctx.enter()?;
        self.ctx.result = None;
        let value = visitor.visit_some(OptionProbe { ctx: self.ctx })?;
        self.ctx.leave(None);
        Ok(value)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        let kind = Special::of(name);
        if kind == Some(Special::Padding) {
            return trace_padding(self.ctx, visitor);
        }
        if kind == Some(Special::Complex) {
            // `(re, im)`, traced as the pair it is (its tuple level
            // stands for the newtype's)
            let value = visitor.visit_newtype_struct(Tracer {
                ctx: &mut *self.ctx,
                top: false,
            })?;
            self.ctx.result = Some(complex_dtype(self.ctx.take())?);
            return Ok(value);
        }
        self.ctx.enter()?;
        let special = kind.and_then(Special::scalar).transpose().map_err(|_| {
            TraceError::Npy(Error::unsupported(format!(
                "unknown datetime unit in `{name}`"
            )))
        })?;
        // A plain newtype is transparent, at the top level too.
        let top = self.top && special.is_none();
        let value = visitor.visit_newtype_struct(Tracer {
            ctx: &mut *self.ctx,
            top,
        })?;
        self.ctx
            .leave(special.map(|ty| Traced::Dtype(Dtype::scalar(ty))));
        Ok(value)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
        if !self.top {
            return Err(refuse(&format!(
                "the length of a Vec cannot be known from the type: {WIDTH_HINT}, or use an \
                 array `[T; N]`"
            )));
        }
        // The array itself: one element stands for all of them. The sample
        // element is not a position in the file: no index in paths.
        self.elements(1, false, visitor, |mut elems| match elems.pop() {
            Some(Traced::Ignored) | None => Err(refuse(
                "the sequence took no element, so its element type is unknown",
            )),
            Some(traced) => Ok(traced),
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        self.elements(len, true, visitor, tuple_dtype)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        self.elements(len, true, visitor, positional_record)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        self.ctx.enter()?;
        let hint = self.ctx.plan.aliases.get(&(name, fields));
        let keys = fields
            .iter()
            .filter_map(|&k| match hint.and_then(|h| h.get(k)) {
                Some(own) => own.map(|own| (k, own)),
                None => Some((k, k)),
            })
            .collect();
        let mut access = StructFields {
            ctx: &mut *self.ctx,
            keys,
            next: 0,
            given: None,
            last_accepted: None,
            out: Vec::new(),
        };
        let value = match visitor.visit_map(&mut access) {
            Ok(value) => value,
            Err(TraceError::Duplicate(own)) => {
                // `given` is a second name of the field accepted last (serde
                // lists a field's names next to each other).
                let key = |i: Option<usize>| Some(access.keys.get(i?)?.0);
                let (Some(given), Some(last)) = (key(access.given), key(access.last_accepted))
                else {
                    return Err(TraceError::Duplicate(own));
                };
                let entry = access.ctx.plan.aliases.entry((name, fields)).or_default();
                // the alias is left out even when it is the key accepted last
                entry.insert(last, Some(own));
                entry.insert(given, None);
                return Err(TraceError::Restart);
            }
            Err(e) => return Err(e),
        };
        let traced = record(access.out)?;
        self.ctx.leave(Some(traced));
        Ok(value)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        self.ctx.enter()?;
        let plan = &mut self.ctx.plan;
        plan.max_variants = plan.max_variants.max(variants.len());
        let shown = plan.variant_pass.min(variants.len().saturating_sub(1));
        let Some(variant) = variants.get(shown) else {
            return Err(refuse(&format!("enum `{name}` has no variants")));
        };
        let value = visitor.visit_enum(UnitVariant { variant })?;
        let width = variants
            .iter()
            .map(|v| v.chars().count())
            .max()
            .unwrap_or(0)
            .max(1);
        let traced = Traced::Dtype(Dtype::scalar(ScalarType::Unicode(width)));
        self.ctx.leave(Some(traced));
        Ok(value)
    }
}

/// The complex number whose `(re, im)` traced as `parts`: a `(2,)`
/// subarray of `f4` or of `f8`.
fn complex_dtype(parts: Traced) -> Result<Traced, TraceError> {
    let part = match parts {
        Traced::Dtype(Dtype::Subarray(base, dims)) if dims == [2] => base.as_scalar().copied(),
        _ => None,
    };
    let ty = match part.map(|s| s.ty()) {
        Some(ScalarType::Float(4)) => ScalarType::Complex(8),
        Some(ScalarType::Float(8)) => ScalarType::Complex(16),
        _ => {
            return Err(TraceError::Npy(Error::unsupported(
                "complex parts must both be f32 or both f64",
            )));
        }
    };
    Ok(Traced::Dtype(Dtype::scalar(ty)))
}

/// A homogeneous tuple or array is a subarray (nested ones merge their
/// dims); a mixed one is a record `f0, f1, ...`.
fn tuple_dtype(elems: Vec<Traced>) -> Result<Traced, TraceError> {
    match elems.first() {
        Some(Traced::Dtype(first)) if elems.iter().all(|e| Some(e) == elems.first()) => {
            let (base, mut shape) = match first.clone() {
                Dtype::Subarray(base, dims) => (*base, dims),
                other => (other, Vec::new()),
            };
            shape.insert(0, elems.len() as u64);
            Ok(Traced::Dtype(Dtype::subarray(base, shape)?))
        }
        _ => positional_record(elems),
    }
}

/// A record of fields `f0, f1, ...` named by position; padding is a gap.
fn positional_record(elems: Vec<Traced>) -> Result<Traced, TraceError> {
    record(
        elems
            .into_iter()
            .enumerate()
            .map(|(i, t)| (format!("f{i}"), t)),
    )
}

/// A record of the traced `fields`: padding is a gap, an ignored value
/// takes no room.
fn record<N: Into<String>>(
    fields: impl IntoIterator<Item = (N, Traced)>,
) -> Result<Traced, TraceError> {
    let builder = fields
        .into_iter()
        .fold(Dtype::record(), |b, (name, traced)| match traced {
            Traced::Dtype(dt) => b.field(name, dt),
            Traced::Gap(n) => b.padding(n),
            Traced::Ignored => b,
        });
    Ok(Traced::Dtype(builder.build()?))
}

/// Measures `Padding<N>` by the number of elements its visitor takes.
fn trace_padding<'de, V: Visitor<'de>>(ctx: &mut Ctx, visitor: V) -> Result<V::Value, TraceError> {
    let mut count = Counting { taken: 0 };
    let value = visitor.visit_seq(&mut count).map_err(|e| {
        e.map(|e| {
            Error::unsupported(format!(
                "padding does not report its size to the tracer ({e})"
            ))
        })
    })?;
    ctx.result = Some(Traced::Gap(count.taken));
    Ok(value)
}

/// An endless sequence of bytes that counts how many were taken.
struct Counting {
    taken: usize,
}

impl<'de> SeqAccess<'de> for Counting {
    type Error = TraceError;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, TraceError> {
        if self.taken >= MAX_PADDING {
            return Err(TraceError::Npy(Error::limit(format!(
                "padding larger than {MAX_PADDING} bytes"
            ))));
        }
        self.taken = self.taken.saturating_add(1);
        seed.deserialize(U8Deserializer::<TraceError>::new(0))
            .map(Some)
    }
}

/// The value inside `visit_some`: only padding may continue from here.
struct OptionProbe<'a> {
    ctx: &'a mut Ctx,
}

impl<'de> de::Deserializer<'de> for OptionProbe<'_> {
    type Error = TraceError;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, TraceError> {
        Err(refuse_option())
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        if Special::of(name) == Some(Special::Padding) {
            trace_padding(self.ctx, visitor)
        } else {
            Err(refuse_option())
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, TraceError> {
        // Nobody writes `Option<IgnoredAny>`; this is a padding type that
        // skips its value instead of following the protocol in the module docs.
        Err(TraceError::Npy(Error::unsupported(
            "an `Option<IgnoredAny>` or a padding type whose size cannot be traced: \
             its `visit_some` must ask for the `$npy_serde::padding` newtype",
        )))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// Up to `len` elements, each traced; paths get the element's index.
struct Elements<'a> {
    ctx: &'a mut Ctx,
    len: usize,
    elems: Vec<Traced>,
    /// Whether errors get the element's index attached.
    indexed: bool,
}

impl<'de> SeqAccess<'de> for Elements<'_> {
    type Error = TraceError;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, TraceError> {
        let i = self.elems.len();
        if i >= self.len {
            return Ok(None);
        }
        let indexed = self.indexed;
        let (value, traced) = self
            .ctx
            .trace(seed)
            .map_err(|e| e.map(|e| if indexed { e.at_index(i as u64) } else { e }))?;
        self.elems.push(traced);
        Ok(Some(value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len.saturating_sub(self.elems.len()))
    }
}

/// A struct's fields handed to its visitor, each name once.
struct StructFields<'a> {
    ctx: &'a mut Ctx,
    /// (key given to the visitor, field name in the dtype)
    keys: Vec<(&'static str, &'static str)>,
    next: usize,
    /// Index of the key handed out whose value was not asked for yet.
    given: Option<usize>,
    last_accepted: Option<usize>,
    out: Vec<(&'static str, Traced)>,
}

impl<'de> MapAccess<'de> for StructFields<'_> {
    type Error = TraceError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, TraceError> {
        let Some((key, _)) = self.keys.get(self.next) else {
            return Ok(None);
        };
        self.given = Some(self.next);
        self.next = self.next.saturating_add(1);
        seed.deserialize(BorrowedStrDeserializer::<TraceError>::new(key))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, TraceError> {
        let i = self
            .given
            .take()
            .ok_or_else(|| refuse("a struct value was asked for before its key"))?;
        let name = self.keys.get(i).map_or("", |k| k.1);
        let (value, traced) = self
            .ctx
            .trace(seed)
            .map_err(|e| e.map(|e| e.in_field(name)))?;
        self.out.push((name, traced));
        self.last_accepted = Some(i);
        Ok(value)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.keys.len().saturating_sub(self.next))
    }
}

/// Shows one variant of an enum and accepts it only if it is a unit.
struct UnitVariant {
    variant: &'static str,
}

impl<'de> EnumAccess<'de> for UnitVariant {
    type Error = TraceError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self), TraceError> {
        let value = seed.deserialize(BorrowedStrDeserializer::<TraceError>::new(self.variant))?;
        Ok((value, self))
    }
}

impl UnitVariant {
    fn refuse(&self) -> TraceError {
        TraceError::Npy(Error::unsupported(format!(
            "enum variant `{}` carries data: only enums whose variants are all units map to \
             a numpy string ('<Un')",
            self.variant
        )))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant {
    type Error = TraceError;

    fn unit_variant(self) -> Result<(), TraceError> {
        Ok(())
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _: S) -> Result<S::Value, TraceError> {
        Err(self.refuse())
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, TraceError> {
        Err(self.refuse())
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, TraceError> {
        Err(self.refuse())
    }
}

#[cfg(test)]
mod tests {
    use std::marker::PhantomData;

    use serde::Deserialize;
    use serde::de::{Deserializer, IgnoredAny, SeqAccess, Visitor};

    use crate::format::dtype::Dtype;

    fn descr<'de, T: Deserialize<'de>>() -> String {
        Dtype::of::<T>().unwrap().to_string()
    }

    /// Like `npy_serde::complex`: the complex token over `(re, im)`.
    mod complex_token {
        use serde::de::{Deserialize, Deserializer, Visitor};
        use std::marker::PhantomData;

        pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
            d: D,
        ) -> Result<(T, T), D::Error> {
            struct V<T>(PhantomData<T>);
            impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
                type Value = (T, T);
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a complex number")
                }
                fn visit_newtype_struct<D: Deserializer<'de>>(
                    self,
                    d: D,
                ) -> Result<Self::Value, D::Error> {
                    <(T, T)>::deserialize(d)
                }
            }
            d.deserialize_newtype_struct(crate::kinds::special::COMPLEX, V(PhantomData))
        }
    }

    /// Like `npy_serde::Datetime64<Ns>`: the datetime token over an i64.
    struct Stamp<const TIMEDELTA: bool>;
    impl<'de, const TIMEDELTA: bool> Deserialize<'de> for Stamp<TIMEDELTA> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = ();
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a datetime")
                }
                fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                    i64::deserialize(d).map(drop)
                }
            }
            let token = if TIMEDELTA {
                "$npy_serde::m8[25s]"
            } else {
                "$npy_serde::M8[ns]"
            };
            d.deserialize_newtype_struct(token, V)?;
            Ok(Stamp)
        }
    }

    /// Like `npy_serde::Padding<N>`, following the protocol in the module docs.
    struct Pad<const N: usize>;
    impl<'de, const N: usize> Deserialize<'de> for Pad<N> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V<const N: usize>;
            impl<'de, const N: usize> Visitor<'de> for V<N> {
                type Value = Pad<N>;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    write!(f, "{N} bytes of padding")
                }
                fn visit_none<E>(self) -> Result<Pad<N>, E> {
                    Ok(Pad)
                }
                fn visit_unit<E>(self) -> Result<Pad<N>, E> {
                    Ok(Pad)
                }
                fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Pad<N>, D::Error> {
                    d.deserialize_newtype_struct(crate::kinds::special::PADDING, self)
                }
                fn visit_newtype_struct<D: Deserializer<'de>>(
                    self,
                    d: D,
                ) -> Result<Pad<N>, D::Error> {
                    IgnoredAny::deserialize(d).map(|_| Pad)
                }
                fn visit_u64<E>(self, _: u64) -> Result<Pad<N>, E> {
                    Ok(Pad)
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pad<N>, A::Error> {
                    for i in 0..N {
                        if seq.next_element::<IgnoredAny>()?.is_none() {
                            return Err(serde::de::Error::invalid_length(i, &self));
                        }
                    }
                    Ok(Pad)
                }
            }
            d.deserialize_option(V::<N>)
        }
    }

    #[test]
    fn scalars() {
        assert_eq!(descr::<bool>(), "'|b1'");
        assert_eq!(descr::<i8>(), "'|i1'");
        assert_eq!(descr::<i16>(), "'<i2'");
        assert_eq!(descr::<i32>(), "'<i4'");
        assert_eq!(descr::<i64>(), "'<i8'");
        assert_eq!(descr::<u8>(), "'|u1'");
        assert_eq!(descr::<u16>(), "'<u2'");
        assert_eq!(descr::<u32>(), "'<u4'");
        assert_eq!(descr::<u64>(), "'<u8'");
        assert_eq!(descr::<f32>(), "'<f4'");
        assert_eq!(descr::<f64>(), "'<f8'");
        assert_eq!(descr::<char>(), "'<U1'");
        // NonZero validates the dummy value: the tracer answers 1, not 0.
        assert_eq!(descr::<std::num::NonZeroU32>(), "'<u4'");
        // Compact form, as the serializer writes it: four octets.
        assert_eq!(descr::<std::net::Ipv4Addr>(), "('|u1', (4,))");
    }

    #[cfg(feature = "half")]
    #[test]
    fn half_float() {
        assert_eq!(descr::<half::f16>(), "'<f2'");
        assert_eq!(descr::<[half::f16; 2]>(), "('<f2', (2,))");
        assert_eq!(descr::<half::bf16>(), "'|V2'");
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Particle {
        id: u32,
        pos: [f64; 3],
        charge: f32,
    }

    #[test]
    fn record_and_top_level_sequence() {
        let one = descr::<Particle>();
        assert_eq!(
            one,
            "[('id', '<u4'), ('pos', '<f8', (3,)), ('charge', '<f4')]"
        );
        assert_eq!(descr::<Vec<Particle>>(), one);
        assert_eq!(descr::<Box<[Particle]>>(), one);
        assert_eq!(descr::<Vec<[f64; 3]>>(), "('<f8', (3,))");
    }

    #[test]
    fn complex_with_token() {
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Wave {
            #[serde(with = "complex_token")]
            a: (f32, f32),
            #[serde(with = "complex_token")]
            b: (f64, f64),
            /// Without the token: a plain pair of floats.
            c: num_complex::Complex<f64>,
        }
        assert_eq!(
            descr::<Wave>(),
            "[('a', '<c8'), ('b', '<c16'), ('c', '<f8', (2,))]"
        );
    }

    #[test]
    fn datetime_tokens() {
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Event {
            at: Stamp<false>,
            took: Stamp<true>,
        }
        assert_eq!(
            descr::<Event>(),
            "[('at', '<M8[ns]'), ('took', '<m8[25s]')]"
        );
    }

    #[test]
    fn datetime_units() {
        use crate::format::dtype::{DatetimeUnit, TimeUnit};
        let unit = |rest| DatetimeUnit::parse(rest).ok();
        assert_eq!(unit(""), Some(DatetimeUnit::new(TimeUnit::Generic)));
        assert_eq!(
            unit("[us]"),
            Some(DatetimeUnit::new(TimeUnit::Microseconds))
        );
        assert_eq!(
            unit("[25s]").map(|u| u.to_string()),
            Some("[25s]".to_owned())
        );
        assert_eq!(unit("[0s]"), None);
        assert_eq!(unit("[xs]"), None);
        assert_eq!(unit("[s"), None);
        assert_eq!(unit("[99999999999s]"), None);
    }

    #[test]
    fn padding_is_a_gap() {
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Header {
            tag: u8,
            _pad: Pad<3>,
            len: u32,
            _tail: Pad<8>,
        }
        assert_eq!(
            descr::<Header>(),
            "[('tag', '|u1'), ('', '|V3'), ('len', '<u4'), ('', '|V8')]"
        );
        assert_eq!(Dtype::of::<Header>().unwrap().itemsize(), 16);
    }

    #[test]
    fn nested_records_arrays_tuples() {
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Inner {
            a: i16,
            b: [u8; 2],
        }
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Outer {
            inner: Inner,
            grid: [[f64; 4]; 16],
            pair: (f32, f32),
            mixed: (u8, f64),
            nested: [(i32, i32); 2],
            records: [Inner; 2],
        }
        assert_eq!(
            descr::<Outer>(),
            "[('inner', [('a', '<i2'), ('b', '|u1', (2,))]), ('grid', '<f8', (16, 4)), \
             ('pair', '<f4', (2,)), ('mixed', [('f0', '|u1'), ('f1', '<f8')]), \
             ('nested', '<i4', (2, 2)), ('records', [('a', '<i2'), ('b', '|u1', (2,))], (2,))]"
        );
        assert_eq!(descr::<[f64; 3]>(), "('<f8', (3,))");
        assert_eq!(descr::<[[f64; 4]; 16]>(), "('<f8', (16, 4))");
        assert_eq!(descr::<(u8, i64)>(), "[('f0', '|u1'), ('f1', '<i8')]");
        assert_eq!(descr::<[f64; 0]>(), "[]");
    }

    #[test]
    fn tuple_unit_and_newtype_structs() {
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Point(f64, f64);
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Meters(f64);
        #[derive(Deserialize)]
        struct Marker;
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Many(Vec<Point>);
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Holder {
            p: Point,
            m: Meters,
            marker: Marker,
            unit: (),
            phantom: PhantomData<String>,
        }
        assert_eq!(descr::<Point>(), "[('f0', '<f8'), ('f1', '<f8')]");
        assert_eq!(descr::<Meters>(), "'<f8'");
        assert_eq!(descr::<Marker>(), "[]");
        assert_eq!(descr::<()>(), "[]");
        // A newtype around the whole array is transparent at the top too.
        assert_eq!(descr::<Many>(), "[('f0', '<f8'), ('f1', '<f8')]");
        assert_eq!(
            descr::<Holder>(),
            "[('p', [('f0', '<f8'), ('f1', '<f8')]), ('m', '<f8'), ('marker', []), \
             ('unit', []), ('phantom', [])]"
        );
    }

    #[test]
    fn unit_enums() {
        #[derive(Deserialize)]
        #[allow(dead_code)]
        enum Color {
            Red,
            Green,
            #[serde(rename = "ultraviolet")]
            Uv,
        }
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Pixel {
            color: Color,
            other: Color,
        }
        assert_eq!(descr::<Color>(), "'<U11'");
        assert_eq!(descr::<Pixel>(), "[('color', '<U11'), ('other', '<U11')]");
    }

    #[test]
    fn serde_attributes() {
        fn seven() -> i32 {
            7
        }
        #[derive(Deserialize)]
        #[allow(dead_code)]
        #[serde(rename_all = "camelCase")]
        struct Attrs {
            #[serde(rename = "X")]
            x: f64,
            #[serde(skip)]
            skipped: String,
            #[serde(default = "seven")]
            with_default: i32,
            #[serde(alias = "a", alias = "zzz")]
            aliased: u8,
            #[serde(alias = "zz_alias")]
            after: u16,
            #[serde(deserialize_with = "i64_as_i32")]
            custom: i32,
        }
        fn i64_as_i32<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
            i64::deserialize(d).map(|v| v as i32)
        }
        #[derive(Deserialize)]
        #[allow(dead_code)]
        #[serde(transparent)]
        struct Transparent {
            inner: Particle,
        }
        #[derive(Deserialize)]
        #[allow(dead_code)]
        #[serde(deny_unknown_fields)]
        struct Strict {
            a: u8,
        }
        assert_eq!(
            descr::<Attrs>(),
            "[('X', '<f8'), ('withDefault', '<i4'), ('aliased', '|u1'), ('after', '<u2'), \
             ('custom', '<i8')]"
        );
        assert_eq!(descr::<Transparent>(), descr::<Particle>());
        assert_eq!(descr::<Strict>(), "[('a', '|u1')]");
    }
}
