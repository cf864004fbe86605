//! N-d arrays and plain-number blocks: `NdArray`/`NdView` (and their serde form), `Bulk`,
//! zero-copy views, zero-filled files, ndarray and memory-map interop.

pub mod bulk;
#[cfg(feature = "memmap")]
pub mod memmap;
pub(crate) mod nd;
pub(crate) mod nd_serde;
#[cfg(feature = "ndarray")]
pub mod ndarray;
#[cfg(feature = "view")]
pub mod view;
pub(crate) mod zeroed;
