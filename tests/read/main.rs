//! Reading: numpy-made files into derived structs and JSON values, header
//! and descr parsing, `Bulk<T>`, and zero-copy views.

mod bulk;
mod header;
mod long_double;
mod nd;
mod nd_positions;
#[cfg(feature = "ndarray")]
mod ndarray;
mod numpy_files;
mod rows;
mod view;
mod what_is_there;
