//! The fast mode of the speculative pass for arrays of plain numbers.
//!
//! `Vec<f64>`, `Vec<u8>`, `Vec<[f32; 3]>`, `Vec<Particle>` of number
//! fields: once the first element fixed the dtype, every element is one
//! number, a short run of numbers of one type, or a record of such fields
//! in dtype order, stored as their own little-endian bytes, back to back. Encoding it
//! through the compiled [`DtypeTree`](crate::ser::encode::DtypeTree) still costs a frame,
//! a node and an offset per element; here the element is handed a tiny
//! serializer, [`Leaf`], that accepts exactly the one serialize method of
//! the element's number type (the type check IS the method called), stores
//! the bytes at the cursor and moves it on. Anything else (another number
//! type, a string, a cursor at the end of the zeroed output) is a [`Miss`]:
//! the caller (`spec.rs`) then encodes that element through the tape as
//! before, so the bytes and the errors are the same.
//!
//! The elements are stored into a fixed-size [`Block`] and appended to the
//! output from there: the bounds check of a store is then one compare with
//! a constant, and the state of the loop (block, cursor, layout) is the
//! sequence's own, in registers, where the output vector reached through
//! the pass's shared state would be reloaded after every store.

use std::sync::Arc;

use serde::ser::{self, Impossible, Serialize};

use crate::format::dtype::at_least_one;
// An element the fast mode does not take (never shown): the element
// encoder's fast-pass miss too, so both fast paths fail the same cheap way.
use crate::ser::{Found, Miss};

use crate::format::dtype::Plain;

/// What one element of a flat array is: a bare number (`Vec<f64>`), a
/// tuple of numbers of one type (`Vec<[f32; 3]>`, serialized with
/// `serialize_tuple`), or a struct whose fields are such numbers or tuples
/// in dtype order, filling the element with no gap.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Layout {
    /// No element is flat: every element misses.
    None,
    /// A bare number.
    Bare(Plain),
    /// A tuple of numbers of this type, and its bytes.
    Tuple(Plain, usize),
    /// A record's fields (shared: a layout is copied into each sequence's
    /// fast mode, and the walk's frames stay small), and its bytes.
    Record(Arc<[FlatField]>, usize),
}

/// A field of a record [`Layout`]: its key and its numbers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct FlatField {
    /// Address and length of the `&'static str` key seen to name the field
    /// (the same text at the same address: one compare per field).
    key: (usize, usize),
    num: Plain,
    /// 0: one bare number; `n` > 0: a tuple of `n` numbers.
    tuple: usize,
    /// Bytes of the field.
    size: usize,
}

impl FlatField {
    /// A field named by the key at `key` (address, length): a bare number,
    /// or (`tuple` > 0) a tuple of `tuple` numbers.
    pub(crate) fn new(key: (usize, usize), num: Plain, tuple: usize) -> FlatField {
        FlatField {
            key,
            num,
            tuple,
            size: num.size().saturating_mul(tuple.max(1)),
        }
    }
}

impl Layout {
    /// A record of these fields, back to back; `None` for none.
    pub(crate) fn record(fields: Vec<FlatField>) -> Option<Layout> {
        if fields.is_empty() {
            return None;
        }
        let itemsize = fields
            .iter()
            .fold(0, |n: usize, f| n.saturating_add(f.size));
        Some(Layout::Record(fields.into(), itemsize))
    }

    /// A tuple of `n` numbers of type `num`.
    pub(crate) fn tuple(num: Plain, n: usize) -> Layout {
        Layout::Tuple(num, num.size().saturating_mul(n))
    }

    /// Bytes of one element.
    #[inline]
    pub(crate) fn itemsize(&self) -> usize {
        match *self {
            Layout::None => 0,
            Layout::Bare(num) => num.size(),
            Layout::Tuple(_, size) | Layout::Record(_, size) => size,
        }
    }
}

/// Bytes of the block the fast mode stores into before they are appended
/// to the output: small enough to stay in the L1 cache, large enough that
/// appending it (a `memcpy`, vector stores at this size) is rare.
pub(crate) const BLOCK: usize = 2 * 1024;

/// The fast mode's block.
pub(crate) type Block = [u8; BLOCK];

/// Largest element of the fast mode: a tuple element is stored through a
/// view of this many bytes at the cursor (so a tuple needs this much room
/// in the block, whatever its size).
pub(crate) const WINDOW: usize = BLOCK / 8;

type Window = [u8; WINDOW];

/// The fast mode's state: elements are stored back to back into a
/// fixed-size block (so that the bounds check is one compare with a
/// constant), from which they are appended to the output when it is full,
/// when an element misses and when the sequence ends.
#[derive(Debug)]
pub(crate) struct Flat<'b> {
    /// Lent to the levels below while this sequence is not in the fast
    /// mode.
    pub(crate) block: &'b mut Block,
    /// End of the stored elements in `block`.
    pos: usize,
    layout: Layout,
    /// Per number type (indexed by its discriminant, a constant at every
    /// call site, so each entry stays a register; `F64` is the last), the
    /// first position an element of that type does not fit at: 0 for all
    /// but the layout's bare type.
    ends: [u16; Plain::F64 as usize + 1],
}

impl<'b> Flat<'b> {
    /// An empty state: every element misses until [`resume`](Flat::resume).
    #[inline]
    pub(crate) fn new(block: &'b mut Block) -> Flat<'b> {
        Flat {
            block,
            pos: 0,
            layout: Layout::None,
            ends: Default::default(),
        }
    }

    /// Takes elements of this layout, into the empty block.
    #[inline]
    pub(crate) fn resume(&mut self, layout: Layout) {
        self.pos = 0;
        self.ends = Default::default();
        if let Layout::Bare(num) = layout {
            if let Some(end) = self.ends.get_mut(num as usize) {
                *end =
                    u16::try_from(BLOCK.saturating_sub(num.size()).saturating_add(1)).unwrap_or(0);
            }
        }
        self.layout = layout;
    }

    /// Stops taking elements: the stored bytes (whole elements, to append
    /// to the output) and their number. Every element misses until the
    /// next [`resume`](Flat::resume).
    #[inline]
    pub(crate) fn suspend(&mut self) -> (&[u8], u64) {
        let layout = std::mem::replace(&mut self.layout, Layout::None);
        self.ends = Default::default();
        self.take(layout.itemsize())
    }

    /// Empties the full block: its bytes (to append to the output) and the
    /// number of elements in them; the layout stays.
    #[inline]
    pub(crate) fn drain(&mut self) -> (&[u8], u64) {
        self.take(self.layout.itemsize())
    }

    /// Empties the block of its elements of `itemsize` bytes.
    #[inline]
    fn take(&mut self, itemsize: usize) -> (&[u8], u64) {
        let stored = self.pos / at_least_one(itemsize);
        let pos = std::mem::take(&mut self.pos);
        (self.block.get(..pos).unwrap_or_default(), stored as u64)
    }

    /// Whether any element surely fits in the block: a window (the most
    /// an element may need) is free. (A bare number may fit past that: a
    /// miss there drains the block first, the same bytes in the end.)
    #[inline]
    pub(crate) fn room(&self) -> bool {
        self.pos.saturating_add(WINDOW) <= BLOCK
    }

    /// Stores one element; `Err(Miss)` leaves the cursor where it was (the
    /// element's bytes may be partly written past it).
    #[inline(always)]
    pub(crate) fn put<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Miss> {
        value.serialize(Leaf(self))
    }

    #[inline(always)]
    fn store_bare<const N: usize>(&mut self, num: Plain, bytes: [u8; N]) -> Result<(), Miss> {
        // the type check folded into the bounds check: `ends` (the first
        // position an element does not fit at) is 0 for another type. It
        // depends on the layout only, so the compiler computes it once per
        // loop, and the one compare per element also proves the store in
        // bounds.
        let end = self.ends.get(num as usize).copied().unwrap_or(0);
        let ends = usize::from(end).min(BLOCK.saturating_sub(N).saturating_add(1));
        let pos = self.pos;
        if pos >= ends {
            return Err(Miss);
        }
        let Some(d) = self
            .block
            .get_mut(pos..)
            .and_then(|rest| rest.first_chunk_mut::<N>())
        else {
            return Err(Miss);
        };
        *d = bytes;
        // within the block, so no overflow
        self.pos = pos.wrapping_add(N);
        Ok(())
    }
}

/// Where the numbers of one element of the fast mode go: the block (the
/// element stored) or a tuple element's window. One serializer, [`Leaf`], runs over each; which one is known at
/// compile time, so each loop is as if written for it alone.
trait Store: Sized {
    /// What a tuple element's numbers are handed to.
    type Tuple: ser::SerializeTuple<Ok = (), Error = Miss>;
    /// What a record element's fields are handed to.
    type Record: ser::SerializeStruct<Ok = (), Error = Miss>;
    /// Takes one number of type `num`, its little-endian bytes.
    fn store<const N: usize>(self, num: Plain, bytes: [u8; N]) -> Result<(), Miss>;
    /// A tuple element (a miss where the layout has none).
    fn tuple(self) -> Result<Self::Tuple, Miss> {
        Err(Miss)
    }
    /// A record element (a miss where the layout has none).
    fn record(self) -> Result<Self::Record, Miss> {
        Err(Miss)
    }
}

/// Serializes one element (or one number of a tuple element) into its
/// [`Store`]: the one method of the element's number type stores it; `Some`
/// and plain newtypes are transparent (as everywhere in the write path);
/// anything else is a [`Miss`].
struct Leaf<S>(S);

impl<S> Leaf<S> {
    fn refuse(self, _: Found) -> Miss {
        Miss
    }

    /// The crate's special newtypes are other dtypes.
    fn special(self) -> Result<(), Miss> {
        Err(Miss)
    }

    #[inline(always)]
    fn store<const N: usize>(self, num: Plain, bytes: [u8; N]) -> Result<(), Miss>
    where
        S: Store,
    {
        self.0.store(num, bytes)
    }
}

impl<S: Store> ser::Serializer for Leaf<S> {
    serializer_types!((), Miss; _ (S::Tuple) _ _ _ (S::Record) _);
    crate::ser::collect_seq!();

    plain_number_methods!(#[inline(always)] store -> Result<(), Miss>);
    refuse!(serialize_i128 serialize_u128 serialize_char serialize_str serialize_bytes
        serialize_none serialize_unit serialize_unit_struct serialize_unit_variant
        serialize_newtype_variant);

    through!(some newtype(special));
    /// A tuple element: the tape's subarray (the element encoder takes a
    /// tuple of any announced length along it, element by element).
    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<S::Tuple, Miss> {
        self.0.tuple()
    }
    /// A record element: its fields in the layout's order, each checked
    /// by its key's address (see [`Record`]).
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<S::Record, Miss> {
        self.0.record()
    }
}

/// A whole element, into the block.
impl<'a, 'b> Store for &'a mut Flat<'b> {
    type Tuple = Tuple<'a>;
    type Record = Record<'a>;
    #[inline(always)]
    fn store<const N: usize>(self, num: Plain, bytes: [u8; N]) -> Result<(), Miss> {
        self.store_bare(num, bytes)
    }
    #[inline]
    fn tuple(self) -> Result<Tuple<'a>, Miss> {
        let Flat {
            block, pos, layout, ..
        } = self;
        let (&Layout::Tuple(num, len), Some(window)) = (&*layout, window_at(block, *pos)) else {
            return Err(Miss);
        };
        Ok(Tuple {
            window,
            at: 0,
            stop: len,
            num,
            cursor: pos,
            len,
        })
    }
    #[inline]
    fn record(self) -> Result<Record<'a>, Miss> {
        let Flat {
            block, pos, layout, ..
        } = self;
        let (Layout::Record(fields, itemsize), Some(window)) = (&*layout, window_at(block, *pos))
        else {
            return Err(Miss);
        };
        Ok(Record {
            window,
            at: 0,
            fields: fields.iter(),
            pos,
            itemsize: *itemsize,
        })
    }
}

/// The fixed-size view of the block at the cursor `pos` (`None` never
/// happens: [`Flat::room`] kept a window free).
#[inline(always)]
fn window_at(block: &mut Block, pos: usize) -> Option<&mut Window> {
    block
        .get_mut(pos..)
        .and_then(|rest| rest.first_chunk_mut::<WINDOW>())
}

/// A tuple (a whole element, or a record's field): its numbers go one
/// after the other into `window`, a fixed-size view of the block at the
/// element (the offsets of an unrolled array are then constants within
/// it: no bounds check per number), from `at`; complete when exactly `len`
/// bytes were written, which then move `cursor` on.
struct Tuple<'a> {
    window: &'a mut Window,
    /// Where the next number goes in the window, and where the last ends.
    at: usize,
    stop: usize,
    num: Plain,
    /// The block's cursor (a whole element) or the record's (a field).
    cursor: &'a mut usize,
    len: usize,
}

/// A record element: each field, in the layout's order and named by the
/// key seen in the first element (the same address), goes into `window`
/// after the one before; complete when every field came.
struct Record<'a> {
    window: &'a mut Window,
    /// Bytes of the fields written so far.
    at: usize,
    /// The fields still to come.
    fields: std::slice::Iter<'a, FlatField>,
    pos: &'a mut usize,
    itemsize: usize,
}

impl ser::SerializeStruct for Record<'_> {
    type Ok = ();
    type Error = Miss;
    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Miss> {
        match self.fields.next() {
            Some(f) if f.key == (key.as_ptr().addr(), key.len()) => {
                value.serialize(Leaf((self, f)))
            }
            _ => Err(Miss),
        }
    }
    /// A field left out: the element encoder decides what that means.
    fn skip_field(&mut self, _: &'static str) -> Result<(), Miss> {
        Err(Miss)
    }
    #[inline(always)]
    fn end(self) -> Result<(), Miss> {
        if self.fields.len() != 0 {
            return Err(Miss);
        }
        // the element was inside the block, so no overflow
        *self.pos = self.pos.wrapping_add(self.itemsize);
        Ok(())
    }
}

/// Stores a number's `bytes` into `window` at `at`, moving `at` past them.
#[inline(always)]
fn put_at<const N: usize>(window: &mut Window, at: &mut usize, bytes: [u8; N]) -> Result<(), Miss> {
    let Some(d) = window
        .get_mut(*at..)
        .and_then(|rest| rest.first_chunk_mut::<N>())
    else {
        return Err(Miss);
    };
    *d = bytes;
    // within the window: no overflow
    *at = at.wrapping_add(N);
    Ok(())
}

/// One field of a record element (the field being written): a bare
/// number, or a tuple of them.
impl<'a, 'r> Store for (&'a mut Record<'r>, &'a FlatField) {
    type Tuple = Tuple<'a>;
    type Record = Impossible<(), Miss>;
    #[inline(always)]
    fn store<const N: usize>(self, num: Plain, bytes: [u8; N]) -> Result<(), Miss> {
        let (rec, field) = self;
        if field.tuple != 0 || field.num != num {
            return Err(Miss);
        }
        put_at(rec.window, &mut rec.at, bytes)
    }
    #[inline]
    fn tuple(self) -> Result<Tuple<'a>, Miss> {
        let (rec, field) = self;
        if field.tuple == 0 {
            return Err(Miss);
        }
        Ok(Tuple {
            window: rec.window,
            at: rec.at,
            // a record's fields end within its window
            stop: rec.at.wrapping_add(field.size),
            num: field.num,
            cursor: &mut rec.at,
            len: field.size,
        })
    }
}

/// One number of a tuple element, into its window.
impl Store for &mut Tuple<'_> {
    type Tuple = Impossible<(), Miss>;
    type Record = Impossible<(), Miss>;
    #[inline(always)]
    fn store<const N: usize>(self, num: Plain, bytes: [u8; N]) -> Result<(), Miss> {
        if self.num != num {
            return Err(Miss);
        }
        put_at(self.window, &mut self.at, bytes)
    }
}

impl ser::SerializeTuple for Tuple<'_> {
    type Ok = ();
    type Error = Miss;
    #[inline(always)]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Miss> {
        value.serialize(Leaf(self))
    }
    #[inline(always)]
    fn end(self) -> Result<(), Miss> {
        // within the window: no overflow
        if self.at != self.stop {
            return Err(Miss);
        }
        *self.cursor = self.cursor.wrapping_add(self.len);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
