//! cargo-fuzz target: `cargo +nightly fuzz run read_npy` (from the
//! repository root). The same oracle runs on stable inside `cargo test`
//! (`tests/robustness/fuzz.rs`) with a fixed budget.
//!
//! The input is read as a whole `.npy` file and, to reach the header
//! parser quickly, also as header text: the bytes up to the first `\n` (at
//! most 4000) wrapped in a valid magic, version and length, the rest as data.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod check;

fuzz_target!(|data: &[u8]| {
    let _ = check::check(data);
    let split = data
        .iter()
        .take(4000)
        .position(|&b| b == b'\n')
        .unwrap_or(data.len().min(4000));
    let (text, rest) = data.split_at(split);
    let _ = check::check(&check::wrap_header(text, rest.get(1..).unwrap_or(&[])));
});
