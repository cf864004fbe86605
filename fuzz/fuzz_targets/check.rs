//! The fuzz oracle, shared by the stable proptest run inside `cargo test`
//! (`tests/robustness/fuzz.rs` includes this file) and the cargo-fuzz target
//! `read_npy`.
//!
//! An input is read every way the crate offers; the oracle fails (panics)
//! only when the crate panics or when the read paths disagree:
//! `from_slice` succeeding means `from_reader` and the `NpyReader` iterator
//! give the same values, and a zero-copy `view` that succeeds holds the
//! values `from_slice` reads.

use npy_serde::NpyReader;
use serde::Deserialize;
use serde_json::Value;

/// A derived target that matches some generated records by name.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
pub struct Rec {
    #[serde(default)]
    pub a: Option<i64>,
    #[serde(default)]
    pub x: Option<f64>,
    #[serde(default)]
    pub id: Vec<u8>,
    #[serde(default)]
    pub t: Option<npy_serde::Datetime64<npy_serde::unit::ns>>,
    #[serde(default)]
    pub b: Option<bool>,
    #[serde(default)]
    pub s: Option<String>,
}

/// Reads `bytes` into an untyped value and into `Vec<Rec>` through every
/// path, checking that the paths agree. Returns whether `from_slice` read a
/// value (for statistics).
pub fn check(bytes: &[u8]) -> bool {
    let slice = npy_serde::from_slice::<Value>(bytes);
    let reader = npy_serde::from_reader::<Value>(bytes);
    match (&slice, &reader) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "from_slice and from_reader disagree"),
        (Ok(a), Err(e)) => panic!("from_slice gave {a} but from_reader failed: {e}"),
        // from_reader stops after the data; from_slice refuses trailing bytes
        (Err(e), Ok(_)) => assert!(
            e.to_string().contains("bytes follow"),
            "from_reader succeeded but from_slice failed: {e}"
        ),
        (Err(_), Err(_)) => {}
    }
    // a reader that hands out one or a few bytes per call reads the same
    let trickle = npy_serde::from_reader::<Value>(Trickle(bytes, 0));
    assert_eq!(
        trickle.as_ref().map_err(ToString::to_string),
        reader.as_ref().map_err(ToString::to_string),
        "short reads change the outcome"
    );
    check_views(bytes, &slice);
    let typed_slice = npy_serde::from_slice::<Vec<Rec>>(bytes);
    let typed_reader = npy_serde::from_reader::<Vec<Rec>>(bytes);
    if let (Ok(a), Ok(b)) = (&typed_slice, &typed_reader) {
        // compared as text: NaN is not equal to itself
        assert_eq!(
            format!("{a:?}"),
            format!("{b:?}"),
            "from_slice and from_reader disagree on Vec<Rec>"
        );
    }
    if typed_slice.is_ok() && slice.is_ok() {
        assert!(typed_reader.is_ok(), "from_reader::<Vec<Rec>> failed alone");
    }

    // the iterator yields the outer elements of the same value
    let Ok(mut it) = NpyReader::new(bytes) else {
        assert!(
            slice.is_err(),
            "from_slice read what NpyReader::new refused"
        );
        return false;
    };
    let zero_d = it.shape().is_empty();
    let mut items = Vec::new();
    let mut errors = 0usize;
    for item in it.deserialize::<Value>() {
        match item {
            Ok(v) => items.push(v),
            Err(_) => errors += 1,
        }
        assert!(items.len() + errors <= 1 << 20, "the iterator does not end");
    }
    let read = slice.is_ok();
    if let Ok(value) = slice {
        assert_eq!(errors, 0, "from_slice succeeded but the iterator failed");
        let expected = if zero_d {
            vec![value]
        } else {
            value.as_array().cloned().unwrap_or_default()
        };
        assert_eq!(items, expected, "the iterator disagrees with from_slice");
    }
    let mut it = NpyReader::new(bytes).unwrap_or_else(|e| panic!("second open failed: {e}"));
    for item in it.deserialize::<Rec>().take(1 << 20) {
        let _ = item;
    }
    read
}

/// A view of `u8` or `i64` that succeeds (on a copy of `bytes` aligned for
/// it) holds the values `from_slice` reads, in C order; `from_slice` may
/// refuse only on a limit (views have no element limit).
fn check_views(bytes: &[u8], slice: &Result<Value, npy_serde::Error>) {
    let mut buf = vec![0u8; bytes.len() + 8];
    let start = buf.as_ptr().align_offset(8);
    let aligned = &mut buf[start..start + bytes.len()];
    aligned.copy_from_slice(bytes);
    view_agrees::<u8>(aligned, slice, Value::from);
    view_agrees::<i64>(aligned, slice, Value::from);
}

fn view_agrees<T: npy_serde::view::ViewElement>(
    bytes: &[u8],
    slice: &Result<Value, npy_serde::Error>,
    to_value: fn(T) -> Value,
) {
    let Ok(view) = npy_serde::view::<T>(bytes) else {
        return;
    };
    let value = match slice {
        Ok(value) => value,
        Err(e) if matches!(e.kind(), npy_serde::ErrorKind::Limit(_)) => return,
        Err(e) => panic!("a view read what from_slice refused: {e}"),
    };
    if view.order() == npy_serde::Order::C {
        let mut flat = Vec::new();
        flatten(value, &mut flat);
        let viewed: Vec<Value> = view.data().iter().map(|&x| to_value(x)).collect();
        assert_eq!(flat, viewed, "the view disagrees with from_slice");
    }
}

/// The scalars of a nested array value, in order.
fn flatten(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| flatten(v, out)),
        other => out.push(other.clone()),
    }
}

/// Reads 1, 2 or 3 bytes per call, in turn.
struct Trickle<'a>(&'a [u8], usize);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.1 += 1;
        let n = (self.1 % 3 + 1).min(buf.len()).min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        buf.get_mut(..n).unwrap_or_default().copy_from_slice(head);
        self.0 = rest;
        Ok(n)
    }
}

/// Wraps `text` as a version 1 header (padded like numpy) followed by
/// `data`, so a fuzzer mutating plain text reaches the header parser.
pub fn wrap_header(text: &[u8], data: &[u8]) -> Vec<u8> {
    let hlen = text.len() + 1;
    let pad = (64 - (10 + hlen) % 64) % 64;
    let total = hlen + pad;
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&u16::try_from(total).unwrap_or(u16::MAX).to_le_bytes());
    out.extend_from_slice(text);
    out.extend(std::iter::repeat_n(b' ', pad));
    out.push(b'\n');
    out.extend_from_slice(data);
    out
}
