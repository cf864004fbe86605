//! NumPy's `.npy` and `.npz` files as a serde data format.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod descr;
mod dtype;
mod error;
mod header;
mod header_read;
mod literal;
mod options;
mod printable;
mod pyrepr;
mod special;
mod trace;

pub use crate::dtype::{
    ByteOrder, DatetimeUnit, Dtype, Field, Record, RecordBuilder, Scalar, ScalarType, TimeUnit,
};
pub use crate::error::{Error, ErrorKind, Result, Segment};
pub use crate::header::Header;
pub use crate::options::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_ELEMENTS, DEFAULT_MAX_HEADER_SIZE, ReadOptions, WriteOptions,
};
