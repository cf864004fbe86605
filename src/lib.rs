//! NumPy's `.npy` and `.npz` files as a serde data format.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod atomic;
mod datetime;
mod de;
mod descr;
mod dtype;
mod error;
mod header;
mod header_read;
mod literal;
mod options;
mod padding;
mod printable;
mod pyrepr;
mod reader;
mod ser;
mod special;
mod trace;
mod writer;

pub mod complex;

pub use crate::atomic::{from_path, to_path};
pub use crate::datetime::{Datetime64, TimeUnitMarker, Timedelta64, unit};
pub use crate::dtype::{
    ByteOrder, DatetimeUnit, Dtype, Field, Record, RecordBuilder, Scalar, ScalarType, TimeUnit,
};
pub use crate::error::{Error, ErrorKind, Result, Segment};
pub use crate::header::Header;
pub use crate::options::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_ELEMENTS, DEFAULT_MAX_HEADER_SIZE, ReadOptions, WriteOptions,
};
pub use crate::padding::Padding;
pub use crate::reader::{DeserializeRecords, NpyReader, from_reader, from_slice};
pub use crate::writer::{NpyWriter, to_vec, to_writer};

/// The README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
