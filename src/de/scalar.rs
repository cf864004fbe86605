//! One scalar in the file's byte order -> the visitor.
//!
//! Every numeric type is handed over with the visit method of the file's own
//! type (`<i2` -> `visit_i16`), so serde's range checks decide whether it
//! fits the Rust type (`300` into `u8` fails). Only conversions into floats
//! are checked here, because serde's float visitors accept any integer with
//! `as` and would round silently.

use serde::de::{self, IntoDeserializer, Visitor};

use super::seq::Elements;
use super::{Bytes, Cfg, fix_error, internal};
use crate::error::{Error, Result};
use crate::format::dtype::{ByteOrder, Scalar, ScalarType};
use crate::kinds::ieee::{F16, F32};
use crate::kinds::special;

/// A decoded number, tagged with the file's type.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Num {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    /// `f2` (widened bit-exactly) or `f4`.
    F32(f32),
    F64(f64),
    /// A long double read under `ReadOptions::long_double` and `lossy`:
    /// rounded to `f64` and, separately, to `f32`.
    Long(f64, f32),
}

impl Num {
    /// Calls the visit method of the file's type.
    #[inline]
    fn visit<'de, V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self {
            Num::Bool(x) => v.visit_bool(x),
            Num::I8(x) => v.visit_i8(x),
            Num::I16(x) => v.visit_i16(x),
            Num::I32(x) => v.visit_i32(x),
            Num::I64(x) => v.visit_i64(x),
            Num::U8(x) => v.visit_u8(x),
            Num::U16(x) => v.visit_u16(x),
            Num::U32(x) => v.visit_u32(x),
            Num::U64(x) => v.visit_u64(x),
            Num::F32(x) => v.visit_f32(x),
            Num::F64(x) | Num::Long(x, _) => v.visit_f64(x),
        }
    }

    /// What a visitor that takes no numbers (serde's default visit
    /// methods) says of this one: its error, worded once here rather than
    /// by each such visitor's methods (see [`ScalarDe::compound`]).
    #[cold]
    #[inline(never)]
    fn refused(self, expected: &dyn de::Expected) -> Error {
        /// A visitor of serde's default visit methods only, expecting
        /// what `expected` words.
        struct Refuse<'e>(&'e dyn de::Expected);
        impl Visitor<'_> for Refuse<'_> {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                de::Expected::fmt(self.0, f)
            }
        }
        self.visit(Refuse(expected)).err().unwrap_or_else(internal)
    }

    /// The value as `f64` if that is exact (NaN counts as exact).
    fn exact_f64(self) -> Option<f64> {
        match self {
            Num::Bool(_) | Num::Long(..) => None,
            Num::I8(x) => Some(x.into()),
            Num::I16(x) => Some(x.into()),
            Num::I32(x) => Some(x.into()),
            Num::U8(x) => Some(x.into()),
            Num::U16(x) => Some(x.into()),
            Num::U32(x) => Some(x.into()),
            Num::I64(x) => exact_int(x.into()),
            Num::U64(x) => exact_int(x.into()),
            Num::F32(x) => Some(x.into()),
            Num::F64(x) => Some(x),
        }
    }

    /// The value as `f32` if that is exact (NaN counts as exact).
    fn exact_f32(self) -> Option<f32> {
        match self {
            Num::F32(x) => Some(x),
            Num::Long(..) => None,
            other => {
                let wide = other.exact_f64()?;
                let f = wide as f32;
                (f64::from(f) == wide || wide.is_nan()).then_some(f)
            }
        }
    }

    /// The value rounded to `f64` (for `lossy`).
    fn lossy_f64(self) -> Option<f64> {
        Some(match self {
            Num::I64(x) => x as f64,
            Num::U64(x) => x as f64,
            Num::Long(x, _) => x,
            other => other.exact_f64()?,
        })
    }
}

/// `x` as `f64` if that is exact.
fn exact_int(x: i128) -> Option<f64> {
    let f = x as f64;
    (f as i128 == x).then_some(f)
}

#[inline]
fn arr<const N: usize>(b: &[u8]) -> Result<[u8; N]> {
    b.first_chunk::<N>().copied().ok_or_else(internal)
}

macro_rules! rd {
    ($t:ty, $b:expr, $big:expr) => {{
        let a = arr($b)?;
        if $big {
            <$t>::from_be_bytes(a)
        } else {
            <$t>::from_le_bytes(a)
        }
    }};
}

/// Widens the bits of an IEEE half to the `f32` of the same value, keeping
/// NaN payloads (shifted into the top of the `f32` mantissa) so narrowing
/// back gives the same 16 bits.
pub(crate) fn f16_bits_to_f32(h: u16) -> f32 {
    // every half is exactly an f32: the encoding never rounds
    f32::from_bits(F32.encode(F16.decode(h.into())) as u32)
}

/// Why a long double (`'<f16'`, `'<f12'`, `'<c32'`, `'<c24'`) is not read:
/// names the options still missing.
#[cold]
fn long_double_refused(scalar: Scalar, cfg: Cfg) -> Error {
    let (what, of, size) = match scalar.ty() {
        ScalarType::Complex(n) => ("a complex long double", "with parts of", n / 2),
        ScalarType::Float(n) => ("a long double", "of", n),
        _ => ("a long double", "of", 0),
    };
    let msg = match cfg.long_double {
        Some(f) if !f.fits(usize::from(size)) => format!(
            "'{scalar}' is {what} {of} {size} bytes, a size only x87 extended precision \
             (32-bit x86) has, not LongDouble::{f:?} (16 bytes) as ReadOptions::long_double names"
        ),
        Some(f) => format!(
            "'{scalar}' read as LongDouble::{f:?} rounds to f64, which needs \
             ReadOptions::lossy(true) as well as ReadOptions::long_double"
        ),
        None => format!(
            "'{scalar}' is {what}, whose format the file does not record (x87 extended \
             precision from x86, IEEE binary128 from aarch64, double-double from ppc64le); \
             to read it rounded to f64, name the format with \
             ReadOptions::long_double(LongDouble::X87) (or Binary128, DoubleDouble){}",
            if cfg.lossy {
                " as well as ReadOptions::lossy(true)"
            } else {
                " and allow rounding with ReadOptions::lossy(true)"
            }
        ),
    };
    Error::unsupported(msg)
}

/// One scalar of the file.
#[derive(Clone, Copy)]
pub(crate) struct ScalarDe<'a, 'de> {
    pub(crate) scalar: Scalar,
    pub(crate) bytes: Bytes<'de, 'a>,
    pub(crate) cfg: Cfg,
}

impl<'de, 'a> ScalarDe<'a, 'de> {
    #[inline]
    pub(crate) fn new(scalar: Scalar, bytes: Bytes<'de, 'a>, cfg: Cfg) -> Self {
        ScalarDe { scalar, bytes, cfg }
    }

    #[inline]
    fn big(&self) -> bool {
        self.scalar.order() == ByteOrder::Big
    }

    /// The number, for numeric kinds (datetimes give their i64 count).
    /// Not inlined: one copy in this crate (the fast paths do not call
    /// it), not one in every crate whose types read numbers.
    #[inline(never)]
    fn number(&self) -> Result<Option<Num>> {
        let b = self.bytes.slice();
        let big = self.big();
        Ok(Some(match self.scalar.ty() {
            ScalarType::Bool => Num::Bool(arr::<1>(b)?[0] != 0),
            ScalarType::Int(1) => Num::I8(i8::from_le_bytes(arr(b)?)),
            ScalarType::Int(2) => Num::I16(rd!(i16, b, big)),
            ScalarType::Int(4) => Num::I32(rd!(i32, b, big)),
            ScalarType::Int(8) => Num::I64(rd!(i64, b, big)),
            ScalarType::UInt(1) => Num::U8(arr::<1>(b)?[0]),
            ScalarType::UInt(2) => Num::U16(rd!(u16, b, big)),
            ScalarType::UInt(4) => Num::U32(rd!(u32, b, big)),
            ScalarType::UInt(8) => Num::U64(rd!(u64, b, big)),
            ScalarType::Float(2) => Num::F32(f16_bits_to_f32(rd!(u16, b, big))),
            ScalarType::Float(4) => Num::F32(rd!(f32, b, big)),
            ScalarType::Float(8) => Num::F64(rd!(f64, b, big)),
            ScalarType::Datetime(_) | ScalarType::Timedelta(_) => Num::I64(rd!(i64, b, big)),
            ScalarType::Float(n @ (12 | 16)) => match self.cfg.long_double {
                Some(format) if self.cfg.lossy => {
                    let b = b.get(..usize::from(n)).ok_or_else(internal)?;
                    match crate::kinds::long_double::long_double_to_f64_f32(b, format, !big) {
                        Some((d, f)) => Num::Long(d, f),
                        None => return Ok(None),
                    }
                }
                _ => return Ok(None),
            },
            _ => return Ok(None),
        }))
    }

    /// Whether long doubles (`'<f16'`, `'<c32'`, ...) read here: a format
    /// named, rounding allowed, and a size that format has.
    fn long_double_reads(&self, size: u8) -> bool {
        self.cfg.lossy
            && self
                .cfg
                .long_double
                .is_some_and(|f| f.fits(usize::from(size)))
    }

    #[cold]
    fn fix(&self, e: Error) -> Error {
        fix_error(e, &format_args!("'{}'", self.scalar))
    }

    /// The number by the visit method of the file's type; anything else
    /// self-describing.
    #[inline]
    fn exact<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.number()? {
            Some(num) => num.visit(visitor).map_err(|e| self.fix(e)),
            None => de::Deserializer::deserialize_any(self, visitor),
        }
    }

    /// Refusal for types this crate never decodes.
    fn unsupported(&self) -> Option<Error> {
        match self.scalar.ty() {
            ScalarType::Object => Some(Error::unsupported(
                "'|O' (pickled Python objects) cannot be read without pickle",
            )),
            ScalarType::Float(n @ (12 | 16)) if !self.long_double_reads(n) => {
                Some(long_double_refused(self.scalar, self.cfg))
            }
            ScalarType::Complex(n @ (24 | 32)) if !self.long_double_reads(n / 2) => {
                Some(long_double_refused(self.scalar, self.cfg))
            }
            ScalarType::Float(12 | 16) | ScalarType::Complex(8 | 16 | 24 | 32) => None,
            ScalarType::Int(_)
            | ScalarType::UInt(_)
            | ScalarType::Float(_)
            | ScalarType::Complex(_) => Some(Error::unsupported(format!(
                "'{}' is not a numpy type",
                self.scalar
            ))),
            _ => None,
        }
    }

    /// `S`: the bytes up to the last non-NUL byte.
    #[inline]
    fn stripped_bytes(&self) -> Result<Bytes<'de, 'a>> {
        let b = self.bytes.slice();
        // i < b.len(): one more cannot overflow
        let n = b
            .iter()
            .rposition(|&c| c != 0)
            .map_or(0, |i| i.wrapping_add(1));
        self.bytes.range(0, n)
    }

    /// `U`: the number of code units up to the last non-NUL one.
    #[inline]
    fn unicode_len(&self) -> usize {
        self.bytes
            .slice()
            .chunks_exact(4)
            .rposition(|c| c != [0, 0, 0, 0])
            // i is an index of a chunk: one more cannot overflow
            .map_or(0, |i| i.wrapping_add(1))
    }

    #[cold]
    fn bad_code_point(&self, u: u32) -> Error {
        Error::data(format!(
            "invalid UCS-4 code point 0x{u:x} in '{}' string",
            self.scalar
        ))
    }

    /// `U`: decodes UCS-4 up to the last non-NUL code point into a new
    /// `String` (what `deserialize_string` hands over by value).
    #[inline]
    fn unicode_string(&self) -> Result<String> {
        let n = self.unicode_len();
        let mut s = String::with_capacity(n.min(1 << 20));
        self.each_char(n, |c| s.push(c))?;
        Ok(s)
    }

    /// `U`: decodes UCS-4 up to the last non-NUL code point, without
    /// allocating for short strings (not generic: one copy, whatever
    /// visitor then takes the text).
    fn unicode(&self) -> Result<Ucs4Text> {
        let n = self.unicode_len();
        let mut text = Ucs4Text {
            stack: [0u8; 256],
            len: 0,
            heap: None,
        };
        self.each_char(n, |c| text.push(c, n))?;
        Ok(text)
    }

    /// Hands each of the first `n` code points of a `U` string to `push`.
    #[inline(always)]
    fn each_char(&self, n: usize, push: impl FnMut(char)) -> Result<()> {
        let units = self.bytes.slice().get(..n.saturating_mul(4));
        let units = units.unwrap_or_default();
        // one loop per byte order, so the order is not tested per unit
        if self.big() {
            self.each_unit(units, u32::from_be_bytes, push)
        } else {
            self.each_unit(units, u32::from_le_bytes, push)
        }
    }

    /// Hands the code point of each of `units` (whole UCS-4 units) to `push`.
    #[inline(always)]
    fn each_unit(
        &self,
        units: &[u8],
        unit: fn([u8; 4]) -> u32,
        mut push: impl FnMut(char),
    ) -> Result<()> {
        for c in units.chunks_exact(4) {
            let u = unit(c.first_chunk::<4>().copied().unwrap_or_default());
            match u8::try_from(u) {
                Ok(a) if a.is_ascii() => push(char::from(a)),
                _ => push(char::from_u32(u).ok_or_else(|| self.bad_code_point(u))?),
            }
        }
        Ok(())
    }

    /// `c8`/`c16`: the real and imaginary parts as scalars.
    fn complex_parts<'r>(&self) -> Result<Elements<'r, 'a, 'de>> {
        let ScalarType::Complex(n) = self.scalar.ty() else {
            return Err(internal());
        };
        let half = usize::from(n / 2);
        let part = Scalar::new(ScalarType::Float(n / 2), self.scalar.order());
        // the bytes are exactly the scalar's: two halves
        let (re, im) = self.bytes.split_checked(half).ok_or_else(internal)?;
        let pair = [
            ScalarDe::new(part, re, self.cfg),
            ScalarDe::new(part, im, self.cfg),
        ];
        Ok(Elements::Pair(pair.into_iter(), self.scalar))
    }

    /// What the self-describing presentation hands the visitor: worked
    /// out here, not generic (one copy), so [`ScalarDe::any`] is only the
    /// visitor's calls.
    #[inline(never)]
    fn shown<'r>(&self) -> Result<Shown<'r, 'a, 'de>> {
        if let Some(num) = self.number()? {
            return Ok(Shown::Num(num));
        }
        if let Some(e) = self.unsupported() {
            return Err(e);
        }
        Ok(match self.scalar.ty() {
            ScalarType::Complex(_) => Shown::Parts(self.complex_parts()?),
            // Presented as a sequence of u8 (as serde_json does with bytes),
            // so that self-describing consumers (`serde_json::Value`)
            // accept them; `deserialize_bytes` gets the bytes directly.
            ScalarType::Bytes(_) => Shown::Parts(Elements::Bytes(
                self.stripped_bytes()?.slice().iter(),
                self.scalar,
            )),
            ScalarType::Void(_) => {
                Shown::Parts(Elements::Bytes(self.bytes.slice().iter(), self.scalar))
            }
            ScalarType::Unicode(_) => Shown::Text(self.unicode()?),
            _ => return Err(internal()),
        })
    }

    /// The self-describing presentation.
    fn any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.shown()? {
            Shown::Num(num) => num.visit(visitor),
            Shown::Parts(parts) => parts.visit(visitor),
            Shown::Text(text) => visitor.visit_str(text.as_str()?),
        }
    }

    /// What a compound request (a sequence, tuple, map or struct) gets:
    /// a complex number's parts or a byte string's bytes as a sequence. A
    /// number or a `U` string is refused without calling the visitor, as
    /// serde_json refuses a number or a string where it asks for an array
    /// or an object. A type's own visitor says the same of them (serde's
    /// default visit methods), but would need a copy of each of those
    /// methods per type; this is one non-generic error.
    #[inline]
    pub(crate) fn compound<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.compound_parts(&visitor)?.visit(visitor)
    }

    /// The parts [`compound`](Self::compound) hands the visitor, or its
    /// error (fixed): not generic.
    #[inline(never)]
    pub(crate) fn compound_parts<'r>(
        &self,
        expected: &dyn de::Expected,
    ) -> Result<Elements<'r, 'a, 'de>> {
        let refused = match self.shown()? {
            Shown::Parts(parts) => return Ok(parts),
            Shown::Num(num) => num.refused(expected),
            Shown::Text(text) => {
                de::Error::invalid_type(de::Unexpected::Str(text.as_str()?), expected)
            }
        };
        Err(self.fix(refused))
    }

    fn float<V: Visitor<'de>>(self, visitor: V, want32: bool) -> Result<V::Value> {
        let Some(num) = self.number()? else {
            return self.any(visitor);
        };
        match num {
            Num::Bool(_) => num.visit(visitor),
            // rounded once to each (never through the f64)
            Num::Long(_, f) if want32 => visitor.visit_f32(f),
            Num::F32(x) => visitor.visit_f32(x),
            _ if want32 => {
                let x = match num.exact_f32() {
                    Some(x) => x,
                    None if self.cfg.lossy => num.lossy_f64().map_or(0.0, |x| x as f32),
                    None => return Err(self.not_exact("f32", num)),
                };
                visitor.visit_f32(x)
            }
            _ => {
                let x = match num.exact_f64() {
                    Some(x) => x,
                    None if self.cfg.lossy => num.lossy_f64().unwrap_or(0.0),
                    None => return Err(self.not_exact("f64", num)),
                };
                visitor.visit_f64(x)
            }
        }
    }

    #[cold]
    fn not_exact(&self, ty: &str, num: Num) -> Error {
        let v = match num {
            Num::I64(x) => x.to_string(),
            Num::U64(x) => x.to_string(),
            Num::I32(x) => x.to_string(),
            Num::U32(x) => x.to_string(),
            Num::F64(x) => format!("{x:?}"),
            Num::F32(x) => format!("{x:?}"),
            other => format!("{other:?}"),
        };
        Error::mismatch(format!(
            "'{}' value {v} is not exactly representable as {ty} \
             (ReadOptions::lossy(true) allows rounding)",
            self.scalar
        ))
    }

    /// `deserialize_newtype_struct` with one of the crate's tokens.
    fn special<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        let ty = self.scalar.ty();
        if let Some(kind) = special::bits(name) {
            if ty != kind.own {
                return if kind.reads_value {
                    self.any(visitor)
                } else {
                    visitor.visit_newtype_struct(self)
                };
            }
            // its own type holds the bits: a float type in the file's
            // order, a `V` type little-endian (`big()` is false for it)
            let push = |bits: u64, &b: &u8| (bits << 8) | u64::from(b);
            let bytes = self.bytes.slice().iter();
            let bits = if self.big() {
                bytes.fold(0, push)
            } else {
                bytes.rev().fold(0, push)
            };
            return visitor.visit_newtype_struct(bits.into_deserializer());
        }
        if name == special::COMPLEX {
            // a complex type this crate reads (not one `unsupported` refuses):
            // its `[re, im]` is what a sequence request gets ([`Self::compound`])
            if matches!(ty, ScalarType::Complex(_)) && self.unsupported().is_none() {
                return visitor.visit_newtype_struct(self);
            }
            return self.any(visitor);
        }
        if let Some((datetime, unit)) = super::time_token::parse_token(name) {
            let (file_dt, file_unit) = match ty {
                ScalarType::Datetime(u) => (true, u),
                ScalarType::Timedelta(u) => (false, u),
                _ => return self.any(visitor),
            };
            if file_dt != datetime {
                let want = if datetime {
                    "datetime64"
                } else {
                    "timedelta64"
                };
                return Err(Error::mismatch(format!(
                    "expected {want}, found '{}'",
                    self.scalar
                )));
            }
            let count = rd!(i64, self.bytes.slice(), self.big());
            let converted = super::time_token::convert(count, file_unit, unit, datetime)
                .map_err(|msg| Error::mismatch(format!("'{}' {msg}", self.scalar)))?;
            return visitor.visit_newtype_struct(converted.into_deserializer());
        }
        if name == special::PADDING {
            return visitor.visit_unit();
        }
        visitor.visit_newtype_struct(self)
    }
}

impl<'de> de::Deserializer<'de> for ScalarDe<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.any(visitor).map_err(|e| self.fix(e))
    }

    de_methods!(to(#[inline] exact) deserialize_bool deserialize_i8 deserialize_i16
        deserialize_i32 deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16
        deserialize_u32 deserialize_u64 deserialize_u128);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.float(visitor, true).map_err(|e| self.fix(e))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.float(visitor, false).map_err(|e| self.fix(e))
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let ScalarType::Unicode(_) = self.scalar.ty() {
            let text = self.unicode()?;
            let s = text.as_str()?;
            let mut it = s.chars();
            let r = match (it.next(), it.next()) {
                (Some(c), None) => visitor.visit_char(c),
                _ => visitor.visit_str(s),
            };
            return r.map_err(|e| self.fix(e));
        }
        self.deserialize_any(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.scalar.ty() {
            ScalarType::Bytes(_) => {
                let b = self.stripped_bytes()?;
                let utf8 = std::str::from_utf8(b.slice()).is_ok();
                b.visit_str(visitor)
                    .map_err(|e| match super::serde_message(&e) {
                        Some((_, _, exp)) if !utf8 => Error::mismatch(format!(
                            "expected {exp}, found '{}' bytes that are not UTF-8",
                            self.scalar
                        )),
                        _ => self.fix(e),
                    })
            }
            ScalarType::Unicode(_) => visitor
                .visit_str(self.unicode()?.as_str()?)
                .map_err(|e| self.fix(e)),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let ScalarType::Unicode(_) = self.scalar.ty() {
            // decoded straight into the String the visitor keeps
            let text = self.unicode_string()?;
            return visitor.visit_string(text).map_err(|e| self.fix(e));
        }
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.scalar.ty() {
            ScalarType::Bytes(_) => self
                .stripped_bytes()?
                .visit(visitor)
                .map_err(|e| self.fix(e)),
            ScalarType::Void(_) => self.bytes.visit(visitor).map_err(|e| self.fix(e)),
            _ => self.deserialize_any(visitor),
        }
    }

    de_methods!(to(deserialize_bytes) deserialize_byte_buf);
    de_methods!(some);
    de_methods!(ignored);
    de_methods!(to(compound) deserialize_seq deserialize_tuple deserialize_tuple_struct
        deserialize_map deserialize_struct);

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if special::is_token(name) {
            return self.special(name, visitor).map_err(|e| self.fix(e));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let r = match self.scalar.ty() {
            ScalarType::Unicode(_) => {
                visitor.visit_enum(self.unicode()?.as_str()?.into_deserializer())
            }
            ScalarType::Bytes(_) => {
                let b = self.stripped_bytes()?;
                match std::str::from_utf8(b.slice()) {
                    Ok(s) => visitor.visit_enum(s.into_deserializer()),
                    Err(_) => return self.deserialize_any(visitor),
                }
            }
            _ => return self.deserialize_any(visitor),
        };
        r.map_err(|e| self.fix(e))
    }

    serde::forward_to_deserialize_any! {
        unit unit_struct identifier
    }
}

/// The self-describing presentation of a scalar (see [`ScalarDe::shown`]).
enum Shown<'r, 'a, 'de> {
    /// A number, by the visit method of the file's type.
    Num(Num),
    /// A sequence: `[re, im]`, or the bytes as `u8`s.
    Parts(Elements<'r, 'a, 'de>),
    /// A `U` string.
    Text(Ucs4Text),
}

/// A `U` string's text: UTF-8 on the stack up to 256 bytes, else a
/// `String`.
struct Ucs4Text {
    stack: [u8; 256],
    len: usize,
    heap: Option<String>,
}

impl Ucs4Text {
    /// Appends `c` to a text of `n` code points.
    fn push(&mut self, c: char, n: usize) {
        if let Some(s) = &mut self.heap {
            return s.push(c);
        }
        // len <= stack.len() (256) and w <= 4: no overflow
        let w = c.len_utf8();
        match self.stack.get_mut(self.len..self.len.wrapping_add(w)) {
            Some(dst) => {
                c.encode_utf8(dst);
                self.len = self.len.wrapping_add(w);
            }
            None => {
                let mut s = String::with_capacity(n.saturating_mul(4).min(1 << 20));
                s.push_str(self.as_str().unwrap_or_default());
                s.push(c);
                self.heap = Some(s);
            }
        }
    }

    fn as_str(&self) -> Result<&str> {
        match &self.heap {
            Some(s) => Ok(s),
            None => std::str::from_utf8(self.stack.get(..self.len).ok_or_else(internal)?)
                .map_err(|_| internal()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Narrows an f32 that came from a half back to its bits (test helper).
    fn f32_to_f16_bits(x: f32) -> u16 {
        let b = x.to_bits();
        let sign = ((b >> 16) & 0x8000) as u16;
        let exp = ((b >> 23) & 0xff) as i32;
        let man = b & 0x7f_ffff;
        if exp == 0xff {
            return sign | 0x7c00 | (man >> 13) as u16;
        }
        if exp == 0 {
            return sign;
        }
        let e = exp - 127 + 15;
        if e >= 1 {
            return sign | ((e as u16) << 10) | (man >> 13) as u16;
        }
        // subnormal half
        let full = man | 0x80_0000;
        sign | (full >> (14 - e)) as u16
    }

    #[test]
    fn f16_widening_round_trips_all_bit_patterns() {
        for h in 0..=u16::MAX {
            let f = f16_bits_to_f32(h);
            assert_eq!(f32_to_f16_bits(f), h, "bits {h:#06x}");
        }
    }

    #[test]
    fn f16_values() {
        assert_eq!(f16_bits_to_f32(0x3c00), 1.0);
        assert_eq!(f16_bits_to_f32(0xc000), -2.0);
        assert_eq!(f16_bits_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_bits_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_bits_to_f32(0x03ff), 1023.0 * 2f32.powi(-24));
        assert_eq!(f16_bits_to_f32(0x0400), 2f32.powi(-14));
        assert_eq!(f16_bits_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_bits_to_f32(0x7e00).is_nan());
        assert_eq!(f16_bits_to_f32(0x8000).to_bits(), 0x8000_0000);
    }

    #[cfg(feature = "half")]
    #[test]
    fn f16_matches_half_crate() {
        for h in 0..=u16::MAX {
            let ours = f16_bits_to_f32(h);
            let theirs = half::f16::from_bits(h).to_f32();
            assert!(
                ours == theirs || (ours.is_nan() && theirs.is_nan()),
                "{h:#06x}"
            );
        }
    }

    #[test]
    fn exactness() {
        assert_eq!(Num::I64(1 << 53).exact_f64(), Some(9007199254740992.0));
        assert_eq!(Num::I64((1 << 53) + 1).exact_f64(), None);
        assert_eq!(Num::I64(i64::MAX).exact_f64(), None);
        assert_eq!(Num::I64(i64::MIN).exact_f64(), Some(-9223372036854775808.0));
        assert_eq!(Num::U64(u64::MAX).exact_f64(), None);
        assert_eq!(Num::I32(1 << 24).exact_f32(), Some(16777216.0));
        assert_eq!(Num::I32((1 << 24) + 1).exact_f32(), None);
        assert_eq!(Num::F64(0.1).exact_f32(), None);
        assert_eq!(Num::F64(0.5).exact_f32(), Some(0.5));
        assert!(Num::F64(f64::NAN).exact_f32().unwrap().is_nan());
        assert_eq!(Num::F64(1e300).exact_f32(), None);
    }
}
