//! Reading: numpy-made files into derived structs and JSON values, header
//! and descr parsing, and `Bulk<T>`.

mod bulk;
mod header;
mod nd;
mod numpy_files;
mod what_is_there;
