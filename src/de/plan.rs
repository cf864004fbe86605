//! The per-file plan: the dtype compiled once into what the deserializers
//! need on every record — each node's size, each field's offset and name —
//! so no record recomputes sizes or walks the dtype's own representation.
//!
//! Field names are handed to serde as `&str` borrowed from the plan (the
//! derive matches them by name); never as indices, which `alias` and
//! `flatten` would make silently wrong.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::dtype::{Dtype, Scalar, ShapeRepr};

/// One node of the compiled dtype.
#[derive(Debug)]
pub(crate) struct Plan {
    /// Bytes of one element of this node (`Dtype::itemsize`).
    pub(crate) size: usize,
    pub(crate) kind: Kind,
    /// Address of the last `fields` list of a `deserialize_struct` found
    /// equal to this record's field names (0: none yet), and of the last
    /// found different: the comparison runs once per file and type.
    names_equal: AtomicUsize,
    names_differ: AtomicUsize,
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
        Plan {
            size,
            kind,
            names_equal: AtomicUsize::new(0),
            names_differ: AtomicUsize::new(0),
        }
    }

    /// Whether this record's field names are exactly `fields`, in order:
    /// then the struct's visitor may take the fields as a sequence (what a
    /// derived `Deserialize` does for a struct: each field in declaration
    /// order), skipping the per-record key matching. The names are
    /// compared, not assumed: field indices alone would be silently wrong
    /// with `alias`, `rename` or reordered files. Decided once per list
    /// (its address is cached; lists are `'static` and immutable).
    pub(crate) fn names_are(&self, fields: &'static [&'static str]) -> bool {
        let Kind::Record(own) = &self.kind else {
            return false;
        };
        let addr = fields.as_ptr() as usize ^ fields.len().rotate_left(48);
        if addr == self.names_equal.load(Ordering::Relaxed) {
            return true;
        }
        if addr == self.names_differ.load(Ordering::Relaxed) {
            return false;
        }
        let equal =
            own.len() == fields.len() && own.iter().zip(fields).all(|(f, name)| &*f.name == *name);
        let slot = if equal {
            &self.names_equal
        } else {
            &self.names_differ
        };
        slot.store(addr, Ordering::Relaxed);
        equal
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
