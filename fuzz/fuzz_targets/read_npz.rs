//! cargo-fuzz target: `RUSTC_BOOTSTRAP=1 cargo fuzz run read_npz` (from the
//! repository root). The input is an `.npz` archive, opened and read every
//! way (`check_npz.rs`); the committed corpus is replayed on stable by
//! `tests/robustness/fuzz_npz.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod check_npz;

fuzz_target!(|data: &[u8]| {
    let _ = check_npz::check(data);
});
