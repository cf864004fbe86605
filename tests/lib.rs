//! The test suite of npy_serde (unpublished): one test binary per
//! capability, each a directory whose `main.rs` lists its modules.
//!
//! | binary | what it proves |
//! |---|---|
//! | `write` | byte-exact output against numpy's files, every write path, refusals |
//! | `read` | numpy-made files into derived structs and JSON, headers and descrs, `Bulk` |
//! | `npz` | archives read and written, columnar members |
//! | `fidelity` | numpy's bytes through a generic value and back unchanged, NaN payloads, datetime text |
//! | `robustness` | hostile and mutated input, nesting depth, write faults, fuzzing |
//! | `memory` | memory bounded by the bytes present and by the writers' buffers |
//! | `interop` | live round trips with numpy (driven by `.ci/run`) |
//! | `dtype` | `Dtype::of` refusals and limits, with their messages |
//! | `parallel` | the `rayon` feature's paths equal the sequential ones |
//!
//! Fixtures live beside them: `data/` (numpy-made files and the hostile
//! corpus, each with the script that made it), `fixtures/` (header and
//! descr texts numpy produced) and `interop/*.py` (numpy's side of the live
//! interop). Snapshots are in `../snapshots/npy_serde`. The benches against
//! npyz and hand-written codecs are in `benches/npy.rs`.
#![forbid(unsafe_code)]
