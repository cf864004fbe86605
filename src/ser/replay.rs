//! The compiled fast path of the write side.
//!
//! [`Enc`] walks the dtype alongside every value: per field it looks the
//! name up, builds a sub-encoder, matches the scalar type against the dtype
//! and decorates errors with the field's path. For an array of millions of
//! records of one type, that is the same work every time. A [`DtypeTree`] does
//! it once per dtype (once per array, per `NpyWriter`): the dtype is
//! compiled into a tree of [`TreeNode`]s (fields in dtype order with their byte
//! offsets, scalars with a one-byte type tag, short subarrays of numbers
//! unrolled into one node per element, longer ones one node for their
//! element whatever their length), and [`Replay`] serializes an element by
//! following that tree.
//!
//! Replay accepts only the exact events the tree expects: the next field's
//! name (a `&'static str` key is recognised by its address and length after
//! the first byte compare), a number of exactly the node's type
//! (little-endian or one byte, stored as its own bytes), a string, `bytes`
//! or datetime newtype into a `<U`, `|S`, `M8`/`m8` node (the newtype's name
//! recognised like a key; the same bytes `Enc` writes), sequences of the
//! subarray's length, tuples along a record. Other strings, bytes, unit
//! values and special newtypes (complex, half floats, other time units)
//! are handed to [`Enc`] over that node's bytes, which is what `Enc` would
//! have done for that value; so is a map (flattened structs), whole. Any
//! other difference (a number of another type: a conversion into a given
//! dtype, or a big-endian one; fields in another order, a record cut
//! short, a sequence of the wrong length) and every error ends the replay
//! with the zero-sized [`Miss`];
//! the caller ([`DtypeTree::encode`]) then zeroes the element's bytes and
//! encodes it again with the general `Enc`, which gives the converted value
//! or the real error with its path. So the output is byte-identical to
//! `Enc`'s, errors included. After [`MAX_MISSES`] misses a tape stops
//! replaying (values that never fit cost one `Enc` walk, not two).
//!
//! A tree rather than a flat list of ops because serde's calls nest: each
//! `serialize_field` hands its own serializer to the value, and a node
//! reference is what that serializer needs (a slice iterator over a
//! record's fields is the cursor). The cost per field is then a key
//! compare, a tag compare, one bounds check and the store.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde::ser::{self, Serialize};

use crate::dtype::Plain;
use crate::dtype::{ByteOrder, Dtype, ScalarType};
use crate::error::Result;
use crate::ser::encode::{Enc, RecEnc, put_unicode};
use crate::ser::flat::Layout;
use crate::ser::infer::time_unit;
use crate::ser::probe::{Captured, probe};
use crate::ser::{Found, Miss};
use crate::special;

/// Most dtype nodes cloned into one tape (see [`Compiler`]); beyond it a
/// subtree is one delegated node. Keeps compiling linear in practice for
/// dtypes nested deep with many fields at each level.
const MAX_WEIGHT: usize = 1 << 16;

/// Replays that missed before the tape gives up on them: values that never
/// fit the fast path (conversions into a given dtype of another shape) then
/// cost one `Enc` walk, not a failed replay and a walk. (The root becomes a
/// `Generic` node: scalars go to `Enc` at once, anything else misses at its
/// first call.)
const MAX_MISSES: u64 = 64;

/// What a node expects.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Debug)]
enum Tag {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    /// A subarray axis: `n` elements of the one kid, `stride` bytes apart.
    Sub,
    /// A short subarray of scalars, unrolled: one kid per element, each at
    /// its own offset (the cheapest replay: a fixed-size array is a run of
    /// scalar fields).
    Array,
    /// A record: `fields` in dtype order.
    Record,
    /// `<Un`: a string (or char, or unit variant) of at most `n` chars.
    Unicode,
    /// `|Sn`: bytes (`serialize_bytes`) of at most `n`.
    Bytes,
    /// `<M8[unit]` / `<m8[unit]`: the crate's datetime (timedelta) newtype
    /// in exactly this unit (`token` caches its name), an `i64` count.
    Time,
    /// Anything else: every value is handed to [`Enc`].
    Generic,
}

/// One value's place in the element and what it expects.
#[derive(Debug)]
struct TreeNode {
    tag: Tag,
    /// Offset from the start of the frame: the element, or the subarray
    /// element this node is in. Offsets are `u32` (elements of more than
    /// 4 GiB are not compiled), so `frame + off + 8` cannot overflow and a
    /// store needs a single bounds check.
    off: u32,
    /// Bytes of the value (the slot `Enc` gets).
    size: usize,
    /// `Sub`: number of elements and bytes between them.
    n: usize,
    stride: u32,
    /// `Record`: the fields in dtype order; `Array`: the elements; `Sub`:
    /// the element (offset 0 in its frame). Names are used by records only.
    kids: Box<[FieldNode]>,
    /// The dtype `Enc::with_mode` takes for this node's slot (a subarray
    /// node's `(base, dims)` state as `Subarray(base, dims)`).
    dt: Dtype,
    /// Whether `Enc` runs in strict mode (the same for the whole tape;
    /// here so that a replay carries one pointer less).
    strict: bool,
    /// `Time`: address and length of the last newtype name found to be
    /// this node's datetime kind and unit (0: none yet).
    token: (AtomicUsize, AtomicUsize),
}

/// A record field: its name and its value's node.
#[derive(Debug)]
struct FieldNode {
    name: Box<str>,
    /// Address of the last `&'static str` key found equal to `name` (0:
    /// none yet). A key at the same address with the same length is the
    /// same text: a pointer compare instead of a byte compare per field.
    /// Atomic only to keep the tape `Sync`; relaxed loads are plain loads.
    key: AtomicUsize,
    node: TreeNode,
}

impl TreeNode {
    /// Whether `name` is this `Time` node's datetime kind and unit.
    #[inline(always)]
    fn is_token(&self, name: &'static str) -> bool {
        (name.as_ptr().addr() == self.token.0.load(Ordering::Relaxed)
            && name.len() == self.token.1.load(Ordering::Relaxed))
            || self.is_token_text(name)
    }

    #[cold]
    #[inline(never)]
    fn is_token_text(&self, name: &'static str) -> bool {
        let (rest, delta) = match (
            name.strip_prefix(special::DATETIME_PREFIX),
            name.strip_prefix(special::TIMEDELTA_PREFIX),
        ) {
            (Some(rest), _) => (rest, false),
            (_, Some(rest)) => (rest, true),
            _ => return false,
        };
        let Ok(unit) = time_unit(name, rest) else {
            return false;
        };
        let same = match self.dt.as_scalar().map(|s| s.ty()) {
            Some(ScalarType::Datetime(u)) => !delta && u == unit,
            Some(ScalarType::Timedelta(u)) => delta && u == unit,
            _ => false,
        };
        if same {
            self.token.0.store(name.as_ptr().addr(), Ordering::Relaxed);
            self.token.1.store(name.len(), Ordering::Relaxed);
        }
        same
    }
}

impl FieldNode {
    #[inline(always)]
    fn matches(&self, key: &'static str) -> bool {
        (key.as_ptr().addr() == self.key.load(Ordering::Relaxed) && key.len() == self.name.len())
            || self.matches_text(key)
    }

    #[cold]
    #[inline(never)]
    fn matches_text(&self, key: &'static str) -> bool {
        if *self.name != *key {
            return false;
        }
        self.key.store(key.as_ptr().addr(), Ordering::Relaxed);
        true
    }
}

/// Builds the nodes, mirroring how [`Enc`] descends a dtype.
struct Compiler {
    /// Dtype nodes cloned so far.
    weight: usize,
    strict: bool,
}

/// Longest subarray of scalars compiled as one node per element.
const UNROLL: usize = 16;

/// Number of nodes of a dtype (what cloning it costs), saturating.
fn weight(dt: &Dtype) -> usize {
    match dt {
        Dtype::Scalar(_) => 1,
        Dtype::Subarray(b, _) => weight(b).saturating_add(1),
        Dtype::Record(r) => r
            .fields()
            .iter()
            .fold(1usize, |acc, f| acc.saturating_add(weight(f.dtype()))),
    }
}

fn leaf_tag(dt: &Dtype) -> Option<Tag> {
    let Dtype::Scalar(s) = dt else {
        return None;
    };
    if let Some(p) = s.plain() {
        return Some(tag_of(p));
    }
    // `Enc` stores the other types it knows only in little-endian order
    if s.order() == ByteOrder::Big {
        return None;
    }
    match s.ty() {
        ScalarType::Unicode(_) => Some(Tag::Unicode),
        ScalarType::Bytes(_) => Some(Tag::Bytes),
        ScalarType::Datetime(_) | ScalarType::Timedelta(_) => Some(Tag::Time),
        _ => None,
    }
}

/// The node tag of a plain number (the inverse of [`num_of`]).
fn tag_of(p: Plain) -> Tag {
    match p {
        Plain::Bool => Tag::Bool,
        Plain::I8 => Tag::I8,
        Plain::I16 => Tag::I16,
        Plain::I32 => Tag::I32,
        Plain::I64 => Tag::I64,
        Plain::U8 => Tag::U8,
        Plain::U16 => Tag::U16,
        Plain::U32 => Tag::U32,
        Plain::U64 => Tag::U64,
        Plain::F32 => Tag::F32,
        Plain::F64 => Tag::F64,
    }
}

impl Compiler {
    fn node(&self, tag: Tag, off: usize, size: usize, dt: Dtype) -> TreeNode {
        TreeNode {
            tag,
            // within the element, whose size was checked to fit
            off: u32::try_from(off).unwrap_or(u32::MAX),
            size,
            n: 0,
            stride: 0,
            kids: Box::default(),
            dt,
            strict: self.strict,
            token: (AtomicUsize::new(0), AtomicUsize::new(0)),
        }
    }

    fn kid(node: TreeNode) -> FieldNode {
        FieldNode {
            name: "".into(),
            key: AtomicUsize::new(0),
            node,
        }
    }

    /// The node for `Enc::with_mode(dt, slot)` with the slot at `off`.
    fn with_mode(&mut self, dt: &Dtype, off: usize, size: usize) -> TreeNode {
        match dt {
            Dtype::Subarray(base, dims) => self.state(base, dims, off, size),
            _ => self.state(dt, &[], off, size),
        }
    }

    /// The node for the encoder state `Enc { dt, dims }`.
    fn state(&mut self, dt: &Dtype, dims: &[u64], off: usize, size: usize) -> TreeNode {
        self.state_inner(dt, dims, off, size, true)
    }

    /// The root node for `Enc::with_mode(dt, slot)`, its own dtype left a
    /// stand-in (the caller has `dt` to put there).
    fn with_mode_shallow(&mut self, dt: &Dtype, size: usize) -> TreeNode {
        match dt {
            Dtype::Subarray(base, dims) => self.state_inner(base, dims, 0, size, false),
            _ => self.state_inner(dt, &[], 0, size, false),
        }
    }

    fn state_inner(
        &mut self,
        dt: &Dtype,
        dims: &[u64],
        off: usize,
        size: usize,
        copy: bool,
    ) -> TreeNode {
        let own = match (copy, dims.is_empty()) {
            (false, _) => Dtype::scalar(ScalarType::Bool),
            (true, true) => dt.clone(),
            (true, false) => Dtype::Subarray(Box::new(dt.clone()), dims.to_vec()),
        };
        let w = weight(dt).saturating_add(usize::from(!dims.is_empty()));
        self.weight = self.weight.saturating_add(w);
        if self.weight > MAX_WEIGHT {
            return self.node(Tag::Generic, off, size, own);
        }
        if let Some((&n, rest)) = dims.split_first() {
            // as `Enc::seq`: elements of `size / n` bytes
            let Some(n) = usize::try_from(n).ok().filter(|&n| n > 0) else {
                return self.node(Tag::Generic, off, size, own);
            };
            let stride = size.checked_div(n).unwrap_or(0);
            if rest.is_empty() && n <= UNROLL && leaf_tag(dt).is_some_and(|t| t < Tag::Unicode) {
                let mut kids = Vec::with_capacity(n);
                let mut at = off;
                for _ in 0..n {
                    kids.push(Compiler::kid(self.with_mode(dt, at, stride)));
                    at = at.saturating_add(stride);
                }
                let mut node = self.node(Tag::Array, off, size, own);
                node.n = n;
                node.kids = kids.into_boxed_slice();
                return node;
            }
            let child = if rest.is_empty() {
                self.with_mode(dt, 0, stride)
            } else {
                self.state(dt, rest, 0, stride)
            };
            let mut node = self.node(Tag::Sub, off, size, own);
            node.n = n;
            node.stride = u32::try_from(stride).unwrap_or(u32::MAX);
            node.kids = Box::new([Compiler::kid(child)]);
            return node;
        }
        match dt {
            Dtype::Record(r) => {
                let mut fields = Vec::with_capacity(r.fields().len());
                for f in r.fields() {
                    let Some(at) = off.checked_add(f.offset()) else {
                        return self.node(Tag::Generic, off, size, own);
                    };
                    fields.push(FieldNode {
                        name: f.name().into(),
                        key: AtomicUsize::new(0),
                        node: self.with_mode(f.dtype(), at, f.size()),
                    });
                }
                let mut node = self.node(Tag::Record, off, size, own);
                node.n = fields.len();
                node.kids = fields.into_boxed_slice();
                node
            }
            _ => {
                let tag = leaf_tag(dt).unwrap_or(Tag::Generic);
                self.node(tag, off, size, own)
            }
        }
    }
}

/// A dtype compiled for [`Replay`], with the general [`Enc`] as fallback.
#[derive(Debug)]
pub(crate) struct DtypeTree {
    root: TreeNode,
    /// Replays that missed; at [`MAX_MISSES`] replay is no longer tried.
    misses: u64,
}

impl DtypeTree {
    /// A tape for elements of `dt`, encoding like `Enc::new` (or like
    /// `Enc::strict` with `strict`).
    pub(crate) fn new(dt: &Dtype, strict: bool) -> DtypeTree {
        let mut c = Compiler { weight: 0, strict };
        let size = dt.itemsize();
        let root = if u32::try_from(size).is_ok() {
            c.with_mode(dt, 0, size)
        } else {
            c.node(Tag::Generic, 0, size, dt.clone())
        };
        DtypeTree { root, misses: 0 }
    }

    /// A tape for elements of `dt`, keeping `dt` (no copy of the root).
    pub(crate) fn from_dtype(dt: Dtype, strict: bool) -> DtypeTree {
        let mut c = Compiler { weight: 0, strict };
        let size = dt.itemsize();
        let mut root = if u32::try_from(size).is_ok() {
            // compiled against a stand-in root dtype, then given `dt`
            // (the root's `Enc::with_mode(dt)` state is `dt` itself)
            let mut root = c.with_mode_shallow(&dt, size);
            root.dt = Dtype::scalar(ScalarType::Bool);
            root
        } else {
            c.node(Tag::Generic, 0, size, Dtype::scalar(ScalarType::Bool))
        };
        root.dt = dt;
        DtypeTree { root, misses: 0 }
    }

    /// The dtype of the elements.
    pub(crate) fn dtype(&self) -> &Dtype {
        &self.root.dt
    }

    /// The dtype of the elements, taken out of the tape.
    pub(crate) fn into_dtype(self) -> Dtype {
        self.root.dt
    }

    /// Lends the dtype out (the tape must not encode until it is back).
    pub(crate) fn take_dtype(&mut self) -> Dtype {
        std::mem::replace(&mut self.root.dt, Dtype::scalar(ScalarType::Bool))
    }

    /// Gives back the dtype lent by [`take_dtype`](DtypeTree::take_dtype).
    pub(crate) fn put_dtype(&mut self, dt: Dtype) {
        self.root.dt = dt;
    }

    /// The element as a run of plain numbers, when it is one (see
    /// [`flat::Layout`](crate::ser::flat::Layout)): a number node, or an
    /// unrolled or repeated subarray of one number node. Only what replays
    /// as exactly those stores qualifies: the fast mode of `spec.rs` must
    /// write the bytes the replay would.
    pub(crate) fn flat(&self) -> Option<Layout> {
        let root = &self.root;
        if let Some(num) = num_of(root.tag) {
            return (root.off == 0 && root.size == num.size()).then_some(Layout::bare(num));
        }
        let kid = match root.tag {
            Tag::Array => root.kids.first()?,
            Tag::Sub => match &*root.kids {
                [kid] => kid,
                _ => return None,
            },
            _ => return None,
        };
        let num = num_of(kid.node.tag)?;
        let n = match root.tag {
            Tag::Array => root.kids.len(),
            _ => root.n,
        };
        // every element at its place, back to back from 0, filling the slot
        let packed = match root.tag {
            Tag::Array => root.kids.iter().enumerate().all(|(i, k)| {
                k.node.tag == kid.node.tag
                    && k.node.size == num.size()
                    && i.checked_mul(num.size()) == Some(k.node.off as usize)
            }),
            _ => kid.node.off == 0 && root.stride as usize == num.size(),
        };
        let fills = n.checked_mul(num.size()) == Some(root.size);
        (packed && fills && root.off == 0 && n > 0).then_some(Layout::tuple(num, n))
    }

    /// A tape to hold until the dtype is known; used on no element (a
    /// `bool` into a zero-byte slot would fail).
    pub(crate) fn placeholder() -> DtypeTree {
        DtypeTree::new(&Dtype::scalar(ScalarType::Bool), true)
    }

    /// Encodes one element into `slot` (`dt.itemsize()` bytes, zero where
    /// the dtype has gaps): the same bytes and errors as `Enc`.
    #[inline]
    pub(crate) fn encode<T: ?Sized + Serialize>(
        &mut self,
        value: &T,
        slot: &mut [u8],
    ) -> Result<()> {
        let mut frame = Frame {
            buf: &mut *slot,
            base: 0,
        };
        let replay = Replay {
            node: &self.root,
            frame: &mut frame,
        };
        if value.serialize(replay).is_ok() {
            return Ok(());
        }
        self.general(value, slot)
    }

    /// The general encoder over the whole element, after zeroing what a
    /// replay may have written.
    #[cold]
    #[inline(never)]
    fn general<T: ?Sized + Serialize>(&mut self, value: &T, slot: &mut [u8]) -> Result<()> {
        // once past MAX_MISSES only the comparison matters: saturation is
        // harmless
        self.misses = self.misses.saturating_add(1);
        if self.misses >= MAX_MISSES {
            self.root.tag = Tag::Generic;
            self.root.kids = Box::default();
        }
        slot.fill(0);
        value.serialize(Enc::with_mode(&self.root.dt, slot, self.root.strict))
    }
}

/// The plain number a node's tag stands for.
fn num_of(tag: Tag) -> Option<Plain> {
    Some(match tag {
        Tag::Bool => Plain::Bool,
        Tag::I8 => Plain::I8,
        Tag::I16 => Plain::I16,
        Tag::I32 => Plain::I32,
        Tag::I64 => Plain::I64,
        Tag::U8 => Plain::U8,
        Tag::U16 => Plain::U16,
        Tag::U32 => Plain::U32,
        Tag::U64 => Plain::U64,
        Tag::F32 => Plain::F32,
        Tag::F64 => Plain::F64,
        _ => return None,
    })
}

type Replayed<T = ()> = std::result::Result<T, Miss>;

/// The element's bytes and where the current frame (the element, or the
/// subarray element being replayed) starts in them. Behind one pointer, so
/// that a [`Replay`] is two words, passed in registers when a value's
/// `serialize` is not inlined (long structs: each field then costs a call).
struct Frame<'b> {
    buf: &'b mut [u8],
    base: u32,
}

/// Serializes one value along its node: see the module docs.
struct Replay<'a, 'f, 'b> {
    node: &'a TreeNode,
    frame: &'f mut Frame<'b>,
}

impl<'a, 'f, 'b> Replay<'a, 'f, 'b> {
    fn refuse(self, _: Found) -> Miss {
        Miss
    }

    /// A plain number's bytes into its node ([`put`](Replay::put) with
    /// the number's tag, a constant at each call site).
    #[inline(always)]
    fn put_plain<const N: usize>(self, num: Plain, bytes: [u8; N]) -> Replayed {
        self.put(tag_of(num), bytes)
    }

    /// Stores a number's own little-endian bytes when the node expects
    /// exactly this type; anything else is a miss. (Not handed to `Enc`
    /// here: a call in every inlined field costs more than it saves. A
    /// conversion, which only a given dtype asks for, re-encodes the
    /// element with `Enc`; after [`MAX_MISSES`] the tape is off.)
    #[inline(always)]
    fn put<const N: usize>(self, tag: Tag, bytes: [u8; N]) -> Replayed {
        let Replay { node, frame } = self;
        if node.tag == tag {
            let at = (frame.base as usize).wrapping_add(node.off as usize);
            return match frame
                .buf
                .get_mut(at..at.wrapping_add(N))
                .and_then(|s| s.first_chunk_mut::<N>())
            {
                Some(d) => {
                    *d = bytes;
                    Ok(())
                }
                None => Err(Miss),
            };
        }
        Err(Miss)
    }

    /// This node's bytes.
    #[inline(always)]
    fn slot(self) -> Replayed<&'f mut [u8]> {
        let at = (self.frame.base as usize).wrapping_add(self.node.off as usize);
        let end = at.checked_add(self.node.size).ok_or(Miss)?;
        self.frame.buf.get_mut(at..end).ok_or(Miss)
    }

    /// A string into a `<Un` node: its chars as little-endian code points,
    /// the rest zero (as `Enc`); into anything else, `Enc`.
    #[inline(always)]
    fn put_str(self, v: &str) -> Replayed {
        if self.node.tag != Tag::Unicode {
            return delegate(self.node, self.frame, move |e| {
                ser::Serializer::serialize_str(e, v)
            });
        }
        if v.ends_with('\0') {
            return Err(Miss);
        }
        let slot = self.slot()?;
        if put_unicode(slot, v, false) {
            Ok(())
        } else {
            Err(Miss)
        }
    }

    /// The node's parts as a sequence: along a subarray (`Sub`), the one
    /// element node again and again; along a record or an unrolled array,
    /// the next kid each time.
    #[inline(always)]
    fn seq(self, repeat: bool) -> SeqReplay<'a, 'f, 'b> {
        let node = self.node;
        let base = self.frame.base;
        SeqReplay {
            kids: node.kids.iter(),
            repeat,
            at: base.wrapping_add(node.off),
            stride: node.stride,
            left: node.n,
            base,
            frame: self.frame,
        }
    }
}

/// The general encoder over a node's slot.
#[inline]
fn enc<'f>(node: &'f TreeNode, frame: &'f mut Frame<'_>) -> Replayed<Enc<'f>> {
    let slot = Replay { node, frame }.slot()?;
    Ok(Enc::with_mode(&node.dt, slot, node.strict))
}

/// Hands a value to the general encoder (out of line: the fast path stays
/// small enough to be inlined).
#[cold]
#[inline(never)]
fn delegate(
    node: &TreeNode,
    frame: &mut Frame<'_>,
    f: impl FnOnce(Enc<'_>) -> Result<()>,
) -> Replayed {
    f(enc(node, frame)?).map_err(|_| Miss)
}

impl<'a: 'f, 'f, 'b> ser::Serializer for Replay<'a, 'f, 'b> {
    serializer_types!((), Miss; (SeqReplay<'a, 'f, 'b>) (SeqReplay<'a, 'f, 'b>) (SeqReplay<'a, 'f, 'b>) _ (MapReplay<'f>) (RecReplay<'a, 'f, 'b>) _);

    plain_number_methods!(#[inline] put_plain -> Replayed);
    refuse!(serialize_i128 serialize_u128 serialize_none serialize_newtype_variant
        serialize_tuple_variant serialize_struct_variant);
    fn serialize_char(self, v: char) -> Replayed {
        self.put_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Replayed {
        self.put_str(v)
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Replayed {
        if self.node.tag != Tag::Bytes {
            return delegate(self.node, self.frame, move |e| e.serialize_bytes(v));
        }
        // as `Enc`: NUL-terminated values are refused, the rest is zeroed
        if v.last() == Some(&0) {
            return Err(Miss);
        }
        let slot = self.slot()?;
        let (head, tail) = slot.split_at_mut_checked(v.len()).ok_or(Miss)?;
        head.copy_from_slice(v);
        tail.fill(0);
        Ok(())
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Replayed {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Replayed {
        delegate(self.node, self.frame, |e| {
            ser::Serializer::serialize_unit(e)
        })
    }
    fn serialize_unit_struct(self, name: &'static str) -> Replayed {
        delegate(self.node, self.frame, move |e| {
            e.serialize_unit_struct(name)
        })
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Replayed {
        self.put_str(variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Replayed {
        // transparent unless one of the crate's special newtypes (as `Enc`)
        if !special::is_element(name) {
            return value.serialize(self);
        }
        if self.node.tag == Tag::Time && self.node.is_token(name) {
            // the unit is the dtype's: `Enc` would store the count as it is
            if let Captured::Int(count) = probe(value) {
                let slot = self.slot()?;
                let d = slot.first_chunk_mut::<8>().ok_or(Miss)?;
                *d = count.to_le_bytes();
                return Ok(());
            }
        }
        delegate(self.node, self.frame, move |e| {
            e.serialize_newtype_struct(name, value)
        })
    }
    // Sequences replay only along a subarray, tuples also along a record
    // (by position, as `Enc` in either mode). Everything else `Enc` may
    // take (complex `[re, im]` pairs, conversions of a given dtype) is a
    // miss: the element is encoded again by `Enc`.
    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Replayed<SeqReplay<'a, 'f, 'b>> {
        match self.node.tag {
            Tag::Sub => Ok(self.seq(true)),
            Tag::Array => Ok(self.seq(false)),
            _ => Err(Miss),
        }
    }
    #[inline]
    fn serialize_tuple(self, _: usize) -> Replayed<SeqReplay<'a, 'f, 'b>> {
        match self.node.tag {
            Tag::Sub => Ok(self.seq(true)),
            Tag::Array | Tag::Record => Ok(self.seq(false)),
            _ => Err(Miss),
        }
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Replayed<SeqReplay<'a, 'f, 'b>> {
        match self.node.tag {
            Tag::Record => Ok(self.seq(false)),
            _ => Err(Miss),
        }
    }
    #[cold]
    #[inline(never)]
    fn serialize_map(self, len: Option<usize>) -> Replayed<MapReplay<'f>> {
        let Replay { node, frame } = self;
        match ser::Serializer::serialize_map(enc(node, frame)?, len) {
            Ok(r) => Ok(MapReplay(r)),
            Err(_) => Err(Miss),
        }
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Replayed<RecReplay<'a, 'f, 'b>> {
        match self.node.tag {
            Tag::Record => Ok(RecReplay {
                fields: self.node.kids.iter(),
                frame: self.frame,
            }),
            // `Enc` takes a struct only into a record
            _ => Err(Miss),
        }
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// A struct along a record node: fields in dtype order, by name.
struct RecReplay<'a, 'f, 'b> {
    fields: std::slice::Iter<'a, FieldNode>,
    frame: &'f mut Frame<'b>,
}

impl ser::SerializeStruct for RecReplay<'_, '_, '_> {
    type Ok = ();
    type Error = Miss;
    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Replayed {
        let f = self.fields.next().ok_or(Miss)?;
        if !f.matches(key) {
            return Err(Miss);
        }
        value.serialize(Replay {
            node: &f.node,
            frame: &mut *self.frame,
        })
    }
    #[inline]
    fn end(self) -> Replayed {
        if self.fields.len() == 0 {
            Ok(())
        } else {
            Err(Miss)
        }
    }
}

/// A sequence along a subarray node (the one element node, the frame moved
/// by the stride for each element), or along a record (a tuple, by
/// position) or an unrolled array node (the next kid each time).
struct SeqReplay<'a, 'f, 'b> {
    kids: std::slice::Iter<'a, FieldNode>,
    /// `Sub`: the one kid is every element's node.
    repeat: bool,
    /// `Sub`: frame of the next element.
    at: u32,
    stride: u32,
    /// `Sub`: elements still expected.
    left: usize,
    /// The frame's base before the sequence (restored at its end).
    base: u32,
    frame: &'f mut Frame<'b>,
}

impl SeqReplay<'_, '_, '_> {
    #[inline(always)]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Replayed {
        let node = if self.repeat {
            if self.left == 0 {
                return Err(Miss);
            }
            // left > 0 (checked above)
            self.left = self.left.wrapping_sub(1);
            self.frame.base = self.at;
            self.at = self.at.wrapping_add(self.stride);
            &self.kids.as_slice().first().ok_or(Miss)?.node
        } else {
            &self.kids.next().ok_or(Miss)?.node
        };
        value.serialize(Replay {
            node,
            frame: &mut *self.frame,
        })
    }

    #[inline(always)]
    fn finish(self) -> Replayed {
        let done = if self.repeat {
            self.left == 0
        } else {
            self.kids.len() == 0
        };
        self.frame.base = self.base;
        if done { Ok(()) } else { Err(Miss) }
    }
}

/// Sequences, tuples and tuple structs replay alike: element by element.
macro_rules! seq_replay {
    ($($tr:ident::$m:ident;)*) => {$(
        impl ser::$tr for SeqReplay<'_, '_, '_> {
            type Ok = ();
            type Error = Miss;
            #[inline]
            fn $m<T: ?Sized + Serialize>(&mut self, value: &T) -> Replayed {
                self.element(value)
            }
            #[inline]
            fn end(self) -> Replayed {
                self.finish()
            }
        }
    )*};
}

seq_replay! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
}

/// A map into a record: handed to `Enc` whole (keys arrive as values, not
/// `&'static str`, and flattened structs may order them freely).
struct MapReplay<'a>(RecEnc<'a>);

impl ser::SerializeMap for MapReplay<'_> {
    type Ok = ();
    type Error = Miss;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Replayed {
        self.0.serialize_key(key).map_err(|_| Miss)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Replayed {
        self.0.serialize_value(value).map_err(|_| Miss)
    }
    fn end(self) -> Replayed {
        ser::SerializeMap::end(self.0).map_err(|_| Miss)
    }
}

#[cfg(test)]
mod tests;
