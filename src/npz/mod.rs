//! `.npz` archives: a zip of `.npy` members, one per key, as numpy's
//! `np.savez`, `np.savez_compressed` and `np.load` use them.
//!
//! Needs the `npz` feature (on by default).
//!
//! Two everyday shapes map onto an archive:
//!
//! * **Struct of arrays.** A struct (or a string-keyed map) becomes one member
//!   `<field>.npy` per field, holding exactly what [`crate::to_writer`]
//!   writes for that field. Reading takes the members back by name.
//! * **Columnar records.** A sequence of records (`Vec<Particle>`) becomes
//!   one member per record field, each of shape `(N,)` plus the field's
//!   subarray shape, the way pandas-minded code stores a table.
//!
//! [`to_writer`] and [`from_reader`] pick the shape from the value; the
//! [`NpzWriter`] and [`NpzReader`] give member-by-member control, including
//! streaming one member record by record.
//!
//! Member bytes are numpy's: every member's uncompressed bytes equal what
//! `np.save` writes for that array, members carry the zip64 local extra
//! numpy's `force_zip64` writes, the timestamp is numpy's fixed 1980-01-01,
//! and compressed archives use deflate level 6 like `np.savez_compressed`
//! (another level, 0 to 9, with [`NpzOptions::compression_level`],
//! [`NpzWriter::compression_level`] or, for one member,
//! [`NpzWriter::level_for_next`]).
//! The zip container is written as Python's zipfile writes it (local
//! headers, central directory and end records alike); a deflated member is
//! compressed in independent 256 KiB pieces that together are one standard
//! deflate stream, on every core with the `rayon` feature, the archive's
//! bytes the same whatever the thread count.
//!
//! Archives are untrusted input: sizes in the zip directory and member
//! headers are only claims, so nothing is allocated from them; each member
//! is read up to the size its npy header describes and then checked to end
//! there (which also makes the zip crate verify the CRC-32). Errors name the
//! member (`member 'pos': ...`).
//!
//! With feature `rayon`, [`from_reader`] and [`from_path`] into a struct
//! or a map inflate the deflated members it asks for on rayon's pool when
//! there are at least two (`np.savez_compressed` archives): their
//! compressed bytes are read one after another, inflated a member per
//! thread, and each decoded when serde asks for it, by the same code as
//! without the feature. The values and the errors are the same (a damaged
//! member, a bad CRC-32, a bomb: the same message, when that member's value
//! is asked for); inflating stops at the size the member's npy header
//! describes; a member's inflated bytes are freed as its value is decoded,
//! so memory stays under about twice the output.
//!
//! ```
//! use std::io::Cursor;
//! #[derive(serde::Deserialize, Debug, PartialEq)]
//! struct Snapshot { id: Vec<u64>, mass: Vec<f32> }
//! let mut w = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new())).compressed(true);
//! w.add("id", &(0..10_000u64).collect::<Vec<_>>())?;
//! w.add("mass", &vec![1.5f32; 10_000])?;
//! let mut file = w.finish()?;
//! file.set_position(0);
//! // both members inflate at once with `rayon`, one after the other without
//! let s: Snapshot = npy_serde::npz::from_reader(&mut file)?;
//! assert_eq!((s.id[9_999], s.mass.len()), (9_999, 10_000));
//!
//! // damaged data is reported at its member, as without `rayon`
//! let mut bytes = file.into_inner();
//! let at = bytes.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
//! bytes[at + 16] ^= 1; // the CRC-32 of `mass` in the central directory
//! let err = npy_serde::npz::from_reader::<Snapshot>(Cursor::new(bytes)).unwrap_err();
//! assert_eq!(err.to_string(), "member 'mass': bad CRC-32: the member's data is damaged");
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! ```
//! use std::io::Cursor;
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Star { id: u32, pos: [f64; 3] }
//! let stars = vec![Star { id: 1, pos: [0.0; 3] }, Star { id: 2, pos: [1.0; 3] }];
//!
//! // columns: np.load(f)["pos"] is a (2, 3) float array
//! let mut file = Cursor::new(Vec::new());
//! npy_serde::npz::to_writer(&mut file, &stars)?;
//! let mut z = npy_serde::npz::NpzReader::new(&mut file)?;
//! assert_eq!(z.names(), ["id", "pos"]);
//! assert_eq!(z.by_name::<Vec<u32>>("id")?, [1, 2]);
//! drop(z);
//! file.set_position(0);
//! assert_eq!(npy_serde::npz::from_reader::<Vec<Star>>(&mut file)?, stars);
//! # Ok::<(), npy_serde::Error>(())
//! ```

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

mod archive_de;
mod columns;
mod deflate;
pub(crate) mod extent;
#[cfg(feature = "rayon")]
mod inflate;
mod options;
mod range;
mod raw_member;
mod read;
mod split;
mod write;
mod zip_out;

use std::io::{Read, Seek, Write};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};

use crate::ser::Found;
use crate::ser::probe::{Stop, first_is_record, key_word, top_of};

pub use options::NpzOptions;
pub use range::DataRange;
pub use read::{MemberReader, NpzReader};
pub use write::{MemberWriter, NpzWriter};

/// The zip member name numpy uses for a key: `key + ".npy"`.
fn member_name(key: &str) -> String {
    format!("{key}.npy")
}

/// `level` if it is a deflate level (0 to 9), else the error every level
/// setter reports.
fn check_level(level: u32) -> Result<u32> {
    if level <= 9 {
        Ok(level)
    } else {
        Err(Error::unsupported(format!(
            "compression level {level}: deflate levels are 0 (stored blocks, the fastest) to \
             9 (the smallest); numpy's np.savez_compressed uses 6"
        )))
    }
}

/// The key of a member, numpy's `removesuffix('.npy')`.
fn key_of(member: &str) -> &str {
    member.strip_suffix(".npy").unwrap_or(member)
}

/// What an npz value is at its top, for the dispatch of [`add_value`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TopKind {
    None,
    Seq,
    /// A tuple or a tuple struct (serde writes `[T; N]` as a tuple too).
    Tuple,
    Struct,
    Map,
    /// Anything else, with serde's word for it.
    Other(&'static str),
}

/// The top-level kind of `value` (`Some` and plain newtypes are looked
/// through), without walking it.
fn top_kind<T: ?Sized + Serialize>(value: &T) -> TopKind {
    match top_of(value) {
        Stop::Is(found) => match found {
            Found::None => TopKind::None,
            Found::Seq => TopKind::Seq,
            Found::Tuple | Found::TupleStruct => TopKind::Tuple,
            Found::Map => TopKind::Map,
            Found::Struct => TopKind::Struct,
            Found::Char => TopKind::Other("char"),
            Found::UnitStruct => TopKind::Other("unit struct"),
            // the rest in the words of the messages about keys
            other => TopKind::Other(key_word(other)),
        },
        // a tuple, its first element looked at
        Stop::First(_) => TopKind::Tuple,
        Stop::Special => TopKind::Other("scalar"),
        Stop::Some | Stop::Custom(_) | Stop::Shape(_) | Stop::Data(_) => TopKind::Other("value"),
    }
}

/// Whether a field's value is `None` (then it writes no member).
fn is_none<T: ?Sized + Serialize>(value: &T) -> bool {
    top_kind(value) == TopKind::None
}

/// Writes a struct/map as one member per field, a sequence of records as
/// one member per column (what [`to_writer`] does).
fn add_value<W: Write + Seek, T: ?Sized + Serialize>(
    npz: &mut NpzWriter<W>,
    value: &T,
) -> Result<()> {
    let what = match top_kind(value) {
        TopKind::Seq => return columns::write_columns(npz, value),
        TopKind::Tuple if first_is_record(value) => return columns::write_columns(npz, value),
        TopKind::Struct | TopKind::Map | TopKind::Tuple => {
            return value.serialize(split::Split::new(npz));
        }
        TopKind::None => "None",
        TopKind::Other(what) => what,
    };
    Err(Error::schema(format!(
        "npz::to_writer needs a struct, a string-keyed map or a sequence of records, found {what}"
    )))
}

/// Writes `value` as an `.npz` archive (stored, like `np.savez`).
///
/// * A **struct** or **string-keyed map**: one member `<name>.npy` per field
///   or entry, holding exactly what [`crate::to_writer`] writes for it (an
///   array, a record array, a 0-d scalar or record). A `None` field writes
///   no member (and reads back as `None`).
/// * A **sequence of records**: columnar, one member per top-level record
///   field, of shape `(N,)` plus the field's subarray shape (a
///   `pos: [f64; 3]` field gives a `(N, 3)` `'<f8'` member). The record
///   dtype is inferred once; then, because zip members are written one after
///   another, the records are walked once per column, each record encoded
///   into a one-record scratch buffer and the column's bytes copied out.
///   Memory is bounded by one record, time is one pass per column. A tuple
///   or `[T; N]` of records is such a sequence too.
/// * Any other **tuple** or a **tuple struct**: members `arr_0`, `arr_1`, ...
///   in order, as `np.savez(f, a, b)` writes them (and [`from_reader`] reads
///   them back into a tuple). An element that is `None` is an error (it
///   would leave a gap in the positions).
///
/// ```
/// # use std::io::Cursor;
/// let mut file = Cursor::new(Vec::new());
/// npy_serde::npz::to_writer(&mut file, &(vec![1i32, 2, 3], vec![0.5f64, 1.5]))?;
/// let mut z = npy_serde::npz::NpzReader::new(&mut file)?;
/// assert_eq!(z.names(), ["arr_0", "arr_1"]);
/// drop(z);
/// file.set_position(0);
/// let (a, b): (Vec<i32>, Vec<f64>) = npy_serde::npz::from_reader(&mut file)?;
/// assert_eq!((a, b), (vec![1, 2, 3], vec![0.5, 1.5]));
/// # Ok::<(), npy_serde::Error>(())
/// ```
///
/// Use [`NpzOptions::to_writer`] for compression, [`NpzWriter`] for
/// write options or streaming.
///
/// ```
/// use std::io::Cursor;
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Snapshot { ids: Vec<u32>, mass: Vec<f64>, note: Option<String> }
/// let snap = Snapshot { ids: vec![1, 2], mass: vec![0.5, 1.5], note: None };
/// let mut file = Cursor::new(Vec::new());
/// npy_serde::npz::to_writer(&mut file, &snap)?;
/// let mut z = npy_serde::npz::NpzReader::new(&mut file)?;
/// assert_eq!(z.names(), ["ids", "mass"]);
/// file.set_position(0);
/// assert_eq!(npy_serde::npz::from_reader::<Snapshot>(&mut file)?, snap);
/// # Ok::<(), npy_serde::Error>(())
/// ```
///
/// Columnar:
///
/// ```
/// # use std::io::Cursor;
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Particle { id: u32, pos: [f64; 3] }
/// let ps = vec![Particle { id: 1, pos: [0.0; 3] }, Particle { id: 2, pos: [1.0; 3] }];
/// let mut file = Cursor::new(Vec::new());
/// npy_serde::npz::to_writer(&mut file, &ps)?;
/// let mut z = npy_serde::npz::NpzReader::new(&mut file)?;
/// assert_eq!(z.reader("pos")?.shape(), &[2, 3]);
/// drop(z);
/// file.set_position(0);
/// assert_eq!(npy_serde::npz::from_reader::<Vec<Particle>>(&mut file)?, ps);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn to_writer<W: Write + Seek, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    NpzOptions::new().to_writer(writer, value)
}

/// Reads an `.npz` archive into `T`, the mirror of [`to_writer`].
///
/// * A **struct** or **map** takes the members by key (member name without
///   one `.npy` suffix). Extra members are ignored; a missing one is serde's
///   `missing field` (listing the archive's members) unless the field is an
///   `Option` (then `None`) or has a default. A member that is not `.npy` (a
///   `readme.txt`) reads into a byte target (`serde_bytes::ByteBuf`) and is
///   an error for any other; one named `.npy` without the npy magic is an
///   error (numpy would return its bytes). Each member is decoded straight
///   from the zip stream; with feature `rayon`, deflated members are
///   inflated in parallel first (see the [module docs](self)), with the
///   same values and errors.
/// * A **sequence of records** zips the columns back together by field
///   name: record `i` is a map from each `.npy` member's key to element `i`
///   of that member. All members must have the same first axis. Memory: the
///   raw bytes of all columns are held while the records are decoded (so
///   about the decoded records plus the archive's uncompressed data).
///   Members that are not `.npy` are skipped.
///
/// ```
/// # use std::io::Cursor;
/// use std::collections::BTreeMap;
/// let mut file = Cursor::new(Vec::new());
/// let mut w = npy_serde::npz::NpzWriter::new(&mut file).compressed(true);
/// w.add("a", &[1i64, 2])?;
/// w.add("b", &2.5f64)?;
/// w.finish()?;
/// file.set_position(0);
/// let m: BTreeMap<String, serde_json::Value> = npy_serde::npz::from_reader(&mut file)?;
/// assert_eq!(m["a"], serde_json::json!([1, 2]));
/// assert_eq!(m["b"], serde_json::json!(2.5));
/// # Ok::<(), npy_serde::Error>(())
/// ```
///
/// # Untrusted archives
///
/// `from_reader` uses the default [`ReadOptions`](crate::ReadOptions),
/// meant for trusted files: a 33 KB archive can inflate to 32 MiB of
/// `'|u1'`, 1 GiB as `serde_json::Value`. For untrusted input, read with
/// [`ReadOptions::untrusted`](crate::ReadOptions::untrusted) (a byte budget
/// for the whole call, a small element limit) through
/// [`NpzReader::read_all`]:
///
/// ```
/// # use std::io::Cursor;
/// # let mut w = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new())).compressed(true);
/// # w.add("a", &vec![0u8; 40 << 20])?;
/// # let file = w.finish()?;
/// let opts = npy_serde::ReadOptions::untrusted();
/// let mut z = npy_serde::npz::NpzReader::with_options(file, opts)?;
/// let err = z.read_all::<serde_json::Value>().unwrap_err();
/// assert!(err.to_string().starts_with("member 'a': limit exceeded: "), "{err}");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn from_reader<T: DeserializeOwned>(reader: impl Read + Seek) -> Result<T> {
    NpzReader::new(reader)?.read_all()
}

impl<R: Read + Seek> NpzReader<R> {
    /// Reads the whole archive into `T` as [`from_reader`] does, with this
    /// reader's options ([`ReadOptions::max_bytes`](crate::ReadOptions::max_bytes)
    /// is charged for all the members read by this call together).
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// w.add("a", &[1u8, 2])?;
    /// w.add("b", &[3u8])?;
    /// let file = w.finish()?.into_inner();
    /// let opts = npy_serde::ReadOptions::untrusted().max_bytes(1000);
    /// let mut z = npy_serde::npz::NpzReader::with_options(std::io::Cursor::new(&file), opts)?;
    /// let m: BTreeMap<String, Vec<u8>> = z.read_all()?;
    /// assert_eq!(m["a"], [1, 2]);
    /// // into serde_json::Value: 64 bytes a value, the members' charges add up
    /// let opts = npy_serde::ReadOptions::untrusted().max_bytes(200);
    /// let mut z = npy_serde::npz::NpzReader::with_options(std::io::Cursor::new(&file), opts)?;
    /// let err = z.read_all::<serde_json::Value>().unwrap_err();
    /// assert!(err.to_string().contains("(with the 195 bytes this call has already read)"), "{err}");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn read_all<T: DeserializeOwned>(&mut self) -> Result<T> {
        self.budget.reset();
        T::deserialize(archive_de::ArchiveDe(self))
    }
}

/// Writes an `.npz` archive to `path` atomically: into a temporary file in
/// the same directory, synced, then renamed over `path`. A failure leaves
/// any previous file untouched and no temporary behind. Members are stored,
/// as [`to_writer`] writes them; [`NpzOptions::to_path`] deflates them.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Snapshot { time: f64, ids: Vec<u32> }
/// let dir = std::env::temp_dir().join(format!("npz-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("snapshot.npz");
/// let snap = Snapshot { time: 1.0, ids: vec![3, 4] };
/// npy_serde::npz::to_path(&path, &snap)?;
/// assert_eq!(npy_serde::npz::from_path::<Snapshot>(&path)?, snap);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn to_path<T: ?Sized + Serialize>(path: impl AsRef<std::path::Path>, value: &T) -> Result<()> {
    NpzOptions::new().to_path(path, value)
}

/// Reads an `.npz` archive from `path` (buffered), the mirror of [`to_path`].
///
/// ```
/// use std::collections::BTreeMap;
/// let dir = std::env::temp_dir().join(format!("npz-doc-from-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("m.npz");
/// let m = BTreeMap::from([("a".to_string(), vec![1.0f64, 2.0]), ("b".to_string(), vec![3.0])]);
/// npy_serde::npz::to_path(&path, &m)?;
/// let back: BTreeMap<String, Vec<f64>> = npy_serde::npz::from_path(&path)?;
/// assert_eq!(back, m);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn from_path<T: DeserializeOwned>(path: impl AsRef<std::path::Path>) -> Result<T> {
    let path = path.as_ref();
    let file =
        std::fs::File::open(path).map_err(|e| crate::error::with_path(e, "cannot open", path))?;
    from_reader(std::io::BufReader::new(file)).map_err(|e| e.reading_file(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(top_kind(&None::<u8>), TopKind::None);
        assert_eq!(top_kind(&Some(vec![1u8])), TopKind::Seq);
        assert_eq!(top_kind(&vec![1u8, 2]), TopKind::Seq);
        assert_eq!(top_kind(&[1u8, 2]), TopKind::Tuple);
        assert_eq!(top_kind(&(1u8, 2.0f64)), TopKind::Tuple);
        #[derive(serde::Serialize)]
        struct R {
            a: u8,
        }
        assert!(first_is_record(&[R { a: 1 }, R { a: 2 }]));
        assert!(first_is_record(&[0u8; 0]));
        assert!(!first_is_record(&(vec![1u8], R { a: 1 })));
        assert!(!first_is_record(&[1u8, 2]));
        assert!(!first_is_record(&vec![R { a: 1 }]));
        assert_eq!(
            top_kind(&std::collections::BTreeMap::<String, u8>::new()),
            TopKind::Map
        );
        assert_eq!(top_kind(&1.5f64), TopKind::Other("float"));
    }
}
