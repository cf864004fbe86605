//! Pass 2: writes ONE element into a byte slice of exactly its dtype's
//! itemsize, walking the dtype alongside the value.
//!
//! Record fields are matched by name: the next field in dtype order is tried
//! first (the common case, a derived struct written with its own dtype), then
//! the record is searched. Scalars are written in the dtype's byte order,
//! converting the value exactly or failing:
//!
//! | value \ dtype | conversion |
//! |---|---|
//! | bool | only into `b1` |
//! | integer | into `i*`/`u*` of any width when the value fits; into `f2`/`f4`/`f8` only when exact; into `M8`/`m8` as a count of the dtype's unit |
//! | `f32`/`f64` | into `f8`, `f4` and `f2` only when exactly representable (infinities pass; a NaN keeps its sign, signalling bit and payload, and is refused when the payload does not fit the narrower type) |
//! | complex newtype, or a 2-sequence `[re, im]` of numbers | into `c8`/`c16`, each part exactly |
//! | `half::f16` | into `f2` bit-exact, into `f4`/`f8` widened |
//! | string, char, unit enum variant | into `Un` (at most n characters) and `Sn` (its UTF-8 bytes, at most n) |
//! | bytes, or a sequence of integers 0..=255 (how `deserialize_any` reads `S`/`V`) | into `Sn` and `Vn` (at most n bytes, zero padded) |
//! | `Datetime64`/`Timedelta64` | into `M8`/`m8` respectively, unit converted exactly (NaT stays NaT; years/months do not convert into days or shorter units) |
//! | `Padding<N>` | a gap; into a `V` field it writes zeros |
//! | sequence | into a subarray of the same length (nested sequences for several dims), or positionally into a record |
//! | struct, map | into a record, fields by name; a field the dtype lacks and a dtype field the value lacks are errors |
//!
//! Strings and bytes ending in NUL are refused (numpy strips trailing NULs).
//! Padding bytes are left as they are in the buffer, which callers zero.

use serde::ser::{self, Serialize};

use super::Found;
use crate::dtype::{ByteOrder, Dtype, Record, Scalar, ScalarType};
use crate::error::{Error, Result};
use crate::pyrepr::PyStr;
use crate::ser::convert::{
    convert_time, f16_bits_to_f64, f32_to_f64, f64_to_f16_bits_exact, f64_to_f32_exact,
    i64_to_f64_exact, u64_to_f64_exact,
};
use crate::ser::infer::time_unit;
use crate::ser::probe::key_text;
use crate::ser::probe::{Captured, probe};
use crate::special::Special;

/// The pass-2 serializer for one element (or a part of one).
///
/// In *strict* mode (the speculative single pass, see `spec.rs`) it accepts
/// only what pass 1 would have inferred as this very dtype: the same scalar
/// types without conversion, fields in dtype order, no padding values; any
/// other value fails so that the caller falls back to the two passes.
pub(crate) struct Enc<'a> {
    dt: &'a Dtype,
    /// Subarray dims still to be peeled before `dt` applies.
    dims: &'a [u64],
    buf: &'a mut [u8],
    strict: bool,
}

/// The error strict mode returns (never shown: the caller falls back).
#[cold]
fn not_strict() -> Error {
    Error::schema("value differs from the first record (speculative pass)")
}

impl<'a> Enc<'a> {
    /// Enum variants with data (the only values no pass writes).
    fn refuse(self, found: Found) -> Error {
        found.refused()
    }

    /// A 16-bit float given as its bits (`half::f16`, `Bf16`): its own
    /// type `own` takes the bits (ml_dtypes' `V2` for bfloat16, little-endian),
    /// any other dtype its value (`to_f64`), converted exactly or refused.
    fn put_bits16<T: ?Sized + Serialize>(
        self,
        value: &T,
        own: ScalarType,
        what: &str,
        to_f64: impl Fn(u16) -> f64,
    ) -> Result<()> {
        let Captured::UInt(bits) = probe(value) else {
            return Err(Error::mismatch(format!(
                "malformed {what} (expected u16 bits)"
            )));
        };
        let bits = u16::try_from(bits).map_err(|_| Error::mismatch(format!("malformed {what}")))?;
        self.strict_ok(own)?;
        match self.scalar() {
            Some(s) if s.ty() == own => {
                write_uint(self.buf, bits.into(), 2, s.order() == ByteOrder::Big)
            }
            _ => {
                let v = to_f64(bits);
                self.put_float(v, true, &|| v.to_string())
            }
        }
    }

    /// An encoder writing `dt` into `buf` (`buf.len() == dt.itemsize()`);
    /// the crate goes through `DtypeTree::new(dt, false)`, which encodes the same.
    #[cfg(test)]
    pub(crate) fn new(dt: &'a Dtype, buf: &'a mut [u8]) -> Self {
        Enc::with_mode(dt, buf, false)
    }

    /// An encoder in strict mode (see the type docs).
    #[cfg(test)]
    pub(crate) fn strict(dt: &'a Dtype, buf: &'a mut [u8]) -> Self {
        Enc::with_mode(dt, buf, true)
    }

    /// An encoder in strict mode or not.
    #[inline]
    pub(crate) fn with_mode(dt: &'a Dtype, buf: &'a mut [u8], strict: bool) -> Self {
        match dt {
            Dtype::Subarray(base, dims) => Enc {
                dt: base,
                dims,
                buf,
                strict,
            },
            _ => Enc {
                dt,
                dims: &[],
                buf,
                strict,
            },
        }
    }

    /// Whether the dtype is a scalar of exactly `ty` in little-endian (or
    /// single-byte) order: the value's own bytes are written as they are,
    /// with no range or exactness check (the hot path of a derived struct
    /// written with its own dtype; fine in strict mode too).
    #[inline(always)]
    fn fast(&self, ty: ScalarType) -> bool {
        match (self.dims.is_empty(), self.dt) {
            (true, Dtype::Scalar(s)) => s.ty() == ty && s.order() != ByteOrder::Big,
            _ => false,
        }
    }

    /// In strict mode, whether the dtype is a scalar of exactly `ty`.
    #[inline]
    fn strict_ok(&self, ty: ScalarType) -> Result<()> {
        if self.strict && self.scalar().map(|s| s.ty()) != Some(ty) {
            return Err(not_strict());
        }
        Ok(())
    }

    #[inline]
    fn scalar(&self) -> Option<Scalar> {
        match (self.dims.is_empty(), self.dt) {
            (true, Dtype::Scalar(s)) => Some(*s),
            _ => None,
        }
    }

    fn expected(&self) -> String {
        if let Some(n) = self.dims.first() {
            return format!("a sequence of length {n}");
        }
        match self.dt {
            Dtype::Scalar(s) => format!("'{s}'"),
            Dtype::Record(r) if r.fields().is_empty() => "an empty record".to_owned(),
            Dtype::Record(_) => "a record".to_owned(),
            Dtype::Subarray(_, d) => format!("a sequence of length {}", d.first().unwrap_or(&0)),
        }
    }

    #[cold]
    fn mismatch(&self, found: &str) -> Error {
        Error::mismatch(format!("expected {}, found {found}", self.expected()))
    }

    /// Out of line: the fast paths of `serialize_*` stay small enough to be
    /// inlined into a derived `Serialize` (and `[f32; N]`'s element loop).
    #[inline(never)]
    fn put_int(self, v: i128, src: ScalarType) -> Result<()> {
        self.strict_ok(src)?;
        let Some(s) = self.scalar() else {
            return Err(self.mismatch(&format!("integer {v}")));
        };
        let big = s.order() == ByteOrder::Big;
        match s.ty() {
            ScalarType::Int(n @ (1 | 2 | 4 | 8)) => {
                // n is 1, 2, 4 or 8: bits is at most 63, far inside i128
                let bits = u32::from(n).wrapping_mul(8).wrapping_sub(1);
                let (min, max) = (
                    (1i128 << bits).wrapping_neg(),
                    (1i128 << bits).wrapping_sub(1),
                );
                if v < min || v > max {
                    return Err(not_fit(v, &s));
                }
                write_uint(self.buf, v as u64, n, big)
            }
            ScalarType::UInt(n @ (1 | 2 | 4 | 8)) => {
                // n is 1, 2, 4 or 8: a shift of at most 64, far inside i128
                let max = (1i128 << u32::from(n).wrapping_mul(8)).wrapping_sub(1);
                if v < 0 || v > max {
                    return Err(not_fit(v, &s));
                }
                write_uint(self.buf, v as u64, n, big)
            }
            ScalarType::Float(_) => {
                let f = if v < 0 {
                    i64::try_from(v).ok().and_then(i64_to_f64_exact)
                } else {
                    u64::try_from(v).ok().and_then(u64_to_f64_exact)
                };
                match f {
                    Some(f) => self.put_float(f, false, &|| v.to_string()),
                    None => Err(inexact(&v.to_string(), &s)),
                }
            }
            ScalarType::Datetime(_) | ScalarType::Timedelta(_) => {
                let c = i64::try_from(v).map_err(|_| not_fit(v, &s))?;
                write_uint(self.buf, c as u64, 8, big)
            }
            _ => Err(self.mismatch(&format!("integer {v}"))),
        }
    }

    /// `f64` into anything but a little-endian `f8`.
    #[inline(never)]
    fn put_f64(self, v: f64) -> Result<()> {
        self.strict_ok(ScalarType::Float(8))?;
        self.put_float(v, false, &|| v.to_string())
    }

    /// `f32` into anything but a little-endian `f4`.
    #[inline(never)]
    fn put_f32(self, v: f32) -> Result<()> {
        self.strict_ok(ScalarType::Float(4))?;
        match self.scalar() {
            Some(s) if s.ty() == ScalarType::Float(4) => {
                write_uint(self.buf, v.to_bits().into(), 4, s.order() == ByteOrder::Big)
            }
            _ => self.put_float(f32_to_f64(v), true, &|| v.to_string()),
        }
    }

    #[inline(never)]
    fn put_float(self, v: f64, from_f32: bool, show: &dyn Fn() -> String) -> Result<()> {
        let Some(s) = self.scalar() else {
            return Err(self.mismatch(&format!("float {}", show())));
        };
        let big = s.order() == ByteOrder::Big;
        match s.ty() {
            ScalarType::Float(8) => write_uint(self.buf, v.to_bits(), 8, big),
            ScalarType::Float(4) => match f64_to_f32_exact(v) {
                Some(f) => write_uint(self.buf, f.to_bits().into(), 4, big),
                None => Err(inexact_float(&show(), &[v], from_f32, &s)),
            },
            ScalarType::Float(2) => match f64_to_f16_bits_exact(v) {
                Some(b) => write_uint(self.buf, b.into(), 2, big),
                None => Err(inexact_float(&show(), &[v], from_f32, &s)),
            },
            _ => {
                let what = if from_f32 { "f32" } else { "float" };
                Err(self.mismatch(&format!("{what} {}", show())))
            }
        }
    }

    fn put_complex(self, re: f64, im: f64) -> Result<()> {
        let Some(s) = self.scalar() else {
            return Err(self.mismatch("a complex number"));
        };
        let big = s.order() == ByteOrder::Big;
        let show = || format!("({re}{im:+}j)");
        match (s.ty(), self.buf.split_at_mut_checked(self.buf.len() / 2)) {
            (ScalarType::Complex(16), Some((a, b))) => {
                write_uint(a, re.to_bits(), 8, big)?;
                write_uint(b, im.to_bits(), 8, big)
            }
            (ScalarType::Complex(8), Some((a, b))) => {
                match (f64_to_f32_exact(re), f64_to_f32_exact(im)) {
                    (Some(r), Some(i)) => {
                        write_uint(a, r.to_bits().into(), 4, big)?;
                        write_uint(b, i.to_bits().into(), 4, big)
                    }
                    _ => Err(inexact_float(&show(), &[re, im], false, &s)),
                }
            }
            _ => Err(self.mismatch(&format!("complex {}", show()))),
        }
    }

    fn put_str(self, v: &str) -> Result<()> {
        let Some(s) = self.scalar() else {
            return Err(self.mismatch("string"));
        };
        if v.ends_with('\0') {
            return Err(nul_error());
        }
        if self.strict && !matches!(s.ty(), ScalarType::Unicode(_)) {
            return Err(not_strict());
        }
        match s.ty() {
            ScalarType::Unicode(_) => {
                if put_unicode(self.buf, v, s.order() == ByteOrder::Big) {
                    Ok(())
                } else {
                    Err(too_long(v.chars().count(), "characters", &s))
                }
            }
            ScalarType::Bytes(_) => self.put_raw(v.as_bytes(), &s),
            _ => Err(self.mismatch("string")),
        }
    }

    fn put_raw(self, v: &[u8], s: &Scalar) -> Result<()> {
        let (head, tail) = self
            .buf
            .split_at_mut_checked(v.len())
            .ok_or_else(|| too_long(v.len(), "bytes", s))?;
        head.copy_from_slice(v);
        tail.fill(0);
        Ok(())
    }

    fn put_time(self, count: i64, unit_name: &str, rest: &str, delta: bool) -> Result<()> {
        let from = time_unit(unit_name, rest)?;
        let found = || {
            let kind = if delta { "timedelta64" } else { "datetime64" };
            format!("{kind}{from}")
        };
        let Some(s) = self.scalar() else {
            return Err(self.mismatch(&found()));
        };
        let to = match (s.ty(), delta) {
            (ScalarType::Datetime(u), false) | (ScalarType::Timedelta(u), true) => u,
            _ => return Err(self.mismatch(&found())),
        };
        if self.strict && to != from {
            return Err(not_strict());
        }
        let c = convert_time(count, from, to, !delta)?;
        write_uint(self.buf, c as u64, 8, s.order() == ByteOrder::Big)
    }

    #[inline]
    /// An n-d array into a subarray whose outer dims are its shape: the
    /// flat data encoded in C order (Fortran data into a buffer first, then
    /// reordered).
    fn nd<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        let nd = crate::ser::probe::shape_of(value)?;
        let (Some(count), Some(rest)) = (nd.count(), self.dims.strip_prefix(&nd.dims[..])) else {
            return Err(self.mismatch(&format!(
                "an n-d array of shape {}",
                crate::dtype::ShapeRepr(&nd.dims)
            )));
        };
        // the outer dims as one axis of all the elements, in the order stored
        let flat: Vec<u64> = std::iter::once(count).chain(rest.iter().copied()).collect();
        let (dt, strict) = (self.dt, self.strict);
        if !nd.reordered() {
            let enc = Enc {
                dt,
                dims: &flat,
                buf: self.buf,
                strict,
            };
            return crate::ser::probe::parts(value, |_| Ok(enc)).map(|_| ());
        }
        let mut stored = vec![0u8; self.buf.len()];
        let enc = Enc {
            dt,
            dims: &flat,
            buf: &mut stored,
            strict,
        };
        crate::ser::probe::parts(value, |_| Ok(enc))?;
        let elsize = usize::try_from(count)
            .ok()
            .and_then(|n| stored.len().checked_div(n))
            .unwrap_or(0);
        crate::ser::nd::reorder(&stored, self.buf, &nd.dims, elsize, true);
        Ok(())
    }

    fn record(self) -> Result<RecEnc<'a>> {
        match (self.dims.is_empty(), self.dt) {
            (true, Dtype::Record(rec)) => Ok(RecEnc {
                seen: Seen::new(rec.fields().len()),
                rec,
                buf: self.buf,
                next: 0,
                pending: None,
                strict: self.strict,
            }),
            _ => Err(self.mismatch("a record")),
        }
    }

    /// A sequence (`Seq`), tuple (`Tuple`) or tuple struct (`TupleStruct`).
    #[inline]
    fn seq(self, kind: SeqKind) -> Result<SeqEnc<'a>> {
        if self.strict {
            // what pass 1 infers: sequences and tuples as arrays, tuples
            // and tuple structs as records
            let ok = matches!(
                (self.dims.is_empty(), self.dt, kind),
                (false, _, SeqKind::Seq | SeqKind::Tuple)
                    | (
                        true,
                        Dtype::Record(_),
                        SeqKind::Tuple | SeqKind::TupleStruct
                    )
            );
            if !ok {
                return Err(not_strict());
            }
        }
        if let Some((&n, rest)) = self.dims.split_first() {
            let elsize = usize::try_from(n)
                .ok()
                .and_then(|n| self.buf.len().checked_div(n))
                .unwrap_or(0);
            return Ok(SeqEnc::Sub {
                dt: self.dt,
                rest,
                buf: self.buf,
                elsize,
                n,
                i: 0,
                strict: self.strict,
            });
        }
        match self.dt {
            Dtype::Record(rec) => Ok(SeqEnc::Rec {
                rec,
                buf: self.buf,
                i: 0,
                strict: self.strict,
            }),
            Dtype::Scalar(s) if matches!(s.ty(), ScalarType::Complex(_)) => Ok(SeqEnc::Complex {
                enc: self,
                parts: [None, None],
                n: 0,
            }),
            Dtype::Scalar(s) if matches!(s.ty(), ScalarType::Bytes(_) | ScalarType::Void(_)) => {
                Ok(SeqEnc::Bytes {
                    s: *s,
                    buf: self.buf,
                    n: 0,
                })
            }
            _ => Err(self.mismatch("a sequence")),
        }
    }
}

/// Which serde method opened a sequence.
#[derive(Clone, Copy)]
pub(crate) enum SeqKind {
    Seq,
    Tuple,
    TupleStruct,
}

#[cold]
fn not_fit(v: i128, s: &Scalar) -> Error {
    Error::mismatch(format!("{v} does not fit '{s}'"))
}

#[cold]
fn inexact(v: &str, s: &Scalar) -> Error {
    Error::mismatch(format!("{v} is not exactly representable as '{s}'"))
}

/// [`inexact`] for floats: a NaN is shown with its bits, and the rule.
#[cold]
fn inexact_float(v: &str, parts: &[f64], from_f32: bool, s: &Scalar) -> Error {
    let Some(nan) = parts.iter().find(|p| p.is_nan()) else {
        return inexact(v, s);
    };
    let bits = match f64_to_f32_exact(*nan) {
        Some(f) if from_f32 => format!("{:#010x}", f.to_bits()),
        _ => format!("{:#018x}", nan.to_bits()),
    };
    let v = if parts.len() == 1 {
        format!("NaN with bits {bits}")
    } else {
        format!("{v} with a NaN of bits {bits}")
    };
    Error::mismatch(format!(
        "{v} is not exactly representable as '{s}' (a NaN converts only when its payload fits the narrower type)"
    ))
}

#[cold]
fn too_long(n: usize, unit: &str, s: &Scalar) -> Error {
    Error::mismatch(format!("value of {n} {unit} does not fit '{s}'")).too_wide()
}

#[cold]
fn nul_error() -> Error {
    Error::unsupported(
        "value ends in NUL, which numpy strips when reading; use a '|V' dtype to keep it",
    )
}

/// `v` as UCS-4 code points into `dst` (a `U` value), the rest zero;
/// `false` when it has more characters than `dst` holds. The one `U`
/// string encoder of every pass (ASCII text is widened without decoding).
#[inline(always)]
pub(crate) fn put_unicode(dst: &mut [u8], v: &str, big: bool) -> bool {
    if v.is_ascii() {
        let Some((head, tail)) = v
            .len()
            .checked_mul(4)
            .and_then(|used| dst.split_at_mut_checked(used))
        else {
            return false;
        };
        for (d, b) in head.chunks_exact_mut(4).zip(v.bytes()) {
            d.copy_from_slice(&if big { [0, 0, 0, b] } else { [b, 0, 0, 0] });
        }
        tail.fill(0);
        return true;
    }
    let mut chunks = dst.chunks_exact_mut(4);
    for c in v.chars() {
        let Some(d) = chunks.next() else {
            return false;
        };
        let c = u32::from(c);
        d.copy_from_slice(&if big {
            c.to_be_bytes()
        } else {
            c.to_le_bytes()
        });
    }
    for d in chunks {
        d.fill(0);
    }
    true
}

/// Writes the low `n` bytes of `bits` in the given byte order.
#[inline]
fn write_uint(buf: &mut [u8], bits: u64, n: u8, big: bool) -> Result<()> {
    let bytes = if big {
        bits.to_be_bytes()
    } else {
        bits.to_le_bytes()
    };
    // the low N bytes: the first N little-endian, the last N big-endian
    fn low<const N: usize>(buf: &mut [u8], bytes: &[u8; 8], big: bool) -> Option<()> {
        let src = if big {
            bytes.last_chunk::<N>()
        } else {
            bytes.first_chunk::<N>()
        };
        *buf.first_chunk_mut::<N>()? = *src?;
        Some(())
    }
    let ok = match n {
        8 => low::<8>(buf, &bytes, big),
        4 => low::<4>(buf, &bytes, big),
        2 => low::<2>(buf, &bytes, big),
        1 => low::<1>(buf, &bytes, big),
        _ => None,
    };
    ok.ok_or_else(|| Error::mismatch("internal: buffer does not match the itemsize"))
}

/// Which record fields a value has given (a bit per field; records of more
/// than 128 fields use a vector).
struct Seen {
    small: u128,
    big: Vec<bool>,
    count: usize,
}

impl Seen {
    #[inline]
    fn new(n: usize) -> Self {
        Seen {
            small: 0,
            big: if n > 128 { vec![false; n] } else { Vec::new() },
            count: 0,
        }
    }
    /// Marks field `i`; false when it was marked before.
    #[inline]
    fn mark(&mut self, i: usize) -> bool {
        let fresh = if self.big.is_empty() {
            let bit = 1u128 << (i & 127);
            let fresh = self.small & bit == 0;
            self.small |= bit;
            fresh
        } else {
            match self.big.get_mut(i) {
                Some(b) => !std::mem::replace(b, true),
                None => false,
            }
        };
        // at most one per field: count <= the number of fields
        self.count = self.count.wrapping_add(usize::from(fresh));
        fresh
    }
    fn has(&self, i: usize) -> bool {
        if self.big.is_empty() {
            self.small & (1u128 << (i & 127)) != 0
        } else {
            self.big.get(i).copied().unwrap_or(false)
        }
    }
}

/// A struct or map written into a record.
pub(crate) struct RecEnc<'a> {
    rec: &'a Record,
    buf: &'a mut [u8],
    /// The field expected next (the one after the last written).
    next: usize,
    seen: Seen,
    /// For maps: the field index of the pending key, or the unknown name.
    pending: Option<std::result::Result<usize, String>>,
    /// Strict mode: fields only in dtype order.
    strict: bool,
}

impl RecEnc<'_> {
    #[inline]
    fn lookup(&self, key: &str) -> Option<usize> {
        let fields = self.rec.fields();
        match fields.get(self.next) {
            Some(f) if f.name() == key => Some(self.next),
            _ => fields.iter().position(|f| f.name() == key),
        }
    }

    /// A struct's field, by its name.
    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        let idx = self.lookup(key);
        self.field_at(idx, key, value)
    }

    #[inline]
    fn field_at<T: ?Sized + Serialize>(
        &mut self,
        idx: Option<usize>,
        key: &str,
        value: &T,
    ) -> Result<()> {
        if self.strict && idx != Some(self.next) {
            return Err(not_strict());
        }
        let Some(idx) = idx else {
            if let Captured::Padding(_) = probe(value) {
                return Ok(());
            }
            return Err(Error::mismatch(format!(
                "the dtype has no such field (it has {})",
                field_names(self.rec)
            ))
            .in_field(key));
        };
        let Some(f) = self.rec.fields().get(idx) else {
            return Err(Error::mismatch("internal: field index"));
        };
        let start = f.offset();
        let dst = start
            .checked_add(f.size())
            .and_then(|end| self.buf.get_mut(start..end))
            .ok_or_else(|| Error::mismatch("internal: field outside the record"))?;
        value
            .serialize(Enc::with_mode(f.dtype(), dst, self.strict))
            .map_err(|e| e.in_field(key))?;
        // strict mode takes fields only in order, so none can repeat
        if !self.strict && !self.seen.mark(idx) {
            return Err(Error::mismatch("field given twice").in_field(key));
        }
        // idx indexes the record's fields: one more cannot overflow
        self.next = idx.wrapping_add(1);
        Ok(())
    }

    #[inline]
    fn finish(self) -> Result<()> {
        if self.strict {
            return if self.next == self.rec.fields().len() {
                Ok(())
            } else {
                Err(not_strict())
            };
        }
        if self.seen.count == self.rec.fields().len() {
            return Ok(());
        }
        let missing = (0..self.rec.fields().len())
            .find(|&i| !self.seen.has(i))
            .and_then(|i| self.rec.fields().get(i))
            .map(|f| f.name())
            .unwrap_or("?");
        Err(Error::mismatch("missing from the value (the dtype has this field)").in_field(missing))
    }
}

fn field_names(rec: &Record) -> String {
    let mut s = String::from("[");
    for (i, f) in rec.fields().iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&PyStr(f.name()).to_string());
    }
    s.push(']');
    s
}

elements!(impl['a] RecEnc<'a> => (), Error: SerializeStruct);

impl ser::SerializeMap for RecEnc<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let (rec, next) = (self.rec, self.next);
        let looked = key_text(key, true, |k| find_key(rec, next, k))
            .map_err(|e| e.into_error(|_| bad_key()))?;
        self.pending = Some(looked);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let rec = self.rec;
        match self.pending.take() {
            Some(Ok(i)) => {
                let name = rec.fields().get(i).map(|f| f.name()).unwrap_or_default();
                self.field_at(Some(i), name, value)
            }
            Some(Err(name)) => self.field_at(None, &name, value),
            None => Err(Error::mismatch("map value without a key")),
        }
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// Finds a map key among the record's fields (the next one first) without
/// allocating; only an unknown key is copied (for the error message).
fn find_key(rec: &Record, next: usize, key: &str) -> Looked {
    let fields = rec.fields();
    match fields.get(next) {
        Some(f) if f.name() == key => Ok(next),
        _ => fields
            .iter()
            .position(|f| f.name() == key)
            .ok_or_else(|| key.to_owned()),
    }
}

/// A map key's field index, or the unknown name.
type Looked = std::result::Result<usize, String>;

fn bad_key() -> Error {
    Error::unsupported("map key that is not a string; record field names must be strings")
}

/// A sequence or tuple: a subarray axis, a record filled by position, or
/// the `[re, im]` of a complex number.
pub(crate) enum SeqEnc<'a> {
    Sub {
        dt: &'a Dtype,
        rest: &'a [u64],
        buf: &'a mut [u8],
        elsize: usize,
        n: u64,
        i: u64,
        strict: bool,
    },
    Rec {
        rec: &'a Record,
        buf: &'a mut [u8],
        i: usize,
        strict: bool,
    },
    Complex {
        enc: Enc<'a>,
        parts: [Option<f64>; 2],
        n: usize,
    },
    /// A sequence of `u8` into `Sn`/`Vn`: how `deserialize_any` hands such
    /// a field over (`S` without its trailing NULs), so it writes back.
    Bytes {
        s: Scalar,
        buf: &'a mut [u8],
        n: usize,
    },
}

impl SeqEnc<'_> {
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match self {
            SeqEnc::Sub {
                dt,
                rest,
                buf,
                elsize,
                n,
                i,
                strict,
            } => {
                let idx = *i;
                if idx >= *n {
                    return Err(Error::mismatch(format!(
                        "sequence longer than the subarray length {n}"
                    )));
                }
                let start = (idx as usize).wrapping_mul(*elsize);
                let dst = buf
                    .get_mut(start..start.wrapping_add(*elsize))
                    .ok_or_else(|| {
                        Error::mismatch("internal: subarray element outside the buffer")
                    })?;
                let enc = if rest.is_empty() {
                    Enc::with_mode(dt, dst, *strict)
                } else {
                    Enc {
                        dt,
                        dims: rest,
                        buf: dst,
                        strict: *strict,
                    }
                };
                value.serialize(enc).map_err(|e| e.at_index(idx))?;
                // idx < n (checked above)
                *i = idx.wrapping_add(1);
                Ok(())
            }
            SeqEnc::Rec {
                rec,
                buf,
                i,
                strict,
            } => {
                let idx = *i;
                let Some(f) = rec.fields().get(idx) else {
                    return Err(Error::mismatch(format!(
                        "tuple longer than the record's {} fields",
                        rec.fields().len()
                    )));
                };
                let start = f.offset();
                let dst = start
                    .checked_add(f.size())
                    .and_then(|end| buf.get_mut(start..end))
                    .ok_or_else(|| Error::mismatch("internal: field outside the record"))?;
                value
                    .serialize(Enc::with_mode(f.dtype(), dst, *strict))
                    .map_err(|e| e.in_field(f.name()))?;
                // idx indexes the record's fields (checked above)
                *i = idx.wrapping_add(1);
                Ok(())
            }
            SeqEnc::Complex { parts, n, .. } => {
                let part = match probe(value) {
                    Captured::F64(v) => Some(v),
                    Captured::F32(v) => Some(f32_to_f64(v)),
                    Captured::Int(v) => i64_to_f64_exact(v),
                    Captured::UInt(v) => u64_to_f64_exact(v),
                    _ => None,
                };
                let Some(part) = part else {
                    return Err(Error::mismatch(
                        "complex parts must be numbers exactly representable as floats",
                    )
                    .at_index(*n as u64));
                };
                if let Some(slot) = parts.get_mut(*n) {
                    *slot = Some(part);
                }
                // more than 2 parts is refused at the end; saturation
                // keeps that refusal whatever the count
                *n = n.saturating_add(1);
                Ok(())
            }
            SeqEnc::Bytes { s, buf, n } => {
                let byte = match probe(value) {
                    Captured::UInt(v) => u8::try_from(v).ok(),
                    Captured::Int(v) => u8::try_from(v).ok(),
                    _ => None,
                };
                let Some(byte) = byte else {
                    return Err(Error::mismatch(format!(
                        "expected a byte (an integer 0..=255) of '{s}'"
                    ))
                    .at_index(*n as u64));
                };
                let Some(dst) = buf.get_mut(*n) else {
                    return Err(too_long(n.saturating_add(1), "bytes", s));
                };
                *dst = byte;
                // n < buf.len() (checked above)
                *n = n.wrapping_add(1);
                Ok(())
            }
        }
    }

    #[inline]
    fn finish(self) -> Result<()> {
        match self {
            SeqEnc::Sub { n, i, .. } if i != n => Err(Error::mismatch(format!(
                "expected a sequence of length {n}, found length {i}"
            ))),
            SeqEnc::Sub { .. } => Ok(()),
            SeqEnc::Rec { rec, i, .. } if i != rec.fields().len() => Err(Error::mismatch(format!(
                "tuple of {i} elements for a record of {} fields",
                rec.fields().len()
            ))),
            SeqEnc::Rec { .. } => Ok(()),
            SeqEnc::Complex {
                enc,
                parts: [Some(re), Some(im)],
                n: 2,
            } => enc.put_complex(re, im),
            SeqEnc::Complex { enc, n, .. } => Err(enc.mismatch(&format!(
                "a sequence of length {n} (a complex number is [re, im])"
            ))),
            SeqEnc::Bytes { s, buf, n } => {
                let (head, tail) = buf.split_at_mut(n.min(buf.len()));
                if matches!(s.ty(), ScalarType::Bytes(_)) && head.last() == Some(&0) {
                    return Err(nul_error());
                }
                tail.fill(0);
                Ok(())
            }
        }
    }
}

elements!(impl['a] SeqEnc<'a> => (), Error: SerializeSeq SerializeTuple SerializeTupleStruct);

/// The integer methods of [`Enc`]'s `Serializer`: one store when the
/// dtype's scalar is this very type in little-endian order.
macro_rules! fast_int {
    ($($method:ident($ty:ty) => $kind:ident($size:literal)),* $(,)?) => {$(
        #[inline]
        fn $method(self, v: $ty) -> Result<()> {
            if self.fast(ScalarType::$kind($size)) {
                if let Some(d) = self.buf.first_chunk_mut::<$size>() {
                    *d = v.to_le_bytes();
                    return Ok(());
                }
            }
            self.put_int(v.into(), ScalarType::$kind($size))
        }
    )*};
}

impl<'a> ser::Serializer for Enc<'a> {
    serializer_types!((), Error; (SeqEnc<'a>) (SeqEnc<'a>) (SeqEnc<'a>) _ (RecEnc<'a>) (RecEnc<'a>) _);

    refuse!(serialize_newtype_variant serialize_tuple_variant serialize_struct_variant);

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        match self.scalar() {
            Some(s) if s.ty() == ScalarType::Bool => match self.buf.first_mut() {
                Some(b) => {
                    *b = u8::from(v);
                    Ok(())
                }
                None => Err(Error::mismatch("internal: empty bool")),
            },
            _ => Err(self.mismatch("bool")),
        }
    }
    // Integers: a fast path for a value written into its own type in
    // little-endian order (one store), else `put_int`'s checked conversion.
    fast_int! {
        serialize_i8(i8) => Int(1), serialize_i16(i16) => Int(2),
        serialize_i32(i32) => Int(4), serialize_i64(i64) => Int(8),
        serialize_u8(u8) => UInt(1), serialize_u16(u16) => UInt(2),
        serialize_u32(u32) => UInt(4), serialize_u64(u64) => UInt(8),
    }
    fn serialize_i128(self, _: i128) -> Result<()> {
        Err(Error::unsupported("i128 (numpy has no 128-bit integers)"))
    }
    fn serialize_u128(self, _: u128) -> Result<()> {
        Err(Error::unsupported("u128 (numpy has no 128-bit integers)"))
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        if self.fast(ScalarType::Float(4)) {
            if let Some(d) = self.buf.first_chunk_mut::<4>() {
                *d = v.to_le_bytes();
                return Ok(());
            }
        }
        self.put_f32(v)
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        if self.fast(ScalarType::Float(8)) {
            if let Some(d) = self.buf.first_chunk_mut::<8>() {
                *d = v.to_le_bytes();
                return Ok(());
            }
        }
        self.put_f64(v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut b = [0u8; 4];
        self.put_str(v.encode_utf8(&mut b))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.put_str(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        match self.scalar() {
            Some(s) if matches!(s.ty(), ScalarType::Bytes(_)) => {
                if v.last() == Some(&0) {
                    return Err(nul_error());
                }
                self.put_raw(v, &s)
            }
            Some(s) if matches!(s.ty(), ScalarType::Void(_)) && !self.strict => self.put_raw(v, &s),
            _ => Err(self.mismatch("bytes")),
        }
    }
    fn serialize_none(self) -> Result<()> {
        Err(Error::unsupported(
            "None (numpy has no missing value; an Option is written only as Some)",
        ))
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        match (self.dims.is_empty(), self.dt) {
            (true, Dtype::Record(r)) if r.fields().is_empty() => {
                self.buf.fill(0);
                Ok(())
            }
            _ => Err(self.mismatch("unit")),
        }
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.put_str(variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        let (rest, delta) = match Special::of(name) {
            None | Some(Special::Unknown | Special::Foreign) => return value.serialize(self),
            Some(Special::NdArray(_)) => return self.nd(value),
            Some(Special::Complex) => {
                return match probe(value) {
                    Captured::Pair(re, im, f32_parts) => {
                        self.strict_ok(ScalarType::Complex(if f32_parts { 8 } else { 16 }))?;
                        self.put_complex(re, im)
                    }
                    _ => Err(Error::mismatch(
                        "malformed complex value (expected [re, im])",
                    )),
                };
            }
            Some(Special::Padding) => {
                if self.strict {
                    return Err(not_strict());
                }
                return match self.scalar() {
                    Some(s) if matches!(s.ty(), ScalarType::Void(_)) => {
                        self.buf.fill(0);
                        Ok(())
                    }
                    _ => Err(self.mismatch("padding")),
                };
            }
            Some(Special::F16) => {
                return self.put_bits16(value, ScalarType::Float(2), "half float", f16_bits_to_f64);
            }
            // into a float dtype, its f32 value: the upper half of an f32's bits
            Some(Special::Bf16) => {
                let bf16 = |bits: u16| f32_to_f64(f32::from_bits(u32::from(bits) << 16));
                return self.put_bits16(value, ScalarType::Void(2), "bfloat16", bf16);
            }
            Some(Special::Datetime(rest)) => (rest, false),
            Some(Special::Timedelta(rest)) => (rest, true),
        };
        match probe(value) {
            Captured::Int(c) => self.put_time(c, name, rest, delta),
            _ => Err(Error::mismatch(
                "malformed datetime value (expected an i64 count)",
            )),
        }
    }
    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<SeqEnc<'a>> {
        self.seq(SeqKind::Seq)
    }
    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<SeqEnc<'a>> {
        self.seq(SeqKind::Tuple)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<SeqEnc<'a>> {
        self.seq(SeqKind::TupleStruct)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<RecEnc<'a>> {
        self.record()
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<RecEnc<'a>> {
        self.record()
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod more_tests;
