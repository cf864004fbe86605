//! The per-file plan: the dtype compiled once into what the deserializers
//! need on every record — each node's size, each field's offset and name —
//! so no record recomputes sizes or walks the dtype's own representation.
//!
//! Field names are handed to serde as `&str` borrowed from the plan (the
//! derive matches them by name); never as indices, which `alias` and
//! `flatten` would make silently wrong. A record whose names one read
//! proved to be a type's own fields in order goes to that type by position
//! ([`ByPosition`]).

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::format::dtype::{ByteOrder, Dtype, Plain, Scalar, ScalarType, ShapeRepr};
use crate::kinds::special;

/// One node of the compiled dtype.
#[derive(Debug)]
pub(crate) struct Plan {
    /// Bytes of one element of this node (`Dtype::itemsize`).
    pub(crate) size: usize,
    /// The scalar types whose value is one little-endian load (see [`Fast`]).
    pub(crate) fast: Fast,
    /// The same for the numbers in big-endian order: one byte-swapping
    /// load. Read from the plan only when `fast` did not match, so a
    /// little-endian file's hot path stays one compare.
    pub(crate) swapped: Fast,
    /// For a little-endian `M8`/`m8` scalar, the newtype token of its own
    /// unit (`"$npy_serde::M8[ns]"`): a type asking for exactly this token
    /// gets the count unconverted, without parsing the token per record.
    pub(crate) token: Option<Box<str>>,
    /// For a subarray of scalars the bulk path reads (see `super::bulk`),
    /// the layout key offered to `Bulk<T>` (`"f4,3"`), built once per file.
    pub(crate) bulk: Option<Box<str>>,
    /// For a record node, whether a type's field list reads it by
    /// position (see [`ByPosition`]).
    pub(crate) by_position: ByPosition,
    pub(crate) kind: Kind,
}

/// Whether a record node may be handed to a type's `visit_seq` (its fields
/// by position, without matching a name per field) instead of `visit_map`.
///
/// Names are matched once per file and type, never assumed: serde's field
/// list includes aliases, so a list equal to the file's names can still
/// put a field at another position (derive-tests/tests/by_name.rs). The
/// proof is a by-name read of one record in which the type's field list
/// (a derived struct's `FIELDS`) names file fields in the file's order
/// (all of them, or some: the others are skipped) and each of these names
/// became a different key (the derive's field identifier, an enum,
/// compared by discriminant): then no name is an alias of another, and the
/// list is one struct field per position in the order `visit_seq` reads,
/// which is also the order a by-name read meets them (the same first
/// failing field). Records read by position still check that the type
/// took every field it was given.
///
/// A proof belongs to the type that made it: its visitor's type, known by
/// the address of its `type_name` ([`ByPosition::key`]), so a second type
/// with an equal field list (one that refuses unknown fields, say) proves
/// its own.
#[derive(Debug, Default)]
pub(crate) struct ByPosition {
    /// The key of a type proven to read all of the record's fields.
    all: AtomicUsize,
    /// The key of a type proven to read some of them, and their positions
    /// in order.
    some: OnceLock<(usize, Box<[usize]>)>,
    /// The key of a type whose proof failed: read by name.
    failed: AtomicUsize,
}

/// The fields a proven type reads.
pub(crate) enum Reads<'p> {
    /// All of the record's, in order.
    All,
    /// Those at these positions.
    Some(&'p [usize]),
}

impl ByPosition {
    /// The key of the type whose visitor is `V`: the address of its name
    /// (never 0).
    #[inline(always)]
    pub(crate) fn key<V>() -> usize {
        std::any::type_name::<V>().as_ptr() as usize
    }

    /// What the type of `key` reads by position, if proven.
    #[inline(always)]
    pub(crate) fn holds(&self, key: usize) -> Option<Reads<'_>> {
        if self.all.load(Ordering::Acquire) == key {
            return Some(Reads::All);
        }
        match self.some.get() {
            Some((k, at)) if *k == key => Some(Reads::Some(at)),
            _ => None,
        }
    }

    /// Whether a proof for the type of `key` is still to be tried.
    pub(crate) fn untried(&self, key: usize) -> bool {
        self.failed.load(Ordering::Relaxed) != key && self.holds(key).is_none()
    }

    /// Records how the proof for the type of `key` ended: what it reads by
    /// position, or `None` (by name). One type of each kind is kept;
    /// another one proven later on the same node is read by name.
    pub(crate) fn settle(&self, key: usize, reads: Option<Reads<'_>>) {
        let kept = match reads {
            Some(Reads::All) => self
                .all
                .compare_exchange(0, key, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok(),
            Some(Reads::Some(at)) => self.some.set((key, at.into())).is_ok(),
            None => false,
        };
        if !kept {
            self.failed.store(key, Ordering::Relaxed);
        }
    }
}

/// A scalar node that the Rust type of the same name reads with one
/// little-endian (or single-byte) load and one `visit_` call, decided once
/// per file ([`Scalar::plain`](crate::format::dtype::Scalar::plain), the rule the
/// write side's fast paths share): `deserialize_f64` on a `<f8` node checks
/// this tag and nothing else; on a `>f8` node it misses and the plan's
/// `swapped` tag (`F64`: one byte-swapping load) is checked next. Every
/// other pairing (`<f4` into `f64`, `<f8` into `i32`, strings, datetimes)
/// is `None` or a different number in both, and takes the general path
/// with its conversions and messages.
pub(crate) type Fast = Option<Plain>;

/// What the node is. An explicit tag byte (`repr(u8)`) instead of a niche in
/// a `Vec`'s capacity: every element dispatches on it, and a byte compare is
/// cheaper than decoding the niche.
#[derive(Debug)]
#[repr(u8)]
pub(crate) enum Kind {
    Scalar(Scalar),
    /// Base element and dims (C order), and whether they are one axis of
    /// scalars that take bytes (`('pos', '<f8', (3,))`, not `S0`): a run
    /// (`super::array::run_seq`), the one thing the hot paths test.
    Sub(Box<Plan>, Vec<u64>, bool),
    Record(Vec<PField>),
}

/// A record field: name, offset in the record, its plan.
#[derive(Debug)]
pub(crate) struct PField {
    pub(crate) name: Box<str>,
    pub(crate) offset: usize,
    /// `offset` in 32 bits, for the fast paths: the end of a number read
    /// there cannot overflow, so its bytes cost one bounds check. A field
    /// whose offset does not fit has no [`Fast`] tags (its plan's `fast`
    /// and `swapped` are `None`), so this is read only where it is the
    /// offset.
    pub(crate) near: u32,
    pub(crate) plan: Plan,
}

impl Plan {
    /// Compiles a dtype (sizes were checked when it was parsed or built).
    pub(crate) fn new(dtype: &Dtype) -> Plan {
        let size = dtype.itemsize();
        let (fast, swapped, token) = match dtype {
            Dtype::Scalar(s) => (s.plain(), swapped(*s), own_token(*s)),
            _ => (None, None, None),
        };
        let kind = match dtype {
            Dtype::Scalar(s) => Kind::Scalar(*s),
            Dtype::Subarray(base, dims) => {
                let base = Plan::new(base);
                let run = match (&base.kind, &dims[..]) {
                    (Kind::Scalar(_), &[n]) => base.size != 0 && usize::try_from(n).is_ok(),
                    _ => false,
                };
                Kind::Sub(Box::new(base), dims.clone(), run)
            }
            Dtype::Record(r) => Kind::Record(
                r.fields()
                    .iter()
                    .map(|f| {
                        let mut plan = Plan::new(f.dtype());
                        let near = u32::try_from(f.offset()).ok();
                        if near.is_none() {
                            // past 4 GiB into its record: no fast path
                            // (see `PField::near`)
                            plan.fast = None;
                            plan.swapped = None;
                        }
                        PField {
                            name: f.name().into(),
                            offset: f.offset(),
                            near: near.unwrap_or(u32::MAX),
                            plan,
                        }
                    })
                    .collect(),
            ),
        };
        let bulk = match &kind {
            Kind::Sub(base, dims, _) => bulk_key(base, dims).map(Into::into),
            _ => None,
        };
        Plan {
            size,
            fast,
            swapped,
            token,
            bulk,
            by_position: ByPosition::default(),
            kind,
        }
    }
}

/// The [`Fast`] tag of a big-endian number: what [`Scalar::plain`] gives
/// the same type in little-endian order (single bytes have no order and
/// take `fast`).
fn swapped(s: Scalar) -> Fast {
    match (s.order(), s.plain()) {
        (ByteOrder::Big, None) => Scalar::new(s.ty(), ByteOrder::Little).plain(),
        _ => None,
    }
}

/// The datetime token whose unit is exactly the scalar's own (checked by
/// parsing it back, so a spelling the parser reads differently never
/// takes the shortcut).
fn own_token(s: Scalar) -> Option<Box<str>> {
    if s.order() == ByteOrder::Big {
        return None;
    }
    let (prefix, unit, datetime) = match s.ty() {
        ScalarType::Datetime(u) => (special::DATETIME_PREFIX, u, true),
        ScalarType::Timedelta(u) => (special::TIMEDELTA_PREFIX, u, false),
        _ => return None,
    };
    let token = format!("{prefix}{unit}");
    (super::time_token::parse_token(&token) == Some((datetime, unit))).then(|| token.into())
}

/// How a value was found in the file, for "expected X, found Y" messages.
pub(crate) struct Found<'a>(pub(crate) &'a Plan);

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.kind {
            Kind::Scalar(s) => write!(f, "'{s}'"),
            Kind::Sub(base, shape, _) => {
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

/// The key the bulk path (`super::bulk`) offers for an array of `plan`
/// with these dims, when there is at least one axis and its plan is a
/// scalar the bulk path reads with `from_le_bytes`: the plain numbers
/// ([`Scalar::plain`]) and `<f2` (bits unchanged), coded without their
/// byte order (`f4`); the same numbers big-endian (read with
/// `from_be_bytes`) keep theirs (`>f4`).
pub(crate) fn bulk_key(plan: &Plan, dims: &[u64]) -> Option<String> {
    let Kind::Scalar(s) = &plan.kind else {
        return None;
    };
    if dims.is_empty() {
        return None;
    }
    let code = match Scalar::new(s.ty(), ByteOrder::Little).plain() {
        Some(p) => p.code(),
        None if s.ty() == ScalarType::Float(2) => "f2",
        None => return None,
    };
    let key = match s.order() {
        ByteOrder::Big => format!(">{code}"),
        _ => code.to_owned(),
    };
    Some(dims.iter().fold(key, |key, d| format!("{key},{d}")))
}
