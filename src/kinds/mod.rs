//! The element kinds: the one table of number types (`number.rs`), the
//! exact conversions between them (`convert.rs`), IEEE binary floats of
//! any width taken apart and rounded by their bits (`ieee.rs`), and the
//! kinds beyond serde's data model: complex numbers, datetimes and their
//! units, long doubles, padding, the kinds given as their bits
//! (`special::BITS`: half floats), and the newtype names that mark them.

pub mod complex;
pub(crate) mod convert;
pub(crate) mod datetime;
pub(crate) mod ieee;
pub(crate) mod long_double;
pub(crate) mod number;
pub(crate) mod padding;
pub(crate) mod special;
pub(crate) mod timeconv;
