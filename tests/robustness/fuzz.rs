//! Stable-toolchain fuzzing inside `cargo test`, with a fixed budget: the
//! oracle of the cargo-fuzz target (`fuzz/fuzz_targets/check.rs`: no panic,
//! and every read path agrees with `from_slice`) on structure-aware inputs:
//!
//! * random descr trees (type strings valid and not, records with repeated
//!   and empty names, subarrays), random shapes and versions, data of the
//!   declared size (zeros, small bytes or random) cut short or extended;
//! * numpy-exact valid headers with one field replaced by junk, or a few
//!   bytes edited;
//! * random bytes, with and without the magic.
//!
//! The budget (8000 cases per property) takes a few seconds in debug.

#[path = "../../fuzz/fuzz_targets/check.rs"]
mod check;

use npy_serde::{Header, ReadOptions};
use proptest::prelude::*;

/// Cases per property; `FUZZ_CASES=200000 cargo test -p tests --test robustness fuzz::` runs longer.
fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8000)
}

/// A header section exactly as numpy pads it.
fn file(version: u8, text: &str) -> Vec<u8> {
    let body: Vec<u8> = if version == 3 {
        text.as_bytes().to_vec()
    } else {
        text.chars().map(|c| (c as u32).min(255) as u8).collect()
    };
    let len_size = if version == 1 { 2 } else { 4 };
    let hlen = body.len() + 1;
    let pad = (64 - (8 + len_size + hlen) % 64) % 64;
    let total = hlen + pad;
    let mut out = b"\x93NUMPY".to_vec();
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&u16::try_from(total).unwrap_or(u16::MAX).to_le_bytes());
    } else {
        out.extend_from_slice(&(total as u32).to_le_bytes());
    }
    out.extend_from_slice(&body);
    out.extend(std::iter::repeat_n(b' ', pad));
    out.push(b'\n');
    out
}

const TYPES: &[&str] = &[
    "'<i4'",
    "'>i8'",
    "'|u1'",
    "'<u2'",
    "'<f8'",
    "'>f4'",
    "'<f2'",
    "'|b1'",
    "'<c8'",
    "'>c16'",
    "'|S3'",
    "'<U2'",
    "'>U1'",
    "'|V3'",
    "'<M8[ns]'",
    "'<m8[s]'",
    "'<M8'",
    "'float64'",
    "'int16'",
];

/// Refused by the descr parser or by the reader.
const BAD_TYPES: &[&str] = &["'|O'", "'<f16'", "'<i3'", "'<q9'", "'|S0'", "'S'", "'<U-1'"];

const NAMES: &[&str] = &["a", "x", "id", "", "é", "b", "t", "s"];

fn descr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        12 => proptest::sample::select(TYPES).prop_map(str::to_owned),
        1 => proptest::sample::select(BAD_TYPES).prop_map(str::to_owned),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        let dims =
            proptest::collection::vec(prop_oneof![8 => 0u64..4, 1 => Just(2147483647u64)], 0..3);
        let field = (
            proptest::sample::select(NAMES),
            inner.clone(),
            proptest::option::of(dims.clone()),
        );
        prop_oneof![
            3 => (proptest::collection::vec(field, 0..4), proptest::bool::weighted(0.1))
                .prop_map(|(fields, dup)| {
                    let mut seen = std::collections::HashSet::new();
                    let fields: Vec<String> = fields
                        .into_iter()
                        .enumerate()
                        .map(|(i, (name, dt, dims))| {
                            // unique names unless a duplicate is wanted
                            let name = if dup || !seen.insert(name) {
                                if dup { name.to_owned() } else { format!("{name}{i}") }
                            } else {
                                name.to_owned()
                            };
                            match dims {
                                Some(d) => format!("('{name}', {dt}, {})", tuple(&d)),
                                None => format!("('{name}', {dt})"),
                            }
                        })
                        .collect();
                    format!("[{}]", fields.join(", "))
                }),
            1 => (inner, dims).prop_map(|(dt, d)| format!("({dt}, {})", tuple(&d))),
        ]
    })
}

fn tuple(dims: &[u64]) -> String {
    match dims {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            dims.iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn shape() -> impl Strategy<Value = Vec<u64>> {
    proptest::collection::vec(
        prop_oneof![
            8 => 0u64..4,
            1 => Just(1u64 << 32),
            1 => Just(u64::MAX >> 1),
        ],
        0..4,
    )
}

/// Data for a header: its declared size (if small) cut or extended.
fn with_data(head: Vec<u8>, fill: u8, seed: u64, delta: i64) -> Vec<u8> {
    let declared = Header::from_bytes(&head, &ReadOptions::new())
        .ok()
        .and_then(|(h, _)| h.data_len().ok())
        .filter(|&n| n <= 4096)
        .unwrap_or(16);
    let len = (declared as i64 + delta).max(0) as usize;
    let mut x = seed | 1;
    let mut out = head;
    out.extend((0..len).map(|i| match fill {
        0 => 0,
        1 => (i % 2) as u8,
        2 => b'a' + (i % 26) as u8,
        _ => {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        }
    }));
    out
}

fn delta() -> impl Strategy<Value = i64> {
    prop_oneof![6 => Just(0i64), 1 => -8i64..0, 1 => 1i64..8]
}

const JUNK: &[&str] = &[
    "(-1,)",
    "None",
    "True",
    "'<i4'",
    "[",
    "((",
    "(3)",
    "[3]",
    "(1.5,)",
    "__import__('os')",
    "{}",
    "[('a', '<i4'), ('a', '<i4')]",
    "(2**64,)",
    "'",
    "(18446744073709551616,)",
    "()",
    "[]",
    "[[[[[[[[[[",
    "0x10",
    "'\\x00'",
    "u'<f8'",
    "(3L,)",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn random_descr_trees(
        descr in descr(),
        shape in shape(),
        fortran in proptest::bool::weighted(0.2),
        version in 1u8..=3,
        fill in 0u8..4,
        seed in any::<u64>(),
        delta in delta(),
    ) {
        let fortran = if fortran { "True" } else { "False" };
        let text = format!(
            "{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {}, }}",
            tuple(&shape)
        );
        let bytes = with_data(file(version, &text), fill, seed, delta);
        if std::env::var("FUZZ_TRACE").is_ok() { eprintln!("{text} {}", bytes.len()); }
        let ok = check::check(&bytes);
        if std::env::var("FUZZ_TRACE").is_ok() { eprintln!("ok={ok}"); }
    }

    #[test]
    fn valid_headers_with_a_mutated_field(
        descr in descr(),
        shape in proptest::collection::vec(0u64..4, 0..3),
        which in 0usize..4,
        junk in proptest::sample::select(JUNK),
        fill in 0u8..4,
        seed in any::<u64>(),
    ) {
        let shape = tuple(&shape);
        let mut parts = [descr.as_str(), "False", shape.as_str(), ""];
        parts[which] = junk;
        let extra = if which == 3 { format!("'extra': {junk}, ") } else { String::new() };
        let text = format!(
            "{{'descr': {}, 'fortran_order': {}, 'shape': {}, {extra}}}",
            parts[0], parts[1], parts[2]
        );
        let _ = check::check(&with_data(file(1, &text), fill, seed, 0));
    }

    #[test]
    fn valid_files_with_byte_edits(
        descr in descr(),
        shape in proptest::collection::vec(0u64..4, 0..3),
        fill in 0u8..4,
        seed in any::<u64>(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..4),
    ) {
        let text = format!(
            "{{'descr': {descr}, 'fortran_order': False, 'shape': {}, }}",
            tuple(&shape)
        );
        let mut bytes = with_data(file(1, &text), fill, seed, 0);
        for (at, byte, op) in edits {
            let i = at.index(bytes.len());
            match op {
                0 => bytes[i] = byte,
                1 => { bytes.remove(i); }
                _ => bytes.insert(i, byte),
            }
        }
        let _ = check::check(&bytes);
    }

    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400), magic in any::<bool>()) {
        let mut input = if magic { b"\x93NUMPY\x01\x00".to_vec() } else { Vec::new() };
        input.extend_from_slice(&bytes);
        let _ = check::check(&input);
        // the cargo-fuzz target's second reading: the bytes as header text
        let _ = check::check(&check::wrap_header(&bytes, &[]));
    }
}

/// The committed seeds of the cargo-fuzz target `read_npy`
/// (`fuzz/seeds/read_npy`) through the same oracle.
#[test]
fn seeds_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/read_npy");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        read += usize::from(check::check(&bytes));
    }
    assert!(read >= 20, "only {read} seeds read");
}
