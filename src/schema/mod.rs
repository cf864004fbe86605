//! A dtype without writing: from a Rust type alone (`Dtype::of`, a tracing deserializer)
//! and from a batch of records (`Dtype::of_records`, the write side's inference).

pub(crate) mod sample;
pub(crate) mod trace;
