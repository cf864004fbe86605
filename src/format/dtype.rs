//! The dtype tree: what one array element looks like in memory.
//!
//! A [`Dtype`] is a scalar (`'<f8'`), a subarray (`('<f8', (3,))`) or a record
//! of named fields at byte offsets. Padding is not stored as fields: it is the
//! gaps between field offsets and up to the itemsize, and [`Display`] writes it
//! as numpy does, `('', '|V4')`. `Display` prints exactly the `descr` text numpy
//! writes into a header; [`FromStr`](std::str::FromStr) parses it back (and the
//! bare forms people type, `f8`, `=u2`).

// Sizes here come from untrusted headers: every operation is checked.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;

use crate::error::{Error, Result};
use crate::format::pyrepr::PyStr;

/// `n.max(1)` as a divisor the compiler (and clippy) knows is nonzero: for
/// counts of elements of an item size that may be 0 (zero-field records).
#[inline(always)]
pub(crate) fn at_least_one(n: usize) -> std::num::NonZeroUsize {
    std::num::NonZeroUsize::new(n).unwrap_or(std::num::NonZeroUsize::MIN)
}

/// Byte order of a scalar, the first character of its type string.
///
/// ```
/// use npy_serde::{ByteOrder, Dtype};
/// let dt: Dtype = ">i4".parse().unwrap();
/// assert_eq!(dt.byte_order(), ByteOrder::Big);
/// // one-byte and string-of-bytes types have no byte order
/// assert_eq!("u1".parse::<Dtype>().unwrap().byte_order(), ByteOrder::NotApplicable);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// `<`
    Little,
    /// `>`
    Big,
    /// `|`: single bytes, strings of bytes, void, bool and objects.
    NotApplicable,
}

impl ByteOrder {
    /// The byte order of this machine, what numpy means by `=`.
    ///
    /// ```
    /// use npy_serde::{ByteOrder, Dtype};
    /// // numpy's `=` (and no prefix at all) means this machine's order
    /// assert_eq!("=f8".parse::<Dtype>().unwrap().byte_order(), ByteOrder::NATIVE);
    /// #[cfg(target_endian = "little")]
    /// assert_eq!(ByteOrder::NATIVE, ByteOrder::Little);
    /// ```
    pub const NATIVE: ByteOrder = if cfg!(target_endian = "big") {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    };

    /// The character numpy writes: `<`, `>` or `|`.
    ///
    /// ```
    /// assert_eq!(npy_serde::ByteOrder::Big.as_char(), '>');
    /// ```
    pub fn as_char(self) -> char {
        match self {
            ByteOrder::Little => '<',
            ByteOrder::Big => '>',
            ByteOrder::NotApplicable => '|',
        }
    }
}

/// The base unit of a `datetime64` / `timedelta64`.
///
/// ```
/// use npy_serde::{Dtype, Scalar, ScalarType, TimeUnit};
/// let dt: Dtype = "<M8[ms]".parse().unwrap();
/// let Some(ScalarType::Datetime(u)) = dt.as_scalar().map(Scalar::ty) else { panic!() };
/// assert_eq!((u.unit, u.multiplier), (TimeUnit::Milliseconds, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum TimeUnit {
    /// No unit (`'<M8'`): numpy allows only NaT in such an array.
    Generic,
    /// `Y`
    Years,
    /// `M`
    Months,
    /// `W`
    Weeks,
    /// `D`
    Days,
    /// `h`
    Hours,
    /// `m`
    Minutes,
    /// `s`
    Seconds,
    /// `ms`
    Milliseconds,
    /// `us`
    Microseconds,
    /// `ns`
    Nanoseconds,
    /// `ps`
    Picoseconds,
    /// `fs`
    Femtoseconds,
    /// `as`
    Attoseconds,
}

impl TimeUnit {
    /// All units numpy knows, in the order of [`TimeUnit`].
    ///
    /// ```
    /// use npy_serde::TimeUnit;
    /// let codes: Vec<&str> = TimeUnit::ALL.iter().map(|u| u.code()).collect();
    /// assert_eq!(codes.join(" "), " Y M W D h m s ms us ns ps fs as");
    /// ```
    pub const ALL: [TimeUnit; 14] = [
        TimeUnit::Generic,
        TimeUnit::Years,
        TimeUnit::Months,
        TimeUnit::Weeks,
        TimeUnit::Days,
        TimeUnit::Hours,
        TimeUnit::Minutes,
        TimeUnit::Seconds,
        TimeUnit::Milliseconds,
        TimeUnit::Microseconds,
        TimeUnit::Nanoseconds,
        TimeUnit::Picoseconds,
        TimeUnit::Femtoseconds,
        TimeUnit::Attoseconds,
    ];

    /// numpy's code for the unit (`"ns"`); empty for [`TimeUnit::Generic`].
    ///
    /// ```
    /// assert_eq!(npy_serde::TimeUnit::Microseconds.code(), "us");
    /// ```
    pub fn code(self) -> &'static str {
        const CODES: [&str; 14] = [
            "", "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as",
        ];
        // `ALL`'s order: the discriminant is the index
        CODES.get(self as usize).copied().unwrap_or("")
    }

    /// The unit for numpy's code, `None` if there is no such unit.
    ///
    /// ```
    /// use npy_serde::TimeUnit;
    /// assert_eq!(TimeUnit::from_code("ms"), Some(TimeUnit::Milliseconds));
    /// assert_eq!(TimeUnit::from_code("x"), None);
    /// ```
    pub fn from_code(code: &str) -> Option<TimeUnit> {
        TimeUnit::ALL
            .iter()
            .copied()
            .find(|u| *u != TimeUnit::Generic && u.code() == code)
    }
}

/// A datetime unit with its multiplier: `ns`, `25s`.
///
/// ```
/// use npy_serde::{DatetimeUnit, Dtype, ScalarType, TimeUnit};
/// let unit = DatetimeUnit { unit: TimeUnit::Seconds, multiplier: 25 };
/// assert_eq!(unit.to_string(), "[25s]");
/// let dt = Dtype::scalar(ScalarType::Timedelta(unit));
/// assert_eq!(dt.to_string(), "'<m8[25s]'");
/// assert_eq!(dt, "<m8[25s]".parse().unwrap());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DatetimeUnit {
    /// The base unit.
    pub unit: TimeUnit,
    /// How many base units one count means (1 unless written like `25s`).
    pub multiplier: u32,
}

impl DatetimeUnit {
    /// A unit with multiplier 1.
    ///
    /// ```
    /// use npy_serde::{DatetimeUnit, TimeUnit};
    /// assert_eq!(DatetimeUnit::new(TimeUnit::Seconds).to_string(), "[s]");
    /// ```
    pub const fn new(unit: TimeUnit) -> Self {
        DatetimeUnit {
            unit,
            multiplier: 1,
        }
    }

    /// The unit part of a datetime type after `M8`/`datetime64` (or of a
    /// datetime token): `""` (generic), `"[ns]"`, `"[25s]"`. The one
    /// grammar of units; the multiplier fits a C `int` and is not 0, as
    /// numpy requires. The error says why the text is not a unit.
    pub(crate) fn parse(rest: &str) -> std::result::Result<Self, &'static str> {
        if rest.is_empty() {
            return Ok(DatetimeUnit::new(TimeUnit::Generic));
        }
        let inner = rest
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or("expected a unit in brackets such as [ns]")?;
        let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
        let unknown = "unknown unit (expected Y M W D h m s ms us ns ps fs as, optionally with a \
                       multiplier)";
        let (num, code) = inner.split_at_checked(digits).ok_or(unknown)?;
        let unit = TimeUnit::from_code(code).ok_or(unknown)?;
        // digits only: a multiplier that parses is not negative
        let multiplier = match num {
            "" => 1,
            _ => num
                .parse::<i32>()
                .map_err(|_| "the multiplier does not fit a C int")?
                .unsigned_abs(),
        };
        if multiplier == 0 {
            return Err("the multiplier is 0");
        }
        Ok(DatetimeUnit { unit, multiplier })
    }
}

impl fmt::Display for DatetimeUnit {
    /// `[ns]`, `[25s]`, and nothing for the generic unit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.unit, self.multiplier) {
            (TimeUnit::Generic, _) => Ok(()),
            (unit, 1) => write!(f, "[{}]", unit.code()),
            (unit, m) => write!(f, "[{m}{}]", unit.code()),
        }
    }
}

/// The type of a scalar, with its size where the kind has several.
///
/// ```
/// use npy_serde::{Dtype, ScalarType};
/// let dt: Dtype = "|S5".parse().unwrap();
/// assert_eq!(dt.as_scalar().unwrap().ty(), ScalarType::Bytes(5));
/// assert_eq!(Dtype::scalar(ScalarType::Unicode(3)).to_string(), "'<U3'");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScalarType {
    /// `b1`
    Bool,
    /// `i1 i2 i4 i8`: size in bytes.
    Int(u8),
    /// `u1 u2 u4 u8`: size in bytes.
    UInt(u8),
    /// `f2 f4 f8`, and `f16` (x87 long double, readable as a dtype only).
    Float(u8),
    /// `c8 c16`, and `c32` (long double, readable as a dtype only).
    Complex(u8),
    /// `Sn`: n bytes, NUL padded.
    Bytes(usize),
    /// `Un`: n UCS-4 code units (itemsize 4n).
    Unicode(usize),
    /// `Vn`: n raw bytes.
    Void(usize),
    /// `M8[unit]`
    Datetime(DatetimeUnit),
    /// `m8[unit]`
    Timedelta(DatetimeUnit),
    /// `O`: pickled Python objects, never read or written by this crate.
    Object,
}

impl ScalarType {
    /// numpy's kind character: `b i u f c S U V M m O`.
    ///
    /// ```
    /// assert_eq!(npy_serde::ScalarType::Float(8).kind(), 'f');
    /// ```
    pub fn kind(self) -> char {
        match self {
            ScalarType::Bool => 'b',
            ScalarType::Int(_) => 'i',
            ScalarType::UInt(_) => 'u',
            ScalarType::Float(_) => 'f',
            ScalarType::Complex(_) => 'c',
            ScalarType::Bytes(_) => 'S',
            ScalarType::Unicode(_) => 'U',
            ScalarType::Void(_) => 'V',
            ScalarType::Datetime(_) => 'M',
            ScalarType::Timedelta(_) => 'm',
            ScalarType::Object => 'O',
        }
    }

    /// Size of one value in bytes (`U4` is 16 bytes).
    ///
    /// ```
    /// assert_eq!(npy_serde::ScalarType::Unicode(4).itemsize(), Some(16));
    /// ```
    pub fn itemsize(self) -> Option<usize> {
        Some(match self {
            ScalarType::Bool => 1,
            ScalarType::Int(n) | ScalarType::UInt(n) | ScalarType::Float(n) => n.into(),
            ScalarType::Complex(n) => n.into(),
            ScalarType::Bytes(n) | ScalarType::Void(n) => n,
            ScalarType::Unicode(n) => n.checked_mul(4)?,
            ScalarType::Datetime(_) | ScalarType::Timedelta(_) | ScalarType::Object => 8,
        })
    }

    /// Whether the byte order matters for this type (numpy writes `|` otherwise).
    fn has_byte_order(self) -> bool {
        match self {
            ScalarType::Int(n) | ScalarType::UInt(n) | ScalarType::Float(n) => n > 1,
            ScalarType::Bool | ScalarType::Bytes(_) | ScalarType::Void(_) => false,
            other => other != ScalarType::Object,
        }
    }

    /// numpy's alignment on x86-64 (what `align=True` pads to).
    fn alignment(self) -> usize {
        match self {
            ScalarType::Bytes(_) | ScalarType::Void(_) => 1,
            ScalarType::Complex(n) => usize::from(n / 2),
            ScalarType::Unicode(_) => 4,
            // the size of the rest
            ty => ty.itemsize().unwrap_or(1),
        }
    }
}

/// A number stored as its own little-endian bytes: what
/// [`Scalar::plain`] finds (`bool` is one byte, 0 or 1 when written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plain {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
}

impl Plain {
    /// Bytes of one value.
    #[inline]
    pub(crate) fn size(self) -> usize {
        match self {
            Plain::Bool | Plain::I8 | Plain::U8 => 1,
            Plain::I16 | Plain::U16 => 2,
            Plain::I32 | Plain::U32 | Plain::F32 => 4,
            Plain::I64 | Plain::U64 | Plain::F64 => 8,
        }
    }

    /// The typestr without its byte order (`f8`).
    pub(crate) fn code(self) -> &'static str {
        PLAIN.iter().find(|r| r.0 == self).map_or("", |r| r.2)
    }
}

/// Each [`Plain`] with its scalar type and typestr code: the one table
/// behind [`Plain::code`] and [`Scalar::plain`].
const PLAIN: [(Plain, ScalarType, &str); 11] = [
    (Plain::Bool, ScalarType::Bool, "b1"),
    (Plain::I8, ScalarType::Int(1), "i1"),
    (Plain::I16, ScalarType::Int(2), "i2"),
    (Plain::I32, ScalarType::Int(4), "i4"),
    (Plain::I64, ScalarType::Int(8), "i8"),
    (Plain::U8, ScalarType::UInt(1), "u1"),
    (Plain::U16, ScalarType::UInt(2), "u2"),
    (Plain::U32, ScalarType::UInt(4), "u4"),
    (Plain::U64, ScalarType::UInt(8), "u8"),
    (Plain::F32, ScalarType::Float(4), "f4"),
    (Plain::F64, ScalarType::Float(8), "f8"),
];

/// A scalar type with its byte order: `'<f8'`, `'|S5'`, `'>M8[ns]'`.
///
/// ```
/// use npy_serde::{ByteOrder, Scalar, ScalarType};
/// let s = Scalar::new(ScalarType::Int(4), ByteOrder::Big);
/// assert_eq!(s.to_string(), ">i4");
/// // one-byte types carry no byte order, as in numpy
/// assert_eq!(Scalar::new(ScalarType::UInt(1), ByteOrder::Big).to_string(), "|u1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scalar {
    ty: ScalarType,
    order: ByteOrder,
}

impl Scalar {
    /// A scalar; the byte order is normalised to `|` where it does not apply
    /// and to little-endian where it applies but `|` was given.
    ///
    /// ```
    /// use npy_serde::{ByteOrder, Scalar, ScalarType};
    /// assert_eq!(Scalar::new(ScalarType::Float(8), ByteOrder::Big).to_string(), ">f8");
    /// assert_eq!(Scalar::new(ScalarType::Bool, ByteOrder::Little).to_string(), "|b1");
    /// // `|` on a multi-byte type means this machine's order
    /// let s = Scalar::new(ScalarType::Int(2), ByteOrder::NotApplicable);
    /// assert_eq!(s.order(), ByteOrder::NATIVE);
    /// ```
    pub fn new(ty: ScalarType, order: ByteOrder) -> Self {
        let order = match (ty.has_byte_order(), order) {
            (false, _) => ByteOrder::NotApplicable,
            (true, ByteOrder::NotApplicable) => ByteOrder::NATIVE,
            (true, o) => o,
        };
        Scalar { ty, order }
    }

    /// A scalar in little-endian order, numpy's order on every common machine.
    ///
    /// ```
    /// use npy_serde::{Scalar, ScalarType};
    /// assert_eq!(Scalar::le(ScalarType::Complex(16)).to_string(), "<c16");
    /// ```
    pub fn le(ty: ScalarType) -> Self {
        Scalar::new(ty, ByteOrder::Little)
    }

    /// The type.
    ///
    /// ```
    /// use npy_serde::{Dtype, ScalarType};
    /// let dt: Dtype = ">u4".parse().unwrap();
    /// assert_eq!(dt.as_scalar().unwrap().ty(), ScalarType::UInt(4));
    /// ```
    pub fn ty(&self) -> ScalarType {
        self.ty
    }

    /// The byte order (`|` for types where it does not apply).
    ///
    /// ```
    /// use npy_serde::{ByteOrder, Dtype};
    /// let dt: Dtype = ">u4".parse().unwrap();
    /// assert_eq!(dt.as_scalar().unwrap().order(), ByteOrder::Big);
    /// ```
    pub fn order(&self) -> ByteOrder {
        self.order
    }

    /// The number this scalar is when its bytes are the Rust value's own
    /// little-endian bytes (`bool` one byte): the one rule behind every
    /// fast path that moves a value with a single load or store (the write
    /// side's element encoder and flat arrays, the read side's fast tags, `Bulk`). Big-endian
    /// numbers and every other type (`f2`, complex, strings, datetimes) are
    /// `None` and go through the general paths with their conversions.
    pub(crate) fn plain(&self) -> Option<Plain> {
        if self.order == ByteOrder::Big {
            return None;
        }
        PLAIN.iter().find(|r| r.1 == self.ty).map(|r| r.0)
    }

    /// Size in bytes.
    ///
    /// ```
    /// use npy_serde::{Scalar, ScalarType};
    /// assert_eq!(Scalar::le(ScalarType::Unicode(5)).itemsize(), 20);
    /// ```
    pub fn itemsize(&self) -> usize {
        // Sizes were checked when the scalar was parsed or built.
        self.ty.itemsize().unwrap_or(usize::MAX)
    }
}

impl fmt::Display for Scalar {
    /// The type string without quotes: `<f8`, `|S5`, `<U4`, `<M8[ns]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (o, k) = (self.order.as_char(), self.ty.kind());
        match self.ty {
            ScalarType::Datetime(u) | ScalarType::Timedelta(u) => write!(f, "{o}{k}8{u}"),
            ScalarType::Object => write!(f, "{o}O"),
            ScalarType::Unicode(n) => write!(f, "{o}U{n}"),
            // the size in bytes for the rest (a bool is `b1`)
            ty => write!(f, "{o}{k}{}", ty.itemsize().unwrap_or(0)),
        }
    }
}

/// One named field of a record.
///
/// ```
/// use npy_serde::Dtype;
/// let dt: Dtype = "[(('Mass in kg', 'm'), '<f4'), ('pos', '<f8', (3,))]".parse().unwrap();
/// let pos = dt.as_record().unwrap().field("pos").unwrap();
/// assert_eq!((pos.name(), pos.offset(), pos.dtype().itemsize()), ("pos", 4, 24));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    name: String,
    title: Option<String>,
    offset: usize,
    dtype: Dtype,
}

impl Field {
    /// A field at an offset. Offsets are checked when the record is built.
    ///
    /// ```
    /// use npy_serde::{Dtype, Field, Record, ScalarType};
    /// let f = Field::new("x", Dtype::scalar(ScalarType::Float(8)), 8);
    /// let rec = Record::new(vec![f], 16).unwrap();
    /// assert_eq!(Dtype::Record(rec).to_string(), "[('', '|V8'), ('x', '<f8')]");
    /// ```
    pub fn new(name: impl Into<String>, dtype: Dtype, offset: usize) -> Self {
        Field {
            name: name.into(),
            title: None,
            offset,
            dtype,
        }
    }

    /// The same field with a title (numpy's `(('title', 'name'), ...)`).
    #[must_use]
    ///
    /// ```
    /// use npy_serde::{Dtype, Field, Record, ScalarType};
    /// let f = Field::new("t", Dtype::scalar(ScalarType::Float(8)), 0).with_title("time in s");
    /// assert_eq!(f.title(), Some("time in s"));
    /// let rec = Record::new(vec![f], 8).unwrap();
    /// assert_eq!(Dtype::Record(rec).to_string(), "[(('time in s', 't'), '<f8')]");
    /// ```
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The field name, the key a struct is matched by.
    ///
    /// ```
    /// let dt: npy_serde::Dtype = "[('a', '<i4'), ('b', '<f8')]".parse().unwrap();
    /// let names: Vec<&str> = dt.as_record().unwrap().fields().iter().map(|f| f.name()).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The title, if any. Titles are shown by numpy but ignored when reading.
    ///
    /// ```
    /// let dt: npy_serde::Dtype = "[(('Time', 't'), '<f8'), ('x', '<f8')]".parse().unwrap();
    /// let rec = dt.as_record().unwrap();
    /// assert_eq!(rec.fields()[0].title(), Some("Time"));
    /// assert_eq!(rec.fields()[1].title(), None);
    /// ```
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// Byte offset inside the record.
    ///
    /// ```
    /// let dt: npy_serde::Dtype = "[('a', '|u1'), ('', '|V3'), ('b', '<i4')]".parse().unwrap();
    /// assert_eq!(dt.as_record().unwrap().field("b").unwrap().offset(), 4);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The field's dtype.
    ///
    /// ```
    /// let dt: npy_serde::Dtype = "[('pos', '<f8', (3,))]".parse().unwrap();
    /// let pos = dt.as_record().unwrap().field("pos").unwrap();
    /// assert_eq!(pos.dtype().to_string(), "('<f8', (3,))");
    /// ```
    pub fn dtype(&self) -> &Dtype {
        &self.dtype
    }
}

/// A structured dtype: named fields at increasing, non-overlapping offsets,
/// and an itemsize that may leave room after the last field.
///
/// ```
/// use npy_serde::Dtype;
/// let dt: Dtype = "[('ival', '>i4'), ('', '|V4'), ('dval', '>f8')]".parse().unwrap();
/// let rec = dt.as_record().unwrap();
/// assert_eq!(rec.itemsize(), 16);
/// assert_eq!(rec.fields()[1].offset(), 8);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    fields: Vec<Field>,
    itemsize: usize,
}

impl Record {
    /// A record from fields with explicit offsets. Fails when fields overlap
    /// or are out of order (numpy's `descr` cannot express that), run past
    /// `itemsize`, or share a name or title.
    ///
    /// ```
    /// use npy_serde::{Dtype, Field, Record, ScalarType};
    /// let i4 = || Dtype::scalar(ScalarType::Int(4));
    /// let rec = Record::new(vec![Field::new("a", i4(), 0), Field::new("b", i4(), 8)], 16).unwrap();
    /// assert_eq!(Dtype::Record(rec).to_string(), "[('a', '<i4'), ('', '|V4'), ('b', '<i4'), ('', '|V4')]");
    /// // overlapping fields are refused
    /// let err = Record::new(vec![Field::new("a", i4(), 0), Field::new("b", i4(), 2)], 8).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid descr: field 'b' at offset 2 overlaps the field before it (which ends at 4)");
    /// ```
    pub fn new(fields: Vec<Field>, itemsize: usize) -> Result<Self> {
        let mut end = 0usize;
        // A set, not a Vec: records with tens of thousands of fields exist
        // (numpy's own test uses 10001) and parsing must stay linear.
        let mut seen = std::collections::HashSet::with_capacity(fields.len().saturating_mul(2));
        for field in &fields {
            if field.offset < end {
                return Err(Error::descr(format!(
                    "field {} at offset {} overlaps the field before it (which ends at {end})",
                    PyStr(&field.name),
                    field.offset
                )));
            }
            end = field
                .offset
                .checked_add(field.dtype.itemsize())
                .ok_or_else(|| Error::descr("record itemsize overflows"))?;
            for key in std::iter::once(field.name.as_str()).chain(field.title.as_deref()) {
                if !seen.insert(key) {
                    return Err(Error::descr(format!(
                        "name {} is used twice as a field name or title",
                        PyStr(key)
                    )));
                }
            }
        }
        if end > itemsize {
            return Err(Error::descr(format!(
                "fields end at byte {end}, past the itemsize {itemsize}"
            )));
        }
        Ok(Record { fields, itemsize })
    }

    /// Fields in order of offset. Padding is not a field.
    ///
    /// ```
    /// let dt: npy_serde::Dtype = "[('a', '|u1'), ('', '|V3'), ('b', '<i4')]".parse().unwrap();
    /// assert_eq!(dt.as_record().unwrap().fields().len(), 2); // the gap is not a field
    /// ```
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The field with this name.
    ///
    /// ```
    /// let dt: npy_serde::Dtype = "[('a', '|u1'), ('b', '<i4')]".parse().unwrap();
    /// let rec = dt.as_record().unwrap();
    /// assert_eq!(rec.field("b").map(|f| f.offset()), Some(1));
    /// assert!(rec.field("c").is_none());
    /// ```
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Size of one record in bytes, padding included.
    ///
    /// ```
    /// let dt: npy_serde::Dtype = "[('a', '|u1'), ('', '|V7')]".parse().unwrap();
    /// assert_eq!(dt.as_record().unwrap().itemsize(), 8);
    /// ```
    pub fn itemsize(&self) -> usize {
        self.itemsize
    }
}

/// What one array element is: a scalar, a fixed-shape subarray of a dtype, or
/// a record of named fields.
///
/// `Display` prints the `descr` exactly as numpy writes it in a header;
/// `FromStr` parses that text and the short forms (`f8`, `=u2`, `<i4`).
///
/// ```
/// use npy_serde::Dtype;
/// let dt: Dtype = "[('x', '<i4', (2,)), ('sub', [('a', '|u1')])]".parse().unwrap();
/// assert_eq!(dt.itemsize(), 9);
/// assert_eq!(dt.to_string(), "[('x', '<i4', (2,)), ('sub', [('a', '|u1')])]");
/// assert_eq!("f8".parse::<Dtype>().unwrap().to_string(), "'<f8'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// A single value: `'<f8'`.
    Scalar(Scalar),
    /// A fixed-shape array of a dtype: a field `('x', '<f8', (2, 3))`.
    Subarray(Box<Dtype>, Vec<u64>),
    /// Named fields at offsets.
    Record(Record),
}

impl Dtype {
    /// Whether encoding a value of this dtype leaves bytes untouched (gaps in
    /// records), so buffers must be zeroed before reuse.
    pub(crate) fn has_gaps(&self) -> bool {
        let Some(r) = self.element().as_record() else {
            return false;
        };
        // the fields are in order and do not overlap (`Record::new`), so
        // they fill the record exactly when their sizes add up
        let sizes = r.fields.iter().map(|f| f.dtype.itemsize());
        sizes.fold(0usize, usize::saturating_add) != r.itemsize
            || r.fields.iter().any(|f| f.dtype.has_gaps())
    }

    /// The dtype inside any subarrays: a scalar or a record.
    fn element(&self) -> &Dtype {
        match self {
            Dtype::Subarray(base, _) => base.element(),
            other => other,
        }
    }

    /// Size of one element in bytes.
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// assert_eq!("<c16".parse::<Dtype>().unwrap().itemsize(), 16);
    /// assert_eq!("[('a', '<f8', (2, 3)), ('b', '|u1')]".parse::<Dtype>().unwrap().itemsize(), 49);
    /// ```
    pub fn itemsize(&self) -> usize {
        match self {
            Dtype::Scalar(s) => s.itemsize(),
            // Checked when built or parsed; saturate rather than wrap.
            Dtype::Subarray(base, shape) => subarray_len(base, shape).unwrap_or(usize::MAX),
            Dtype::Record(r) => r.itemsize,
        }
    }

    /// A scalar dtype in little-endian order.
    ///
    /// ```
    /// use npy_serde::{Dtype, ScalarType};
    /// assert_eq!(Dtype::scalar(ScalarType::Float(4)).to_string(), "'<f4'");
    /// ```
    pub fn scalar(ty: ScalarType) -> Dtype {
        Dtype::Scalar(Scalar::le(ty))
    }

    /// A subarray of `base` with `shape`; fails if the size overflows.
    ///
    /// ```
    /// use npy_serde::{Dtype, ScalarType};
    /// let dt = Dtype::subarray(Dtype::scalar(ScalarType::Float(8)), vec![16, 4]).unwrap();
    /// assert_eq!(dt.itemsize(), 512);
    /// ```
    pub fn subarray(base: Dtype, shape: Vec<u64>) -> Result<Dtype> {
        if subarray_len(&base, &shape).is_none() || base.itemsize() == usize::MAX {
            return Err(Error::descr(format!(
                "subarray of shape {} is too large",
                ShapeRepr(&shape)
            )));
        }
        Ok(Dtype::Subarray(Box::new(base), shape))
    }

    /// Starts a record built field by field; see [`RecordBuilder`].
    ///
    /// ```
    /// use npy_serde::{Dtype, ScalarType};
    /// let dt = Dtype::record().field("x", Dtype::scalar(ScalarType::Int(2))).build().unwrap();
    /// assert_eq!(dt.to_string(), "[('x', '<i2')]");
    /// ```
    pub fn record() -> RecordBuilder {
        RecordBuilder::default()
    }

    /// The record, if this is a structured dtype.
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// assert!("[('x', '<i2')]".parse::<Dtype>().unwrap().as_record().is_some());
    /// assert!("<i2".parse::<Dtype>().unwrap().as_record().is_none());
    /// ```
    pub fn as_record(&self) -> Option<&Record> {
        match self {
            Dtype::Record(r) => Some(r),
            _ => None,
        }
    }

    /// The scalar, if this is a plain scalar dtype.
    ///
    /// ```
    /// use npy_serde::{Dtype, ScalarType};
    /// let dt: Dtype = "<i2".parse().unwrap();
    /// assert_eq!(dt.as_scalar().map(|s| s.ty()), Some(ScalarType::Int(2)));
    /// assert!("[('x', '<i2')]".parse::<Dtype>().unwrap().as_scalar().is_none());
    /// ```
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match self {
            Dtype::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// numpy's kind character: `V` for records and subarrays of records, the
    /// scalar's kind otherwise (a subarray reports its base's kind).
    ///
    /// ```
    /// assert_eq!("<f8".parse::<npy_serde::Dtype>().unwrap().kind(), 'f');
    /// ```
    pub fn kind(&self) -> char {
        self.element().as_scalar().map_or('V', |s| s.ty().kind())
    }

    /// The scalar's byte order; `|` for records.
    ///
    /// ```
    /// use npy_serde::{ByteOrder, Dtype};
    /// assert_eq!(">f4".parse::<Dtype>().unwrap().byte_order(), ByteOrder::Big);
    /// assert_eq!("[('x', '>f4')]".parse::<Dtype>().unwrap().byte_order(), ByteOrder::NotApplicable);
    /// ```
    pub fn byte_order(&self) -> ByteOrder {
        let scalar = self.element().as_scalar();
        scalar.map_or(ByteOrder::NotApplicable, Scalar::order)
    }

    /// numpy's x86-64 alignment of the type, as `align=True` uses it.
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// assert_eq!("<c16".parse::<Dtype>().unwrap().alignment(), 8); // like its f8 parts
    /// assert_eq!("[('a', '|u1'), ('b', '<i4')]".parse::<Dtype>().unwrap().alignment(), 4);
    /// ```
    pub fn alignment(&self) -> usize {
        match self.element() {
            Dtype::Record(r) => r.fields.iter().map(|f| f.dtype.alignment()).max(),
            other => other.as_scalar().map(|s| s.ty().alignment()),
        }
        .unwrap_or(1)
    }

    /// The same fields laid out like a C struct, as numpy's `align=True` does:
    /// each field at the next multiple of its alignment, nested records too,
    /// and the itemsize rounded up to the largest alignment. Existing padding
    /// is dropped first (offsets are recomputed from field order).
    ///
    /// ```
    /// let dt: npy_serde::Dtype = "[('a', '|i1'), ('b', '<i4'), ('c', '|i1')]".parse().unwrap();
    /// assert_eq!(
    ///     dt.aligned().unwrap().to_string(),
    ///     "[('a', '|i1'), ('', '|V3'), ('b', '<i4'), ('c', '|i1'), ('', '|V3')]"
    /// );
    /// ```
    pub fn aligned(&self) -> Result<Dtype> {
        Ok(match self {
            Dtype::Scalar(_) => self.clone(),
            Dtype::Subarray(base, shape) => Dtype::subarray(base.aligned()?, shape.clone())?,
            // the aligned builder aligns each field's dtype and offset
            Dtype::Record(r) => r
                .fields
                .iter()
                .cloned()
                .fold(Dtype::record().align(true), RecordBuilder::push)
                .build()?,
        })
    }
}

/// Builds a record dtype field by field, packed (numpy's default) or aligned.
///
/// ```
/// use npy_serde::{Dtype, ScalarType};
/// let dt = Dtype::record()
///     .field("ival", Dtype::scalar(ScalarType::Int(4)))
///     .padding(4)
///     .field("dval", Dtype::scalar(ScalarType::Float(8)))
///     .build()
///     .unwrap();
/// assert_eq!(dt.to_string(), "[('ival', '<i4'), ('', '|V4'), ('dval', '<f8')]");
/// ```
#[derive(Clone, Debug, Default)]
pub struct RecordBuilder {
    /// The fields, each with the padding requested before it.
    fields: Vec<(usize, Field)>,
    /// Padding requested since the last field.
    pad: usize,
    align: bool,
}

impl RecordBuilder {
    /// Adds a field after the previous one.
    #[must_use]
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// let dt = Dtype::record()
    ///     .field("id", "<u8".parse().unwrap())
    ///     .field("pos", "[('x', '<f4'), ('y', '<f4')]".parse().unwrap())
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(dt.to_string(), "[('id', '<u8'), ('pos', [('x', '<f4'), ('y', '<f4')])]");
    /// ```
    pub fn field(self, name: impl Into<String>, dtype: Dtype) -> Self {
        self.push(Field::new(name, dtype, 0))
    }

    /// Adds a field with a title.
    #[must_use]
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// let dt = Dtype::record().titled_field("Mass in kg", "m", "<f8".parse().unwrap()).build().unwrap();
    /// assert_eq!(dt.to_string(), "[(('Mass in kg', 'm'), '<f8')]");
    /// ```
    pub fn titled_field(
        self,
        title: impl Into<String>,
        name: impl Into<String>,
        dtype: Dtype,
    ) -> Self {
        self.push(Field::new(name, dtype, 0).with_title(title))
    }

    /// Adds a field after the padding requested since the last one.
    fn push(mut self, field: Field) -> Self {
        self.fields.push((std::mem::take(&mut self.pad), field));
        self
    }

    /// Adds `n` bytes of padding (`('', '|Vn')`) at this point.
    #[must_use]
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// let dt = Dtype::record().field("a", "|u1".parse().unwrap()).padding(7).build().unwrap();
    /// assert_eq!(dt.to_string(), "[('a', '|u1'), ('', '|V7')]");
    /// assert_eq!(dt.itemsize(), 8);
    /// ```
    pub fn padding(mut self, n: usize) -> Self {
        self.pad = self.pad.saturating_add(n);
        self
    }

    /// Lays fields out like numpy's `align=True` (recursively for nested records).
    #[must_use]
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// let dt = Dtype::record()
    ///     .field("a", "|u1".parse().unwrap())
    ///     .field("b", "<f8".parse().unwrap())
    ///     .align(true)
    ///     .build()
    ///     .unwrap();
    /// // what np.dtype([('a', 'u1'), ('b', 'f8')], align=True) writes
    /// assert_eq!(dt.to_string(), "[('a', '|u1'), ('', '|V7'), ('b', '<f8')]");
    /// ```
    pub fn align(mut self, align: bool) -> Self {
        self.align = align;
        self
    }

    /// Computes offsets and itemsize and checks the record.
    ///
    /// ```
    /// use npy_serde::Dtype;
    /// let dt = Dtype::record().field("a", "<i4".parse().unwrap()).build().unwrap();
    /// assert_eq!(dt.itemsize(), 4);
    /// // a name used twice is refused
    /// let twice = Dtype::record().field("a", "<i4".parse().unwrap()).field("a", "<i4".parse().unwrap());
    /// assert!(twice.build().is_err());
    /// ```
    pub fn build(self) -> Result<Dtype> {
        let overflow = || Error::descr("record itemsize overflows");
        let (mut offset, mut max_align) = (0usize, 1usize);
        let mut fields = Vec::with_capacity(self.fields.len());
        for (pad, mut field) in self.fields {
            let padded = offset.checked_add(pad).ok_or_else(overflow)?;
            // unaligned, each field (and the record) is aligned to 1 byte
            let mut a = 1;
            if self.align {
                field.dtype = field.dtype.aligned()?;
                a = field.dtype.alignment();
                max_align = max_align.max(a);
            }
            field.offset = padded.checked_next_multiple_of(a).ok_or_else(overflow)?;
            offset = field
                .offset
                .checked_add(field.dtype.itemsize())
                .ok_or_else(overflow)?;
            fields.push(field);
        }
        offset = offset.checked_add(self.pad).ok_or_else(overflow)?;
        let end = offset
            .checked_next_multiple_of(max_align)
            .ok_or_else(overflow)?;
        Ok(Dtype::Record(Record::new(fields, end)?))
    }
}

/// The bytes of a subarray of `shape` over `base`; `None` on overflow.
fn subarray_len(base: &Dtype, shape: &[u64]) -> Option<usize> {
    let n = shape.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d))?;
    usize::try_from(n).ok()?.checked_mul(base.itemsize())
}

/// Python's repr of a shape tuple: `()`, `(3,)`, `(2, 3)` (sizes as the
/// header has them, `u64`, or checked into `usize`).
pub(crate) struct ShapeRepr<'a, N = u64>(pub &'a [N]);

impl<N: fmt::Display> fmt::Display for ShapeRepr<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, d) in self.0.iter().enumerate() {
            write!(f, "{}{d}", if i == 0 { "" } else { ", " })?;
        }
        f.write_str(if self.0.len() == 1 { ",)" } else { ")" })
    }
}

/// The `fmt` part of a descr entry: `'<f8'`, a nested list, or for a
/// subarray the tuple `('<f8', (5,))`. As the dtype of a record `entry`, a
/// subarray is written without its parentheses: `('c', '<f8', (5,))`.
fn write_format(f: &mut fmt::Formatter<'_>, dt: &Dtype, entry: bool) -> fmt::Result {
    match dt {
        Dtype::Scalar(s) => write!(f, "'{s}'"),
        Dtype::Record(r) => write_record(f, r),
        Dtype::Subarray(base, shape) => {
            f.write_str(if entry { "" } else { "(" })?;
            write_format(f, base, false)?;
            write!(f, ", {}{}", ShapeRepr(shape), if entry { "" } else { ")" })
        }
    }
}

fn write_record(f: &mut fmt::Formatter<'_>, r: &Record) -> fmt::Result {
    f.write_str("[")?;
    // gaps are written as `('', '|Vn')`
    let (mut pos, mut sep) = (0usize, "");
    for field in &r.fields {
        if field.offset > pos {
            write!(f, "{sep}('', '|V{}')", field.offset.saturating_sub(pos))?;
            sep = ", ";
        }
        write!(f, "{sep}(")?;
        sep = ", ";
        match &field.title {
            Some(t) => write!(f, "({}, {}), ", PyStr(t), PyStr(&field.name))?,
            None => write!(f, "{}, ", PyStr(&field.name))?,
        }
        write_format(f, &field.dtype, true)?;
        f.write_str(")")?;
        pos = field.offset.saturating_add(field.dtype.itemsize());
    }
    if r.itemsize > pos {
        write!(f, "{sep}('', '|V{}')", r.itemsize.saturating_sub(pos))?;
    }
    f.write_str("]")
}

impl fmt::Display for Dtype {
    /// The descr as numpy writes it in a header: `'<f8'` (with quotes), or
    /// `[('a', '<i4'), ('', '|V4'), ('b', '<f8', (3,))]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_format(f, self, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps() {
        let packed: Dtype = "[('a', '<i4'), ('b', '<f8')]".parse().unwrap();
        assert!(!packed.has_gaps());
        assert!(packed.aligned().unwrap().has_gaps() || packed.aligned().unwrap().itemsize() == 12);
        let padded: Dtype = "[('a', '<i4'), ('', '|V4')]".parse().unwrap();
        assert!(padded.has_gaps());
    }

    fn f8() -> Dtype {
        Dtype::scalar(ScalarType::Float(8))
    }

    #[test]
    fn display_matches_numpy() {
        let inner = Dtype::record()
            .field("sval", Dtype::scalar(ScalarType::UInt(2)))
            .field("bval", Dtype::scalar(ScalarType::UInt(1)))
            .build()
            .unwrap();
        let dt = Dtype::record()
            .titled_field("title", "b", Dtype::subarray(f8(), vec![2, 3]).unwrap())
            .padding(4)
            .field("sub", inner)
            .field(
                "c",
                Dtype::subarray(Dtype::subarray(f8(), vec![5]).unwrap(), vec![2]).unwrap(),
            )
            .build()
            .unwrap();
        assert_eq!(
            dt.to_string(),
            "[(('title', 'b'), '<f8', (2, 3)), ('', '|V4'), ('sub', [('sval', '<u2'), \
             ('bval', '|u1')]), ('c', ('<f8', (5,)), (2,))]"
        );
    }

    #[test]
    fn aligned_nested() {
        let inner = Dtype::record()
            .field("a", Dtype::scalar(ScalarType::Int(1)))
            .field("b", f8())
            .build()
            .unwrap();
        let dt = Dtype::record()
            .field("x", Dtype::scalar(ScalarType::Int(1)))
            .field("s", inner)
            .align(true)
            .build()
            .unwrap();
        assert_eq!(
            dt.to_string(),
            "[('x', '|i1'), ('', '|V7'), ('s', [('a', '|i1'), ('', '|V7'), ('b', '<f8')])]"
        );
        assert_eq!(dt.itemsize(), 24);
    }

    #[test]
    fn empty_record_and_gap_only() {
        let dt = Dtype::Record(Record::new(vec![], 8).unwrap());
        assert_eq!(dt.to_string(), "[('', '|V8')]");
        let dt = Dtype::Record(Record::new(vec![], 0).unwrap());
        assert_eq!(dt.to_string(), "[]");
    }

    #[test]
    fn overlapping_fields_are_refused() {
        let a = Field::new("a", f8(), 0);
        let b = Field::new("b", f8(), 4);
        assert!(Record::new(vec![a, b], 16).is_err());
    }
}
