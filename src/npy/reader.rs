//! Reading `.npy` data: [`from_reader`], [`from_slice`], the same with
//! [`ReadOptions`], and [`NpyReader`] for one record at a time.
//!
//! The presentation rules are documented on [`from_slice`].

// Sizes and counts here come from untrusted headers: every operation is
// checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Read, Seek, SeekFrom};
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::budget::Budget;
use crate::de::array::{ArrayDe, fortran_to_c};
use crate::de::data::{InMemory, deserialize_data_in};
use crate::de::element::{ElementDe, RowDe};
use crate::de::plan::Plan;
use crate::de::stream::{Chunked, StreamDe, row_size};
use crate::de::{Bytes, Cfg, check_readable};
use crate::error::{Error, Result};
use crate::format::dtype::Dtype;
use crate::format::header::Header;
use crate::format::header_read::{ParsedHeader, check_empty_axes, parse_header, read_header};
use crate::options::ReadOptions;

/// Reads one array from a stream: exactly its header and its data, no
/// further, so arrays saved one after another are read in turn.
///
/// Reading is buffered internally (at most 64 KiB ahead, never past the
/// array's data); memory grows only as data actually arrives, so a header
/// that promises more than the stream holds fails without a large
/// allocation.
///
/// ```
/// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
/// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
/// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
/// #     v.extend(format!("{dict:<117}\n").bytes());
/// #     v.extend_from_slice(data);
/// #     v
/// # }
/// let mut stream = npy("'<i4'", "(2,)", &[1, 0, 0, 0, 2, 0, 0, 0]);
/// stream.extend(npy("'<f8'", "()", &1.5f64.to_le_bytes()));
/// let mut r = &stream[..];
/// let a: Vec<i64> = npy_serde::from_reader(&mut r)?;
/// let b: f64 = npy_serde::from_reader(&mut r)?;
/// assert_eq!((a, b), (vec![1, 2], 1.5));
/// # Ok::<(), npy_serde::Error>(())
/// ```
///
/// # Untrusted input
///
/// The default limits are meant for trusted files (2^32 elements: an honest
/// 4 GiB file of `'|u1'` takes 128 GiB as `serde_json::Value`). Read
/// untrusted input with [`ReadOptions::untrusted`], which bounds what one
/// call reads and allocates (see [`ReadOptions::max_bytes`]):
///
/// ```
/// let bytes = npy_serde::to_vec(&vec![0u8; 1 << 20])?;
/// let opts = npy_serde::ReadOptions::untrusted();
/// assert_eq!(opts.from_reader::<Vec<u8>>(&bytes[..])?.len(), 1 << 20);
/// // a million values of serde_json::Value are charged 64 bytes each
/// let err = opts.from_reader::<serde_json::Value>(&bytes[..]).unwrap_err();
/// assert!(err.to_string().contains("more than max_bytes 33554432"), "{err}");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn from_reader<T: DeserializeOwned>(reader: impl Read) -> Result<T> {
    ReadOptions::new().from_reader(reader)
}

/// Reads one array from bytes holding exactly one `.npy` file, borrowing
/// where it can (`&[u8]` for `S` and `V` fields). Trailing bytes after the
/// data are an error.
///
/// # How a file is presented to serde
///
/// The file is self-describing, so `deserialize_any` works everywhere
/// (e.g. into `serde_json::Value`):
///
/// | numpy | serde |
/// |---|---|
/// | shape `(N, ...)` | nested sequences in logical (C) order; Fortran-order data is reordered |
/// | shape `()` | the bare element |
/// | record | map keyed by field name in file order, padding skipped; structs match by name; tuples take the fields in file order |
/// | subarray field `('x', '<f8', (2, 3))` | nested sequences |
/// | `b1` | `bool` (any nonzero byte is true) |
/// | `i1`..`i8`, `u1`..`u8` | the integer of that size (serde checks the range of the target) |
/// | `f2`, `f4` / `f8` | `f32` (`f2` widened exactly) / `f64` |
/// | `c8`, `c16` | `[re, im]` |
/// | `M8[unit]`, `m8[unit]` | the `i64` count (NaT = `i64::MIN`) |
/// | `S` | bytes without trailing NULs (a string where the type asks for one and they are UTF-8; a sequence of `u8` to `deserialize_any`) |
/// | `U` | string without trailing NULs; unit enum variants by name |
/// | `V` | bytes (a sequence of `u8` to `deserialize_any`) |
///
/// `Option<T>` always reads `Some`. The crate's special types read their
/// numpy types: `Datetime64<U>` / `Timedelta64<U>` get the count converted
/// exactly into their unit (an error when it is not a whole number of that
/// unit; NaT stays NaT), `half::f16` gets the `f2` bits unchanged (NaN
/// payloads included), `half::bf16` the bits of a `V2` field (ml_dtypes'
/// bfloat16, little-endian), `#[serde(with = "npy_serde::complex")]` reads `c8`
/// and `c16` (and a `(2,)` subarray of floats), `Padding<N>` reads anything,
/// or nothing when the field is absent.
///
/// Conversions into `f32`/`f64` must be exact unless
/// [`ReadOptions::lossy`]; `O` (pickled objects) and the long doubles
/// `f16`/`c32` are refused, naming the field. Errors name the record and
/// field: `record 3, field pos[1]: expected a string, found '<f8'`.
///
/// # Example
///
/// ```
/// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
/// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
/// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
/// #     v.extend(format!("{dict:<117}\n").bytes());
/// #     v.extend_from_slice(data);
/// #     v
/// # }
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Point<'a> {
///     y: i16,
///     #[serde(borrow)]
///     tag: &'a [u8],
/// }
/// let file = npy("[('tag', '|S3'), ('y', '<i2')]", "(1,)", b"ab\0\x07\x00");
/// let points: Vec<Point> = npy_serde::from_slice(&file)?;
/// assert_eq!(points, [Point { y: 7, tag: b"ab" }]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    ReadOptions::new().from_slice(bytes)
}

impl ReadOptions {
    /// The options the deserializers consult.
    pub(crate) fn cfg(&self) -> Cfg {
        Cfg {
            lossy: self.lossy,
            long_double: self.long_double,
        }
    }

    /// [`from_reader`] with these options.
    ///
    /// ```
    /// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    /// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
    /// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    /// #     v.extend(format!("{dict:<117}\n").bytes());
    /// #     v.extend_from_slice(data);
    /// #     v
    /// # }
    /// let file = npy("'<f8'", "()", &0.1f64.to_le_bytes());
    /// assert!(npy_serde::from_reader::<f32>(&file[..]).is_err());
    /// let x: f32 = npy_serde::ReadOptions::new().lossy(true).from_reader(&file[..])?;
    /// assert_eq!(x, 0.1f32);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn from_reader<T: DeserializeOwned>(&self, reader: impl Read) -> Result<T> {
        self.read_stream(reader, None)
    }

    /// [`from_reader`](Self::from_reader) of a stream that holds `len`
    /// bytes in all when known (a file's length): data the header promises
    /// within them is known present, so outputs are sized once.
    pub(crate) fn read_stream<T: DeserializeOwned>(
        &self,
        mut reader: impl Read,
        len: Option<u64>,
    ) -> Result<T> {
        let (header, budget, present) = self.open_stream(&mut reader, len)?;
        let mut de = stream_de(&header, &mut reader, self, present)?.charged(&budget);
        let value = T::deserialize(&mut de)?;
        de.finish()?;
        Ok(value)
    }

    /// What [`read_stream`](Self::read_stream) reads before the data: the
    /// header, the budget charged with its data, and whether the data is
    /// all there (`len`: the stream's length, when known). Not generic.
    fn open_stream(
        &self,
        mut reader: &mut dyn Read,
        len: Option<u64>,
    ) -> Result<(Header, Budget, bool)> {
        let parsed = read_header(&mut reader, self)?;
        let budget = Budget::new(self.max_bytes);
        budget.charge_data(&parsed.header)?;
        let present = match (len, parsed.header.data_len()) {
            (Some(len), Ok(data)) => (parsed.data_offset as u64)
                .checked_add(data)
                .is_some_and(|end| end <= len),
            _ => false,
        };
        Ok((parsed.header, budget, present))
    }

    /// [`from_slice`] with these options.
    ///
    /// ```
    /// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    /// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
    /// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    /// #     v.extend(format!("{dict:<117}\n").bytes());
    /// #     v.extend_from_slice(data);
    /// #     v
    /// # }
    /// let file = npy("'<i8'", "(1,)", &(1i64 << 60 | 1).to_le_bytes());
    /// let x: Vec<f64> = npy_serde::ReadOptions::new().lossy(true).from_slice(&file)?;
    /// assert_eq!(x, [(1u64 << 60) as f64]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn from_slice<'de, T: Deserialize<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        let (header, data, budget, file) = self.open_slice(bytes)?;
        T::deserialize(file.de(&header, data, self.cfg(), self.max_elements, &budget))
    }

    /// What [`from_slice`](Self::from_slice) reads: the header, the data,
    /// the budget charged with it and the data's compiled plan, checked (not
    /// generic: a type's `from_slice` only calls it).
    fn open_slice<'de>(&self, bytes: &'de [u8]) -> Result<(Header, &'de [u8], Budget, InMemory)> {
        let parsed = parse_header(bytes, self)?;
        check_readable(&parsed.header.descr)?;
        let data = bytes
            .get(parsed.data_offset..)
            .ok_or_else(|| Error::header("the header runs past the end of the input"))?;
        let budget = Budget::new(self.max_bytes);
        budget.charge_data(&parsed.header)?;
        let file = InMemory::new(&parsed.header, data)?;
        Ok((parsed.header, data, budget, file))
    }
}

/// [`read_stream`](ReadOptions::read_stream)'s deserializer (generic over
/// the reader only).
#[inline(never)]
fn stream_de<'h, R: Read>(
    header: &'h Header,
    reader: R,
    options: &ReadOptions,
    present: bool,
) -> Result<StreamDe<'h, R>> {
    check_readable(&header.descr)?;
    Ok(StreamDe::new(header, reader, options.cfg(), options.max_elements)?.present(present))
}

/// Reads an `.npy` array one outer element (record) at a time.
///
/// [`NpyReader::new`] reads only the header; [`NpyReader::deserialize`]
/// then yields the elements of the first axis (a record of a `(N,)` array,
/// a row of a `(N, 3)` array) holding at most one element plus 64 KiB of
/// read-ahead in memory. A 0-d array (shape `()`) has one element, the
/// array's only value. Fortran-order arrays of two or more dimensions store
/// rows scattered over the whole data, so for them the whole data is read
/// and reordered when the first element is asked for.
///
/// ```
/// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
/// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
/// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
/// #     v.extend(format!("{dict:<117}\n").bytes());
/// #     v.extend_from_slice(data);
/// #     v
/// # }
/// #[derive(serde::Deserialize)]
/// struct P {
///     x: u8,
///     y: u8,
/// }
/// let file = npy("[('x', '|u1'), ('y', '|u1')]", "(2,)", &[1, 2, 3, 4]);
/// let mut reader = npy_serde::NpyReader::new(&file[..])?;
/// assert_eq!(reader.len(), 2);
/// assert_eq!(reader.shape(), &[2]);
/// let mut sum = 0;
/// for p in reader.deserialize::<P>() {
///     let p = p?;
///     sum += p.x + p.y;
/// }
/// assert_eq!(sum, 10);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub struct NpyReader<R> {
    header: Header,
    /// The dtype compiled once for every record.
    plan: Plan,
    version: (u8, u8),
    cfg: Cfg,
    data: Chunked<R>,
    len: u64,
    next: u64,
    /// The data reordered into C order, for Fortran-order arrays.
    reordered: Option<Vec<u8>>,
    /// Records are yielded while `next < end`: `len`, or 0 once the data
    /// ended early or the reader failed (nothing more to yield).
    end: u64,
    /// Fortran order with two or more dimensions: rows are scattered over
    /// the data, which is read whole and reordered.
    fortran: bool,
    /// Each row is one element (shape `()` or `(N,)`): no array layer.
    rows_are_elements: bool,
    /// `ReadOptions::max_elements` and `max_bytes`, for [`NpyReader::rows`].
    max_elements: u64,
    max_bytes: u64,
}

impl<R> std::fmt::Debug for NpyReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NpyReader")
            .field("header", &self.header)
            .field("version", &self.version)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl<R: Read> NpyReader<R> {
    /// Reads the header with the default [`ReadOptions`].
    ///
    /// ```
    /// let file = npy_serde::to_vec(&[10u32, 20, 30])?;
    /// let mut r = npy_serde::NpyReader::new(&file[..])?; // reads only the header
    /// assert_eq!(r.len(), 3);
    /// assert_eq!(r.deserialize::<u32>().next().transpose()?, Some(10));
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn new(reader: R) -> Result<Self> {
        Self::with_options(reader, ReadOptions::new())
    }

    /// Reads the header with these options (limits, `lossy`).
    ///
    /// ```
    /// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    /// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
    /// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    /// #     v.extend(format!("{dict:<117}\n").bytes());
    /// #     v.extend_from_slice(data);
    /// #     v
    /// # }
    /// let file = npy("'<u1'", "(5,)", &[0; 5]);
    /// let opts = npy_serde::ReadOptions::new().max_elements(4);
    /// assert!(npy_serde::NpyReader::with_options(&file[..], opts).is_err());
    /// ```
    pub fn with_options(mut reader: R, options: ReadOptions) -> Result<Self> {
        let parsed = read_header(&mut reader, &options)?;
        Self::from_parsed(reader, parsed, &options)
    }

    /// A reader positioned at the first data byte of an array whose header
    /// was already read (the npz reader's entry point).
    pub(crate) fn from_parsed(
        reader: R,
        parsed: ParsedHeader,
        options: &ReadOptions,
    ) -> Result<Self> {
        check_readable(&parsed.header.descr)?;
        check_empty_axes(&parsed.header, options.max_elements)?;
        let total = parsed.header.data_len()?;
        let row = row_size(&parsed.header)?;
        let len = parsed.header.shape.first().copied().unwrap_or(1);
        Ok(NpyReader {
            version: parsed.version,
            cfg: options.cfg(),
            data: Chunked::new(reader, total, row),
            len,
            next: 0,
            reordered: None,
            end: len,
            fortran: parsed.header.column_major(),
            rows_are_elements: parsed.header.shape.len() <= 1,
            max_elements: options.max_elements,
            max_bytes: options.max_bytes,
            plan: Plan::new(&parsed.header.descr),
            header: parsed.header,
        })
    }

    /// The header: dtype, memory order, shape.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&[[1.0f64, 2.0]])?;
    /// let r = npy_serde::NpyReader::new(&file[..])?;
    /// assert_eq!(r.header().to_string(), "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The element type (the header's `descr`).
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct P { id: u16, x: f32 }
    /// let file = npy_serde::to_vec(&[P { id: 1, x: 0.5 }])?;
    /// let r = npy_serde::NpyReader::new(&file[..])?;
    /// assert_eq!(r.dtype().to_string(), "[('id', '<u2'), ('x', '<f4')]");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn dtype(&self) -> &Dtype {
        &self.header.descr
    }

    /// The array's shape; empty for a 0-d array.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&7i64)?; // a single value: shape ()
    /// assert!(npy_serde::NpyReader::new(&file[..])?.shape().is_empty());
    /// let file = npy_serde::to_vec(&[[1u8, 2, 3], [4, 5, 6]])?;
    /// assert_eq!(npy_serde::NpyReader::new(&file[..])?.shape(), &[2, 3]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn shape(&self) -> &[u64] {
        &self.header.shape
    }

    /// Whether the data is stored column-major.
    ///
    /// ```
    /// let m = [[1u8, 2], [3, 4]];
    /// let file = npy_serde::WriteOptions::new().fortran_order(true).to_vec(&m)?;
    /// let mut r = npy_serde::NpyReader::new(&file[..])?;
    /// assert!(r.fortran_order());
    /// // rows still come out in logical order
    /// let rows: Vec<[u8; 2]> = r.deserialize().collect::<Result<_, _>>()?;
    /// assert_eq!(rows, m);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn fortran_order(&self) -> bool {
        self.header.fortran_order
    }

    /// The file format version, `(1, 0)`, `(2, 0)` or `(3, 0)`.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&[1u8])?;
    /// assert_eq!(npy_serde::NpyReader::new(&file[..])?.version(), (1, 0));
    /// let file = npy_serde::WriteOptions::new().version(3, 0).to_vec(&[1u8])?;
    /// assert_eq!(npy_serde::NpyReader::new(&file[..])?.version(), (3, 0));
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn version(&self) -> (u8, u8) {
        self.version
    }

    /// The number of elements [`NpyReader::deserialize`] yields in all: the
    /// first dimension, or 1 for a 0-d array.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&[[1u8, 2, 3], [4, 5, 6]])?;
    /// assert_eq!(npy_serde::NpyReader::new(&file[..])?.len(), 2); // rows of shape (2, 3)
    /// let file = npy_serde::to_vec(&1.5f64)?;
    /// assert_eq!(npy_serde::NpyReader::new(&file[..])?.len(), 1); // shape ()
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the first dimension is 0.
    ///
    /// ```
    /// let file = npy_serde::WriteOptions::new().dtype("<f8".parse()?).to_vec(&Vec::<f64>::new())?;
    /// let mut r = npy_serde::NpyReader::new(&file[..])?;
    /// assert!(r.is_empty());
    /// assert!(r.deserialize::<f64>().next().is_none());
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// An iterator over the remaining outer elements, each deserialized into
    /// `T`. An element that does not fit `T` gives an `Err` and iteration
    /// continues with the next one; data that ends early or an I/O error
    /// ends it.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&[1i64, 300, 2])?;
    /// let mut r = npy_serde::NpyReader::new(&file[..])?;
    /// // 300 does not fit a u8: that element is an error, the others read
    /// let got: Vec<_> = r.deserialize::<u8>().map(|v| v.ok()).collect();
    /// assert_eq!(got, [Some(1), None, Some(2)]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn deserialize<T: DeserializeOwned>(&mut self) -> DeserializeRecords<'_, R, T> {
        DeserializeRecords {
            reader: self,
            _marker: PhantomData,
        }
    }

    /// The underlying reader, positioned after the bytes read so far: after
    /// the array's data once every element was read (possibly up to 64 KiB
    /// further into the data otherwise, never past its end).
    ///
    /// ```
    /// // two arrays back to back in one stream
    /// let mut stream = npy_serde::to_vec(&[1u8, 2])?;
    /// stream.extend(npy_serde::to_vec(&[3.5f64])?);
    /// let mut r = npy_serde::NpyReader::new(&stream[..])?;
    /// let first: Vec<u8> = r.deserialize().collect::<Result<_, _>>()?;
    /// let rest = r.into_inner(); // right after the first array's data
    /// let second: Vec<f64> = npy_serde::from_reader(rest)?;
    /// assert_eq!((first, second), (vec![1, 2], vec![3.5]));
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn into_inner(self) -> R {
        self.data.reader
    }

    #[inline]
    fn next_element<T: DeserializeOwned>(&mut self) -> Option<Result<T>> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        // next < end <= len (checked above)
        self.next = i.wrapping_add(1);
        // rows in file order: one record or scalar (shape `(N,)`), or an
        // array of them (`(N, 3)`); a Fortran-order array's reordered
        let row = if self.fortran {
            reordered_row(&mut self.reordered, &mut self.data, &self.header, i)
        } else {
            self.data.take(self.data.row)
        };
        let result = match row {
            Ok(b) if self.rows_are_elements => {
                // by reference: its fast numbers read it in place
                T::deserialize(RowDe(&ElementDe::new(
                    &self.plan,
                    Bytes::Copied(b),
                    self.cfg,
                )))
            }
            Ok(b) => T::deserialize(ArrayDe::new(
                &self.plan,
                self.header.shape.get(1..).unwrap_or(&[]),
                Bytes::Copied(b),
                self.cfg,
                false,
            )),
            Err(e) => {
                // the message already names the incomplete record
                self.end = 0;
                return Some(Err(e));
            }
        };
        Some(result.map_err(|e| self.at_position(e, i)))
    }

    /// Attaches the record index (none for a 0-d array's only element).
    #[cold]
    #[inline(never)]
    fn at_position(&self, e: Error, i: u64) -> Error {
        if self.header.shape.is_empty() {
            e
        } else {
            e.at_record(i)
        }
    }
}

impl<R: Read + Seek> NpyReader<R> {
    /// Moves to outer element `index` (`len()` moves to the end), so the
    /// next element [`NpyReader::deserialize`] yields is that one.
    ///
    /// ```
    /// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    /// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
    /// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    /// #     v.extend(format!("{dict:<117}\n").bytes());
    /// #     v.extend_from_slice(data);
    /// #     v
    /// # }
    /// let file = npy("'<u2'", "(4,)", &[1, 0, 2, 0, 3, 0, 4, 0]);
    /// let mut reader = npy_serde::NpyReader::new(std::io::Cursor::new(file))?;
    /// reader.seek_record(2)?;
    /// let rest: Vec<u16> = reader.deserialize().collect::<Result<_, _>>()?;
    /// assert_eq!(rest, [3, 4]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn seek_record(&mut self, index: u64) -> Result<()> {
        if index > self.len {
            return Err(Error::data(format!(
                "cannot seek to record {index}, the array has {}",
                self.len
            )));
        }
        if !self.fortran {
            let target = index
                .checked_mul(self.data.row as u64)
                .ok_or_else(crate::de::internal)?;
            // two u64 apart fit in an i128
            let delta = i128::from(target).wrapping_sub(i128::from(self.data.read));
            let delta = i64::try_from(delta).map_err(|_| crate::de::internal())?;
            self.data.reader.seek(SeekFrom::Current(delta))?;
            self.data.reset_to(target);
        }
        self.next = index;
        self.end = self.len;
        Ok(())
    }

    /// Reads rows `range` of the first axis (records of a 1-d array) into
    /// `T`, seeking to them: what [`from_slice`] reads from the file numpy
    /// writes for `arr[a:b]`. Works for C order and for 1-d arrays of
    /// either order; a Fortran-order array of two or more dimensions (whose
    /// rows are spread over the whole data) and a 0-d array are refused, and
    /// so is a range that does not lie within the first axis. Afterwards
    /// [`NpyReader::deserialize`] goes on from row `range.end`.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&[[1.0f64, 2.0], [3.0, 4.0], [5.0, 6.0]])?;
    /// let mut r = npy_serde::NpyReader::new(std::io::Cursor::new(file))?;
    /// let last: Vec<[f64; 2]> = r.rows(2..3)?;
    /// assert_eq!(last, [[5.0, 6.0]]);
    /// let first: serde_json::Value = r.rows(0..1)?;
    /// assert_eq!(first, serde_json::json!([[1.0, 2.0]]));
    /// let err = r.rows::<Vec<[f64; 2]>>(90..120).unwrap_err();
    /// assert_eq!(err.to_string(), "rows 90..120 of 3: the range ends past the first axis");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn rows<T: DeserializeOwned>(&mut self, range: std::ops::Range<u64>) -> Result<T> {
        let budget = Budget::new(self.max_bytes);
        let (header, bytes) = self.read_rows(&range, &budget)?;
        deserialize_data_in(&header, &bytes, self.cfg, self.max_elements, &budget)
    }

    /// The header and bytes of rows `range`, charged to `budget`.
    fn read_rows(
        &mut self,
        range: &std::ops::Range<u64>,
        budget: &Budget,
    ) -> Result<(Header, Vec<u8>)> {
        let w = crate::npy::rows::checked_window(&self.header, range, self.max_elements, budget)?;
        self.seek_record(range.start)?;
        let bytes = crate::format::header_read::read_up_to(&mut self.data.reader, w.len)?;
        // what was read lies within the data: start + got <= start + len
        let at = w.start.saturating_add(bytes.len() as u64);
        self.data.reset_to(at);
        if (bytes.len() as u64) < w.len {
            self.end = 0;
            return Err(self.data.truncated(at));
        }
        self.next = range.end;
        Ok((w.header, bytes))
    }
}

/// Row `i` of a Fortran-order array of two or more dimensions: the whole
/// data is read and reordered into C order (`reordered`) on the first
/// call.
#[inline(never)]
fn reordered_row<'a, R: Read>(
    reordered: &'a mut Option<Vec<u8>>,
    data: &mut Chunked<R>,
    header: &Header,
    i: u64,
) -> Result<&'a [u8]> {
    if reordered.is_none() {
        let bytes = data.take_all()?;
        *reordered = Some(fortran_to_c(bytes, &header.shape, header.descr.itemsize())?);
    }
    let row = data.row;
    let bytes = reordered.as_deref().and_then(|c| {
        let start = usize::try_from(i).ok()?.checked_mul(row)?;
        c.get(start..start.checked_add(row)?)
    });
    bytes.ok_or_else(crate::de::internal)
}

/// The iterator of [`NpyReader::deserialize`].
///
/// ```
/// let file = npy_serde::to_vec(&[1u16, 2, 3, 4])?;
/// let mut r = npy_serde::NpyReader::new(&file[..])?;
/// let mut records = r.deserialize::<u16>();
/// assert_eq!(records.size_hint(), (0, Some(4)));
/// let total: u16 = records.by_ref().take(2).map(|v| v.unwrap()).sum();
/// assert_eq!(total, 3);
/// assert_eq!(records.size_hint(), (0, Some(2)));
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub struct DeserializeRecords<'r, R, T> {
    reader: &'r mut NpyReader<R>,
    _marker: PhantomData<fn() -> T>,
}

impl<R: Read, T: DeserializeOwned> Iterator for DeserializeRecords<'_, R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        self.reader.next_element()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // 0 once failed; else next <= len (reads stop at len, seeks refuse
        // past it): never saturates
        let left = self.reader.end.saturating_sub(self.reader.next);
        let left = usize::try_from(left).unwrap_or(usize::MAX);
        (0, Some(left))
    }
}
