//! The per-file plan: the dtype compiled once into what the deserializers
//! need on every record — each node's size, each field's offset and name —
//! so no record recomputes sizes or walks the dtype's own representation.
//!
//! Field names are handed to serde as `&str` borrowed from the plan (the
//! derive matches them by name); never as indices, which `alias` and
//! `flatten` would make silently wrong.

use std::fmt;

use crate::dtype::{Dtype, Scalar, ShapeRepr};

/// One node of the compiled dtype.
#[derive(Debug)]
pub(crate) struct Plan {
    /// Bytes of one element of this node (`Dtype::itemsize`).
    pub(crate) size: usize,
    pub(crate) kind: Kind,
}

/// What the node is.
#[derive(Debug)]
pub(crate) enum Kind {
    Scalar(Scalar),
    /// Base element and dims (C order).
    Sub(Box<Plan>, Vec<u64>),
    Record(Vec<PField>),
}

/// A record field: name, offset in the record, its plan.
#[derive(Debug)]
pub(crate) struct PField {
    pub(crate) name: Box<str>,
    pub(crate) offset: usize,
    pub(crate) plan: Plan,
}

impl Plan {
    /// Compiles a dtype (sizes were checked when it was parsed or built).
    pub(crate) fn new(dtype: &Dtype) -> Plan {
        let size = dtype.itemsize();
        let kind = match dtype {
            Dtype::Scalar(s) => Kind::Scalar(*s),
            Dtype::Subarray(base, dims) => Kind::Sub(Box::new(Plan::new(base)), dims.clone()),
            Dtype::Record(r) => Kind::Record(
                r.fields()
                    .iter()
                    .map(|f| PField {
                        name: f.name().into(),
                        offset: f.offset(),
                        plan: Plan::new(f.dtype()),
                    })
                    .collect(),
            ),
        };
        Plan { size, kind }
    }
}

/// How a value was found in the file, for "expected X, found Y" messages.
pub(crate) struct Found<'a>(pub(crate) &'a Plan);

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.kind {
            Kind::Scalar(s) => write!(f, "'{s}'"),
            Kind::Sub(base, shape) => {
                write!(f, "subarray {}", ShapeRepr(shape))?;
                if let Kind::Scalar(s) = &base.kind {
                    write!(f, " of '{s}'")?;
                }
                Ok(())
            }
            Kind::Record(fields) => match fields.len() {
                0 => f.write_str("record without fields"),
                1 => f.write_str("record of 1 field"),
                n => write!(f, "record of {n} fields"),
            },
        }
    }
}
