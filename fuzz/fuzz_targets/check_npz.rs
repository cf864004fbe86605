//! The npz fuzz oracle, shared by the cargo-fuzz target `read_npz` and the
//! stable replay of its committed corpus inside `cargo test`
//! (`tests/robustness/fuzz_npz.rs` includes this file).
//!
//! An input is opened as an archive and every member is read every way the
//! crate offers: `by_name` into a generic value and into a derived struct,
//! the streaming `reader()`, `raw()`, and the whole archive as columns and
//! as a struct of arrays. The oracle fails (panics) only when the crate
//! panics or when the paths disagree: a member `by_name` reads into a value
//! streams as the same values through `reader()`.

use std::io::Cursor;

use npy_serde::ReadOptions;
use npy_serde::npz::{self, NpzReader};
use serde::Deserialize;
use serde_json::Value;

/// A derived record target matching some fuzzed members by name.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
pub struct Rec {
    #[serde(default)]
    pub a: Option<i64>,
    #[serde(default)]
    pub x: Option<f64>,
    #[serde(default)]
    pub s: Option<String>,
}

/// A struct-of-arrays target: members `a` and `x`.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
pub struct Soa {
    #[serde(default)]
    pub a: Option<Vec<i64>>,
    #[serde(default)]
    pub x: Option<Value>,
}

/// The limits the oracle reads under: small enough that a fuzzed archive
/// (deflate amplifies about 1000 times) cannot make one run slow.
pub fn options() -> ReadOptions {
    ReadOptions::new().max_elements(1 << 20)
}

/// Reads `bytes` as an archive every way; returns how many members read
/// into a value (for statistics).
pub fn check(bytes: &[u8]) -> usize {
    let Ok(mut z) = NpzReader::with_options(Cursor::new(bytes), options()) else {
        return 0;
    };
    let names = z.names().to_vec();
    assert_eq!(z.len(), names.len(), "len() disagrees with names()");
    let mut read = 0;
    for name in &names {
        let value = z.by_name::<Value>(name);
        let _ = z.by_name::<Vec<Rec>>(name);
        let _ = z.by_name::<Rec>(name);
        let _ = z.by_name::<serde_bytes::ByteBuf>(name);
        let _ = z.raw(name);
        let streamed = z.reader(name).map(|mut r| {
            let zero_d = r.shape().is_empty();
            let items: Vec<_> = r.deserialize::<Value>().take(1 << 20).collect();
            (zero_d, items)
        });
        if let (Ok(value), Ok((zero_d, items))) = (&value, &streamed) {
            read += 1;
            // by_name checks the member ends after its data; the stream
            // only reads the data: by_name succeeding means the stream does
            let items: Vec<&Value> = items
                .iter()
                .map(|i| {
                    i.as_ref().unwrap_or_else(|e| {
                        panic!("by_name read {name:?} but the stream failed: {e}")
                    })
                })
                .collect();
            let expected: Vec<&Value> = if *zero_d {
                vec![value]
            } else {
                value
                    .as_array()
                    .map(|a| a.iter().collect())
                    .unwrap_or_default()
            };
            assert_eq!(
                items, expected,
                "member {name:?}: the stream disagrees with by_name"
            );
        }
    }
    // the whole archive, columnar and as a struct of arrays
    let _ = npz::from_reader::<Vec<Rec>>(Cursor::new(bytes));
    let _ = npz::from_reader::<Soa>(Cursor::new(bytes));
    let _ = npz::from_reader::<std::collections::BTreeMap<String, Value>>(Cursor::new(bytes));
    read
}
