//! Pass 1 without a given dtype: walk the whole value once and derive the
//! array's shape and dtype from it.
//!
//! The value is described by a [`Node`] tree that is created by the first
//! record and then *checked and widened* by every later one (string widths
//! grow to the maximum; everything else must agree), so inference allocates
//! only while the first record is seen. Every refusal (None, i128, enum
//! variants with data, ragged lengths, records of another layout, strings
//! ending in NUL...) happens here, before anything is written.

use std::cell::Cell;

use serde::ser::{self, Serialize};

use super::Found;
use crate::error::{Error, Result};
use crate::format::dtype::{DatetimeUnit, Dtype, Plain, ScalarType};
use crate::format::pyrepr::PyStr;
use crate::kinds::number::code_type;
use crate::kinds::special::Special;
use crate::ser::probe::key_text;
use crate::ser::probe::{Captured, complex, probe};

/// The inferred layout of a value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    /// A number, a complex number, a datetime or opaque `V` bytes
    /// (`half::bf16` as `V2`): a type of fixed size.
    Scalar(ScalarType),
    /// Width in characters (a `U` string).
    Str(usize),
    /// Width in bytes (an `S` string).
    Bytes(usize),
    /// `Padding<N>`: a gap in a record.
    Padding(usize),
    /// A sequence: its length once the first one has ended, and the merged
    /// layout of its elements (`None` while none was seen).
    Array {
        len: Option<u64>,
        elem: Box<Option<Node>>,
    },
    /// A record (struct, map, tuple struct, heterogeneous tuple).
    Record(Vec<RecField>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RecField {
    pub name: String,
    /// Always `Some` once the field was serialized.
    pub node: Option<Node>,
}

impl Node {
    /// Short numpy-style description for messages.
    fn describe(&self) -> String {
        match (self, self.scalar()) {
            (Node::Padding(n), _) => format!("padding of {n} bytes"),
            (_, Some(ty)) => format!("'{}'", crate::format::dtype::Scalar::le(ty)),
            (Node::Record(_), _) => "a record".to_owned(),
            _ => "a sequence".to_owned(),
        }
    }

    fn scalar(&self) -> Option<ScalarType> {
        Some(match *self {
            Node::Scalar(ty) => ty,
            Node::Str(n) => ScalarType::Unicode(n.max(1)),
            Node::Bytes(n) => ScalarType::Bytes(n.max(1)),
            Node::Padding(n) => ScalarType::Void(n),
            Node::Array { .. } | Node::Record(_) => return None,
        })
    }
}

/// Merges `new` into `old`: equal layouts, string widths widened. Returns
/// false when the layouts differ.
fn merge(old: &mut Node, new: &Node) -> bool {
    match (old, new) {
        (Node::Str(a), Node::Str(b)) | (Node::Bytes(a), Node::Bytes(b)) => {
            *a = (*a).max(*b);
            true
        }
        (Node::Array { len: la, elem: ea }, Node::Array { len: lb, elem: eb }) => {
            *la == *lb
                && match (ea.as_mut(), eb.as_ref()) {
                    (_, None) => true,
                    (None, Some(b)) => {
                        **ea = Some(b.clone());
                        true
                    }
                    (Some(a), Some(b)) => merge(a, b),
                }
        }
        (Node::Record(fa), Node::Record(fb)) => {
            fa.len() == fb.len()
                && fa.iter_mut().zip(fb).all(|(a, b)| {
                    a.name == b.name
                        && match (a.node.as_mut(), &b.node) {
                            (Some(x), Some(y)) => merge(x, y),
                            _ => false,
                        }
                })
        }
        (a, b) => *a == *b,
    }
}

/// Puts `new` into the slot (first time) or merges it with what is there.
/// The common case (the same scalar again) is one comparison.
#[inline]
pub(crate) fn put(slot: &mut Option<Node>, new: Node) -> Result<()> {
    let Some(old) = slot else {
        *slot = Some(new);
        return Ok(());
    };
    if *old == new || merge(old, &new) {
        return Ok(());
    }
    // a failed merge may have widened strings inside: the top, which the
    // message describes, is as it was
    Err(differs(&new.describe(), old))
}

/// A value (`found`, described) of another layout than the first record's.
fn differs(found: &str, first: &Node) -> Error {
    Error::schema(format!(
        "found {found} where the first record has {}",
        first.describe()
    ))
}

/// The pass-1 serializer: lays the value into `slot`.
pub(crate) struct Infer<'a> {
    slot: &'a mut Option<Node>,
    /// Whether sequences here are the array's first axis (errors name the
    /// record rather than an index).
    top: bool,
    /// Its depth, and the flag of [`Infer::first`].
    at: Level<'a>,
}

/// Where a value is inferred: its depth, and the flag of a first element
/// that may have another layout in later ones.
#[derive(Clone, Copy)]
pub(crate) struct Level<'a> {
    /// Levels of sequences and records above this value (at most
    /// [`MAX_WRITE_DEPTH`](super::MAX_WRITE_DEPTH)).
    depth: usize,
    /// Set when the value has a part whose layout a later element may
    /// change ([`Infer::first`]).
    varies: Option<&'a Cell<bool>>,
}

impl Level<'_> {
    /// A part whose layout a later element may change.
    fn varies(self) {
        if let Some(v) = self.varies {
            v.set(true);
        }
    }
}

/// A string or bytes ending in NUL: refused by every pass.
#[cold]
pub(crate) fn nul_error() -> Error {
    Error::unsupported(
        "value ends in NUL, which numpy strips when reading; use a '|V' dtype to keep it",
    )
}

impl<'a> Infer<'a> {
    /// Infers the value at the top of a walk into `slot`.
    pub(crate) fn new(slot: &'a mut Option<Node>, top: bool) -> Self {
        Infer {
            slot,
            top,
            at: Level {
                depth: 0,
                varies: None,
            },
        }
    }

    /// Infers the first element of an array into `slot`, setting `varies`
    /// when a later element may have another layout: the element has a
    /// string, an `Option`, an enum, a sequence (a variable length, unlike
    /// a tuple or `[T; N]`), a map or an n-d array. Numbers, tuples,
    /// structs and the special number newtypes fix the layout.
    pub(crate) fn first(slot: &'a mut Option<Node>, varies: &'a Cell<bool>) -> Self {
        let mut infer = Infer::new(slot, false);
        infer.at.varies = Some(varies);
        infer
    }

    /// Infers a value one level below `at` into `slot` (refused past
    /// [`MAX_WRITE_DEPTH`](super::MAX_WRITE_DEPTH)).
    fn below(slot: &'a mut Option<Node>, at: Level<'a>) -> Result<Self> {
        let depth = super::deeper(at.depth)?;
        Ok(Infer {
            slot,
            top: false,
            at: Level { depth, ..at },
        })
    }

    /// Enum variants with data (the only values no pass writes).
    fn refuse(self, found: Found) -> Error {
        found.refused()
    }

    fn leaf(self, node: Node) -> Result<()> {
        put(self.slot, node)
    }

    /// Text (a string, bytes, a unit variant's name), whose width a later
    /// element may change; refused when it ends in NUL (`nul`).
    fn text(self, nul: bool, node: Node) -> Result<()> {
        self.at.varies();
        if nul {
            return Err(nul_error());
        }
        self.leaf(node)
    }

    /// A plain number: the scalar of its type, `N` bytes wide.
    fn number<const N: usize>(self, num: Plain, _: [u8; N]) -> Result<()> {
        let size = N as u8;
        self.leaf(Node::Scalar(match num {
            Plain::Bool => ScalarType::Bool,
            Plain::I8 | Plain::I16 | Plain::I32 | Plain::I64 => ScalarType::Int(size),
            Plain::U8 | Plain::U16 | Plain::U32 | Plain::U64 => ScalarType::UInt(size),
            Plain::F32 | Plain::F64 => ScalarType::Float(size),
        }))
    }

    fn seq(self) -> Result<SeqInfer<'a>> {
        let (top, at) = (self.top, self.at);
        match self.slot.get_or_insert_with(|| Node::Array {
            len: None,
            elem: Box::new(None),
        }) {
            Node::Array { len, elem } => Ok(SeqInfer {
                len,
                elem,
                count: 0,
                top,
                at,
            }),
            other => Err(differs("a sequence", other)),
        }
    }

    /// An n-d array: what nested sequences of its shape infer (a subarray
    /// of its shape, or its element when 0-d), whatever its order; the
    /// element from the values, or from the numpy type its name carries
    /// (`code`) when there are none. Every record must give the same shape.
    fn nd<T: ?Sized + Serialize>(self, code: &'static str, value: &T) -> Result<()> {
        let (nd, elem) = match code_type(code).map(Node::Scalar) {
            // complex numbers serialize as pairs: the name says what they are
            Some(elem @ Node::Scalar(ScalarType::Complex(_))) => {
                (crate::ser::probe::shape_of(value)?, Some(elem))
            }
            hint => {
                let mut flat = None;
                let at = self.at;
                let (nd, ()) =
                    crate::ser::probe::parts(value, code, |_| Infer::below(&mut flat, at))?;
                match flat {
                    Some(Node::Array { len, elem }) if len == nd.count() => (nd, elem.or(hint)),
                    _ => return Err(Error::schema("malformed n-d array: data and shape differ")),
                }
            }
        };
        let Some(elem) = elem else {
            return Err(empty_elem());
        };
        if let Some(first) = self.slot.as_ref() {
            let (dims, _) = axes(first, nd.dims.len());
            if dims != nd.dims {
                return Err(Error::schema(format!(
                    "an n-d array of shape {} where the first record has {}",
                    crate::format::dtype::ShapeRepr(&nd.dims),
                    match first {
                        Node::Array { .. } =>
                            format!("shape {}", crate::format::dtype::ShapeRepr(&dims)),
                        other => other.describe(),
                    }
                )));
            }
        }
        self.leaf(nested(elem, &nd.dims))
    }

    /// A `Bulk<T>` (or a `with = "npy_serde::bulk"` field): the sequence it
    /// is, whose element type, when it is empty, is the one its name
    /// carries (`code` and the element's own `dims`), as an empty
    /// `NdArray<T>` has one.
    fn bulk<T: ?Sized + Serialize>(self, code: &str, dims: &[u64], value: &T) -> Result<()> {
        value.serialize(Infer {
            slot: &mut *self.slot,
            ..self
        })?;
        if let Some(Node::Array { elem, .. }) = self.slot {
            if elem.is_none() {
                **elem = code_type(code).map(Node::Scalar).map(|e| nested(e, dims));
            }
        }
        Ok(())
    }

    fn record(self) -> Result<RecInfer<'a>> {
        let (fresh, at) = (self.slot.is_none(), self.at);
        match self.slot.get_or_insert_with(|| Node::Record(Vec::new())) {
            Node::Record(fields) => Ok(RecInfer {
                fields,
                fresh,
                index: 0,
                pending_key: None,
                mismatch: None,
                hashes: Vec::new(),
                at,
                ndarray_form: false,
            }),
            other => Err(differs("a record", other)),
        }
    }
}

/// Sequence in pass 1.
pub(crate) struct SeqInfer<'a> {
    len: &'a mut Option<u64>,
    elem: &'a mut Option<Node>,
    count: u64,
    top: bool,
    at: Level<'a>,
}

impl SeqInfer<'_> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let i = self.count;
        if let Some(len) = self.len.filter(|&len| i >= len) {
            return Err(too_long(len));
        }
        value
            .serialize(Infer::below(self.elem, self.at)?)
            .map_err(|e| super::at_element(e, self.top, i))?;
        // below the first record's length when there is one; otherwise a
        // count of elements serialized, refused rather than wrapped
        self.count = self.count.checked_add(1).ok_or_else(super::too_many)?;
        Ok(())
    }

    fn finish(self) -> Result<()> {
        // the first sequence's length, which every later one must have
        let len = *self.len.get_or_insert(self.count);
        if len != self.count {
            return Err(super::ragged(self.count, "record", len));
        }
        Ok(())
    }
}

#[cold]
fn too_long(len: u64) -> Error {
    Error::schema(format!(
        "sequence longer than {len}, the length in the first record (ragged sequences cannot form an array)"
    ))
}

elements!(impl['a] SeqInfer<'a> => (), Error: SerializeSeq);

/// Struct, map or tuple record in pass 1.
pub(crate) struct RecInfer<'a> {
    /// The record's fields in the slot: built by the first record
    /// (`fresh`), names checked in order and values merged by later ones.
    fields: &'a mut Vec<RecField>,
    fresh: bool,
    index: usize,
    /// The pending map key: `None` inside when it is the expected next
    /// field's name (nothing allocated), otherwise the key.
    pending_key: Option<Option<String>>,
    /// Field names of this record once it diverged from the first record's.
    mismatch: Option<Vec<String>>,
    /// `fresh`: a hash of each field name so far, so that the check for a
    /// repeated name compares text only on a hash match (a record of n
    /// fields is inferred in O(n²) integer compares, not string compares).
    hashes: Vec<u64>,
    at: Level<'a>,
    /// A struct named like ndarray's own serde form of an array, with its
    /// number of fields: refused once its fields are theirs.
    ndarray_form: bool,
}

/// FNV-1a: a name's hash for the repeated-field check.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

pub(crate) fn names_repr<'n>(names: impl Iterator<Item = &'n str>) -> String {
    let names: Vec<String> = names.map(|n| PyStr(n).to_string()).collect();
    format!("[{}]", names.join(", "))
}

impl RecInfer<'_> {
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<()> {
        self.field_at(Some(key), value)
    }

    /// The value of field `key` (`None`: the field expected next, whose
    /// key was already matched).
    fn field_at<T: ?Sized + Serialize>(&mut self, key: Option<&str>, value: &T) -> Result<()> {
        let at = self.at;
        let Some(f) = self.slot_of(key)? else {
            return Ok(());
        };
        value
            .serialize(Infer::below(&mut f.node, at)?)
            .map_err(|e| e.in_field(&f.name))
    }

    /// The field the value of `key` is inferred into (`None`: the one
    /// expected next): a new field of the first record, or the field of
    /// that name where the first record has it; `None` once this record's
    /// fields differ from the first's (their names are kept for the
    /// message).
    fn slot_of(&mut self, key: Option<&str>) -> Result<Option<&mut RecField>> {
        if let Some(names) = &mut self.mismatch {
            names.extend(key.map(str::to_owned));
            return Ok(None);
        }
        let i = self.index;
        // index <= fields.len(): one per field pushed or checked, and once
        // a field mismatches the later ones return early (above)
        self.index = i.wrapping_add(1);
        let fields = &mut *self.fields;
        // a fresh record expects no field (`fields.get(index)` is none), so
        // its keys are all given
        match key {
            Some(key) if self.fresh => {
                if self.ndarray_form && i == 2 {
                    let names = fields.iter().map(|f| f.name.as_str()).chain([key]);
                    if names.eq(crate::kinds::special::NDARRAY_FORM_FIELDS) {
                        return Err(crate::kinds::special::ndarray_form(true));
                    }
                }
                let h = name_hash(key);
                let twice = self
                    .hashes
                    .iter()
                    .zip(fields.iter())
                    .any(|(&fh, f)| fh == h && f.name == key);
                if twice {
                    return Err(Error::schema(format!("field {} appears twice", PyStr(key))));
                }
                self.hashes.push(h);
                fields.push(RecField {
                    name: key.to_owned(),
                    node: None,
                });
                Ok(fields.last_mut())
            }
            Some(key) if fields.get(i).is_none_or(|f| f.name != key) => {
                let mut names: Vec<String> =
                    fields.iter().take(i).map(|f| f.name.clone()).collect();
                names.push(key.to_owned());
                self.mismatch = Some(names);
                Ok(None)
            }
            _ => Ok(fields.get_mut(i)),
        }
    }

    /// A field given by position (`f0`, `f1`, ...).
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.field(&format!("f{}", self.index), value)
    }

    /// The end: a later record with fewer fields, or other names, than
    /// the first (a fresh one has all of its own).
    fn finish(self) -> Result<()> {
        let fields = &*self.fields;
        let names = match self.mismatch {
            Some(n) => n,
            None if self.index == fields.len() => return Ok(()),
            None => fields
                .iter()
                .take(self.index)
                .map(|f| f.name.clone())
                .collect(),
        };
        Err(Error::schema(format!(
            "fields {} differ from the first record's {}",
            names_repr(names.iter().map(String::as_str)),
            names_repr(fields.iter().map(|f| f.name.as_str()))
        )))
    }
}

elements!(impl['a] RecInfer<'a> => (), Error: SerializeStruct SerializeTupleStruct);

impl ser::SerializeMap for RecInfer<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let expected = match self.mismatch {
            None => self.fields.get(self.index).map(|f| f.name.as_str()),
            Some(_) => None,
        };
        let key = key_text(key, true, |v| (expected != Some(v)).then(|| v.to_owned()))
            .map_err(|e| e.into_error(key_error))?;
        self.pending_key = Some(key);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match self.pending_key.take() {
            Some(key) => self.field_at(key.as_deref(), value),
            None => Err(Error::schema("map value without a key")),
        }
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// A tuple: a subarray when its elements agree, a record `f0, f1, ...`
/// otherwise. The first time, the elements are collected as that record's
/// fields and compared: the record stays when they differ.
pub(crate) enum TupleInfer<'a> {
    Seq(SeqInfer<'a>),
    Rec(RecInfer<'a>),
    New(&'a mut Option<Node>, Vec<RecField>, Level<'a>),
}

impl ser::SerializeTuple for TupleInfer<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match self {
            TupleInfer::Seq(s) => s.element(value),
            TupleInfer::Rec(r) => r.element(value),
            TupleInfer::New(_, fields, at) => {
                let i = fields.len();
                let mut slot = None;
                value
                    .serialize(Infer::below(&mut slot, *at)?)
                    .map_err(|e| e.at_index(i as u64))?;
                let node = slot.ok_or_else(|| Error::schema("internal: empty tuple slot"))?;
                fields.push(RecField {
                    name: format!("f{i}"),
                    node: Some(node),
                });
                Ok(())
            }
        }
    }
    fn end(self) -> Result<()> {
        match self {
            TupleInfer::Seq(s) => s.finish(),
            TupleInfer::Rec(r) => r.finish(),
            TupleInfer::New(slot, fields, _) => {
                // the elements merged, when they agree
                let mut nodes = fields.iter().flat_map(|f| &f.node);
                let mut elem = nodes.next().cloned();
                let homogeneous = elem.as_mut().is_none_or(|acc| nodes.all(|n| merge(acc, n)));
                *slot = Some(if homogeneous {
                    Node::Array {
                        len: Some(fields.len() as u64),
                        elem: Box::new(elem),
                    }
                } else {
                    Node::Record(fields)
                });
                Ok(())
            }
        }
    }
}

impl Infer<'_> {
    /// Infers `value` (behind `dyn`, see [`DynValue`](crate::ser::DynValue)).
    #[inline(never)]
    pub(crate) fn walk(self, value: &crate::ser::DynValue<'_>) -> Result<()> {
        erased_serde::serialize(value, self)
    }
}

impl<'a> ser::Serializer for Infer<'a> {
    serializer_types!((), Error; (SeqInfer<'a>) (TupleInfer<'a>) (RecInfer<'a>) _ (RecInfer<'a>) (RecInfer<'a>) _);
    crate::ser::collect_seq!();

    refuse!(serialize_none serialize_newtype_variant);

    plain_number_methods!(#[inline] number -> Result<()>);
    leaves! {
        serialize_unit() => Node::Record(Vec::new());
        serialize_unit_struct(&'static str) => Node::Record(Vec::new());
    }
    fn serialize_i128(self, _: i128) -> Result<()> {
        Err(Error::unsupported("i128 (numpy has no 128-bit integers)"))
    }
    fn serialize_u128(self, _: u128) -> Result<()> {
        Err(Error::unsupported("u128 (numpy has no 128-bit integers)"))
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.text(v == '\0', Node::Str(1))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.text(v.ends_with('\0'), Node::Str(v.chars().count()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.text(v.last() == Some(&0), Node::Bytes(v.len()))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        // a later element may be None
        self.at.varies();
        value.serialize(self)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.text(false, Node::Str(variant.chars().count()))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        // the crate's special newtypes, each one node
        let node = match Special::of(name) {
            Some(Special::Complex) => Node::Scalar(complex(value)?.2),
            Some(Special::Padding) => match probe(value) {
                Captured::UInt(n) => Node::Padding(
                    usize::try_from(n).map_err(|_| Error::limit("padding is too large"))?,
                ),
                _ => return Err(Error::mismatch("malformed padding value")),
            },
            Some(Special::Bits(kind)) => Node::Scalar(kind.own),
            Some(Special::Datetime(rest)) => {
                Node::Scalar(ScalarType::Datetime(time_unit(name, rest)?))
            }
            Some(Special::Timedelta(rest)) => {
                Node::Scalar(ScalarType::Timedelta(time_unit(name, rest)?))
            }
            Some(Special::NdArray(code)) => {
                self.at.varies();
                return self.nd(code, value);
            }
            None | Some(Special::Unknown | Special::Foreign) => {
                if let Some((code, dims)) = crate::kinds::special::bulk_elem(name) {
                    return self.bulk(code, &dims, value);
                }
                return value.serialize(self);
            }
        };
        self.leaf(node)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<SeqInfer<'a>> {
        self.at.varies();
        self.seq()
    }
    fn serialize_tuple(self, _: usize) -> Result<TupleInfer<'a>> {
        match self.slot {
            None => Ok(TupleInfer::New(self.slot, Vec::new(), self.at)),
            Some(Node::Record(_)) => Ok(TupleInfer::Rec(self.record()?)),
            Some(_) => Ok(TupleInfer::Seq(self.seq()?)),
        }
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<RecInfer<'a>> {
        self.record()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<RecInfer<'a>> {
        self.at.varies();
        self.record()
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<RecInfer<'a>> {
        let mut rec = self.record()?;
        rec.ndarray_form = name == crate::kinds::special::NDARRAY_FORM && len == 3;
        Ok(rec)
    }
}

/// `elem` as the element of nested arrays of `dims` (outermost first).
fn nested(elem: Node, dims: &[u64]) -> Node {
    dims.iter().rev().fold(elem, |e, &d| Node::Array {
        len: Some(d),
        elem: Box::new(Some(e)),
    })
}

pub(crate) fn time_unit(name: &str, rest: &str) -> Result<DatetimeUnit> {
    DatetimeUnit::parse(rest)
        .map_err(|_| Error::mismatch(format!("unknown datetime unit in {}", PyStr(name))))
}

fn key_error(what: &str) -> Error {
    Error::unsupported(format!(
        "map key of type {what}; record field names must be strings"
    ))
}

/// Converts the inferred element layout into a dtype (packed, or aligned
/// like numpy's `align=True`).
pub(crate) fn node_to_dtype(node: &Node, align: bool) -> Result<Dtype> {
    match node {
        Node::Array { .. } => {
            let (dims, base) = split_shape(node)?;
            Dtype::subarray(node_to_dtype(base, align)?, dims)
        }
        Node::Record(fields) => {
            // Laid out here rather than by `RecordBuilder::align`, which
            // re-aligns nested records and would drop their `Padding` gaps.
            let overflow = || Error::limit("record itemsize overflows");
            let mut out = Vec::with_capacity(fields.len());
            let mut offset = 0usize;
            let mut max_align = 1usize;
            for f in fields {
                let node = f.node.as_ref().ok_or_else(empty_elem)?;
                if let Node::Padding(n) = node {
                    offset = offset.checked_add(*n).ok_or_else(overflow)?;
                    continue;
                }
                let dt = node_to_dtype(node, align).map_err(|e| e.in_field(&f.name))?;
                // packed: every field at an offset that is a multiple of 1
                let a = if align { dt.alignment() } else { 1 };
                max_align = max_align.max(a);
                offset = offset.checked_next_multiple_of(a).ok_or_else(overflow)?;
                let size = dt.itemsize();
                out.push(crate::format::dtype::Field::new(f.name.clone(), dt, offset));
                offset = offset.checked_add(size).ok_or_else(overflow)?;
            }
            offset = offset
                .checked_next_multiple_of(max_align)
                .ok_or_else(overflow)?;
            Ok(Dtype::Record(crate::format::dtype::Record::new(
                out, offset,
            )?))
        }
        other => other
            .scalar()
            .map(Dtype::scalar)
            .ok_or_else(|| Error::schema("internal: not a scalar")),
    }
}

pub(crate) fn empty_elem() -> Error {
    Error::schema(
        "cannot tell the element type from empty sequences; give the dtype with \
         WriteOptions::dtype(Dtype::of::<T>()?) or WriteOptions::dtype(\"<f8\".parse()?)",
    )
    .no_element_type()
}

/// Splits the inferred top-level layout into the array shape (outer
/// sequences) and the element layout.
pub(crate) fn split_shape(node: &Node) -> Result<(Vec<u64>, &Node)> {
    let (shape, elem) = axes(node, usize::MAX);
    Ok((shape, elem.ok_or_else(empty_elem)?))
}

/// The lengths of the nested arrays at the top of `node`, at most `max`
/// of them, and the node below them (`None`: the element of an array
/// whose sequences were all empty).
fn axes(node: &Node, max: usize) -> (Vec<u64>, Option<&Node>) {
    let mut dims = Vec::new();
    let mut cur = Some(node);
    while let Some(Node::Array { len, elem }) = cur.filter(|_| dims.len() < max) {
        dims.push(len.unwrap_or(0));
        cur = elem.as_ref().as_ref();
    }
    (dims, cur)
}

#[cfg(test)]
mod tests;
