//! STUB (owned by the parse helper): reading and checking an npy header.
use std::io::Read;

use crate::error::Result;
use crate::header::Header;
use crate::options::ReadOptions;

/// A header as read from a file.
#[derive(Debug, Clone)]
pub(crate) struct ParsedHeader {
    pub header: Header,
    pub version: (u8, u8),
    /// Bytes from the start of the file to the first data byte.
    pub data_offset: usize,
}

/// Reads the header from a stream, leaving it positioned at the first data byte.
pub(crate) fn read_header<R: Read>(_reader: &mut R, _opts: &ReadOptions) -> Result<ParsedHeader> {
    todo!()
}

/// Parses the header at the start of `bytes`.
pub(crate) fn parse_header(_bytes: &[u8], _opts: &ReadOptions) -> Result<ParsedHeader> {
    todo!()
}
