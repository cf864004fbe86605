//! Writing: bytes equal to the files numpy wrote, every write path giving
//! the same bytes, streaming and chunked output, and every refusal.

mod byte_exact;
mod chunked;
mod flat;
mod refusals;
mod replay;
mod roundtrip;
mod same_bytes;
mod streaming;
