//! Arrow `RecordBatch`es from numpy files and back (feature `arrow`, which
//! needs Rust 1.88, arrow-rs's minimum; the rest of the crate needs 1.85).
//!
//! A file's dtype decides the batch: no Rust type is involved, so a file
//! whose dtype is known only at run time converts as well as any. A record
//! array becomes one column per field; any other array one column named
//! `values`. Rows are the first axis: a 0-d array is one row, an n-d array
//! a column of nested `FixedSizeList`s of the other axes (the default,
//! because it keeps every array one column whatever its rank and
//! round-trips without a rule for names; [`Options::split_columns`] makes a
//! 2-d array's columns columns `"0"`, `"1"`, ... instead, as `npy csv`
//! names them). The dtype, shape and order go into the schema's metadata
//! (`numpy.descr`, `numpy.shape`, `numpy.fortran_order`), so a batch read
//! from a file is written back as the very same bytes.
//!
//! | numpy | Arrow |
//! |---|---|
//! | `b1` | `Boolean` |
//! | `i1 i2 i4 i8`, `u1 u2 u4 u8` | `Int8` ... `UInt64` |
//! | `f2 f4 f8` | `Float16 Float32 Float64` |
//! | `c8 c16` | `Struct{re, im}` of `Float32`/`Float64` |
//! | `Sn` | `Binary`, trailing NULs stripped (as numpy and pyarrow do) |
//! | `Un` | `Utf8`, trailing NULs stripped |
//! | `Vn` | `FixedSizeBinary(n)`, the field's metadata `numpy.descr` saying `'\|Vn'` (bfloat16 from ml_dtypes is `\|V2`) |
//! | `M8[D]`, and `M8[Y] M8[M] M8[W]` | `Date32` (days) |
//! | `M8[h] M8[m] M8[s]`, `M8[ms] M8[us] M8[ns]` | `Timestamp(s)`, `Timestamp(ms/us/ns)` |
//! | `M8[ps] M8[fs] M8[as]` | `Timestamp(ns)` when the value is whole nanoseconds, else an error |
//! | `m8[...]` | `Duration`, the same units (years and months refused: no fixed length) |
//! | NaT | null |
//! | nested record | `Struct` |
//! | subarray `(2, 3)` | `FixedSizeList(2)` of `FixedSizeList(3)` |
//! | padding (`('', '\|V4')`) | dropped |
//!
//! Multiples (`M8[5s]`) convert exactly into the Arrow unit. Long doubles
//! (`f16`, `c32`) and objects (`O`) are refused.
//!
//! Writing takes the mapping in reverse: a batch without this crate's
//! metadata becomes a packed record array with one field per column, each
//! `U`/`S` as wide as its longest value (at least 1, as numpy), `Date64` as
//! `M8[ms]`. Nulls are refused with the column named, except in dates,
//! timestamps and durations, where a null is NaT. A batch whose columns are
//! still the fields its metadata describes is written with that dtype,
//! order and shape (the first axis as long as the batch).
//!
//! ```
//! use arrow_array::{Array, Float64Array};
//!
//! #[derive(serde::Serialize)]
//! struct Particle { pos: [f64; 2], mass: f32 }
//! let file = npy_serde::to_vec(&[Particle { pos: [1.0, 2.0], mass: 3.0 }])?;
//!
//! let batch = npy_serde::arrow::from_slice(&file)?;
//! assert_eq!(batch.num_rows(), 1);
//! assert_eq!(batch.schema().field(0).data_type().to_string(), "FixedSizeList(2 x non-null Float64)");
//! assert_eq!(batch.schema().metadata()["numpy.descr"], "[('pos', '<f8', (2,)), ('mass', '<f4')]");
//!
//! // and back, byte for byte
//! assert_eq!(npy_serde::arrow::to_vec(&batch)?, file);
//! # Ok::<(), npy_serde::Error>(())
//! ```

mod places;
mod read;
mod time;
mod write;

use std::borrow::Cow;
use std::io::{Read, Seek, Write};
use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, RecordBatch, RecordBatchOptions, StructArray};
use arrow_schema::{Field, Schema};

use crate::de::data::check_data_len;
use crate::error::{Error, Result};
use crate::format::header::Header;
use crate::format::header_read::read_up_to;
use crate::options::ReadOptions;

/// The schema metadata key of the numpy dtype (`"[('x', '<f8')]"`, `"'<i4'"`).
pub const DESCR_KEY: &str = "numpy.descr";
/// The schema metadata key of the array's shape (`"(3, 4)"`).
pub const SHAPE_KEY: &str = "numpy.shape";
/// The schema metadata key of the memory order (`"True"` for Fortran order).
pub const FORTRAN_KEY: &str = "numpy.fortran_order";
/// The name of the one column of an array that is not a record array.
pub const VALUES: &str = "values";

/// How a file becomes a batch.
///
/// ```
/// let file = npy_serde::to_vec(&[[1u8, 2], [3, 4]])?;
/// let opts = npy_serde::arrow::Options::new().split_columns(true);
/// let batch = opts.from_slice(&file)?;
/// assert_eq!(batch.num_columns(), 2);
/// assert_eq!(batch.schema().field(1).name(), "1");
/// assert_eq!(npy_serde::arrow::to_vec(&batch)?, file);
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Options {
    split: bool,
    read: ReadOptions,
}

impl Options {
    /// The defaults: an n-d array is one column of fixed-size lists, the
    /// read limits are [`ReadOptions`]'s defaults.
    ///
    /// ```
    /// let batch = npy_serde::arrow::Options::new().from_slice(&npy_serde::to_vec(&[1i32, 2])?)?;
    /// assert_eq!(batch.schema().field(0).name(), "values");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A 2-d array of numbers becomes one column per column, named `"0"`,
    /// `"1"`, ... (what a table of features usually wants), instead of one
    /// column of fixed-size lists.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&[[1.0f32, 2.0, 3.0]])?;
    /// let batch = npy_serde::arrow::Options::new().split_columns(true).from_slice(&file)?;
    /// assert_eq!(batch.num_columns(), 3);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn split_columns(mut self, split: bool) -> Self {
        self.split = split;
        self
    }

    /// The limits the header is read with (element count, header size).
    ///
    /// ```
    /// let opts = npy_serde::arrow::Options::new()
    ///     .read_options(npy_serde::ReadOptions::new().max_elements(2));
    /// assert!(opts.from_slice(&npy_serde::to_vec(&[1u8, 2, 3])?).is_err());
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn read_options(mut self, read: ReadOptions) -> Self {
        self.read = read;
        self
    }

    /// [`from_slice`] with these options.
    ///
    /// ```
    /// let batch = npy_serde::arrow::Options::new().from_slice(&npy_serde::to_vec(&7u16)?)?;
    /// assert_eq!(batch.num_rows(), 1);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn from_slice(&self, bytes: &[u8]) -> Result<RecordBatch> {
        let (header, offset) = Header::from_bytes(bytes, &self.read)?;
        let data = bytes.get(offset..).unwrap_or_default();
        check_data_len(&header, data.len() as u64)?;
        read::batch(&header, Cow::Borrowed(data), self.split)
    }

    /// [`from_reader`] with these options.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&[1.5f64, 2.5])?;
    /// let batch = npy_serde::arrow::Options::new().from_reader(file.as_slice())?;
    /// assert_eq!(batch.num_rows(), 2);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn from_reader(&self, mut reader: impl Read) -> Result<RecordBatch> {
        let (header, _) = Header::read_from(&mut reader, &self.read)?;
        let len = header.data_len()?;
        let data = read_up_to(&mut reader, len)?;
        check_data_len(&header, data.len() as u64)?;
        read::batch(&header, Cow::Owned(data), self.split)
    }

    /// [`from_npz`] with these options.
    ///
    /// ```
    /// let mut zip = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// zip.add("x", &[1.0f64, 2.0])?;
    /// let file = zip.finish()?.into_inner();
    /// let batch = npy_serde::arrow::Options::new().from_npz(std::io::Cursor::new(file))?;
    /// assert_eq!(batch.schema().field(0).name(), "x");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn from_npz(&self, reader: impl Read + Seek) -> Result<RecordBatch> {
        let mut archive = crate::npz::NpzReader::with_options(reader, self.read.clone())?;
        let names = archive.names().to_vec();
        let mut fields = Vec::with_capacity(names.len());
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(names.len());
        let mut rows: Option<(usize, &str)> = None;
        for name in &names {
            let bytes = archive.raw(name)?;
            let batch = self.from_slice(&bytes).map_err(|e| e.in_member(name))?;
            let n = batch.num_rows();
            match rows {
                Some((first, first_name)) if first != n => {
                    return Err(Error::schema(format!(
                        "member '{name}' has {n} rows, member '{first_name}' {first}: \
                         the members of one batch have one length (read them one by one \
                         with from_slice)"
                    )));
                }
                _ => rows = Some((n, name)),
            }
            let metadata = batch.schema_ref().metadata().clone();
            let (field, column) =
                if batch.num_columns() == 1 && batch.schema_ref().field(0).name() == VALUES {
                    let f = batch.schema_ref().field(0).as_ref().clone();
                    (f.with_name(name.clone()), batch.column(0).clone())
                } else {
                    let s = StructArray::from(batch);
                    let f = Field::new(name.clone(), s.data_type().clone(), false);
                    (f, Arc::new(s) as ArrayRef)
                };
            fields.push(field.with_metadata(metadata));
            columns.push(column);
        }
        RecordBatch::try_new_with_options(
            Arc::new(Schema::new(fields)),
            columns,
            &RecordBatchOptions::new().with_row_count(Some(rows.map_or(0, |r| r.0))),
        )
        .map_err(read::internal)
    }
}

/// The `.npy` file in `bytes` as a `RecordBatch`, built from its dtype
/// (see the module's table).
///
/// ```
/// let file = npy_serde::to_vec(&[[1.0f64, 2.0], [3.0, 4.0]])?;
/// let batch = npy_serde::arrow::from_slice(&file)?;
/// assert_eq!(batch.num_rows(), 2);
/// assert_eq!(batch.schema().metadata()["numpy.shape"], "(2, 2)");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn from_slice(bytes: &[u8]) -> Result<RecordBatch> {
    Options::new().from_slice(bytes)
}

/// The `.npy` array read from `reader` as a `RecordBatch`; a 1-d array of
/// numbers in little-endian order keeps the bytes read as its column (no
/// copy).
///
/// ```
/// let file = npy_serde::to_vec(&["ab", "c"])?;
/// let batch = npy_serde::arrow::from_reader(file.as_slice())?;
/// let text = batch.column(0).as_any().downcast_ref::<arrow_array::StringArray>().unwrap();
/// assert_eq!(text.value(1), "c");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn from_reader(reader: impl Read) -> Result<RecordBatch> {
    Options::new().from_reader(reader)
}

/// The members of an `.npz` archive as the columns of one batch, each
/// named by its member (a record member becomes a `Struct` column, the
/// member's metadata its field's). The members must have one length.
///
/// ```
/// let mut zip = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
/// zip.add("x", &[1.0f64, 2.0])?;
/// zip.add("y", &[1.0f64])?;
/// let file = zip.finish()?.into_inner();
/// let err = npy_serde::arrow::from_npz(std::io::Cursor::new(file)).unwrap_err();
/// assert!(err.to_string().contains("member 'y' has 1 rows, member 'x' 2"));
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn from_npz(reader: impl Read + Seek) -> Result<RecordBatch> {
    Options::new().from_npz(reader)
}

/// The `.npy` file of `batch`: the dtype, shape and order of its metadata
/// when its columns still match them, else the mapping's record array.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{Int32Array, RecordBatch, StringArray};
///
/// let batch = RecordBatch::try_from_iter([
///     ("id", Arc::new(Int32Array::from(vec![1, 2])) as _),
///     ("name", Arc::new(StringArray::from(vec!["ab", "c"])) as _),
/// ]).unwrap();
/// let file = npy_serde::arrow::to_vec(&batch)?;
/// let header = npy_serde::Header::from_bytes(&file, &Default::default())?.0;
/// assert_eq!(header.descr.to_string(), "[('id', '<i4'), ('name', '<U2')]");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn to_vec(batch: &RecordBatch) -> Result<Vec<u8>> {
    let (header, data) = write::encode(batch)?;
    let (mut bytes, _) = header.encode(None)?;
    bytes.extend_from_slice(&data);
    Ok(bytes)
}

/// [`to_vec`] into `writer`.
///
/// ```
/// let batch = npy_serde::arrow::from_slice(&npy_serde::to_vec(&[1u8, 2])?)?;
/// let mut out = Vec::new();
/// npy_serde::arrow::to_writer(&mut out, &batch)?;
/// assert_eq!(npy_serde::from_slice::<Vec<u8>>(&out)?, [1, 2]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn to_writer(mut writer: impl Write, batch: &RecordBatch) -> Result<()> {
    let (header, data) = write::encode(batch)?;
    let (bytes, _) = header.encode(None)?;
    writer.write_all(&bytes)?;
    writer.write_all(&data)?;
    Ok(())
}

/// [`to_vec`] into the file at `path`, replaced whole or not at all (as
/// [`to_path`](crate::to_path)).
///
/// ```
/// let dir = std::env::temp_dir().join(format!("npy_serde_doc_arrow_{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let batch = npy_serde::arrow::from_slice(&npy_serde::to_vec(&[1u8, 2])?)?;
/// npy_serde::arrow::to_path(dir.join("x.npy"), &batch)?;
/// assert_eq!(npy_serde::from_path::<Vec<u8>>(dir.join("x.npy"))?, [1, 2]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_path(path: impl AsRef<Path>, batch: &RecordBatch) -> Result<()> {
    let path = path.as_ref();
    let (header, data) = write::encode(batch)?;
    let (bytes, _) = header.encode(None)?;
    crate::npy::atomic::write_atomically(path, false, |file| {
        file.write_all(&bytes)
            .and_then(|()| file.write_all(&data))
            .map_err(|e| crate::error::with_path(e, "writing", path))
    })
}
