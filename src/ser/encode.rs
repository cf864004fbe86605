//! Writes ONE element into a byte slot of exactly its dtype's itemsize:
//! the one encoder of every pass (inferred or given dtypes, checked or
//! not, npz columns, `NpyWriter`).
//!
//! A [`DtypeTree`] compiles the dtype once per array: a tree of
//! [`TreeNode`]s (record fields in dtype order with their byte offsets;
//! scalars with a one-byte tag; short subarrays of numbers unrolled into
//! one node per element, longer ones one node for their element whatever
//! their length). [`Enc`] serializes a value by following that tree.
//!
//! Each method has a fast path and the general rule beside it, out of
//! line. The fast path takes the exact events the tree expects: the next
//! field's name (a `&'static str` key is recognised by its address and
//! length after the first byte compare), a number of exactly the node's
//! type in little-endian (or one-byte) order, stored as its own bytes, a
//! string into `<Un`, `bytes` into `|Sn`, the crate's datetime newtype in
//! the node's own unit, sequences along a subarray, tuples along a record.
//! Anything else goes to the general rule of that node, which converts the
//! value exactly or fails: the conversions are the table of
//! [`WriteOptions::to_writer`](crate::WriteOptions::to_writer), their one
//! description (a sequence also goes positionally into a record, and a
//! `Padding<N>` into a `V` field writes zeros). Padding bytes are left as
//! they are in the slot, which callers zero. Errors name the field and
//! index where the value failed.
//!
//! In *strict* mode (the speculative single pass, see `spec.rs`) the tree
//! accepts only what inference would have made this very dtype of: the same
//! scalar types without conversion, fields in dtype order, no padding
//! values; anything else fails, and the caller falls back to the exact
//! passes.
//!
//! A tree rather than a flat list of ops because serde's calls nest: each
//! `serialize_field` hands its own serializer to the value, and a node
//! reference is what that serializer needs. The cost per field on the fast
//! path is a key compare, a tag compare, one bounds check and the store.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::ser::{self, Serialize};

use super::{Found, Miss};
use crate::error::{Error, Result};
use crate::format::dtype::{ByteOrder, Dtype, Plain, Scalar, ScalarType, ShapeRepr};
use crate::kinds::convert::{
    convert_time, f32_to_f64, f64_to_f16_bits_exact, f64_to_f32_exact, i64_to_f64_exact,
    u64_to_f64_exact,
};
use crate::kinds::special::{self, Bits, Special};
use crate::ser::flat::{FlatField, Layout};
use crate::ser::infer::{names_repr, nul_error, time_unit};
use crate::ser::probe::{Captured, complex, key_text, probe};

/// What a node expects on its fast path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tag {
    /// A subarray axis: `n` elements of the one kid, `stride` bytes apart.
    Sub,
    /// A short subarray of scalars, unrolled: one kid per element, each at
    /// its own offset (a fixed-size array is then a run of scalar fields).
    Array,
    /// A record: the kids are its fields in dtype order.
    Record,
    /// `<Un`: a string (or char, or unit variant) of at most `n` chars.
    Unicode,
    /// `|Sn`: bytes (`serialize_bytes`) of at most `n`.
    Bytes,
    /// `<M8[unit]` / `<m8[unit]`: the crate's datetime (timedelta) newtype
    /// in exactly this unit (`token` caches its name), an `i64` count.
    Time,
    /// Any other scalar: a plain number (its fast path is the node's
    /// `num`), or one whose every value goes through the general rules
    /// (another byte order, complex, half floats, void).
    Other,
}

/// A cache of one `&'static str` seen to match (its address or length; 0:
/// none yet). Atomic only to keep the tree `Sync`: relaxed loads are plain
/// loads.
#[derive(Debug, Default)]
struct Cached(AtomicUsize);

impl Cached {
    #[inline(always)]
    fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
    fn set(&self, v: usize) {
        self.0.store(v, Ordering::Relaxed);
    }
}

impl Clone for Cached {
    fn clone(&self) -> Self {
        Cached(AtomicUsize::new(self.get()))
    }
}

/// One value's place in the element and what it expects.
#[derive(Clone, Debug)]
struct TreeNode {
    tag: Tag,
    /// Offset from the start of the frame: the element, or the subarray
    /// element this node is in. Offsets are `u32` (elements of more than
    /// 4 GiB are not compiled), so `frame + off + 8` cannot overflow and a
    /// store needs a single bounds check.
    off: u32,
    /// Bytes of the value (its slot).
    size: usize,
    /// `Sub`, `Array`: number of elements.
    n: usize,
    /// `Sub`, `Array`: bytes between elements.
    stride: u32,
    /// `Sub`, `Array`: dims of its subarray left at this node (this one
    /// included): how deep an n-d array value may reach.
    rank: usize,
    /// `Record`: the fields in dtype order; `Array`: the elements; `Sub`:
    /// the element (offset 0 in its frame). Names are used by records only.
    kids: Box<[FieldNode]>,
    /// The scalar of a leaf (the general rules' dtype).
    scalar: Option<Scalar>,
    /// Whether the tree is in strict mode (the same for the whole tree;
    /// here so that an [`Enc`] carries one pointer less).
    strict: bool,
    /// A plain number leaf: its type, stored as its own bytes on the fast
    /// path (a field of its own, not the tag's data: a data-less tag is
    /// matched without loading it).
    num: Option<Plain>,
    /// `Time`: address and length of the last newtype name found to be
    /// this node's datetime kind and unit.
    token: (Cached, Cached),
}

/// A record field: its name and its value's node.
#[derive(Clone, Debug)]
struct FieldNode {
    name: Box<str>,
    /// Address of the last `&'static str` key found equal to `name`. A key
    /// at the same address with the same length is the same text: a
    /// pointer compare instead of a byte compare per field.
    key: Cached,
    node: TreeNode,
}

impl TreeNode {
    fn leaf(tag: Tag, off: usize, size: usize, strict: bool) -> TreeNode {
        TreeNode {
            tag,
            // within the element, whose size was checked to fit
            off: u32::try_from(off).unwrap_or(u32::MAX),
            size,
            n: 0,
            stride: 0,
            rank: 0,
            kids: Box::default(),
            scalar: None,
            strict,
            num: None,
            token: (Cached::default(), Cached::default()),
        }
    }

    /// Whether `name` is this `Time` node's datetime kind and unit.
    #[inline(always)]
    fn is_token(&self, name: &'static str) -> bool {
        (name.as_ptr().addr() == self.token.0.get() && name.len() == self.token.1.get())
            || self.is_token_text(name)
    }

    #[cold]
    #[inline(never)]
    fn is_token_text(&self, name: &'static str) -> bool {
        let ty = match Special::of(name) {
            Some(Special::Datetime(rest)) => time_unit(name, rest).map(ScalarType::Datetime),
            Some(Special::Timedelta(rest)) => time_unit(name, rest).map(ScalarType::Timedelta),
            _ => return false,
        };
        let same = ty.is_ok_and(|ty| self.scalar.map(|s| s.ty()) == Some(ty));
        if same {
            self.token.0.set(name.as_ptr().addr());
            self.token.1.set(name.len());
        }
        same
    }

    /// What the node takes, for messages: `expected {this}, found ...`.
    fn expected(&self) -> String {
        match (self.tag, self.scalar) {
            (Tag::Sub | Tag::Array, _) => format!("a sequence of length {}", self.n),
            (Tag::Record, _) if self.kids.is_empty() => "an empty record".to_owned(),
            (Tag::Record, _) => "a record".to_owned(),
            (_, Some(s)) => format!("'{s}'"),
            (_, None) => "a value".to_owned(),
        }
    }
}

impl FieldNode {
    fn kid(node: TreeNode) -> FieldNode {
        FieldNode {
            name: "".into(),
            key: Cached::default(),
            node,
        }
    }

    #[inline(always)]
    fn matches(&self, key: &'static str) -> bool {
        (key.as_ptr().addr() == self.key.get() && key.len() == self.name.len())
            || self.matches_text(key)
    }

    #[cold]
    #[inline(never)]
    fn matches_text(&self, key: &'static str) -> bool {
        if *self.name != *key {
            return false;
        }
        self.key.set(key.as_ptr().addr());
        true
    }
}

/// Longest subarray of scalars compiled as one node per element.
const UNROLL: usize = 16;

/// The node of a value of `dims` (outermost first) of `dt` elements in the
/// `size` bytes at `off` (a subarray dtype's own dims inside them).
fn compile(dt: &Dtype, dims: &[u64], off: usize, size: usize, strict: bool) -> TreeNode {
    if let Some((&n, rest)) = dims.split_first() {
        // elements of `size / n` bytes (none when n is 0)
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        let stride = size.checked_div(n).unwrap_or(0);
        let unroll = rest.is_empty()
            && (1..=UNROLL).contains(&n)
            && matches!(dt, Dtype::Scalar(s) if s.plain().is_some());
        let at = |i: usize| off.saturating_add(i.saturating_mul(stride));
        let kids: Vec<FieldNode> = if unroll {
            (0..n)
                .map(|i| FieldNode::kid(compile(dt, &[], at(i), stride, strict)))
                .collect()
        } else {
            vec![FieldNode::kid(compile(dt, rest, 0, stride, strict))]
        };
        let tag = if unroll { Tag::Array } else { Tag::Sub };
        return TreeNode {
            n,
            stride: u32::try_from(stride).unwrap_or(u32::MAX),
            rank: dims.len(),
            kids: kids.into_boxed_slice(),
            ..TreeNode::leaf(tag, off, size, strict)
        };
    }
    match dt {
        Dtype::Record(r) => {
            let kids: Vec<FieldNode> = r
                .fields()
                .iter()
                .map(|f| {
                    let at = off.saturating_add(f.offset());
                    FieldNode {
                        name: f.name().into(),
                        key: Cached::default(),
                        node: compile(f.dtype(), &[], at, f.dtype().itemsize(), strict),
                    }
                })
                .collect();
            TreeNode {
                kids: kids.into_boxed_slice(),
                ..TreeNode::leaf(Tag::Record, off, size, strict)
            }
        }
        Dtype::Scalar(s) => {
            // a plain number's fast path is the node's `num`
            let tag = match (s.order(), s.ty()) {
                (ByteOrder::Big, _) => Tag::Other,
                (_, ScalarType::Unicode(_)) => Tag::Unicode,
                (_, ScalarType::Bytes(_)) => Tag::Bytes,
                (_, ScalarType::Datetime(_) | ScalarType::Timedelta(_)) => Tag::Time,
                _ => Tag::Other,
            };
            TreeNode {
                scalar: Some(*s),
                num: s.plain(),
                ..TreeNode::leaf(tag, off, size, strict)
            }
        }
        Dtype::Subarray(base, dims) => compile(base, dims, off, size, strict),
    }
}

/// A dtype compiled for [`Enc`].
#[derive(Debug)]
pub(crate) struct DtypeTree {
    dt: Dtype,
    root: TreeNode,
    /// Scratch of the exact pass (see [`Rec`]'s `seen`).
    marks: Vec<bool>,
}

impl DtypeTree {
    /// A tree for elements of `dt`, in strict mode or not.
    pub(crate) fn new(dt: &Dtype, strict: bool) -> DtypeTree {
        DtypeTree::from_dtype(dt.clone(), strict)
    }

    /// A tree for elements of `dt`, keeping `dt`.
    pub(crate) fn from_dtype(dt: Dtype, strict: bool) -> DtypeTree {
        let size = dt.itemsize();
        let root = if u32::try_from(size).is_ok() {
            compile(&dt, &[], 0, size, strict)
        } else {
            // never encodes (see `exact`)
            TreeNode::leaf(Tag::Other, 0, size, strict)
        };
        DtypeTree {
            dt,
            root,
            marks: Vec::new(),
        }
    }

    /// The dtype of the elements.
    pub(crate) fn dtype(&self) -> &Dtype {
        &self.dt
    }

    /// The dtype of the elements, taken out of the tree.
    pub(crate) fn into_dtype(self) -> Dtype {
        self.dt
    }

    /// Lends the dtype out (the tree encodes without it).
    pub(crate) fn take_dtype(&mut self) -> Dtype {
        std::mem::replace(&mut self.dt, Dtype::scalar(ScalarType::Bool))
    }

    /// Gives back the dtype lent by [`take_dtype`](DtypeTree::take_dtype).
    pub(crate) fn put_dtype(&mut self, dt: Dtype) {
        self.dt = dt;
    }

    /// The element as plain numbers, when it is (see
    /// [`flat::Layout`](crate::ser::flat::Layout)): a number node, an
    /// unrolled or repeated subarray of one number node, or a record of
    /// such fields back to back whose keys the tree has seen (after the
    /// first element). Only what the fast path stores as exactly those
    /// numbers qualifies: the fast mode of `spec.rs` must write the bytes
    /// the tree would.
    pub(crate) fn flat(&self) -> Option<Layout> {
        let root = &self.root;
        if let Some((num, n)) = numbers(root) {
            return Some(match n {
                0 => Layout::Bare(num),
                n => Layout::tuple(num, n),
            });
        }
        if root.tag != Tag::Record {
            return None;
        }
        let mut at = 0usize;
        let mut fields = Vec::with_capacity(root.kids.len());
        for f in &root.kids {
            let (num, n) = numbers(&f.node)?;
            // back to back from 0, each key seen
            if f.node.off as usize != at || f.key.get() == 0 {
                return None;
            }
            at = at.checked_add(f.node.size)?;
            fields.push(FlatField::new((f.key.get(), f.name.len()), num, n));
        }
        (at == root.size).then(|| Layout::record(fields)).flatten()
    }

    /// A tree to hold until the dtype is known; used on no element (a
    /// `bool` into a zero-byte slot would fail).
    pub(crate) fn placeholder() -> DtypeTree {
        DtypeTree::new(&Dtype::scalar(ScalarType::Bool), true)
    }

    /// Encodes one element into `slot` (`dt.itemsize()` bytes, zero where
    /// the dtype has gaps).
    ///
    /// First along the fast paths alone (the pass that fails with the
    /// zero-sized [`Miss`]: no error is made or given a path); a miss
    /// zeroes the slot and encodes the element again by the exact pass,
    /// which converts the value or gives the real error with its path.
    /// The exact pass has the same fast paths inline: a value that never
    /// fits them costs its first pass up to the miss, and one walk.
    #[inline]
    pub(crate) fn encode<T: ?Sized + Serialize>(
        &mut self,
        value: &T,
        slot: &mut [u8],
    ) -> Result<()> {
        let mut frame = Frame {
            buf: &mut *slot,
            base: 0,
            marks: &mut self.marks,
        };
        if value
            .serialize(Enc::<Miss>::at(&self.root, &mut frame))
            .is_ok()
        {
            return Ok(());
        }
        self.exact(value, slot)
    }

    /// Encodes `values` into `out`, `row` bytes each (zeroed where the
    /// dtype has gaps), as [`encode`](DtypeTree::encode) of each would:
    /// the first by the tree, which shows it a record's keys; then, when
    /// the element is plain numbers ([`flat`](DtypeTree::flat)), through
    /// the fast mode of `spec.rs` (`flat.rs`), each element it does not
    /// take by the tree. `Err` at the first element that does not encode,
    /// or (an internal error) when `out` is not exactly a row per value.
    #[cfg(feature = "rayon")]
    pub(crate) fn encode_rows<T: Serialize>(
        &mut self,
        values: &[T],
        out: &mut [u8],
        row: usize,
    ) -> Result<()> {
        use crate::ser::flat::{BLOCK, Flat, WINDOW};
        if values.len().checked_mul(row) != Some(out.len()) {
            return Err(internal());
        }
        let Some((first, values)) = values.split_first() else {
            return Ok(());
        };
        // rows of at least a byte (par's layouts)
        let (slot, rest) = out
            .split_at_mut_checked(row)
            .filter(|_| row > 0)
            .ok_or_else(internal)?;
        self.encode(first, slot)?;
        // the values the fast mode took: up to its first miss (as the fast
        // mode of `spec.rs` ends there), the rest by the tree
        let mut done = 0usize;
        if let Some(layout) = self.flat().filter(|l| l.itemsize() == row && row <= WINDOW) {
            let mut block = [0u8; BLOCK];
            let mut flat = Flat::new(&mut block);
            flat.resume(layout);
            let mut at = 0;
            for v in values {
                // a full block goes out (with room, a `put` fails only
                // at a miss)
                if !flat.room() {
                    at = copy_rows(flat.drain().0, rest, at)?;
                }
                if flat.put(v).is_err() {
                    break;
                }
                done = done.wrapping_add(1);
            }
            copy_rows(flat.suspend().0, rest, at)?;
        }
        let slots = rest.chunks_exact_mut(row).skip(done);
        (values.iter().skip(done).zip(slots)).try_for_each(|(v, slot)| self.encode(v, slot))
    }

    #[cold]
    #[inline(never)]
    fn exact<T: ?Sized + Serialize>(&mut self, value: &T, slot: &mut [u8]) -> Result<()> {
        if u32::try_from(slot.len()).is_err() {
            return Err(Error::limit(format!(
                "an element of {} bytes: elements of more than 4 GiB are not written",
                slot.len()
            )));
        }
        slot.fill(0);
        self.marks.clear();
        let mut frame = Frame {
            buf: slot,
            base: 0,
            marks: &mut self.marks,
        };
        value.serialize(Enc::<Error>::at(&self.root, &mut frame))
    }
}

/// A node as plain numbers, filling its slot: one number (`(num, 0)`), or
/// an unrolled or repeated subarray of `n` > 0 numbers back to back
/// (`(num, n)`: [`compile`] puts its elements `size / n` bytes apart from
/// the node's offset, so that they fill it is enough).
fn numbers(node: &TreeNode) -> Option<(Plain, usize)> {
    if let Some(num) = node.num {
        return (node.size == num.size()).then_some((num, 0));
    }
    let num = match node.tag {
        Tag::Array | Tag::Sub => node.kids.first()?.node.num?,
        _ => return None,
    };
    let fills = node.n.checked_mul(num.size()) == Some(node.size);
    (fills && node.n > 0).then_some((num, node.n))
}

/// Copies the rows `data` into `out` at `at`: where they end.
#[cfg(feature = "rayon")]
fn copy_rows(data: &[u8], out: &mut [u8], at: usize) -> Result<usize> {
    let end = at.checked_add(data.len()).ok_or_else(internal)?;
    out.get_mut(at..end)
        .ok_or_else(internal)?
        .copy_from_slice(data);
    Ok(end)
}

/// How a pass of [`Enc`] fails: the fast pass with [`Miss`] at the first
/// event off its fast paths, the exact pass with the crate's [`Error`].
trait Pass: ser::Error {
    /// Whether the general rules run (the exact pass).
    const EXACT: bool;
    /// The fast pass's failure (the exact pass never calls it).
    fn missed() -> Self;
    fn of(e: Error) -> Self;
    /// The error with the field or index it happened in (the fast pass
    /// has none).
    #[inline(always)]
    fn field(self, _: &str) -> Self {
        self
    }
    #[inline(always)]
    fn index(self, _: usize) -> Self {
        self
    }

    /// Off the fast paths: the fast pass ends (a miss), the exact pass
    /// runs `rule`.
    #[inline(always)]
    fn exact<T>(rule: impl FnOnce() -> Result<T>) -> Result<T, Self> {
        if !Self::EXACT {
            return Err(Self::missed());
        }
        rule().map_err(Self::of)
    }
}

impl Pass for Miss {
    const EXACT: bool = false;
    #[inline(always)]
    fn missed() -> Miss {
        Miss
    }
    #[inline(always)]
    fn of(_: Error) -> Miss {
        Miss
    }
}

impl Pass for Error {
    const EXACT: bool = true;
    fn missed() -> Error {
        internal()
    }
    #[inline(always)]
    fn of(e: Error) -> Error {
        e
    }
    #[cold]
    fn field(self, key: &str) -> Error {
        self.in_field(key)
    }
    #[cold]
    fn index(self, i: usize) -> Error {
        self.at_index(i as u64)
    }
}

/// The element's bytes and where the current frame (the element, or the
/// subarray element being encoded) starts in them. Behind one pointer, so
/// that an [`Enc`] is two words, passed in registers when a value's
/// `serialize` is not inlined (long structs: each field then costs a call).
struct Frame<'b> {
    buf: &'b mut [u8],
    base: u32,
    /// The flags of the records whose fields came out of order (see
    /// [`Rec`]).
    marks: &'b mut Vec<bool>,
}

impl Frame<'_> {
    /// The first `n` of `node`'s bytes (`None` never happens: the tree was
    /// compiled for this element's size).
    #[inline(always)]
    fn bytes(&mut self, node: &TreeNode, n: usize) -> Option<&mut [u8]> {
        let at = (self.base as usize).wrapping_add(node.off as usize);
        self.buf.get_mut(at..at.wrapping_add(n))
    }
}

/// Serializes one value along its node: see the module docs.
struct Enc<'a, 'f, 'b, E> {
    node: &'a TreeNode,
    frame: &'f mut Frame<'b>,
    pass: PhantomData<fn() -> E>,
}

/// The error strict mode returns (never shown: the caller falls back).
#[cold]
fn not_strict() -> Error {
    Error::schema("value differs from the first record (speculative pass)")
}

#[cold]
fn internal() -> Error {
    Error::mismatch("internal: buffer does not match the itemsize")
}

impl<'a, 'f, 'b, E: Pass> Enc<'a, 'f, 'b, E> {
    #[inline(always)]
    fn at(node: &'a TreeNode, frame: &'f mut Frame<'b>) -> Self {
        Enc {
            node,
            frame,
            pass: PhantomData,
        }
    }

    /// Off the fast paths: the fast pass ends (a miss), the exact pass
    /// applies the general rule `rule`.
    #[inline(always)]
    fn general(self, rule: impl FnOnce(Enc<'a, 'f, 'b, Error>) -> Result<()>) -> Result<(), E> {
        E::exact(|| rule(Enc::at(self.node, self.frame)))
    }

    /// What no pass writes (enum variants with data, `None`): the fast
    /// pass misses without wording it.
    fn refuse(self, found: Found) -> E {
        if !E::EXACT {
            return E::missed();
        }
        E::of(found.refused())
    }

    /// Stores a number's own little-endian bytes when the node expects
    /// exactly this type; anything else by [`Slot::put_number`].
    #[inline(always)]
    fn put_plain<const N: usize>(self, num: Plain, bytes: [u8; N]) -> Result<(), E> {
        if self.node.num == Some(num) {
            let slot = self.frame.bytes(self.node, N);
            if let Some(d) = slot.and_then(|s| s.first_chunk_mut()) {
                *d = bytes;
                return Ok(());
            }
        }
        let mut raw = [0u8; 8];
        if let Some(d) = raw.first_chunk_mut::<N>() {
            *d = bytes;
        }
        self.general(|e| e.converting()?.put_number(num, u64::from_le_bytes(raw)))
    }

    /// A string into a `<Un` node: its chars as little-endian code points,
    /// the rest zero; anything else (too long, NUL, another dtype) by
    /// [`Slot::put_str`].
    #[inline(always)]
    fn put_str(self, v: &str) -> Result<(), E> {
        if self.node.tag == Tag::Unicode && !v.ends_with('\0') {
            if let Some(slot) = self.frame.bytes(self.node, self.node.size) {
                if put_unicode(slot, v, false) {
                    return Ok(());
                }
            }
        }
        self.general(|e| e.converting()?.put_str(v))
    }

    /// The node's parts as a sequence (see [`Seq`]).
    #[inline(always)]
    fn seq(self, walk: Walk) -> Seq<'a, 'f, 'b, E> {
        let node = self.node;
        let base = self.frame.base;
        Seq {
            node,
            kids: node.kids.iter(),
            walk,
            base,
            frame: self.frame,
            pass: PhantomData,
        }
    }

    /// A sequence, tuple or tuple struct (`kind`, which opened it): along
    /// a subarray or a record on the fast path, else [`Enc::seq_other`].
    #[inline(always)]
    fn open_seq(self, kind: Found) -> Result<Seq<'a, 'f, 'b, E>, E> {
        match (self.node.tag, kind) {
            (Tag::Sub, Found::Seq | Found::Tuple) => Ok(self.repeat()),
            (Tag::Array, Found::Seq | Found::Tuple)
            | (Tag::Record, Found::Tuple | Found::TupleStruct) => Ok(self.seq(Walk::Kids)),
            _ => E::exact(|| self.seq_other()),
        }
    }

    #[inline(always)]
    fn repeat(self) -> Seq<'a, 'f, 'b, E> {
        let at = self.frame.base.wrapping_add(self.node.off);
        let left = self.node.n;
        self.seq(Walk::Repeat { at, left })
    }

    /// The sequences strict mode refuses: a tuple struct into a subarray,
    /// a sequence into a record, `[re, im]` into a complex, integers into
    /// `Sn`/`Vn`.
    #[cold]
    #[inline(never)]
    fn seq_other(self) -> Result<Seq<'a, 'f, 'b, E>> {
        if self.node.strict {
            return Err(not_strict());
        }
        let ty = self.node.scalar.map(|s| s.ty());
        match (self.node.tag, ty) {
            (Tag::Sub, _) => Ok(self.repeat()),
            (Tag::Array | Tag::Record, _) => Ok(self.seq(Walk::Kids)),
            (_, Some(ScalarType::Complex(_))) => Ok(self.seq(Walk::Complex([0.0; 2], 0))),
            (_, Some(ScalarType::Bytes(_) | ScalarType::Void(_))) => {
                Ok(self.seq(Walk::Bytes { n: 0 }))
            }
            _ => Err(mismatch(self.node, "a sequence")),
        }
    }

    /// A record's fields, by name.
    #[inline(always)]
    fn record(self) -> Result<Rec<'a, 'f, 'b, E>, E> {
        if self.node.tag != Tag::Record {
            return E::exact(|| Err(mismatch(self.node, "a record")));
        }
        Ok(Rec {
            kids: &self.node.kids,
            rest: self.node.kids.iter(),
            seen: None,
            strict: self.node.strict,
            frame: self.frame,
            pass: PhantomData,
        })
    }
}

/// The general rules over a node (the exact pass only).
impl<'a, 'f, 'b> Enc<'a, 'f, 'b, Error> {
    /// This node's bytes.
    #[inline]
    fn slot(self) -> Result<Slot<'a, 'f>> {
        let buf = self
            .frame
            .bytes(self.node, self.node.size)
            .ok_or_else(internal)?;
        Ok(Slot {
            node: self.node,
            buf,
        })
    }

    /// This node's bytes for a value that only a conversion writes (a
    /// number, string, bytes or datetime the fast path did not store), or
    /// padding: strict mode refuses them (inference makes little-endian
    /// dtypes, whose own values the fast paths store).
    fn converting(self) -> Result<Slot<'a, 'f>> {
        if self.node.strict {
            return Err(not_strict());
        }
        self.slot()
    }

    #[cold]
    #[inline(never)]
    fn unit(self) -> Result<()> {
        if self.node.tag == Tag::Record && self.node.kids.is_empty() {
            self.slot()?.buf.fill(0);
            return Ok(());
        }
        Err(mismatch(self.node, "unit"))
    }

    /// An n-d array into a subarray whose outer dims are its shape: the
    /// flat data encoded in C order as one axis of all the elements
    /// (Fortran data into a buffer first, then reordered).
    fn nd<T: ?Sized + Serialize>(self, code: &'static str, value: &T) -> Result<()> {
        let nd = crate::ser::probe::shape_of(value)?;
        // down the node's subarray axes, one per dim of the shape
        let mut inner = self.node;
        let mut stride = u32::try_from(self.node.size).unwrap_or(u32::MAX);
        let mut fits = nd.dims.len() <= self.node.rank;
        for &d in &nd.dims {
            match (inner.tag, inner.kids.first()) {
                (Tag::Sub | Tag::Array, Some(kid)) if fits && inner.n as u64 == d => {
                    stride = inner.stride;
                    inner = &kid.node;
                }
                _ => fits = false,
            }
        }
        let count = nd.count().and_then(|c| usize::try_from(c).ok());
        let Some(count) = count.filter(|_| fits) else {
            return Err(mismatch(
                self.node,
                &format!("an n-d array of shape {}", ShapeRepr(&nd.dims)),
            ));
        };
        let reordered = nd.reordered();
        let rank = self.node.rank.saturating_add(1);
        let flat = TreeNode {
            n: count,
            stride,
            // the dims below the shape's (`fits`: at most the node's), and
            // the one flat axis
            rank: rank.saturating_sub(nd.dims.len()),
            off: if reordered { 0 } else { self.node.off },
            kids: Box::new([FieldNode::kid(TreeNode {
                off: 0,
                ..inner.clone()
            })]),
            ..TreeNode::leaf(Tag::Sub, 0, self.node.size, self.node.strict)
        };
        if !reordered {
            let enc = Enc::<Error>::at(&flat, &mut *self.frame);
            return crate::ser::probe::parts(value, code, |_| Ok(enc)).map(|_| ());
        }
        let mut stored = vec![0u8; self.node.size];
        let mut frame = Frame {
            buf: &mut stored,
            base: 0,
            marks: &mut *self.frame.marks,
        };
        crate::ser::probe::parts(value, code, |_| Ok(Enc::<Error>::at(&flat, &mut frame)))?;
        let slot = self.slot()?;
        let elsize = stored.len().checked_div(count).unwrap_or(0);
        crate::ser::nd::reorder(&stored, slot.buf, &nd.dims, elsize, true);
        Ok(())
    }

    /// The crate's special newtypes (complex, padding, half floats,
    /// datetimes, n-d arrays) by the general rules.
    #[cold]
    #[inline(never)]
    fn special<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<()> {
        let (rest, delta) = match Special::of(name) {
            None | Some(Special::Unknown | Special::Foreign) => return value.serialize(self),
            Some(Special::NdArray(code)) => return self.nd(code, value),
            Some(Special::Complex) => {
                let (re, im, ty) = complex(value)?;
                let slot = self.slot()?;
                slot.strict_ok(ty)?;
                return slot.put_complex(re, im);
            }
            Some(Special::Padding) => {
                let slot = self.converting()?;
                return match slot.node.scalar {
                    Some(s) if matches!(s.ty(), ScalarType::Void(_)) => {
                        slot.buf.fill(0);
                        Ok(())
                    }
                    _ => Err(mismatch(slot.node, "padding")),
                };
            }
            Some(Special::Bits(kind)) => return self.slot()?.put_bits(value, kind),
            Some(Special::Datetime(rest)) => (rest, false),
            Some(Special::Timedelta(rest)) => (rest, true),
        };
        match probe(value) {
            Captured::Int(c) => self.converting()?.put_time(c, name, rest, delta),
            _ => Err(Error::mismatch(
                "malformed datetime value (expected an i64 count)",
            )),
        }
    }
}

/// `expected {what node takes}, found {found}`.
#[cold]
fn mismatch(node: &TreeNode, found: &str) -> Error {
    Error::mismatch(format!("expected {}, found {found}", node.expected()))
}

/// A leaf's bytes and node: the general rules of the scalars.
struct Slot<'a, 'f> {
    node: &'a TreeNode,
    buf: &'f mut [u8],
}

impl Slot<'_, '_> {
    /// The leaf's scalar; on another node, `expected ..., found {found}`.
    fn scalar(&self, found: impl FnOnce() -> String) -> Result<Scalar> {
        self.node
            .scalar
            .ok_or_else(|| mismatch(self.node, &found()))
    }

    /// In strict mode, whether the dtype is a scalar of exactly `ty`.
    fn strict_ok(&self, ty: ScalarType) -> Result<()> {
        if self.node.strict && self.node.scalar.map(|s| s.ty()) != Some(ty) {
            return Err(not_strict());
        }
        Ok(())
    }

    /// A plain number (`raw`: its little-endian bytes) into a node of
    /// another type or byte order.
    #[cold]
    #[inline(never)]
    fn put_number(self, num: Plain, raw: u64) -> Result<()> {
        // the low bytes of `raw` are the number's own
        match num {
            // a bool node (always `|b1`, a plain number) took it on the
            // fast path
            Plain::Bool => Err(mismatch(self.node, "bool")),
            Plain::I8 => self.put_int(i128::from(raw as u8 as i8)),
            Plain::I16 => self.put_int(i128::from(raw as u16 as i16)),
            Plain::I32 => self.put_int(i128::from(raw as u32 as i32)),
            Plain::I64 => self.put_int(i128::from(raw as i64)),
            Plain::U8 | Plain::U16 | Plain::U32 | Plain::U64 => self.put_int(i128::from(raw)),
            // an f32 widens exactly (NaNs by their bits) and narrows back
            // to its own bits
            Plain::F32 => {
                let v = f32::from_bits(raw as u32);
                self.put_float(f32_to_f64(v), true, &|| v.to_string())
            }
            Plain::F64 => {
                let v = f64::from_bits(raw);
                self.put_float(v, false, &|| v.to_string())
            }
        }
    }

    fn put_int(self, v: i128) -> Result<()> {
        let s = self.scalar(|| format!("integer {v}"))?;
        match s.ty() {
            ScalarType::Int(n @ (1 | 2 | 4 | 8)) | ScalarType::UInt(n @ (1 | 2 | 4 | 8)) => {
                // the bits above the type's value bits (n * 8, one less
                // when signed; n is 1, 2, 4 or 8: a shift below 64) are
                // all zeros, or all ones for a negative value of a signed
                // type
                let signed = matches!(s.ty(), ScalarType::Int(_));
                let high =
                    v.wrapping_shr(u32::from(n).wrapping_mul(8).wrapping_sub(u32::from(signed)));
                if high != 0 && !(signed && high == -1) {
                    return Err(not_fit(v, &s));
                }
                write_uint(self.buf, v as u64, &s)
            }
            ScalarType::Float(_) => {
                let f = if v < 0 {
                    i64::try_from(v).ok().and_then(i64_to_f64_exact)
                } else {
                    u64::try_from(v).ok().and_then(u64_to_f64_exact)
                };
                match f {
                    Some(f) => self.put_float(f, false, &|| v.to_string()),
                    None => Err(inexact(&v.to_string(), &s)),
                }
            }
            ScalarType::Datetime(_) | ScalarType::Timedelta(_) => {
                let c = i64::try_from(v).map_err(|_| not_fit(v, &s))?;
                write_uint(self.buf, c as u64, &s)
            }
            _ => Err(mismatch(self.node, &format!("integer {v}"))),
        }
    }

    fn put_float(self, v: f64, from_f32: bool, show: &dyn Fn() -> String) -> Result<()> {
        let s = self.scalar(|| format!("float {}", show()))?;
        match s.ty() {
            ScalarType::Float(n @ (2 | 4 | 8)) => match float_bits(v, n) {
                Some(b) => write_uint(self.buf, b, &s),
                None => Err(inexact_float(&show(), &[v], from_f32, &s)),
            },
            _ => {
                let what = if from_f32 { "f32" } else { "float" };
                Err(mismatch(self.node, &format!("{what} {}", show())))
            }
        }
    }

    fn put_complex(self, re: f64, im: f64) -> Result<()> {
        let s = self.scalar(|| "a complex number".to_owned())?;
        let show = || format!("({re}{im:+}j)");
        let half = self.buf.len() / 2;
        match (s.ty(), self.buf.split_at_mut_checked(half)) {
            // parts of half the size
            (ScalarType::Complex(n @ (8 | 16)), Some((a, b))) => {
                match (float_bits(re, n / 2), float_bits(im, n / 2)) {
                    (Some(r), Some(i)) => {
                        write_uint(a, r, &s)?;
                        write_uint(b, i, &s)
                    }
                    _ => Err(inexact_float(&show(), &[re, im], false, &s)),
                }
            }
            _ => Err(mismatch(self.node, &format!("complex {}", show()))),
        }
    }

    #[cold]
    #[inline(never)]
    fn put_str(self, v: &str) -> Result<()> {
        let s = self.scalar(|| "string".to_owned())?;
        if v.ends_with('\0') {
            return Err(nul_error());
        }
        match s.ty() {
            ScalarType::Unicode(_) => {
                if put_unicode(self.buf, v, s.order() == ByteOrder::Big) {
                    Ok(())
                } else {
                    Err(too_long(v.chars().count(), "characters", &s))
                }
            }
            ScalarType::Bytes(_) => self.put_raw(v.as_bytes(), &s),
            _ => Err(mismatch(self.node, "string")),
        }
    }

    #[cold]
    #[inline(never)]
    fn put_bytes(self, v: &[u8]) -> Result<()> {
        match self.node.scalar {
            Some(s) if matches!(s.ty(), ScalarType::Bytes(_)) => {
                if v.last() == Some(&0) {
                    return Err(nul_error());
                }
                self.put_raw(v, &s)
            }
            Some(s) if matches!(s.ty(), ScalarType::Void(_)) => self.put_raw(v, &s),
            _ => Err(mismatch(self.node, "bytes")),
        }
    }

    fn put_raw(self, v: &[u8], s: &Scalar) -> Result<()> {
        let (head, tail) = self
            .buf
            .split_at_mut_checked(v.len())
            .ok_or_else(|| too_long(v.len(), "bytes", s))?;
        head.copy_from_slice(v);
        tail.fill(0);
        Ok(())
    }

    fn put_time(self, count: i64, unit_name: &str, rest: &str, delta: bool) -> Result<()> {
        let from = time_unit(unit_name, rest)?;
        let found = || {
            let kind = if delta { "timedelta64" } else { "datetime64" };
            format!("{kind}{from}")
        };
        let s = self.scalar(found)?;
        let to = match (s.ty(), delta) {
            (ScalarType::Datetime(u), false) | (ScalarType::Timedelta(u), true) => u,
            _ => return Err(mismatch(self.node, &found())),
        };
        let c = convert_time(count, from, to, !delta)?;
        write_uint(self.buf, c as u64, &s)
    }

    /// A kind given as its bits ([`Bits`]: `half::f16`, `half::bf16`): its
    /// own type takes the bits (a `V` type little-endian), any other dtype
    /// its value, converted exactly or refused.
    fn put_bits<T: ?Sized + Serialize>(self, value: &T, kind: &Bits) -> Result<()> {
        // the table's kinds are at most 8 bytes
        let size = kind.own.itemsize().unwrap_or(8).min(8);
        let Captured::UInt(bits) = probe(value) else {
            return Err(Error::mismatch(format!(
                "malformed {} (expected u{} bits)",
                kind.what,
                size.saturating_mul(8)
            )));
        };
        if size < 8 && bits >> size.saturating_mul(8) != 0 {
            return Err(Error::mismatch(format!("malformed {}", kind.what)));
        }
        self.strict_ok(kind.own)?;
        match self.node.scalar {
            Some(s) if s.ty() == kind.own => write_uint(self.buf, bits, &s),
            _ => {
                let v = (kind.value)(bits);
                self.put_float(v, true, &|| v.to_string())
            }
        }
    }
}

/// The bits of `v` as a float of `size` (2, 4 or 8) bytes, when exact.
fn float_bits(v: f64, size: u8) -> Option<u64> {
    match size {
        2 => f64_to_f16_bits_exact(v).map(u64::from),
        4 => f64_to_f32_exact(v).map(|f| f.to_bits().into()),
        _ => Some(v.to_bits()),
    }
}

#[cold]
fn not_fit(v: i128, s: &Scalar) -> Error {
    Error::mismatch(format!("{v} does not fit '{s}'"))
}

#[cold]
fn inexact(v: &str, s: &Scalar) -> Error {
    Error::mismatch(format!("{v} is not exactly representable as '{s}'"))
}

/// [`inexact`] for floats: a NaN is shown with its bits, and the rule.
#[cold]
fn inexact_float(v: &str, parts: &[f64], from_f32: bool, s: &Scalar) -> Error {
    let Some(nan) = parts.iter().find(|p| p.is_nan()) else {
        return inexact(v, s);
    };
    let bits = match f64_to_f32_exact(*nan) {
        Some(f) if from_f32 => format!("{:#010x}", f.to_bits()),
        _ => format!("{:#018x}", nan.to_bits()),
    };
    let v = if parts.len() == 1 {
        format!("NaN with bits {bits}")
    } else {
        format!("{v} with a NaN of bits {bits}")
    };
    Error::mismatch(format!(
        "{v} is not exactly representable as '{s}' (a NaN converts only when its payload fits the narrower type)"
    ))
}

#[cold]
fn too_long(n: usize, unit: &str, s: &Scalar) -> Error {
    Error::mismatch(format!("value of {n} {unit} does not fit '{s}'")).too_wide()
}

/// `v` as UCS-4 code points into `dst` (a `U` value), the rest zero;
/// `false` when it has more characters than `dst` holds. The one `U`
/// string encoder (ASCII text is widened without decoding).
#[inline(always)]
fn put_unicode(dst: &mut [u8], v: &str, big: bool) -> bool {
    if v.is_ascii() {
        let Some((head, tail)) = v
            .len()
            .checked_mul(4)
            .and_then(|used| dst.split_at_mut_checked(used))
        else {
            return false;
        };
        for (d, b) in head.chunks_exact_mut(4).zip(v.bytes()) {
            d.copy_from_slice(&if big { [0, 0, 0, b] } else { [b, 0, 0, 0] });
        }
        tail.fill(0);
        return true;
    }
    let mut chunks = dst.chunks_exact_mut(4);
    for c in v.chars() {
        let Some(d) = chunks.next() else {
            return false;
        };
        let c = u32::from(c);
        d.copy_from_slice(&if big {
            c.to_be_bytes()
        } else {
            c.to_le_bytes()
        });
    }
    for d in chunks {
        d.fill(0);
    }
    true
}

/// Writes the low bytes of `bits` over `buf` (a scalar of `s`, or half
/// of a complex one) in `s`'s byte order.
#[inline]
fn write_uint(buf: &mut [u8], bits: u64, s: &Scalar) -> Result<()> {
    let le = bits.to_le_bytes();
    buf.copy_from_slice(le.get(..buf.len()).ok_or_else(internal)?);
    if s.order() == ByteOrder::Big {
        buf.reverse();
    }
    Ok(())
}

/// A struct or map written into a record node.
struct Rec<'a, 'f, 'b, E> {
    /// The record's fields in dtype order.
    kids: &'a [FieldNode],
    /// While the fields come in dtype order by their `&'static str` keys,
    /// the ones still to come; emptied at the first looked up by name (a
    /// map's key, or a struct's out of order: `seen` then has the state).
    rest: std::slice::Iter<'a, FieldNode>,
    /// Once a field was looked up by name: where the flags (given or not,
    /// one per field) start in the frame's `marks` (kept by the
    /// tree, so that a `Rec` owns no memory), and the field looked at
    /// first for the next key (the one after the last written).
    seen: Option<(usize, usize)>,
    /// The tree's strict mode.
    strict: bool,
    frame: &'f mut Frame<'b>,
    pass: PhantomData<fn() -> E>,
}

impl<E: Pass> Rec<'_, '_, '_, E> {
    /// A struct's field: the next in dtype order (by key address), else
    /// by name.
    #[inline(always)]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), E> {
        let mut rest = self.rest.clone();
        if let Some(f) = rest.next() {
            if f.matches(key) {
                self.rest = rest;
                return value
                    .serialize(Enc::<E>::at(&f.node, &mut *self.frame))
                    .map_err(|e| e.field(key));
            }
        }
        if !E::EXACT {
            return Err(E::missed());
        }
        self.field_by_name(key, value)
    }

    #[cold]
    #[inline(never)]
    fn field_by_name<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), E> {
        self.field_at(self.lookup(key).ok_or(key), &value)
    }

    /// The index of the next field in dtype order.
    fn in_order(&self) -> usize {
        self.kids.len().wrapping_sub(self.rest.len())
    }

    /// The field looked at first: the one after the last written.
    fn hint(&self) -> usize {
        self.seen.map_or(self.in_order(), |(_, next)| next)
    }

    fn lookup(&self, key: &str) -> Option<usize> {
        let hint = self.hint();
        match self.kids.get(hint) {
            Some(f) if *f.name == *key => Some(hint),
            _ => self.kids.iter().position(|f| *f.name == *key),
        }
    }

    /// A field looked up by name (or a map's value): the exact pass's path
    /// off the fields in dtype order, the value behind `dyn`
    /// ([`DynValue`](crate::ser::DynValue)), instantiated once per pass
    /// whatever the field's type. `idx`: the field's index, or the key
    /// the dtype has no field of.
    #[inline(never)]
    fn field_at(
        &mut self,
        idx: std::result::Result<usize, &str>,
        value: &crate::ser::DynValue<'_>,
    ) -> Result<(), E> {
        // strict mode: fields only in dtype order, so none can repeat
        if self.strict && idx != Ok(self.hint()) {
            return Err(E::of(not_strict()));
        }
        let idx = match idx {
            Ok(idx) => idx,
            Err(_) if matches!(probe(value), Captured::Padding(_)) => return Ok(()),
            Err(key) => {
                let e = Error::mismatch(format!(
                    "the dtype has no such field (it has {})",
                    names_repr(self.kids.iter().map(|f| &*f.name))
                ));
                return Err(E::of(e.in_field(key)));
            }
        };
        let Some(f) = self.kids.get(idx) else {
            return Err(E::of(Error::mismatch("internal: field index")));
        };
        value
            .serialize(Enc::<E>::at(&f.node, &mut *self.frame))
            .map_err(|e| e.field(&f.name))?;
        // from the first field by name on, the given ones are flagged
        let (at, next) = (self.frame.marks.len(), self.in_order());
        let (at, _) = *self.seen.get_or_insert_with(|| {
            // the fields before the first out of order were given
            let marks = &mut self.frame.marks;
            marks.extend((0..self.kids.len()).map(|i| i < next));
            (at, next)
        });
        self.rest = [].iter();
        let flag = self.frame.marks.get_mut(at.saturating_add(idx));
        if flag.is_none_or(|f| std::mem::replace(f, true)) {
            return Err(E::of(
                Error::mismatch("field given twice").in_field(&f.name),
            ));
        }
        // idx indexes the record's fields: one more cannot overflow
        self.seen = Some((at, idx.wrapping_add(1)));
        Ok(())
    }

    #[inline(always)]
    fn finish(self) -> Result<(), E> {
        if self.rest.len() == 0 && self.seen.is_none() {
            return Ok(());
        }
        E::exact(|| self.finish_other())
    }

    #[cold]
    #[inline(never)]
    fn finish_other(self) -> Result<()> {
        let marks = &self.frame.marks;
        let missing = match self.seen {
            Some((at, _)) => {
                (0..self.kids.len()).find(|&i| marks.get(at.saturating_add(i)) != Some(&true))
            }
            None => Some(self.in_order()),
        };
        match missing.and_then(|i| self.kids.get(i)) {
            Some(f) => Err(
                Error::mismatch("missing from the value (the dtype has this field)")
                    .in_field(&f.name),
            ),
            None => Ok(()),
        }
    }
}

// by hand, not `elements!`: `inline(always)` keeps a derived struct's
// fields in its `serialize` (64 fields of `f64` cost a call each otherwise)
impl<E: Pass> ser::SerializeStruct for Rec<'_, '_, '_, E> {
    type Ok = ();
    type Error = E;
    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), E> {
        self.field(key, value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), E> {
        self.finish()
    }
}

/// A map into a record (the exact pass only): keys arrive as values, not
/// `&'static str`, and are looked up by name.
struct MapRec<'a, 'f, 'b, E> {
    rec: Rec<'a, 'f, 'b, E>,
    /// The field index of the pending key, or the unknown name.
    pending: Option<std::result::Result<usize, String>>,
}

impl<E: Pass> ser::SerializeMap for MapRec<'_, '_, '_, E> {
    type Ok = ();
    type Error = E;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), E> {
        let rec = &self.rec;
        let looked =
            key_text(key, true, |k| rec.lookup(k).ok_or_else(|| k.to_owned())).map_err(|e| {
                E::of(e.into_error(|_| {
                    Error::unsupported(
                        "map key that is not a string; record field names must be strings",
                    )
                }))
            })?;
        self.pending = Some(looked);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), E> {
        match self.pending.take() {
            Some(Ok(i)) => self.rec.field_at(Ok(i), &value),
            Some(Err(name)) => self.rec.field_at(Err(&name), &value),
            None => Err(E::of(Error::mismatch("map value without a key"))),
        }
    }
    fn end(self) -> Result<(), E> {
        self.rec.finish()
    }
}

/// How a [`Seq`] takes its elements.
enum Walk {
    /// Along a subarray node: its one kid again and again, the frame at
    /// `at` and moved by the stride each time, `left` elements to come.
    Repeat { at: u32, left: usize },
    /// The node's kids one by one: an unrolled subarray, or a record by
    /// position (a tuple).
    Kids,
    /// `[re, im]` into a complex scalar: the parts so far, and their count
    /// (`n` > 2: too many).
    Complex([f64; 2], usize),
    /// Integers 0..=255 into `Sn`/`Vn`: how `deserialize_any` hands such
    /// a field over (`S` without its trailing NULs), so it writes back.
    Bytes { n: usize },
}

/// A sequence, tuple or tuple struct along a node (see [`Walk`]).
struct Seq<'a, 'f, 'b, E> {
    node: &'a TreeNode,
    /// `Kids`: the kids still to come (empty for the other walks).
    kids: std::slice::Iter<'a, FieldNode>,
    walk: Walk,
    /// The frame's base before the sequence (restored at its end).
    base: u32,
    frame: &'f mut Frame<'b>,
    pass: PhantomData<fn() -> E>,
}

impl<E: Pass> Seq<'_, '_, '_, E> {
    #[inline(always)]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), E> {
        if let Walk::Repeat { at, left } = &mut self.walk {
            let (Some(kid), Some(l)) = (self.node.kids.first(), left.checked_sub(1)) else {
                return E::exact(|| Err(self.too_long()));
            };
            *left = l;
            self.frame.base = *at;
            *at = at.wrapping_add(self.node.stride);
            let n = self.node.n;
            return value
                .serialize(Enc::<E>::at(&kid.node, &mut *self.frame))
                .map_err(|e| e.index(n.wrapping_sub(l).wrapping_sub(1)));
        }
        match self.kids.next() {
            Some(kid) => match value.serialize(Enc::<E>::at(&kid.node, &mut *self.frame)) {
                Ok(()) => Ok(()),
                Err(e) if !E::EXACT => Err(e),
                Err(e) => Err(self.kid_error(e, kid)),
            },
            None => E::exact(|| self.other(value)),
        }
    }

    /// The path of an element's error: the field of a record, the index of
    /// a subarray.
    #[cold]
    fn kid_error(&self, e: E, kid: &FieldNode) -> E {
        if self.node.tag == Tag::Record {
            return e.field(&kid.name);
        }
        let left = self.kids.len().wrapping_add(1);
        e.index(self.node.kids.len().wrapping_sub(left))
    }

    #[cold]
    fn too_long(&self) -> Error {
        if self.node.tag == Tag::Record {
            return Error::mismatch(format!(
                "tuple longer than the record's {} fields",
                self.node.kids.len()
            ));
        }
        Error::mismatch(format!(
            "sequence longer than the subarray length {}",
            self.node.n
        ))
    }

    /// The bytes of the node (a leaf: complex and byte sequences).
    fn slot(&mut self) -> Result<Slot<'_, '_>> {
        Enc::<Error>::at(self.node, &mut *self.frame).slot()
    }

    /// An element past the kids, or of a complex or byte sequence.
    #[cold]
    #[inline(never)]
    fn other<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match &mut self.walk {
            Walk::Complex(parts, n) => {
                let Some((part, _)) = probe(value).part() else {
                    return Err(Error::mismatch(
                        "complex parts must be numbers exactly representable as floats",
                    )
                    .at_index(*n as u64));
                };
                if let Some(slot) = parts.get_mut(*n) {
                    *slot = part;
                }
                // more than 2 parts is refused at the end; saturation
                // keeps that refusal whatever the count
                *n = n.saturating_add(1);
                Ok(())
            }
            Walk::Bytes { n } => {
                // an error ends the sequence: the count is moved on first
                let i = std::mem::replace(n, n.saturating_add(1));
                self.put_byte(i, value)
            }
            Walk::Repeat { .. } | Walk::Kids => Err(self.too_long()),
        }
    }

    /// Byte `i` of an `Sn`/`Vn` given as a sequence.
    fn put_byte<T: ?Sized + Serialize>(&mut self, i: usize, value: &T) -> Result<()> {
        let byte = match probe(value) {
            Captured::UInt(v) => u8::try_from(v).ok(),
            Captured::Int(v) => u8::try_from(v).ok(),
            _ => None,
        };
        let slot = self.slot()?;
        let s = slot.node.scalar.ok_or_else(internal)?;
        let Some(byte) = byte else {
            return Err(
                Error::mismatch(format!("expected a byte (an integer 0..=255) of '{s}'"))
                    .at_index(i as u64),
            );
        };
        let Some(dst) = slot.buf.get_mut(i) else {
            return Err(too_long(i.saturating_add(1), "bytes", &s));
        };
        *dst = byte;
        Ok(())
    }

    #[inline(always)]
    fn finish(self) -> Result<(), E> {
        match self.walk {
            Walk::Repeat { left: 0, .. } => {
                self.frame.base = self.base;
                Ok(())
            }
            Walk::Kids if self.kids.len() == 0 => Ok(()),
            _ => E::exact(|| self.finish_other()),
        }
    }

    #[cold]
    #[inline(never)]
    fn finish_other(mut self) -> Result<()> {
        let node = self.node;
        // elements given to a subarray or record (a tuple)
        let given = match self.walk {
            Walk::Repeat { left, .. } => node.n.wrapping_sub(left),
            Walk::Kids => node.kids.len().wrapping_sub(self.kids.len()),
            Walk::Complex([re, im], 2) => return self.slot()?.put_complex(re, im),
            Walk::Complex(_, n) => {
                return Err(mismatch(
                    node,
                    &format!("a sequence of length {n} (a complex number is [re, im])"),
                ));
            }
            Walk::Bytes { n } => {
                let slot = self.slot()?;
                let is_bytes =
                    matches!(slot.node.scalar.map(|s| s.ty()), Some(ScalarType::Bytes(_)));
                let (head, tail) = slot.buf.split_at_mut(n.min(slot.buf.len()));
                if is_bytes && head.last() == Some(&0) {
                    return Err(nul_error());
                }
                tail.fill(0);
                return Ok(());
            }
        };
        if node.tag == Tag::Record {
            return Err(Error::mismatch(format!(
                "tuple of {given} elements for a record of {} fields",
                node.kids.len()
            )));
        }
        Err(Error::mismatch(format!(
            "expected a sequence of length {}, found length {given}",
            node.n
        )))
    }
}

elements!(impl['a, 'f, 'b, E: Pass] Seq<'a, 'f, 'b, E> => (), E: SerializeSeq SerializeTuple SerializeTupleStruct);

impl<'a: 'f, 'f, 'b, E: Pass> ser::Serializer for Enc<'a, 'f, 'b, E> {
    serializer_types!((), E; (Seq<'a, 'f, 'b, E>) (Seq<'a, 'f, 'b, E>) (Seq<'a, 'f, 'b, E>) _ (MapRec<'a, 'f, 'b, E>) (Rec<'a, 'f, 'b, E>) _);
    crate::ser::collect_seq!();

    plain_number_methods!(#[inline] put_plain -> Result<(), E>);
    refuse!(serialize_none serialize_newtype_variant);
    fn serialize_i128(self, _: i128) -> Result<(), E> {
        self.general(|_| Err(Error::unsupported("i128 (numpy has no 128-bit integers)")))
    }
    fn serialize_u128(self, _: u128) -> Result<(), E> {
        self.general(|_| Err(Error::unsupported("u128 (numpy has no 128-bit integers)")))
    }
    fn serialize_char(self, v: char) -> Result<(), E> {
        self.put_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), E> {
        self.put_str(v)
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), E> {
        if self.node.tag == Tag::Bytes && v.last() != Some(&0) {
            let slot = self.frame.bytes(self.node, self.node.size);
            if let Some((head, tail)) = slot.and_then(|s| s.split_at_mut_checked(v.len())) {
                head.copy_from_slice(v);
                tail.fill(0);
                return Ok(());
            }
        }
        self.general(|e| e.converting()?.put_bytes(v))
    }
    through!(some);
    fn serialize_unit(self) -> Result<(), E> {
        self.general(|e| e.unit())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), E> {
        self.general(|e| e.unit())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), E> {
        self.put_str(variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), E> {
        // transparent unless one of the crate's special newtypes
        if !special::is_element(name) {
            return value.serialize(self);
        }
        // the unit is the dtype's: the count is stored as it is
        if self.node.tag == Tag::Time && self.node.is_token(name) {
            if let Captured::Int(count) = probe(value) {
                let d = self
                    .frame
                    .bytes(self.node, 8)
                    .and_then(|s| s.first_chunk_mut());
                *d.ok_or_else(|| E::of(internal()))? = count.to_le_bytes();
                return Ok(());
            }
        }
        self.general(|e| e.special(name, value))
    }
    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Seq<'a, 'f, 'b, E>, E> {
        self.open_seq(Found::Seq)
    }
    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<Seq<'a, 'f, 'b, E>, E> {
        self.open_seq(Found::Tuple)
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Seq<'a, 'f, 'b, E>, E> {
        self.open_seq(Found::TupleStruct)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapRec<'a, 'f, 'b, E>, E> {
        if !E::EXACT {
            return Err(E::missed());
        }
        Ok(MapRec {
            rec: self.record()?,
            pending: None,
        })
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Rec<'a, 'f, 'b, E>, E> {
        self.record()
    }
}

#[cfg(test)]
mod tests;
