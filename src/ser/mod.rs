//! The write path: values -> array shape, dtype and data bytes.
//!
//! ```text
//! value ─► writer.rs: to_vec, to_writer, to_path, npz members (npy_writer.rs: NpyWriter)
//!  │
//!  ├─ inferred dtype, C order: one walk (spec.rs, Spec over the outer axes)
//!  │    first element ─► infer.rs (Infer) ─► Dtype ─► encode.rs (DtypeTree)
//!  │    each element  ─► flat.rs (Leaf: plain numbers, or records of them, into a block)
//!  │                     or DtypeTree::encode (encode.rs: fast pass, a miss ─► exact pass)
//!  │    not uniform   ─► the exact passes below
//!  │
//!  └─ exact passes: plan() ─► infer.rs (Infer) or walk.rs (Count) ─► WritePlan
//!       then spec.rs again with that dtype and shape (encode_planned)
//!            ─► DtypeTree::encode per element (pick.rs: one field, npz columns)
//! ```
//!
//! Pass 1 ([`plan`]) decides the header: without a given dtype the value is
//! inferred (`infer.rs`); with one, only the shape is measured (`walk.rs`,
//! [`walk::Count`]). Pass 2 is the walker of the single pass again, given
//! that dtype and shape ([`spec::encode_planned`]): it encodes each element
//! into its bytes (`encode.rs`, through the dtype compiled once) in the
//! same flavours, and names where a value fails;
//! Fortran order is C order reordered (`nd.rs`). Inferred dtypes first try a single
//! speculative pass (`spec.rs`; arrays of plain numbers, and of records
//! of them, through its fast mode, `flat.rs`; `par_to_vec`'s chunks too). Where that pass's bytes go is its flavour
//! ([`spec::Output`]: all in memory for `to_vec`, chunks kept up to 4 MiB
//! by `to_writer`'s checking pass, written as they come by `Direct`; the
//! flavour learns with the dtype whether the first element fixed the
//! layout, so that `to_writer` can write in one pass);
//! buffering and I/O live in the flavours, the serializers never see them,
//! and a flavour's error is the pass's `Err`. Beside them: `probe.rs` looks
//! at a value's top (the inner value of a special newtype, classified once
//! in `crate::kinds::special`; a map key as a name; what an npz value is; an n-d
//! array's parts),
//! `kinds/convert.rs` the exact numeric conversions. Every serializer refuses by
//! default ([`refuse!`]): it lists what it does not take and words a
//! [`Found`] once; [`through!`] and [`elements!`] write the methods that
//! only look through a wrapper or hand on an element.
//!
//! A new write path is a flavour or a sink of these walkers, not a new
//! walker. An n-d array (`NdArray`, `NdView`, the
//! [`Special::NdArray`](crate::kinds::special::Special) newtype over `{shape,
//! order, data}`) shows how: `probe.rs` reads its parts for every serializer
//! ([`probe::parts`], one more look of the same serializer, `probe::Look`) and `nd.rs` keeps
//! their layout; at the top of a
//! write the speculative pass walks its flat data as the outer axes and
//! puts the shape and order into the header; as an element (a record's
//! field, or the whole array on the exact path) `infer.rs` and `encode.rs`
//! take it as a subarray of its shape in C order.
//!
//! Adding a scalar kind given as its bits (a float8 in `V1`) is one entry
//! of [`special::BITS`](crate::kinds::special::BITS); a new numpy type
//! code, on the write side:
//! 1. `dtype.rs`: its [`ScalarType`] (and `descr.rs` for its type string);
//! 2. `encode.rs`: how `Enc` writes it into the dtype (the one encoder of
//!    every pass, given dtypes and conversions included): its general rule
//!    in `Slot`, and optionally a node tag for a fast path.
//!
//! The walkers, the fast mode and the drivers need no change.

// Counts, lengths and sizes here grow with the values written: every
// operation is checked or proven bounded (ser/*.rs too).
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

/// The serializer methods of the plain numbers (`bool` as one byte), each
/// handing its [`Plain`](crate::format::dtype::Plain) type and little-endian bytes
/// to `self.$store`: the one list behind the write side's fast paths (the
/// element encoder's fast pass, the flat arrays and their check) and the
/// number leaves of inference and the shape count.
macro_rules! plain_number_methods {
    (#[$attr:meta] $store:ident -> $ret:ty) => {
        #[$attr]
        fn serialize_bool(self, v: bool) -> $ret {
            self.$store(crate::format::dtype::Plain::Bool, [u8::from(v)])
        }
        plain_number_methods!(@num $attr, $store, $ret;
            serialize_i8(i8) => I8;
            serialize_i16(i16) => I16;
            serialize_i32(i32) => I32;
            serialize_i64(i64) => I64;
            serialize_u8(u8) => U8;
            serialize_u16(u16) => U16;
            serialize_u32(u32) => U32;
            serialize_u64(u64) => U64;
            serialize_f32(f32) => F32;
            serialize_f64(f64) => F64;
        );
    };
    (@num $attr:meta, $store:ident, $ret:ty; $($method:ident($ty:ty) => $num:ident;)*) => {$(
        #[$attr]
        fn $method(self, v: $ty) -> $ret {
            self.$store(crate::format::dtype::Plain::$num, v.to_le_bytes())
        }
    )*};
}

/// What a serializer was handed, in serde's data model: each method that
/// [`refuse!`] writes hands one to the serializer's `refuse`, which words
/// it in its own context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    Bool,
    /// Any integer (`i8` ... `u128`).
    Int,
    Float,
    Char,
    Str,
    Bytes,
    None,
    Unit,
    UnitStruct,
    /// The enum's name and the variant's, as serde gives them.
    UnitVariant(&'static str, &'static str),
    NewtypeVariant(&'static str, &'static str),
    Seq,
    Tuple,
    TupleStruct,
    TupleVariant(&'static str, &'static str),
    Map,
    Struct,
    StructVariant(&'static str, &'static str),
}

/// The refuse-by-default base of the crate's serializers: writes each
/// listed `serialize_*` method as `Err(self.refuse(found))`, so that a
/// serializer spells out only what it accepts and one `refuse(self, Found)
/// -> Self::Error` for the rest. `numbers` lists `bool` and the ten plain
/// numbers. The compound methods it refuses are those whose type
/// [`serializer_types!`] gives as `_`.
macro_rules! refuse {
    ($($method:ident)*) => {$($crate::ser::refuse!(@ $method);)*};
    (@ numbers) => {
        $crate::ser::refuse!(@fn serialize_bool(_: bool) Bool);
        $crate::ser::refuse!(@fn serialize_f32(_: f32) Float);
        $crate::ser::refuse!(@fn serialize_f64(_: f64) Float);
        $crate::ser::refuse!(@ints serialize_i8(i8) serialize_i16(i16) serialize_i32(i32)
            serialize_i64(i64) serialize_u8(u8) serialize_u16(u16) serialize_u32(u32)
            serialize_u64(u64));
    };
    (@ints $($method:ident($ty:ty))*) => {$($crate::ser::refuse!(@fn $method(_: $ty) Int);)*};
    (@ serialize_i128) => { $crate::ser::refuse!(@fn serialize_i128(_: i128) Int); };
    (@ serialize_u128) => { $crate::ser::refuse!(@fn serialize_u128(_: u128) Int); };
    (@ serialize_char) => { $crate::ser::refuse!(@fn serialize_char(_: char) Char); };
    (@ serialize_str) => { $crate::ser::refuse!(@fn serialize_str(_: &str) Str); };
    (@ serialize_bytes) => { $crate::ser::refuse!(@fn serialize_bytes(_: &[u8]) Bytes); };
    (@ serialize_none) => { $crate::ser::refuse!(@fn serialize_none() None); };
    (@ serialize_unit) => { $crate::ser::refuse!(@fn serialize_unit() Unit); };
    (@ serialize_unit_struct) => {
        $crate::ser::refuse!(@fn serialize_unit_struct(_: &'static str) UnitStruct);
    };
    (@ serialize_unit_variant) => {
        $crate::ser::refuse!(@fn serialize_unit_variant(n: &'static str, _: u32, v: &'static str)
            UnitVariant(n, v));
    };
    (@ serialize_newtype_variant) => {
        $crate::ser::refuse!(@fn serialize_newtype_variant<T>(
            n: &'static str, _: u32, v: &'static str, _: &T
        ) -> Ok NewtypeVariant(n, v));
    };
    // a compound method (`-> SerializeSeq`) or one returning `Self::Ok`,
    // generic over a value's type `<T>` when it takes one
    (@fn $method:ident $(<$g:ident>)? ($($p:tt: $t:ty),*) -> $ret:ident
        $found:ident $(($($f:ident),*))?) => {
        fn $method$(<$g: ?Sized + ::serde::Serialize>)?(
            self,
            $($p: $t),*
        ) -> ::core::result::Result<Self::$ret, Self::Error> {
            Err(self.refuse($crate::ser::Found::$found $(($($f),*))?))
        }
    };
    (@fn $method:ident($($arg:tt)*) $($found:tt)+) => {
        $crate::ser::refuse!(@fn $method($($arg)*) -> Ok $($found)+);
    };
}
pub(crate) use refuse;

/// The methods of a serializer that look through a wrapper: `some` writes
/// `serialize_some`, `newtype` `serialize_newtype_struct`, each as the
/// inner value serialized by the same serializer; `newtype(special)`
/// takes a special newtype (`special::is_element`) as `self.special()`.
macro_rules! through {
    ($($what:ident $(($element:ident))?)*) => {$($crate::ser::through!(@ $what $($element)?);)*};
    (@ some) => {
        #[inline]
        fn serialize_some<T: ?Sized + ::serde::Serialize>(
            self,
            value: &T,
        ) -> ::core::result::Result<Self::Ok, Self::Error> {
            value.serialize(self)
        }
    };
    // a special newtype is `self.$element()`, any other is looked through
    (@ newtype $($element:ident)?) => {
        #[inline]
        fn serialize_newtype_struct<T: ?Sized + ::serde::Serialize>(
            self,
            name: &'static str,
            value: &T,
        ) -> ::core::result::Result<Self::Ok, Self::Error> {
            let _ = name;
            $(if $crate::kinds::special::is_element(name) {
                return self.$element();
            })?
            value.serialize(self)
        }
    };
}
pub(crate) use through;

/// Serializer methods that take a value without looking at it:
/// `method(types) => what` is `self.leaf(what)` (what inference knows
/// of a scalar).
macro_rules! leaves {
    ($($method:ident($($ty:ty),*) => $what:expr;)*) => {$(
        fn $method(self, $(_: $ty),*) -> Result<()> {
            self.leaf($what)
        }
    )*};
}

/// The compounds of a serializer's sequence or record state: for each
/// listed trait (`SerializeSeq`, `SerializeTuple`, `SerializeTupleStruct`)
/// an element is `self.element(value)`, for `SerializeStruct` a field
/// `self.field(key, value)`; the end is `self.finish()`.
/// `impl[generics] Type => Ok, Error: Traits`.
macro_rules! elements {
    (impl $gen:tt $ty:ty => $ok:ty, $err:ty: $($tr:ident)*) => {$(
        $crate::ser::elements!(@impl $gen $ty, $ok, $err, $tr);
    )*};
    (@impl [$($gen:tt)*] $ty:ty, $ok:ty, $err:ty, $tr:ident) => {
        impl<$($gen)*> ::serde::ser::$tr for $ty {
            type Ok = $ok;
            type Error = $err;
            $crate::ser::elements!(@ $tr $err);
            #[inline]
            fn end(self) -> ::core::result::Result<$ok, $err> {
                self.finish()
            }
        }
    };
    (@ SerializeStruct $err:ty) => {
        $crate::ser::elements!(@fn serialize_field(key: &'static str) field $err);
    };
    (@ SerializeTupleStruct $err:ty) => {
        $crate::ser::elements!(@fn serialize_field() element $err);
    };
    (@fn $method:ident($($key:ident: $kt:ty)?) $call:ident $err:ty) => {
        #[inline]
        fn $method<T: ?Sized + ::serde::Serialize>(
            &mut self,
            $($key: $kt,)?
            value: &T,
        ) -> ::core::result::Result<(), $err> {
            self.$call($($key,)? value)
        }
    };
    (@ $tr:ident $err:ty) => {
        $crate::ser::elements!(@fn serialize_element() element $err);
    };
}
pub(crate) use elements;

/// The associated types of a serializer: `Ok`, `Error`, then the seven
/// compound types in serde's order (seq, tuple, tuple struct, tuple
/// variant, map, struct, struct variant), each `(Type)`, `[Self]` (the
/// serializer is its own state: its method, written here, is `Ok(self)`)
/// or `_` for `Impossible`, whose method is written here as [`refuse!`]
/// writes the others (`self.refuse(Found::Seq)`, ...). Every serializer of the write path
/// takes values in their binary form (`is_human_readable` is `false`),
/// except one that ends its list with `human_readable` (serde's default).
macro_rules! serializer_types {
    ($ok:ty, $err:ty; $seq:tt $tuple:tt $ts:tt $tv:tt $map:tt $st:tt $sv:tt $($hr:ident)?) => {
        type Ok = $ok;
        type Error = $err;
        $crate::ser::serializer_types!(@ $seq SerializeSeq serialize_seq(_: Option<usize>) Seq);
        $crate::ser::serializer_types!(@ $tuple SerializeTuple serialize_tuple(_: usize) Tuple);
        $crate::ser::serializer_types!(@ $ts SerializeTupleStruct
            serialize_tuple_struct(_: &'static str, _: usize) TupleStruct);
        $crate::ser::serializer_types!(@ $tv SerializeTupleVariant
            serialize_tuple_variant(n: &'static str, _: u32, v: &'static str, _: usize)
            TupleVariant(n, v));
        $crate::ser::serializer_types!(@ $map SerializeMap serialize_map(_: Option<usize>) Map);
        $crate::ser::serializer_types!(@ $st SerializeStruct
            serialize_struct(_: &'static str, _: usize) Struct);
        $crate::ser::serializer_types!(@ $sv SerializeStructVariant
            serialize_struct_variant(n: &'static str, _: u32, v: &'static str, _: usize)
            StructVariant(n, v));
        $crate::ser::serializer_types!(@binary $($hr)?);
    };
    // `_`: `Impossible`, its method refused
    (@ _ $assoc:ident $method:ident $args:tt $($found:tt)+) => {
        type $assoc = ::serde::ser::Impossible<Self::Ok, Self::Error>;
        $crate::ser::refuse!(@fn $method $args -> $assoc $($found)+);
    };
    (@ ($t:ty) $assoc:ident $($rest:tt)*) => {
        type $assoc = $t;
    };
    // `[Self]`: the serializer is its own state there
    (@ [Self] $assoc:ident $method:ident ($($p:tt: $t:ty),*) $($found:tt)+) => {
        type $assoc = Self;
        fn $method(self, $($p: $t),*) -> ::core::result::Result<Self, Self::Error> {
            Ok(self)
        }
    };
    (@binary human_readable) => {};
    (@binary) => {
        fn is_human_readable(&self) -> bool {
            false
        }
    };
}
pub(crate) use serializer_types;

/// `collect_seq` (a `Vec`, a slice) as a plain loop over the items:
/// serde's default goes through `try_for_each` and a closure, three
/// functions per serializer and element type where this is one. The
/// length hint is serde's: the exact length when the iterator knows it.
macro_rules! collect_seq {
    () => {
        fn collect_seq<I>(self, iter: I) -> ::core::result::Result<Self::Ok, Self::Error>
        where
            I: IntoIterator,
            <I as IntoIterator>::Item: ::serde::Serialize,
        {
            let iter = iter.into_iter();
            let len = match iter.size_hint() {
                (lo, Some(hi)) if lo == hi => Some(lo),
                _ => None,
            };
            let mut seq = ::serde::Serializer::serialize_seq(self, len)?;
            for item in iter {
                ::serde::ser::SerializeSeq::serialize_element(&mut seq, &item)?;
            }
            ::serde::ser::SerializeSeq::end(seq)
        }
    };
}
pub(crate) use collect_seq;

/// A value behind `dyn`, for the walkers that run once per array or off
/// the fast paths (inference, the shape count, the looks at a value's
/// top): each takes it in a non-generic function, so a user's type is
/// instantiated once for all of them (its `serialize` through
/// `erased_serde`'s one serializer type), not once per walker. The serde
/// calls a walker sees are the same, in the same order; `&value` of any
/// `&T: Serialize` is one.
pub(crate) type DynValue<'a> = dyn erased_serde::Serialize + 'a;

pub(crate) mod encode;
pub(crate) mod flat;
pub(crate) mod infer;
pub(crate) mod nd;
pub(crate) mod pick;
pub(crate) mod probe;
pub(crate) mod spec;
pub(crate) mod walk;

use crate::error::{Error, Result};
use crate::format::dtype::{Dtype, ScalarType, ShapeRepr};
use crate::options::WriteOptions;

/// Deepest nesting of sequences and records accepted in written values.
/// numpy arrays have at most 64 dimensions; records nest a little deeper.
/// Checked while serializing, so a value nested thousands deep (a
/// `serde_json::Value`, a recursive type) is an error, not a stack overflow.
pub(crate) const MAX_WRITE_DEPTH: usize = 128;

impl Found {
    /// What no pass writes: enum variants with data have no numpy layout,
    /// nor has `None` (one message for every pass).
    pub(crate) fn refused(self) -> Error {
        match self {
            Found::None => Error::unsupported(
                "None (numpy has no missing value; an Option is written only as Some)",
            ),
            Found::UnitVariant(name, variant)
            | Found::NewtypeVariant(name, variant)
            | Found::TupleVariant(name, variant)
            | Found::StructVariant(name, variant) => Error::unsupported(format!(
                "enum variant {name}::{variant} carries data; only unit variants can be written (as strings)"
            )),
            other => Error::schema(format!("internal: {other:?} refused")),
        }
    }
}

/// A count of written elements past `u64::MAX`: refused rather than
/// wrapped (a shape or record index would silently restart at 0).
#[cold]
#[inline(never)]
pub(crate) fn too_many() -> Error {
    Error::limit("array size overflows")
}

/// The error with the place of element `i` of a sequence: a record of
/// the outermost sequence (`top`), an index of any below it.
#[cold]
pub(crate) fn at_element(e: Error, top: bool, i: u64) -> Error {
    if top { e.at_record(i) } else { e.at_index(i) }
}

/// Sets the length of axis `depth` (`dims` grown to it) to `n`, that of
/// a sequence along it: refused when the first sequence there had
/// another length.
#[inline]
pub(crate) fn axis_length(dims: &mut Vec<Option<u64>>, depth: usize, n: u64) -> Result<()> {
    if dims.len() <= depth {
        // depth <= MAX_WRITE_DEPTH (checked on the way down)
        dims.resize(depth.wrapping_add(1), None);
    }
    match dims.get_mut(depth) {
        Some(slot @ None) => *slot = Some(n),
        Some(Some(first)) if *first == n => {}
        Some(Some(first)) => return Err(ragged(n, "one", *first)),
        None => return Err(Error::schema("internal: shape depth")),
    }
    Ok(())
}

/// A sequence of length `found` where the first one (`whose`: "one", or
/// "record" when inference names the first record) has length `first`.
#[cold]
pub(crate) fn ragged(found: u64, whose: &str, first: u64) -> Error {
    Error::schema(format!(
        "sequence of length {found} where the first {whose} has length {first} (ragged sequences cannot form an array)"
    ))
}

/// The depth one level below `depth`: refused past [`MAX_WRITE_DEPTH`],
/// so a value nested thousands deep is an error, not a stack overflow.
#[inline]
pub(crate) fn deeper(depth: usize) -> Result<usize> {
    // depth <= MAX_WRITE_DEPTH (checked here on the way down)
    let depth = depth.wrapping_add(1);
    if depth > MAX_WRITE_DEPTH {
        return Err(Error::limit(format!(
            "values nested more than {MAX_WRITE_DEPTH} deep (sequences and records) cannot be \
             written as a numpy array"
        )));
    }
    Ok(depth)
}

/// Why a fast path (the element encoder's fast pass, the flat arrays)
/// stopped; never shown (the caller encodes the element again by the exact
/// pass, which gives the real error). A zero-sized error keeps the fast paths'
/// results a single flag.
#[derive(Debug)]
pub(crate) struct Miss;

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("value differs from the compiled dtype")
    }
}

impl std::error::Error for Miss {}

impl serde::ser::Error for Miss {
    #[cold]
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Miss
    }
}

/// Shape and element dtype of the array a value is written as.
#[derive(Debug)]
pub(crate) struct WritePlan {
    /// The header's descr (never a subarray: numpy folds those into the shape).
    pub dtype: Dtype,
    pub shape: Vec<u64>,
    /// The value is an n-d array (then `dtype` is a subarray of its shape
    /// and `shape` is empty: the array is one element, encoded in C order).
    pub nd: Option<nd::NdShape>,
}

impl WritePlan {
    /// The dtype compiled for pass 2, which converts the values into it.
    pub(crate) fn tape(&self) -> encode::DtypeTree {
        encode::DtypeTree::new(&self.dtype, false)
    }
}

/// The dtype the options give (aligned when they ask), which the values
/// are converted into; `None` when it is inferred.
pub(crate) fn given_dtype(opts: &WriteOptions) -> Result<Option<Dtype>> {
    match &opts.dtype {
        Some(given) if opts.align => given.aligned().map(Some),
        given => Ok(given.clone()),
    }
}

/// Pass 1: shape and dtype, the value behind `dyn` ([`DynValue`]): its
/// walks are the cold ones (inference, the shape count), so one
/// instantiation serves every type; values of a given dtype are fitted to
/// it ([`fit_shape`]).
pub(crate) fn plan(value: &DynValue<'_>, opts: &WriteOptions) -> Result<WritePlan> {
    let nd = probe::top(value);
    let Some(given) = given_dtype(opts)? else {
        let mut root = None;
        infer::Infer::new(&mut root, true).walk(value)?;
        let root = root.ok_or_else(|| Error::schema("internal: nothing inferred"))?;
        // an n-d array's plan is one element of its shape
        let (shape, elem) = match nd {
            Some(_) => (Vec::new(), &root),
            None => infer::split_shape(&root)?,
        };
        return Ok(WritePlan {
            dtype: infer::node_to_dtype(elem, opts.align)?,
            shape,
            nd,
        });
    };
    let (base, sub) = split_subarray(&given);
    let ty = base.as_scalar().map(|s| s.ty());
    // for `Sn`/`Vn`, a sequence of integers is one element (its bytes)
    let bytes = matches!(ty, Some(ScalarType::Bytes(_) | ScalarType::Void(_)));
    // of an n-d array, the element's own axes (`[f32; 3]`) are measured
    // as the flat data's inner axes
    let measured = walk::count(value, bytes, nd.is_some())?;
    let complex = matches!(ty, Some(ScalarType::Complex(_)));
    let (mut dtype, mut shape) = (base.clone(), fit_shape(measured, &sub, complex)?);
    if let Some(nd) = &nd {
        // one element: a subarray of the array's shape, then the element's
        // own axes (the measured ones after the flat data's)
        let inner = shape.get(1..).unwrap_or_default();
        let dims: Vec<u64> = nd.dims.iter().chain(inner).copied().collect();
        dtype = nd::subarray_of(dtype, &dims)?;
        shape = Vec::new();
    }
    Ok(WritePlan { dtype, shape, nd })
}

/// The array's shape: the measured one, which must end with the given
/// dtype's subarray dims (`sub`), its `[re, im]` axis dropped when the
/// dtype is `complex` and its values were given as pairs.
fn fit_shape(measured: walk::Shape, sub: &[u64], complex: bool) -> Result<Vec<u64>> {
    let mut dims: Vec<u64> = measured.dims.iter().map(|d| d.unwrap_or(0)).collect();
    if let Some((depth, _)) = measured.leaf.filter(|&(depth, _)| depth != dims.len()) {
        return Err(Error::schema(format!(
            "values nested {depth} sequences deep where others are nested {} deep",
            dims.len()
        )));
    }
    if complex && matches!(measured.leaf, Some((_, true))) {
        if dims.last() != Some(&2) {
            return Err(Error::schema(format!(
                "complex values must be given as [re, im] pairs, found shape {}",
                ShapeRepr(&dims)
            )));
        }
        dims.pop();
    }
    if measured.leaf.is_none() && !dims.ends_with(sub) {
        // No element at all (empty sequences): the subarray dims are the
        // inner axes, as numpy's `np.zeros(0, dtype=('<f8', (3,)))` has
        // shape (0, 3).
        dims.extend_from_slice(sub);
    }
    if !dims.ends_with(sub) {
        return Err(Error::schema(format!(
            "values of shape {} do not end with the dtype's subarray shape {}",
            ShapeRepr(&dims),
            ShapeRepr(sub)
        )));
    }
    Ok(dims)
}

/// `dt` without its subarray dims, and those dims (outermost first): the
/// header's descr and the axes it adds to the shape.
pub(crate) fn split_subarray(dt: &Dtype) -> (&Dtype, Vec<u64>) {
    let (mut base, mut dims) = (dt, Vec::new());
    while let Dtype::Subarray(b, d) = base {
        dims.extend_from_slice(d);
        base = b;
    }
    (base, dims)
}
