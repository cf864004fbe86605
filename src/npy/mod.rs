//! The `.npy` file API: reading (`from_slice`, `from_reader`, `NpyReader`, row ranges),
//! writing (`to_vec`, `to_writer`, `NpyWriter`) and atomic files (`to_path`, `from_path`).

pub(crate) mod atomic;
pub(crate) mod npy_writer;
pub(crate) mod reader;
pub(crate) mod rows;
pub(crate) mod writer;
