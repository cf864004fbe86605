//! NumPy's `.npy` and `.npz` files as a serde data format.
//!
//! Derive `Serialize`/`Deserialize` on your structs, write them with
//! [`to_writer`], and `np.load` opens a structured (record) array with the
//! right dtype. Read numpy's files with [`from_reader`]: record fields are
//! matched by name, so field order, extra columns, padding, titles, byte order
//! and integer width of the file do not need to match the struct. The bytes
//! written are the bytes `np.save` writes for the same array, header
//! included. Bad input gives an [`Error`] naming the record and field, never a
//! panic, a hang or an allocation the input does not pay for.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Particle { id: u64, pos: [f64; 3], mass: f32 }
//!
//! let ps = vec![Particle { id: 7, pos: [1.0, 2.0, 3.0], mass: 0.5 }];
//! let bytes = npy_serde::to_vec(&ps)?;            // np.load gives dtype
//! // [('id', '<u8'), ('pos', '<f8', (3,)), ('mass', '<f4')], shape (1,)
//! let back: Vec<Particle> = npy_serde::from_slice(&bytes)?;
//! assert_eq!(back, ps);
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! The [`tutorial`] walks through writing, reading numpy's files, streaming,
//! explicit dtypes, alignment, the special types and errors.
//!
//! # Type mapping
//!
//! | Rust (serde) | numpy dtype |
//! |---|---|
//! | `bool` | `\|b1` |
//! | `i8 i16 i32 i64`, `u8 u16 u32 u64` | `\|i1 <i2 <i4 <i8`, `\|u1 <u2 <u4 <u8` |
//! | `f32`, `f64`; `half::f16` (feature `half`) | `<f4`, `<f8`; `<f2` (bit-exact both ways) |
//! | `half::bf16` (feature `half`) | `\|V2`, the bits little-endian, as ml_dtypes saves bfloat16 (bit-exact both ways) |
//! | `Complex<f32/f64>` with `#[serde(with = "npy_serde::complex")]` | `<c8`, `<c16` (without `with`: a `(2,)` subarray of floats) |
//! | `char`; `String` / `&str` | `<U1`; `<Un`, n = longest value in characters (at least 1) |
//! | bytes (`serde_bytes`) | `\|Sn`, n = longest value (at least 1) |
//! | struct with named fields; string-keyed map with the same keys in every record | record, fields in declaration / key order |
//! | newtype struct | transparent |
//! | unit struct, `()` | zero-field record `[]` |
//! | nested struct | nested record `('sub', [...])` |
//! | `[T; N]`, homogeneous tuples, `Vec<T>` of one length in every record | subarray `('x', '<f8', (N,))`; nested arrays give `(16, 4)` |
//! | tuple struct, mixed tuple | record with fields `f0`, `f1`, … |
//! | [`Padding<N>`] | `('', '\|VN')` |
//! | unit-only enum | `<Un` holding the variant name |
//! | [`Datetime64<U>`] / [`Timedelta64<U>`] | `<M8[unit]` / `<m8[unit]`, the `i64` count; NaT is `i64::MIN`; read into a plain `i64`, an `M8`/`m8` field gives the count of units, the unit not checked (numpy's `.view('<i8')`) |
//! | [`Bulk<T>`], or `Vec<T>` with `#[serde(with = "npy_serde::bulk")]` ([`bulk`]) | as `Vec<T>` (`T`: numbers, `bool`, `[E; N]` of them); read in one piece when the file holds exactly `T` |
//! | [`NdArray<T>`] (reading) | any array: shape, [`Order`] as stored, flat data; plain numbers in one piece; `[E; N]` elements take the last axis |
//!
//! A sequence of records gives shape `(N,)`; a sequence of fixed-size arrays
//! of scalars (`Vec<[f64; 3]>`, equal-length `Vec<Vec<f64>>`) gives shape
//! `(N, 3)` with a scalar dtype, as numpy folds subarrays into the shape; a
//! single record or scalar gives shape `()`.
//!
//! Refused before anything is written, with the record and field: `None`,
//! `i128`/`u128`, maps with non-string keys, enum variants with data, ragged
//! `Vec` lengths, strings longer than a fixed width, `S`/`U` values ending in
//! NUL (numpy would strip it), records whose layout differs from the first.
//!
//! # Plain numeric arrays at memcpy speed
//!
//! serde's `Vec<T>` asks for one element at a time. [`Bulk<T>`] (or
//! `#[serde(with = "npy_serde::bulk")]` on a `Vec<T>` field) takes an array
//! of exactly `T`'s type in one piece instead (64-KiB chunks from a reader or
//! an `.npz` member), and reads anything else as `Vec<T>` would:
//!
//! ```
//! let xs: Vec<f64> = (0..1000).map(f64::from).collect();
//! let bytes = npy_serde::to_vec(&xs)?;
//! let back: npy_serde::Bulk<f64> = npy_serde::from_slice(&bytes)?;
//! assert_eq!(back.into_inner(), xs);
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! # serde attributes
//!
//! | attribute | effect here |
//! |---|---|
//! | `rename`, `rename_all` | the field name in the dtype, and the name matched on read |
//! | `skip` | neither written nor read (read gives `Default`) |
//! | `default` | a field missing from the file reads as its default |
//! | `alias` | also accepted as the field name on read; never written |
//! | `with` | the serde type that `with` produces decides the dtype; `with = "npy_serde::bulk"` on a `Vec` of numbers reads it in bulk |
//! | `transparent` | the struct is its field |
//! | `flatten` | arrives as a map and is written flat; [`Dtype::of`] refuses it |
//! | `untagged` enum | works when every record takes the same layout; otherwise "record N has fields … but record 0 has …" |
//! | internally tagged enum (`tag = "..."`) | a record with the tag as a `<Un` field first; same-layout rule |
//! | externally tagged enum with data | refused; unit-only enums are `<Un` strings |
//! | `deny_unknown_fields` | reading a file with more fields than the struct fails |
//!
//! The special types ([`complex`], [`Datetime64`], `half::f16`/`bf16`,
//! [`Padding`]) are recognised by the name of the newtype they serialize
//! as. Writing keeps them inside `flatten` and untagged enums. Reading them
//! there goes through serde's buffering (`deserialize_any`), which loses the
//! request, as with serde_json's `RawValue`: complex numbers still read (as
//! `[re, im]`), datetimes read their raw count *without unit conversion*,
//! and `half::f16`/`bf16` fail with an error. Keep such fields out of
//! `flatten` when the units differ.
//!
//! # Limits for untrusted input
//!
//! Every size in a header is checked against the bytes actually present
//! before anything is allocated. [`ReadOptions`] holds the limits:
//! `max_header_size` (10000 characters, numpy's default), `max_depth` (64
//! bracket levels of nested records and subarrays) and `max_elements` (2^32).
//!
//! # Features
//!
//! - `npz` (on by default): `.npz` archives, the [`npz`] module and
//!   [`ErrorKind::Zip`]; the only user of the zip dependency. Without it
//!   (`default-features = false`) the crate reads and writes `.npy` files
//!   with serde, erased-serde, num-complex and serde_bytes alone.
//! - `view` (on by default): [`view()`] and [`view_mut`], zero-copy
//!   [`NdView`]s of plain-number data in place (a memory map's), with
//!   bytemuck's checked casts; the only user of the bytemuck dependency.
//!   [`write_zeroed`] needs no feature.
//! - `memmap` (turns on `view`): the [`memmap`] module, memory-mapped files
//!   in one call as numpy's `open_memmap`: [`memmap::create`] (a file of
//!   zeros of any size, mapped to be filled), [`memmap::open`] and
//!   [`memmap::open_mut`], typed views of the map; the only user of the
//!   memmap2 dependency.
//! - `object_store` (turns on `npz`): the [`object_store`](mod@object_store)
//!   module, `.npy` and `.npz` files in object storage (S3, GCS, Azure,
//!   MinIO) through the `object_store` crate: headers, row ranges and npz
//!   members by ranged GETs, writes by PUT or multipart upload.
//! - `arrow` (turns on `npz`; needs Rust 1.88, the rest of the crate 1.85):
//!   the [`arrow`](mod@arrow) module, any `.npy` file as an Arrow
//!   `RecordBatch` built from its dtype, and a batch back as a file (byte
//!   for byte when it came from one).
//! - `half`: `half::f16` as `'<f2'`; `half::bf16` as `'|V2'` (ml_dtypes'
//!   bfloat16 files).
//! - `chrono`: `TryFrom` conversions between [`Datetime64`] /
//!   [`Timedelta64`] and chrono's `NaiveDateTime` / `NaiveDate` /
//!   `TimeDelta`, both ways, exact or an error (a `NaiveDate` from a whole
//!   day only, in any unit).
//! - `rayon`: reading and writing on every core, on rayon's global pool (or
//!   the caller's, entered with `install`): `par_from_slice`,
//!   `par_from_path`, `par_to_vec`, `par_to_writer`, `par_to_path` for
//!   `.npy` files; and with `npz`, [`npz::from_reader`] and
//!   [`npz::from_path`] into a struct (or a map) inflate its deflated
//!   members in parallel (serde gives the field list up front), with the
//!   same values and errors as without the feature and memory under about
//!   twice the output, and [`npz::NpzWriter`] with `compressed(true)`
//!   deflates each member's 256 KiB pieces in parallel, the archive's bytes
//!   the same at any thread count (see the [`npz`] module).
// Audited blocks are allowed in two places: src/huge_pages.rs (madvise,
// advice only) and src/memmap.rs (the map calls, feature `memmap`).
#![deny(unsafe_code)]
// Input decides sizes and offsets everywhere: no indexing that can panic, no
// unwrap, no explicit panic in library code (tests may).
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]
#![warn(missing_docs)]

mod array;
mod budget;
mod de;
mod error;
mod format;
mod huge_pages;
mod kinds;
mod npy;
mod options;
#[cfg(feature = "rayon")]
mod par;
mod schema;
mod ser;
pub mod tutorial;

#[cfg(feature = "arrow")]
pub mod arrow;
#[cfg(feature = "npz")]
pub mod npz;
#[cfg(feature = "object_store")]
pub mod object_store;

pub use crate::array::bulk;
pub use crate::array::bulk::Bulk;
#[cfg(feature = "memmap")]
pub use crate::array::memmap;
pub use crate::array::nd::{NdArray, NdView, NdViewMut, Order};
#[cfg(feature = "ndarray")]
pub use crate::array::ndarray;
#[cfg(feature = "view")]
pub use crate::array::view;
#[cfg(feature = "view")]
pub use crate::array::view::{view, view_mut};
pub use crate::array::zeroed::write_zeroed;
pub use crate::error::{Error, ErrorKind, Result, Segment};
pub use crate::format::dtype::{
    ByteOrder, DatetimeUnit, Dtype, Field, Record, RecordBuilder, Scalar, ScalarType, TimeUnit,
};
pub use crate::format::header::Header;
pub use crate::format::pyrepr::{PyBytes, PyStr};
pub use crate::kinds::complex;
pub use crate::kinds::datetime::{Datetime64, TimeUnitMarker, Timedelta64, unit};
pub use crate::kinds::long_double::LongDouble;
pub use crate::kinds::padding::Padding;
pub use crate::npy::atomic::{from_path, to_path};
pub use crate::npy::npy_writer::{Durable, NpyWriter};
pub use crate::npy::reader::{DeserializeRecords, NpyReader, from_reader, from_slice};
pub use crate::npy::rows::from_slice_rows;
#[cfg(feature = "view")]
pub use crate::npy::rows::view_rows;
pub use crate::npy::writer::{to_vec, to_writer};
pub use crate::options::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_ELEMENTS, DEFAULT_MAX_HEADER_SIZE, ReadOptions,
    UNTRUSTED_MAX_BYTES, UNTRUSTED_MAX_ELEMENTS, WriteOptions,
};
#[cfg(feature = "rayon")]
pub use crate::par::{par_from_path, par_from_slice, par_to_path, par_to_vec, par_to_writer};

/// The README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
