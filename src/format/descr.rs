//! `descr` text or literal -> [`Dtype`], following numpy's `descr_to_dtype`.
//!
//! - a str is a type string (`'<f8'`, `'|S5'`, `'<M8[ns]'`, and the names and
//!   one-letter codes `np.dtype` accepts: `'float64'`, `'d'`, `'?'`);
//! - a tuple `(fmt, shape)` is a subarray (`shape` an int or a tuple of ints;
//!   `()` means no subarray);
//! - a list is a record of `(name, fmt)` / `(name, fmt, shape)` entries with
//!   cumulative offsets, where an entry named `''` whose dtype is void and not
//!   a record (a `'|Vn'`, or any subarray, since numpy's subarray dtypes are
//!   void too) is a gap, not a field.
//!
//! Each bracket level counts against `max_depth`, both while the text is
//! parsed and while the literal is converted.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use crate::error::{Error, Result};
use crate::format::dtype::{ByteOrder, DatetimeUnit, Dtype, Field, Record, Scalar, ScalarType};
use crate::format::literal::{self, Value};
use crate::format::pyrepr::PyStr;

impl std::str::FromStr for Dtype {
    type Err = Error;

    /// Parses a descr as numpy writes it (`'<f8'`, `[('a', '<i4'), ...]`) or a
    /// bare type string (`<f8`, `i4`, `=u2`; no prefix or `=` is native order).
    fn from_str(s: &str) -> Result<Dtype> {
        parse_descr(s, crate::options::DEFAULT_MAX_DEPTH)
    }
}

/// numpy stores itemsizes and subarray dims in a C `int`.
const MAX_C_INT: u64 = i32::MAX as u64;

/// Parses a descr as written in a header (`'<f8'`, `[('a', '<i4')]`,
/// `('<f8', (3,))`), or a bare type string (`<f8`, `i4`, `float64`).
pub(crate) fn parse_descr(text: &str, max_depth: usize) -> Result<Dtype> {
    let t = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let b = t.as_bytes();
    let is_literal = match b {
        [b'\'' | b'"' | b'[' | b'(' | b'{', ..] => true,
        [p, b'\'' | b'"', ..] => b"uUrRbB".contains(p),
        [p, q, b'\'' | b'"', ..] => b"rRbB".contains(p) && b"rRbB".contains(q),
        _ => false,
    };
    if !is_literal {
        return parse_type_str(t).map(Dtype::Scalar);
    }
    let value = literal::parse(t, literal::Config::new(max_depth))?;
    dtype_from_literal(&value, max_depth)
}

fn enter(depth: usize, max_depth: usize) -> Result<usize> {
    let d = depth.saturating_add(1);
    if d > max_depth {
        return Err(Error::limit(format!(
            "descr nested deeper than max_depth {max_depth}; raise the limit with \
             ReadOptions::max_depth"
        )));
    }
    Ok(d)
}

/// Converts the `descr` value of a parsed header dict.
pub(crate) fn dtype_from_literal(value: &Value, max_depth: usize) -> Result<Dtype> {
    convert(value, 0, max_depth)
}

fn convert(value: &Value, depth: usize, max_depth: usize) -> Result<Dtype> {
    match value {
        Value::Str(s) => parse_type_str(s).map(Dtype::Scalar),
        Value::Tuple(items) => {
            let depth = enter(depth, max_depth)?;
            let [fmt, shape] = items.as_slice() else {
                return Err(Error::descr(format!(
                    "a subarray descr is a tuple (format, shape), found a tuple of length {}",
                    items.len()
                )));
            };
            with_shape(fmt, shape, depth, max_depth)
        }
        Value::List(entries) => {
            let depth = enter(depth, max_depth)?;
            record(entries, depth, max_depth)
        }
        other => Err(Error::descr(format!(
            "descr is not a valid dtype descriptor: expected a str, tuple or list, found {}",
            other.type_name()
        ))),
    }
}

/// `np.dtype((fmt, shape))`: a subarray, or `fmt`'s dtype itself for shape
/// `()`. An int `n` means `(n,)`; dims fit a C int.
fn with_shape(fmt: &Value, shape: &Value, depth: usize, max_depth: usize) -> Result<Dtype> {
    let base = convert(fmt, depth, max_depth)?;
    let dim = |v: &Value| -> Result<u64> {
        match v {
            Value::Int(n) => u64::try_from(*n)
                .ok()
                .filter(|&d| d <= MAX_C_INT)
                .ok_or_else(|| {
                    Error::descr(format!(
                        "invalid subarray shape: dimension {n} is negative or does not fit a C int"
                    ))
                }),
            other => Err(Error::descr(format!(
                "invalid subarray shape: expected an int dimension, found {}",
                other.type_name()
            ))),
        }
    };
    let dims = match shape {
        Value::Int(_) => vec![dim(shape)?],
        Value::Tuple(items) | Value::List(items) => {
            enter(depth, max_depth)?;
            items.iter().map(dim).collect::<Result<_>>()?
        }
        other => {
            return Err(Error::descr(format!(
                "invalid subarray shape: expected a tuple of ints, found {}",
                other.type_name()
            )));
        }
    };
    if dims.is_empty() {
        return Ok(base);
    }
    Dtype::subarray(base, dims)
}

/// A record from `[(name, fmt), (name, fmt, shape), ...]`.
fn record(entries: &[Value], depth: usize, max_depth: usize) -> Result<Dtype> {
    let not_a_field = |found: &str| {
        Error::descr(format!(
            "a record field is a tuple (name, format) or (name, format, shape), found {found}"
        ))
    };
    let mut fields = Vec::with_capacity(entries.len());
    let mut offset = 0usize;
    for entry in entries {
        let depth = enter(depth, max_depth)?;
        let (name, dt) = match entry {
            Value::Tuple(parts) | Value::List(parts) => match parts.as_slice() {
                [name, fmt] => (name, convert(fmt, depth, max_depth)?),
                [name, fmt, shape] => (name, with_shape(fmt, shape, depth, max_depth)?),
                _ => return Err(not_a_field(&format!("a tuple of length {}", parts.len()))),
            },
            other => return Err(not_a_field(other.type_name())),
        };
        let size = dt.itemsize();
        // numpy: name == '' and dt.type is np.void and dt.names is None
        let is_pad = matches!(name, Value::Str(n) if n.is_empty())
            && match &dt {
                Dtype::Scalar(s) => matches!(s.ty(), ScalarType::Void(_)),
                dt => matches!(dt, Dtype::Subarray(..)),
            };
        if !is_pad {
            let field = match name {
                Value::Str(n) => Field::new(n.clone(), dt, offset),
                Value::Tuple(pair) => match pair.as_slice() {
                    [Value::Str(title), Value::Str(n)] => {
                        Field::new(n.clone(), dt, offset).with_title(title.clone())
                    }
                    [_, Value::Str(_)] => {
                        return Err(Error::descr(
                            "field titles must be strings (other title objects are not supported)",
                        ));
                    }
                    _ => return Err(Error::descr("field names must be strings")),
                },
                _ => return Err(Error::descr("field names must be strings")),
            };
            fields.push(field);
        }
        offset = offset
            .checked_add(size)
            .ok_or_else(|| Error::descr("record itemsize overflows"))?;
    }
    Ok(Dtype::Record(Record::new(fields, offset)?))
}

/// The names numpy's `np.dtype` accepts for scalar types (checked against
/// numpy 2.4 `np.dtype(name).str` on x86-64 Linux). Flexible types without
/// a size (`'str'`, `'S'`) are handled separately (refused).
const NAMES: &[(&str, ScalarType)] = &[
    ("bool", ScalarType::Bool),
    ("bool_", ScalarType::Bool),
    ("int8", ScalarType::Int(1)),
    ("int16", ScalarType::Int(2)),
    ("int32", ScalarType::Int(4)),
    ("int64", ScalarType::Int(8)),
    ("uint8", ScalarType::UInt(1)),
    ("uint16", ScalarType::UInt(2)),
    ("uint32", ScalarType::UInt(4)),
    ("uint64", ScalarType::UInt(8)),
    ("float16", ScalarType::Float(2)),
    ("float32", ScalarType::Float(4)),
    ("float64", ScalarType::Float(8)),
    ("float128", ScalarType::Float(16)),
    ("complex64", ScalarType::Complex(8)),
    ("complex128", ScalarType::Complex(16)),
    ("complex256", ScalarType::Complex(32)),
    ("object", ScalarType::Object),
    ("object_", ScalarType::Object),
    ("float", ScalarType::Float(8)),
    ("int", ScalarType::Int(8)),
    ("int_", ScalarType::Int(8)),
    ("uint", ScalarType::UInt(8)),
    ("complex", ScalarType::Complex(16)),
    ("double", ScalarType::Float(8)),
    ("single", ScalarType::Float(4)),
    ("half", ScalarType::Float(2)),
    ("longdouble", ScalarType::Float(16)),
    ("csingle", ScalarType::Complex(8)),
    ("cdouble", ScalarType::Complex(16)),
    ("clongdouble", ScalarType::Complex(32)),
    ("byte", ScalarType::Int(1)),
    ("ubyte", ScalarType::UInt(1)),
    ("short", ScalarType::Int(2)),
    ("ushort", ScalarType::UInt(2)),
    ("intc", ScalarType::Int(4)),
    ("uintc", ScalarType::UInt(4)),
    ("long", ScalarType::Int(8)),
    ("ulong", ScalarType::UInt(8)),
    ("longlong", ScalarType::Int(8)),
    ("ulonglong", ScalarType::UInt(8)),
    ("intp", ScalarType::Int(8)),
    ("uintp", ScalarType::UInt(8)),
];

/// numpy's one-letter codes (without a size).
fn letter_code(c: u8) -> Option<ScalarType> {
    Some(match c {
        b'?' => ScalarType::Bool,
        b'b' => ScalarType::Int(1),
        b'B' => ScalarType::UInt(1),
        b'h' => ScalarType::Int(2),
        b'H' => ScalarType::UInt(2),
        b'i' => ScalarType::Int(4),
        b'I' => ScalarType::UInt(4),
        b'l' | b'q' | b'n' | b'p' => ScalarType::Int(8),
        b'L' | b'Q' | b'N' | b'P' => ScalarType::UInt(8),
        b'e' => ScalarType::Float(2),
        b'f' => ScalarType::Float(4),
        b'd' => ScalarType::Float(8),
        b'g' => ScalarType::Float(16),
        b'F' => ScalarType::Complex(8),
        b'D' => ScalarType::Complex(16),
        b'G' => ScalarType::Complex(32),
        b'O' => ScalarType::Object,
        b'c' => ScalarType::Bytes(1),
        _ => return None,
    })
}

/// Parses a type string such as `<f8`, `|S5`, `>M8[25s]`, `float64`, `d`.
///
/// The byte-order character is optional; none or `=` means native order,
/// and numpy ignores `|` on multi-byte types (native order again).
pub(crate) fn parse_type_str(text: &str) -> Result<Scalar> {
    if let Some(ty) = named_type(text)? {
        return Ok(Scalar::new(ty, ByteOrder::NATIVE));
    }
    let (order, rest) = match text.split_at_checked(1) {
        Some(("<", rest)) => (ByteOrder::Little, rest),
        Some((">", rest)) => (ByteOrder::Big, rest),
        Some(("|", rest)) => (ByteOrder::NotApplicable, rest),
        Some(("=", rest)) => (ByteOrder::NATIVE, rest),
        _ => (ByteOrder::NATIVE, text),
    };
    Ok(Scalar::new(coded_type(text, rest)?, order))
}

/// A full name (`float64`, `datetime64[ns]`); `None` if `text` is not one.
fn named_type(text: &str) -> Result<Option<ScalarType>> {
    if let Some((_, ty)) = NAMES.iter().find(|(n, _)| *n == text) {
        return Ok(Some(*ty));
    }
    if matches!(
        text,
        "str" | "str_" | "unicode" | "bytes" | "bytes_" | "void"
    ) {
        return Err(zero_size(text));
    }
    for (name, code) in [("datetime64", b'M'), ("timedelta64", b'm')] {
        if let Some(rest) = text.strip_prefix(name) {
            return time_type(text, code, rest).map(Some);
        }
    }
    Ok(None)
}

fn zero_size(text: &str) -> Error {
    Error::descr(format!(
        "data type {} has size 0; a bytes, str or void type needs a size such as '|S5'",
        PyStr(text)
    ))
}

/// A datetime (`code` `M`) or timedelta (`m`) with its unit: `[unit]`,
/// `[25s]` or nothing after `M8`/`datetime64`.
fn time_type(text: &str, code: u8, rest: &str) -> Result<ScalarType> {
    let unit = DatetimeUnit::parse(rest).map_err(|why| {
        Error::descr(format!(
            "invalid datetime metadata in {}: {why}",
            PyStr(text)
        ))
    })?;
    Ok(if code == b'M' {
        ScalarType::Datetime(unit)
    } else {
        ScalarType::Timedelta(unit)
    })
}

/// A kind letter with an optional size: `f8`, `S5`, `M8[ns]`, `d`.
fn coded_type(text: &str, rest: &str) -> Result<ScalarType> {
    let not_understood =
        |why: &str| Error::descr(format!("data type {} not understood ({why})", PyStr(text)));
    let Some(&code) = rest.as_bytes().first() else {
        return Err(not_understood("no type code"));
    };
    let after = rest.get(1..).unwrap_or("");
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    let (num, tail) = after.split_at(digits);
    if matches!(code, b'M' | b'm') && (num == "8" || num.is_empty()) {
        return time_type(text, code, tail);
    }
    if !tail.is_empty() {
        return Err(not_understood(
            "not a type code with a size such as '<f8', nor a type name numpy knows",
        ));
    }
    if num.is_empty() {
        if matches!(code, b'S' | b'a' | b'U' | b'V') {
            return Err(zero_size(text));
        }
        return letter_code(code).ok_or_else(|| not_understood("unknown type code"));
    }
    let size = num.parse::<u64>().ok();
    let fixed = |allowed: &[u8], make: fn(u8) -> ScalarType| match size.map(u8::try_from) {
        Some(Ok(n)) if allowed.contains(&n) => Ok(make(n)),
        // the sizes as `1, 2, 4, 8`
        _ => Err(not_understood(&format!(
            "'{}' takes sizes {}",
            char::from(code),
            format!("{allowed:?}").trim_matches(['[', ']'])
        ))),
    };
    match code {
        b'b' => fixed(&[1], |_| ScalarType::Bool),
        b'i' => fixed(&[1, 2, 4, 8], ScalarType::Int),
        b'u' => fixed(&[1, 2, 4, 8], ScalarType::UInt),
        // 12 and 24: long doubles as numpy on 32-bit x86 writes them
        b'f' => fixed(&[2, 4, 8, 12, 16], ScalarType::Float),
        b'c' => fixed(&[8, 16, 24, 32], ScalarType::Complex),
        b'O' => fixed(&[4, 8], |_| ScalarType::Object),
        b'S' | b'a' | b'U' | b'V' => {
            let bytes_per = if code == b'U' { 4 } else { 1 };
            let n = size
                .filter(|&n| n.checked_mul(bytes_per).is_some_and(|b| b <= MAX_C_INT))
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    Error::descr(format!(
                        "data type {} is too large (numpy allows at most {MAX_C_INT} bytes)",
                        PyStr(text)
                    ))
                })?;
            match code {
                b'S' | b'a' | b'U' if n == 0 => Err(zero_size(text)),
                b'S' | b'a' => Ok(ScalarType::Bytes(n)),
                b'U' => Ok(ScalarType::Unicode(n)),
                _ => Ok(ScalarType::Void(n)),
            }
        }
        b'M' | b'm' => Err(not_understood("'M' and 'm' take size 8")),
        b't' => Err(not_understood("bit fields are not supported")),
        _ => Err(not_understood("unknown type code")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::DEFAULT_MAX_DEPTH;

    fn p(text: &str) -> Dtype {
        parse_descr(text, DEFAULT_MAX_DEPTH).unwrap()
    }
    fn e(text: &str) -> String {
        parse_descr(text, DEFAULT_MAX_DEPTH)
            .unwrap_err()
            .to_string()
    }

    /// `(input, np.dtype(input).str)`, from numpy 2.4.6 on x86-64 Linux.
    const NUMPY_STR: &[(&str, &str)] = &[
        ("?", "|b1"),
        ("b", "|i1"),
        ("B", "|u1"),
        ("h", "<i2"),
        ("H", "<u2"),
        ("i", "<i4"),
        ("I", "<u4"),
        ("l", "<i8"),
        ("L", "<u8"),
        ("q", "<i8"),
        ("Q", "<u8"),
        ("n", "<i8"),
        ("N", "<u8"),
        ("p", "<i8"),
        ("P", "<u8"),
        ("e", "<f2"),
        ("f", "<f4"),
        ("d", "<f8"),
        ("g", "<f16"),
        ("F", "<c8"),
        ("D", "<c16"),
        ("G", "<c32"),
        ("O", "|O"),
        ("M", "<M8"),
        ("m", "<m8"),
        ("c", "|S1"),
        ("b1", "|b1"),
        ("i1", "|i1"),
        ("i2", "<i2"),
        ("i4", "<i4"),
        ("i8", "<i8"),
        ("u1", "|u1"),
        ("u2", "<u2"),
        ("u4", "<u4"),
        ("u8", "<u8"),
        ("f2", "<f2"),
        ("f4", "<f4"),
        ("f8", "<f8"),
        ("f16", "<f16"),
        ("c8", "<c8"),
        ("c16", "<c16"),
        ("c32", "<c32"),
        ("S1", "|S1"),
        ("S32", "|S32"),
        ("a5", "|S5"),
        ("U1", "<U1"),
        ("U10", "<U10"),
        ("V1", "|V1"),
        ("V16", "|V16"),
        ("M8", "<M8"),
        ("m8", "<m8"),
        ("O4", "|O"),
        ("O8", "|O"),
        ("bool", "|b1"),
        ("bool_", "|b1"),
        ("int8", "|i1"),
        ("int16", "<i2"),
        ("int32", "<i4"),
        ("int64", "<i8"),
        ("uint8", "|u1"),
        ("uint16", "<u2"),
        ("uint32", "<u4"),
        ("uint64", "<u8"),
        ("float16", "<f2"),
        ("float32", "<f4"),
        ("float64", "<f8"),
        ("float128", "<f16"),
        ("complex64", "<c8"),
        ("complex128", "<c16"),
        ("complex256", "<c32"),
        ("object", "|O"),
        ("object_", "|O"),
        ("datetime64", "<M8"),
        ("timedelta64", "<m8"),
        ("datetime64[ns]", "<M8[ns]"),
        ("timedelta64[s]", "<m8[s]"),
        ("M8[ns]", "<M8[ns]"),
        ("m8[25s]", "<m8[25s]"),
        ("M8[us]", "<M8[us]"),
        ("M8[D]", "<M8[D]"),
        ("M8[2D]", "<M8[2D]"),
        ("M8[1s]", "<M8[s]"),
        ("float", "<f8"),
        ("int", "<i8"),
        ("complex", "<c16"),
        ("double", "<f8"),
        ("single", "<f4"),
        ("half", "<f2"),
        ("longlong", "<i8"),
        ("ulonglong", "<u8"),
        ("short", "<i2"),
        ("ushort", "<u2"),
        ("byte", "|i1"),
        ("ubyte", "|u1"),
        ("intc", "<i4"),
        ("uintc", "<u4"),
        ("intp", "<i8"),
        ("uintp", "<u8"),
        ("long", "<i8"),
        ("ulong", "<u8"),
        ("longdouble", "<f16"),
        ("clongdouble", "<c32"),
        ("csingle", "<c8"),
        ("cdouble", "<c16"),
        ("int_", "<i8"),
        ("uint", "<u8"),
        ("<M8[ns]", "<M8[ns]"),
        (">m8[ps]", ">m8[ps]"),
        ("<M8[as]", "<M8[as]"),
        ("=i4", "<i4"),
        ("<i4", "<i4"),
        (">i4", ">i4"),
        ("|i4", "<i4"),
        ("|f8", "<f8"),
        ("|b1", "|b1"),
        ("<b1", "|b1"),
        (">S5", "|S5"),
        ("<U3", "<U3"),
        ("=U3", "<U3"),
        ("|U3", "<U3"),
        ("<V4", "|V4"),
        (">O", "|O"),
        ("<O", "|O"),
        (">f8", ">f8"),
        ("|u1", "|u1"),
        ("<u1", "|u1"),
        ("<f16", "<f16"),
        ("<c32", "<c32"),
        // numpy on 32-bit x86 writes its long doubles so (numpy on x86-64
        // refuses them)
        ("<f12", "<f12"),
        (">c24", ">c24"),
        ("M8[2147483647s]", "<M8[2147483647s]"),
    ];

    /// Inputs `np.dtype` refuses (numpy 2.4.6), with a word our message has.
    const NUMPY_REFUSES: &[(&str, &str)] = &[
        ("E", "unknown type code"),
        ("t", "unknown type code"),
        ("t8", "bit fields"),
        ("b2", "sizes 1"),
        ("i0", "sizes 1, 2, 4, 8"),
        ("i3", "sizes 1, 2, 4, 8"),
        ("i16", "sizes 1, 2, 4, 8"),
        ("u3", "sizes 1, 2, 4, 8"),
        ("f1", "sizes 2, 4, 8, 12, 16"),
        ("f10", "sizes 2, 4, 8, 12, 16"),
        ("c4", "sizes 8, 16, 24, 32"),
        ("c20", "sizes 8, 16, 24, 32"),
        ("M4", "take size 8"),
        ("O2", "sizes 4, 8"),
        ("q8", "unknown type code"),
        ("I4", "unknown type code"),
        ("F8", "unknown type code"),
        ("Float64", "nor a type name"),
        (">float64", "nor a type name"),
        ("!i4", "nor a type name"),
        ("i4,", "nor a type name"),
        ("2i4", "nor a type name"),
        ("M8[]", "unknown unit"),
        ("M8[xx]", "unknown unit"),
        ("M8[4294967296s]", "multiplier"),
        ("M8[2147483648s]", "multiplier"),
        ("<M8[ns]x", "brackets"),
        ("S2147483648", "too large"),
        ("U536870912", "too large"),
        ("V99999999999999999999999", "too large"),
        ("bool8", "nor a type name"),
        ("cfloat", "nor a type name"),
        ("", "no type code"),
    ];

    #[test]
    fn type_strings_match_numpy() {
        for (input, expected) in NUMPY_STR {
            let dt = parse_descr(input, 8).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(dt.to_string(), format!("'{expected}'"), "{input}");
            // and the quoted form
            assert_eq!(p(&format!("'{input}'")), dt, "{input}");
        }
    }

    #[test]
    fn type_strings_numpy_refuses() {
        for (input, word) in NUMPY_REFUSES {
            let err = parse_descr(input, 8).unwrap_err().to_string();
            assert!(err.contains(word), "{input}: {err}");
        }
    }

    #[test]
    fn zero_sizes_and_flexible_names_are_refused() {
        // numpy makes S0/U0 placeholders that become S1/U1 in arrays
        for t in [
            "S", "S0", "|S0", "U", "<U0", "V", "str", "bytes", "void", "a",
        ] {
            assert!(e(t).contains("has size 0"), "{t}: {}", e(t));
        }
        // a zero multiplier is accepted by numpy, but means nothing
        assert!(e("<M8[0s]").contains("multiplier is 0"));
        // V0 is allowed (numpy reads it), e.g. as a field
        assert_eq!(p("|V0").itemsize(), 0);
    }

    #[test]
    fn subarrays_and_records() {
        assert_eq!(p("('<i4', (2, 3))").to_string(), "('<i4', (2, 3))");
        assert_eq!(p("('<i4', 2)").to_string(), "('<i4', (2,))");
        assert_eq!(p("('<i4', [2])").to_string(), "('<i4', (2,))");
        assert_eq!(p("('<i4', ())").to_string(), "'<i4'");
        assert_eq!(p("('<i4', (0,))").itemsize(), 0);
        assert!(e("('<i4', (-1,))").contains("negative"));
        assert!(e("('<i4', (True,))").contains("found bool"));
        assert!(e("('<i4', (2,), 1)").contains("length 3"));
        assert!(e("('<i4', (2147483648,))").contains("C int"));
        assert!(e("[('a', '<i4', (2147483647, 2147483647, 2147483647))]").contains("too large"));

        assert_eq!(p("[('a', '<i4', 1)]").to_string(), "[('a', '<i4', (1,))]");
        assert_eq!(p("[('a', '<i4', ())]").to_string(), "[('a', '<i4')]");
        assert_eq!(p("[['a', '<i4']]").to_string(), "[('a', '<i4')]");
        assert_eq!(p("[]").to_string(), "[]");
        assert_eq!(p("[('', '|V0')]").to_string(), "[]");
        assert_eq!(p("[('a', '|V0')]").to_string(), "[('a', '|V0')]");
        assert_eq!(
            p("[('a', ('<i4', (2,)), (3,))]").to_string(),
            "[('a', ('<i4', (2,)), (3,))]"
        );
        assert_eq!(
            p("[(('t', 'a'), '<i4'), (('t2', 'b'), '<i4')]").to_string(),
            "[(('t', 'a'), '<i4'), (('t2', 'b'), '<i4')]"
        );
        assert!(e("[('a',)]").contains("length 1"));
        assert!(e("[('a', '<i4', (2,), 1)]").contains("length 4"));
        assert!(e("[(1, '<i4')]").contains("field names must be strings"));
        assert!(e("[('a', '<i4', 'x')]").contains("invalid subarray shape"));
        assert!(e("['<i4']").contains("found str"));
        assert!(e("[(('t', 'a'), '<i4'), ('t', '<i4')]").contains("used twice"));
        assert!(e("[(('a', 'a'), '<i4')]").contains("used twice"));
        let d = e("{'names': ['a']}");
        assert!(d.contains("found dict"), "{d}");
        assert!(e("(3)").contains("found int"));
    }

    #[test]
    fn padding_rule_follows_numpy() {
        // name '' with a void or any subarray dtype: a gap
        let dt = p("[('', '<i4', (2,))]");
        assert_eq!(dt.as_record().unwrap().fields().len(), 0);
        assert_eq!(dt.itemsize(), 8);
        let dt = p("[('', [('a', '|i1')], (2,))]");
        assert_eq!(dt.as_record().unwrap().fields().len(), 0);
        assert_eq!(dt.itemsize(), 2);
        // kept: an unnamed nested record, an unnamed non-void scalar
        assert_eq!(
            p("[('', [('a', '|i1')])]")
                .as_record()
                .unwrap()
                .fields()
                .len(),
            1
        );
        assert_eq!(p("[('', '<i4')]").to_string(), "[('', '<i4')]");
        // a title makes the name a tuple: not padding
        assert_eq!(
            p("[(('t', ''), '|V4')]").to_string(),
            "[(('t', ''), '|V4')]"
        );
        // cumulative offsets with gaps
        let dt = p("[('', '|V1'), ('a', '<i4'), ('', '|V1'), ('b', '<i4')]");
        let r = dt.as_record().unwrap();
        assert_eq!(r.fields()[0].offset(), 1);
        assert_eq!(r.fields()[1].offset(), 6);
        assert_eq!(r.itemsize(), 10);
    }

    #[test]
    fn bare_and_quoted_forms() {
        assert_eq!(p("  <f8 "), p("'<f8'"));
        assert_eq!(p("u'<f8'"), p("\"<f8\""));
        assert!(e("b'<f8'").contains("bytes literals"));
        let d = e("'<f8' x");
        assert!(d.contains("expected end of input at character 6"), "{d}");
    }

    #[test]
    fn depth_limit() {
        // 2 brackets per nested record: [('a', [('a', ... '<i4' )])]
        fn nested(levels: usize) -> String {
            let mut s = "'<i4'".to_owned();
            for _ in 0..levels {
                s = format!("[('a', {s})]");
            }
            s
        }
        assert!(parse_descr(&nested(32), 64).is_ok());
        let err = parse_descr(&nested(33), 64).unwrap_err();
        assert!(matches!(err.kind(), crate::ErrorKind::Limit(_)));
        assert!(err.to_string().contains("max_depth 64"), "{err}");
        // converting a literal checks the depth too
        let v = literal::parse(&nested(33), literal::Config::new(100)).unwrap();
        assert!(dtype_from_literal(&v, 64).is_err());
        assert!(dtype_from_literal(&v, 66).is_ok());
    }
}
