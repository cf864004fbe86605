//! A value as numpy prints it, records as `{name: value, ...}`, with
//! numpy's summary of large arrays (`np.set_printoptions` defaults:
//! `threshold=1000`, `edgeitems=3`): an array of more than 1000 elements
//! prints each axis longer than 6 as its first 3 items, `...`, its last 3.
//!
//! As in numpy, whether a row of an array is summarized depends on the
//! whole array's size (a `(2, 600)` array prints `[0, 1, 2, ..., 597,
//! 598, 599]` rows), and a subarray field is summarized by its own size.

use std::fmt::Write;

use npy_serde::{PyBytes, PyStr};

use crate::text;
use crate::value::Value;

/// numpy's `threshold`: arrays of more elements are summarized.
pub const THRESHOLD: u64 = 1000;
/// numpy's `edgeitems`: the items kept at each end of a summarized axis.
pub const EDGE_ITEMS: usize = 3;

/// `value` as numpy prints it; `summarize`: whether its axes (when it is a
/// row of an array, or an array) are summarized (the array it belongs to
/// has more than [`THRESHOLD`] elements).
pub fn repr(value: &Value, summarize: bool, out: &mut String) {
    let _ = match value {
        Value::Bool(b) => write!(out, "{}", if *b { "True" } else { "False" }),
        Value::Int(i) => write!(out, "{i}"),
        Value::UInt(u) => write!(out, "{u}"),
        Value::Float(x) => write!(out, "{}", text::float(*x)),
        Value::Complex(re, im) => write!(out, "{}", text::complex(*re, *im)),
        Value::Bytes(b) | Value::Void(b) => write!(out, "{}", PyBytes(b)),
        Value::Str(s) => write!(out, "{}", PyStr(s)),
        Value::Time(t) => write!(out, "{t}"),
        Value::Array(items) => {
            out.push('[');
            let elide = summarize && items.len() > 2 * EDGE_ITEMS;
            for (i, item) in items.iter().enumerate() {
                if elide && i >= EDGE_ITEMS && i < items.len() - EDGE_ITEMS {
                    if i == EDGE_ITEMS {
                        out.push_str(", ...");
                    }
                    continue;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                repr(item, summarize, out);
            }
            out.push(']');
            Ok(())
        }
        Value::Record(fields) => {
            out.push('{');
            for (i, (name, item)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(name);
                out.push_str(": ");
                // a field is printed by its own size, as numpy's SubArrayFormat
                repr(item, size(item) > THRESHOLD, out);
            }
            out.push('}');
            Ok(())
        }
    };
}

/// The number of elements of `value` as numpy counts them (`a.size`: a
/// record is one element).
pub fn size(value: &Value) -> u64 {
    match value {
        Value::Array(items) => items.iter().map(size).sum(),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(n: i64) -> Value {
        Value::Array((0..n).map(Value::Int).collect())
    }

    #[test]
    fn long_arrays_are_summarized_as_numpy_does() {
        let mut s = String::new();
        repr(&ints(7), true, &mut s);
        assert_eq!(s, "[0, 1, 2, ..., 4, 5, 6]");
        s.clear();
        repr(&ints(6), true, &mut s);
        assert_eq!(s, "[0, 1, 2, 3, 4, 5]");
        s.clear();
        repr(&ints(7), false, &mut s);
        assert_eq!(s, "[0, 1, 2, 3, 4, 5, 6]");
        // 2 x 600: both axes summarized where longer than 6
        let m = Value::Array(vec![ints(600), ints(600)]);
        s.clear();
        repr(&m, size(&m) > THRESHOLD, &mut s);
        assert_eq!(
            s,
            "[[0, 1, 2, ..., 597, 598, 599], [0, 1, 2, ..., 597, 598, 599]]"
        );
        // a record field by its own size
        let r = Value::Record(vec![("a".into(), ints(1001)), ("b".into(), ints(7))]);
        s.clear();
        repr(&r, false, &mut s);
        assert_eq!(
            s,
            "{a: [0, 1, 2, ..., 998, 999, 1000], b: [0, 1, 2, 3, 4, 5, 6]}"
        );
    }
}
