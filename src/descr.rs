//! STUB (owned by the parse helper): descr text / literal -> Dtype.
use crate::dtype::Dtype;
use crate::error::Result;
use crate::literal::Value;

pub(crate) const DEFAULT_MAX_DEPTH: usize = crate::options::DEFAULT_MAX_DEPTH;

/// Parses a descr as written in a header, or a bare type string.
pub(crate) fn parse_descr(_text: &str, _max_depth: usize) -> Result<Dtype> {
    todo!()
}

/// Converts the `descr` value of a parsed header dict.
pub(crate) fn dtype_from_literal(_value: &Value, _max_depth: usize) -> Result<Dtype> {
    todo!()
}
