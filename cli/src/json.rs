//! `npy json`: JSON Lines, one row per line (a record as an object with its
//! fields in dtype order, a row of an n-d array as nested arrays, an
//! element of a 1-D array as itself).
//!
//! | numpy | JSON |
//! |---|---|
//! | `b1` | `true` / `false` |
//! | integers | numbers, exact (`u8` up to 18446744073709551615) |
//! | `f2` `f4` `f8` | numbers as numpy prints them (the shortest digits of the stored width); NaN and infinities as the strings `"NaN"`, `"inf"`, `"-inf"` |
//! | `c8` `c16` | `[re, im]` |
//! | `S` | a string when the bytes are UTF-8, else an array of the byte values |
//! | `V` | an array of the byte values |
//! | `U` | a string |
//! | `M8` / `m8` | numpy's text: `"2024-01-01T12:30:00"`, `"5 seconds"`, `"NaT"` |

use std::fmt::Write as _;
use std::io::Write;

use crate::input::{Failure, Rows, for_each_row};
use crate::text;
use crate::value::{Float, Value};

/// Writes every row of `reader` as one line of JSON.
pub fn json(reader: &mut dyn Rows, out: &mut impl Write) -> Result<(), Failure> {
    let mut line = String::new();
    for_each_row(reader, u64::MAX, |_, value| {
        line.clear();
        write_value(&value, &mut line);
        line.push('\n');
        out.write_all(line.as_bytes())?;
        Ok(())
    })
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::UInt(u) => {
            let _ = write!(out, "{u}");
        }
        Value::Float(x) => number(*x, out),
        Value::Complex(re, im) => {
            out.push('[');
            number(*re, out);
            out.push(',');
            number(*im, out);
            out.push(']');
        }
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => string(s, out),
            Err(_) => byte_values(b, out),
        },
        Value::Void(b) => byte_values(b, out),
        Value::Str(s) | Value::Time(s) => string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Record(fields) => {
            out.push('{');
            for (i, (name, item)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(name, out);
                out.push(':');
                write_value(item, out);
            }
            out.push('}');
        }
    }
}

/// numpy's digits (valid JSON numbers: `1.0`, `1e-05`); NaN and the
/// infinities, which JSON lacks, as strings.
fn number(x: Float, out: &mut String) {
    match text::float(x).as_str() {
        "nan" => out.push_str("\"NaN\""),
        "inf" => out.push_str("\"inf\""),
        "-inf" => out.push_str("\"-inf\""),
        digits => out.push_str(digits),
    }
}

fn byte_values(b: &[u8], out: &mut String) {
    out.push('[');
    for (i, byte) in b.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{byte}");
    }
    out.push(']');
}

/// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`,
/// `\r`, `\b`, `\f` or `\u00XX`, everything else as itself (UTF-8).
fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
