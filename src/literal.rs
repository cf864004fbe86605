//! STUB (owned by the parse helper): a Python-literal parser for header dicts.
use crate::error::Result;

/// A parsed Python literal.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Str(String),
    Int(i128),
    Bool(bool),
    None,
    Tuple(Vec<Value>),
    List(Vec<Value>),
    Dict(Vec<(Value, Value)>),
}

/// Parses one literal (the whole input, surrounding whitespace allowed).
pub(crate) fn parse(_text: &str, _max_depth: usize) -> Result<Value> {
    todo!()
}
