//! The file format itself: the header (written and read), the dtype tree and its `descr`
//! text, Python literals and `repr()`.

pub(crate) mod descr;
pub(crate) mod dtype;
pub(crate) mod header;
pub(crate) mod header_read;
pub(crate) mod literal;
pub(crate) mod pyrepr;
