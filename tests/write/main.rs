//! Writing: bytes equal to the files numpy wrote, every write path giving
//! the same bytes, streaming and chunked output, every refusal, and
//! `write_zeroed`, and memory maps made in one call (feature `memmap`).

mod byte_exact;
mod chunked;
mod flat;
#[cfg(feature = "memmap")]
mod memmap;
mod nd;
mod nd_positions;
mod ndarray_form;
mod recursive;
mod refusals;
mod replay;
mod roundtrip;
mod same_bytes;
mod streaming;
mod typed_empty;
mod zeroed;
