//! Options for writing and reading, with their documented defaults.
//!
//! The terminal methods (`to_writer`, `to_vec`, `from_reader`, `from_slice`)
//! are implemented next to the code they drive, in `writer.rs`,
//! `npy_writer.rs` and `reader.rs`.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use crate::format::dtype::Dtype;

/// The builder setters of both option types, one line each:
/// `name(params) => field = value;` is
/// `#[must_use] pub fn name(mut self, params) -> Self { self.field = value; self }`
/// (with the docs written before it).
macro_rules! setters {
    ($($(#[$attr:meta])* $name:ident($($p:ident: $t:ty),*) => $field:ident = $v:expr;)*) => {$(
        $(#[$attr])*
        #[must_use]
        pub fn $name(mut self, $($p: $t),*) -> Self {
            self.$field = $v;
            self
        }
    )*};
}

/// Default [`ReadOptions::max_header_size`]: numpy's own default.
///
/// ```
/// use npy_serde::{DEFAULT_MAX_HEADER_SIZE, ReadOptions};
/// use std::collections::BTreeMap;
/// // one record of 600 fields: a header of about 14000 characters
/// let wide: BTreeMap<String, u8> = (0..600).map(|i| (format!("field_{i:04}"), 1)).collect();
/// let bytes = npy_serde::to_vec(&wide)?;
/// let err = npy_serde::from_slice::<BTreeMap<String, u8>>(&bytes).unwrap_err();
/// assert!(err.to_string().contains("max_header_size"));
/// let opts = ReadOptions::new().max_header_size(2 * DEFAULT_MAX_HEADER_SIZE);
/// assert_eq!(opts.from_slice::<BTreeMap<String, u8>>(&bytes)?, wide);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub const DEFAULT_MAX_HEADER_SIZE: usize = 10_000;
/// Default [`ReadOptions::max_depth`] of nested records and subarrays.
///
/// ```
/// # fn npy(descr: &str, shape: &str) -> Vec<u8> {
/// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
/// #     let len = (dict.len() + 11).next_multiple_of(64) - 10;
/// #     let mut v = b"\x93NUMPY\x01\x00".to_vec();
/// #     v.extend((len as u16).to_le_bytes());
/// #     v.extend(format!("{dict:<0$}\n", len - 1).bytes());
/// #     v
/// # }
/// use npy_serde::{DEFAULT_MAX_DEPTH, ReadOptions};
/// // 33 nested records: 66 bracket levels
/// let descr = format!("{}'|u1'{}", "[('a', ".repeat(33), ")]".repeat(33));
/// let file = npy(&descr, "()");
/// let err = npy_serde::from_slice::<serde_json::Value>(&file).unwrap_err();
/// assert!(err.to_string().contains("max_depth"));
/// let opts = ReadOptions::new().max_depth(2 * DEFAULT_MAX_DEPTH);
/// assert!(opts.from_slice::<serde_json::Value>(&[&file[..], &[7]].concat()).is_ok());
/// ```
pub const DEFAULT_MAX_DEPTH: usize = 64;
/// Default [`ReadOptions::max_elements`]: 2^32 elements.
///
/// ```
/// # fn npy(descr: &str, shape: &str) -> Vec<u8> {
/// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
/// #     let len = (dict.len() + 11).next_multiple_of(64) - 10;
/// #     let mut v = b"\x93NUMPY\x01\x00".to_vec();
/// #     v.extend((len as u16).to_le_bytes());
/// #     v.extend(format!("{dict:<0$}\n", len - 1).bytes());
/// #     v
/// # }
/// use npy_serde::DEFAULT_MAX_ELEMENTS;
/// let shape = format!("({},)", DEFAULT_MAX_ELEMENTS + 1);
/// let err = npy_serde::from_slice::<Vec<u8>>(&npy("'|u1'", &shape)).unwrap_err();
/// assert!(err.to_string().contains("max_elements"));
/// ```
pub const DEFAULT_MAX_ELEMENTS: u64 = 1 << 32;

/// How values are laid out when written.
///
/// ```
/// let bytes = npy_serde::WriteOptions::new()
///     .fortran_order(false)
///     .to_vec(&vec![1.0f64, 2.0])
///     .unwrap();
/// assert_eq!(&bytes[..6], b"\x93NUMPY");
/// ```
#[derive(Clone, Debug)]
pub struct WriteOptions {
    pub(crate) align: bool,
    pub(crate) dtype: Option<Dtype>,
    /// `None`: C order, an n-d array in its own order.
    pub(crate) fortran_order: Option<bool>,
    pub(crate) version: Option<(u8, u8)>,
    /// `to_path` syncs the file to the device before renaming it into
    /// place (see [`WriteOptions::durable`]).
    pub(crate) durable: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            align: false,
            dtype: None,
            fortran_order: None,
            version: None,
            durable: true,
        }
    }
}

impl WriteOptions {
    /// numpy's defaults: packed records, dtype from the values, C order,
    /// format version chosen like `np.save`.
    ///
    /// ```
    /// let x = vec![1.0f64, 2.0];
    /// assert_eq!(npy_serde::WriteOptions::new().to_vec(&x)?, npy_serde::to_vec(&x)?);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    setters! {
        /// Lay records out like a C struct, as numpy's `align=True` does
        /// (recursively, with numpy's x86-64 alignments).
        ///
        /// ```
        /// #[derive(serde::Serialize)]
        /// struct R { a: u8, b: f64 }
        /// let bytes = npy_serde::WriteOptions::new().align(true).to_vec(&[R { a: 1, b: 2.0 }])?;
        /// let (header, _) = npy_serde::Header::from_bytes(&bytes, &Default::default())?;
        /// assert_eq!(header.descr.to_string(), "[('a', '|u1'), ('', '|V7'), ('b', '<f8')]");
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        align(align: bool) => align = align;

        /// Write with this dtype instead of the one derived from the values;
        /// record fields are matched by name and values converted into the
        /// dtype's types.
        ///
        /// ```
        /// #[derive(serde::Serialize)]
        /// struct R { a: u8, b: f64 }
        /// let dtype: npy_serde::Dtype = "[('b', '>f4'), ('a', '<i2')]".parse()?;
        /// let bytes = npy_serde::WriteOptions::new().dtype(dtype).to_vec(&[R { a: 1, b: 2.0 }])?;
        /// let (header, _) = npy_serde::Header::from_bytes(&bytes, &Default::default())?;
        /// assert_eq!(header.descr.to_string(), "[('b', '>f4'), ('a', '<i2')]");
        /// // a value the dtype cannot hold exactly is an error
        /// let f4 = npy_serde::WriteOptions::new().dtype("<f4".parse()?);
        /// assert!(f4.to_vec(&[0.1f64]).is_err());
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        dtype(dtype: Dtype) => dtype = Some(dtype);

        /// Store arrays of two or more dimensions column-major with
        /// `fortran_order: True` (`false`: row-major). Values are still given
        /// in logical (row-major) order. As in numpy, an array with at most
        /// one axis longer than 1, or with no elements, is the same bytes in
        /// both orders and is written with `fortran_order: False`. Unset, an
        /// [`NdArray`](crate::NdArray) is written in its own order, anything
        /// else row-major.
        ///
        /// ```
        /// let m = vec![[1i32, 2, 3], [4, 5, 6]];
        /// let bytes = npy_serde::WriteOptions::new().fortran_order(true).to_vec(&m)?;
        /// let (header, offset) = npy_serde::Header::from_bytes(&bytes, &Default::default())?;
        /// assert!(header.fortran_order);
        /// assert_eq!(bytes[offset..].chunks(4).map(|c| c[0]).collect::<Vec<_>>(), [1, 4, 2, 5, 3, 6]);
        /// assert_eq!(npy_serde::from_slice::<Vec<[i32; 3]>>(&bytes)?, m); // logical order again
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        fortran_order(fortran_order: bool) => fortran_order = Some(fortran_order);

        /// Force a format version (`(1, 0)`, `(2, 0)` or `(3, 0)`) instead of
        /// numpy's automatic choice.
        ///
        /// ```
        /// let bytes = npy_serde::WriteOptions::new().version(2, 0).to_vec(&[1u8])?;
        /// assert_eq!(&bytes[6..8], &[2, 0]);
        /// assert!(npy_serde::WriteOptions::new().version(4, 0).to_vec(&[1u8]).is_err());
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        version(major: u8, minor: u8) => version = Some((major, minor));
    }

    /// Whether [`to_path`](Self::to_path) syncs the file to the device
    /// before renaming it into place (`true`, the default: after a power
    /// loss the path holds the old file or the whole new one). `false`
    /// skips the syncs, as `np.save` does, and keeps the temporary file and
    /// the rename: the path never shows a half-written file while the
    /// machine stays up, and a write is as fast as the page cache.
    /// `to_writer` and `to_vec` are not affected.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("npy_serde_doc_durable_opt_{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("scratch.npy");
    /// let grid = npy_serde::NdArray::from_shape_vec(vec![2, 3], vec![0.5f64; 6])?;
    /// npy_serde::WriteOptions::new().durable(false).to_path(&path, &grid)?;
    /// assert_eq!(npy_serde::from_path::<npy_serde::NdArray<f64>>(&path)?, grid);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn durable(mut self, durable: bool) -> Self {
        self.durable = durable;
        self
    }
}

/// Limits and policies for reading untrusted files.
///
/// # Limits
///
/// Reading never allocates by what a file declares, only by what it holds:
/// `from_slice` checks the data length before decoding anything, and
/// `from_reader`/[`NpyReader`](crate::NpyReader) read a bounded chunk at a
/// time (at most 64 KiB ahead, growing only as bytes arrive), so a file
/// that promises a terabyte fails after reading what is there. The limits
/// below bound what bytes cannot: header parsing, nesting and values that
/// hold no bytes. Each is checked while the header is read, before any
/// data; the error names the option and the value that would pass.
///
/// | limit | default | bounds | raise with |
/// |---|---|---|---|
/// | header size | 10 000 characters (numpy's) | the header text, padding included; checked on the declared length before it is read (a v2 file claiming 4 GiB is refused at once) | [`max_header_size`](Self::max_header_size) |
/// | nesting depth | 64 | brackets nested in the header (a record level uses two) **and** levels of the value presented to serde (shape dims + subarray dims + record levels) | [`max_depth`](Self::max_depth) |
/// | elements | 2^32 | the product of the shape; each value holding no bytes (an empty record `[]`, also inside subarrays, or the empty sequences of a shape like `(1, 2**32, 0)`) counts as 2^16 elements, so 65536 of them by default | [`max_elements`](Self::max_elements) |
///
/// Shapes and sizes whose byte count overflows `u64` or this machine's
/// `usize` are always errors. Parsing is linear in the header's length.
///
/// Every deserializer recurses once per nesting level: the default depth
/// leaves a wide margin on a 2 MiB thread stack (a few hundred levels still
/// fit there in a debug build); raise `max_depth` far beyond numpy's own 99
/// record levels only with a larger stack.
///
/// ```
/// let bytes = npy_serde::to_vec(&[0.1f64, 0.5])?;
/// let opts = npy_serde::ReadOptions::new().max_header_size(200_000).lossy(true);
/// let v: Vec<f32> = opts.from_slice(&bytes)?; // lossy: 0.1 rounds to the nearest f32
/// assert_eq!(v, [0.1f32, 0.5]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ReadOptions {
    pub(crate) max_header_size: usize,
    pub(crate) max_elements: u64,
    pub(crate) lossy: bool,
    pub(crate) max_depth: usize,
    pub(crate) max_bytes: u64,
    /// The format of `'<f16'`/`'<c32'` (the file does not say).
    pub(crate) long_double: Option<crate::LongDouble>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_header_size: DEFAULT_MAX_HEADER_SIZE,
            max_elements: DEFAULT_MAX_ELEMENTS,
            lossy: false,
            max_depth: DEFAULT_MAX_DEPTH,
            max_bytes: u64::MAX,
            long_double: None,
        }
    }
}

impl ReadOptions {
    /// The defaults: header up to 10000 characters (numpy's default), at most
    /// 2^32 elements, depth 64, exact conversions only.
    ///
    /// ```
    /// let bytes = npy_serde::to_vec(&[1u16, 2])?;
    /// let a: Vec<u16> = npy_serde::ReadOptions::new().from_slice(&bytes)?;
    /// assert_eq!(a, npy_serde::from_slice::<Vec<u16>>(&bytes)?);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Limits for untrusted input, in one call: at most
    /// [`UNTRUSTED_MAX_BYTES`] (32 MiB) read, inflated and allocated per
    /// call ([`max_bytes`](Self::max_bytes)), at most
    /// [`UNTRUSTED_MAX_ELEMENTS`] (2^22) elements, numpy's 10,000-character
    /// header limit and a nesting depth of 64. Each limit can be changed by
    /// the builder methods after it
    /// (`ReadOptions::untrusted().max_bytes(256 << 20)`).
    ///
    /// Why these values: a target can hold up to twice what it is charged
    /// while its `Vec` doubles, so 32 MiB keeps one read under about 64 MiB
    /// of memory; 2^22 elements are 32 MiB of `'<f8'`, the same bound for the
    /// commonest dtype, and keep values that hold no bytes (empty records,
    /// charged 2^16 elements each) to 64 of them. Deflate inflates up to
    /// 1032 times, so a 33 KB `.npz` member can hold 33,554,433 bytes of
    /// `'|u1'` (1 GiB as `serde_json::Value`): under `untrusted()` it is
    /// refused before its data is inflated.
    ///
    /// ```
    /// use std::io::{Cursor, Write};
    /// // an archive whose one deflated member holds 2^23 zero bytes of '|u1'
    /// let mut w = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new())).compressed(true);
    /// w.add("big", &vec![0u8; 1 << 23])?;
    /// let archive = w.finish()?.into_inner();
    /// assert!(archive.len() < 100_000);
    /// let opts = npy_serde::ReadOptions::untrusted();
    /// let mut z = npy_serde::npz::NpzReader::with_options(Cursor::new(&archive), opts)?;
    /// let err = z.by_name::<serde_json::Value>("big").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "member 'big': limit exceeded: shape (8388608,) has 8388608 elements, more than \
    ///      max_elements 4194304; raise it with ReadOptions::max_elements(8388608)"
    /// );
    /// // every limit stays adjustable
    /// let opts = npy_serde::ReadOptions::untrusted().max_elements(1 << 24);
    /// let mut z = npy_serde::npz::NpzReader::with_options(Cursor::new(&archive), opts)?;
    /// assert_eq!(z.by_name::<Vec<u8>>("big")?.len(), 1 << 23);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn untrusted() -> Self {
        ReadOptions {
            max_elements: UNTRUSTED_MAX_ELEMENTS,
            max_bytes: UNTRUSTED_MAX_BYTES,
            ..ReadOptions::default()
        }
    }

    setters! {
        /// Largest header accepted, in characters as numpy counts them (the
        /// decoded text, padding included).
        ///
        /// ```
        /// let bytes = npy_serde::to_vec(&[1u8])?; // a 118-character header
        /// let small = npy_serde::ReadOptions::new().max_header_size(100);
        /// assert!(small.from_slice::<Vec<u8>>(&bytes).is_err());
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        max_header_size(n: usize) => max_header_size = n;

        /// Largest number of elements (product of the shape, subarray dims
        /// folded in) handed to serde. Values that hold no bytes (empty
        /// records, and the empty sequences of shapes and subarrays with a 0
        /// dim) are not bounded by the file's size, so each counts as 2^16
        /// elements: 65536 of them pass the default limit (an array of shape
        /// `(65536, 0)` reads; `(10**6, 0)` needs a higher limit).
        ///
        /// # What a read can cost
        ///
        /// Nothing is allocated from a claim: a header's shape, a zip
        /// directory's sizes are checked against the bytes actually present
        /// before memory is reserved, and collections grow as data arrives. So a
        /// read costs what the *target* makes of the elements really in the
        /// file, and this limit is what bounds it:
        ///
        /// | target | memory per element |
        /// |---|---|
        /// | `Vec<f64>`, `Vec<u8>`, `serde_bytes::ByteBuf` | its size (8, 1, 1 bytes); a `Vec` may hold up to twice that while it doubles |
        /// | `Vec<T>` of a derived struct | `size_of::<T>()` plus what its fields own (a `String` field: 24 bytes and its text) |
        /// | `serde_json::Value` | 32 bytes per number (the enum), up to 64 while its `Vec` doubles; a record also a map with one `String` key per field (about 100 bytes per field) |
        ///
        /// Time is linear in the elements; the element count is known from the
        /// header before any data is read. Measured in a release build on a
        /// busy 2-core machine: 19 ns per `'<f8'` element into `Vec<f64>` (a
        /// copy through [`Bulk`](crate::Bulk)) and 236 ns into
        /// `serde_json::Value`; a 49-byte record of 5 fields (11 numbers) 320 ns
        /// into a derived struct and 6.8 µs into `serde_json::Value`.
        ///
        /// **Deflate amplifies**: an `.npz` member inflates up to about 1000
        /// times its compressed size, so 33 KB of archive can really hold
        /// 33,554,433 bytes of `'|u1'`, which read into `serde_json::Value`
        /// would take about 1 GiB (2 GiB at the `Vec`'s last doubling). The
        /// default limit of 2^32 elements is meant for trusted files; a service
        /// reading untrusted files should derive it from its memory budget per
        /// read and its target: `budget / bytes per element`, e.g.
        /// `max_elements(1 << 24)` (16 M elements: 512 MiB as
        /// `serde_json::Value`, 128 MiB as `Vec<f64>`), keep the default
        /// [`max_header_size`](ReadOptions::max_header_size) and
        /// [`max_depth`](ReadOptions::max_depth), and bound the file size it
        /// accepts. The same limit bounds [`NpzReader::raw`](crate::npz::NpzReader::raw)
        /// in bytes. A refusal names the member and the limit:
        ///
        /// ```text
        /// member 'big': limit exceeded: shape (33554433,) has 33554433 elements, more than max_elements 16777216; raise it with ReadOptions::max_elements(33554433)
        /// ```
        ///
        /// ```
        /// # fn npy(descr: &str, shape: &str) -> Vec<u8> {
        /// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
        /// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
        /// #     v.extend(format!("{dict:<117}\n").bytes());
        /// #     v
        /// # }
        /// // a hundred thousand empty records in a 128-byte file
        /// let file = npy("[]", "(100000,)");
        /// let err = npy_serde::from_slice::<Vec<()>>(&file).unwrap_err();
        /// assert!(err.to_string().contains("values that hold no bytes"));
        /// let opts = npy_serde::ReadOptions::new().max_elements(1 << 40);
        /// assert_eq!(opts.from_slice::<Vec<()>>(&file)?.len(), 100_000);
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        max_elements(n: u64) => max_elements = n;

        /// Allow conversions that round (`<f8` 0.1 into `f32`, `<i8` above 2^53
        /// into `f64`). Integer conversions that would change a value are
        /// always errors.
        ///
        /// ```
        /// let bytes = npy_serde::to_vec(&[0.1f64])?;
        /// assert!(npy_serde::from_slice::<Vec<f32>>(&bytes).is_err()); // 0.1 is not an f32
        /// let lossy = npy_serde::ReadOptions::new().lossy(true);
        /// assert_eq!(lossy.from_slice::<Vec<f32>>(&bytes)?, [0.1f32]);
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        lossy(lossy: bool) => lossy = lossy;

        /// Deepest nesting of records and subarrays in a descr, counted in
        /// bracket levels while the text is parsed: each `[` and `(` is one
        /// level, so a nested record (`[('a', [...])]`) uses two and a subarray
        /// shape one; the header dict's own `{` is not counted. The default 64
        /// allows 32 nested records (numpy itself stops at 99, CPython's limit
        /// of 200 brackets).
        ///
        /// The same limit applies to the value presented to serde: one level
        /// per dimension of the shape and of subarrays and per record, so a
        /// shape tuple of 65 ones (a single bracket level) is refused too.
        ///
        /// ```
        /// let bytes = npy_serde::to_vec(&[[[1u8]]])?; // shape (1, 1, 1): three levels
        /// assert!(npy_serde::ReadOptions::new().max_depth(2).from_slice::<serde_json::Value>(&bytes).is_err());
        /// let v: serde_json::Value = npy_serde::ReadOptions::new().max_depth(3).from_slice(&bytes)?;
        /// assert_eq!(v, serde_json::json!([[[1]]]));
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        max_depth(n: usize) => max_depth = n;

        /// Most bytes one read call may read, inflate and allocate (unlimited by
        /// default). Each call is charged before the bytes are read: the data
        /// the array's header describes (what the target holds of it), the raw
        /// bytes of an `.npz` member that is not `.npy`, and, where a generic
        /// target (`deserialize_any`, such as `serde_json::Value`) takes a whole
        /// array or member, 64 bytes for every value it builds (each number, each
        /// sequence, each record field's key and value), since a
        /// `serde_json::Value` node costs far more than the bytes it holds. The
        /// charges of one call add up: all members of one
        /// [`npz::from_reader`](crate::npz::from_reader), one
        /// [`NpzReader::by_name`](crate::npz::NpzReader::by_name). A refusal
        /// names the limit and the value that would pass.
        ///
        /// The streaming readers ([`NpyReader`](crate::NpyReader),
        /// [`NpzReader::reader`](crate::npz::NpzReader::reader)) hold one record
        /// at a time and are not charged; a generic value nested inside a typed
        /// target (`Vec<serde_json::Value>`) is charged for its bytes only.
        ///
        /// ```
        /// let bytes = npy_serde::to_vec(&vec![7u8; 1000])?;
        /// let opts = npy_serde::ReadOptions::new().max_bytes(10_000);
        /// // 1000 bytes of data into Vec<u8>: within the budget
        /// assert_eq!(opts.from_slice::<Vec<u8>>(&bytes)?.len(), 1000);
        /// // the same into serde_json::Value: 1000 bytes + 1001 values of 64 bytes
        /// let err = opts.from_slice::<serde_json::Value>(&bytes).unwrap_err();
        /// assert_eq!(
        ///     err.to_string(),
        ///     "limit exceeded: reading the array's 1000 elements into a generic value \
        ///      (deserialize_any, such as serde_json::Value: 64 bytes a value) takes 64064 bytes \
        ///      (with the 1000 bytes this call has already read), more than max_bytes 10000; \
        ///      raise it with ReadOptions::max_bytes(65064)"
        /// );
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        max_bytes(n: u64) => max_bytes = n;
        /// The format of the file's long doubles (`'<f16'`, `'<c32'`; `'<f12'`,
        /// `'<c24'` from 32-bit x86), which the file does not record: x87
        /// extended precision when numpy ran on x86 Linux (scipy's
        /// `fftw_longdouble_ref.npz`, say), IEEE binary128 on aarch64,
        /// double-double on ppc64le (see [`LongDouble`](crate::LongDouble)).
        /// With [`lossy(true)`](Self::lossy) too, they read into `f64`, `f32`,
        /// `Complex<f64>`/`Complex<f32>` and self-describing targets (as `f64`),
        /// rounded to nearest (ties to even), as numpy's `astype(np.float64)`
        /// rounds; without both they are refused, the message naming what is
        /// missing. Writing long doubles is not supported.
        ///
        /// ```
        /// use npy_serde::{LongDouble, ReadOptions};
        /// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
        /// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
        /// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
        /// #     v.extend(format!("{dict:<117}\n").bytes());
        /// #     v.extend_from_slice(data);
        /// #     v
        /// # }
        /// // -2.5 in binary128 (numpy on aarch64): sign, exponent 0x4000, fraction 0.25
        /// let mut q = [0u8; 16];
        /// q[13] = 0x40;
        /// q[14] = 0x00;
        /// q[15] = 0xc0;
        /// let file = npy("'<f16'", "(1,)", &q);
        /// let err = ReadOptions::new().lossy(true).from_slice::<Vec<f64>>(&file).unwrap_err();
        /// assert!(err.to_string().contains("ReadOptions::long_double(LongDouble::X87)"));
        /// let opts = ReadOptions::new().long_double(LongDouble::Binary128).lossy(true);
        /// assert_eq!(opts.from_slice::<Vec<f64>>(&file)?, [-2.5]);
        /// let v: serde_json::Value = opts.from_slice(&file)?;
        /// assert_eq!(v, serde_json::json!([-2.5]));
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        long_double(format: crate::LongDouble) => long_double = Some(format);
    }
}

/// [`ReadOptions::max_bytes`] of [`ReadOptions::untrusted`]: 32 MiB.
///
/// ```
/// assert_eq!(npy_serde::UNTRUSTED_MAX_BYTES, 32 << 20);
/// ```
pub const UNTRUSTED_MAX_BYTES: u64 = 32 << 20;

/// [`ReadOptions::max_elements`] of [`ReadOptions::untrusted`]: 2^22.
///
/// ```
/// assert_eq!(npy_serde::UNTRUSTED_MAX_ELEMENTS, 1 << 22);
/// ```
pub const UNTRUSTED_MAX_ELEMENTS: u64 = 1 << 22;
