//! cargo-fuzz target: `RUSTC_BOOTSTRAP=1 cargo fuzz run write` (from the
//! repository root). The input drives `arbitrary` to build a dtype and
//! values, or derived values, that are written and read back
//! (`check_write.rs`); the committed corpus is replayed on stable by
//! `tests/robustness/fuzz_write.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod check_write;

fuzz_target!(|data: &[u8]| {
    let _ = check_write::check(data);
});
