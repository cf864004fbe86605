//! [`NpyObject`]: an `.npy` object read by its header and ranged GETs,
//! written by put or multipart upload.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::ops::Range;
use std::sync::Arc;

use ::object_store::path::Path;
use ::object_store::{GetRange, ObjectStore};
use bytes::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{HEAD, Multipart, PART, SINGLE_PUT, get, get_range, upload};
use crate::array::nd::Order;
use crate::budget::Budget;
use crate::de::check_readable;
use crate::de::data::{check_data_len, deserialize_data_in};
use crate::error::{Error, Result};
use crate::format::dtype::Dtype;
use crate::format::header::Header;
use crate::format::header_read::{
    ParsedHeader, check_element_limits, declared_data_offset, parse_header,
};
use crate::npy::npy_writer::NpyWriter;
use crate::npy::rows::{checked_window, whole_array};
use crate::options::{ReadOptions, WriteOptions};

/// An `.npy` file in an object store, its header read: the whole array or
/// rows of it are then read with one GET each (see the [module
/// docs](super) for the requests of every call).
///
/// ```
/// # use std::sync::Arc;
/// # use object_store::{ObjectStore, memory::InMemory};
/// use npy_serde::object_store::NpyObject;
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let waker = std::task::Waker::noop();
/// #     let mut cx = std::task::Context::from_waker(&waker);
/// #     let mut f = std::pin::pin!(f);
/// #     loop {
/// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
/// #     }
/// # }
/// # block_on(async {
/// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
/// NpyObject::put(&*store, "x.npy", &[[1u16, 2], [3, 4], [5, 6]]).await?;
/// let x = NpyObject::open(store, "x.npy").await?;
/// assert_eq!(x.dtype().to_string(), "'<u2'");
/// assert_eq!((x.shape(), x.len()), (&[3, 2][..], 3));
/// assert_eq!(x.read::<Vec<[u16; 2]>>().await?, [[1, 2], [3, 4], [5, 6]]);
/// let err = x.rows::<Vec<[u16; 2]>>(2..4).await.unwrap_err();
/// assert_eq!(err.to_string(), "object 'x.npy': rows 2..4 of 3: the range ends past the first axis");
/// # Ok::<(), npy_serde::Error>(())
/// # }).unwrap();
/// ```
pub struct NpyObject {
    store: Arc<dyn ObjectStore>,
    path: Path,
    options: ReadOptions,
    parsed: ParsedHeader,
    /// The object's size, as the store reported it with the first GET.
    size: u64,
    /// The object's first bytes: the header, and whatever data followed it.
    head: Bytes,
}

impl std::fmt::Debug for NpyObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NpyObject")
            .field("store", &format_args!("{}", self.store))
            .field("path", &self.path.as_ref())
            .field("header", &self.parsed.header)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl NpyObject {
    /// Opens the `.npy` object at `path` with the default [`ReadOptions`]:
    /// reads and checks its header (one GET, see [`NpyObject::open_with`]).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::{ObjectStore, memory::InMemory};
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let waker = std::task::Waker::noop();
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     let mut f = std::pin::pin!(f);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    /// # block_on(async {
    /// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// let err = npy_serde::object_store::NpyObject::open(store, "none.npy").await.unwrap_err();
    /// assert!(err.to_string().starts_with("GET bytes 0..65536 of object 'none.npy': "), "{err}");
    /// # });
    /// ```
    pub async fn open(store: Arc<dyn ObjectStore>, path: impl Into<Path>) -> Result<Self> {
        Self::open_with(store, path, ReadOptions::new()).await
    }

    /// Opens the `.npy` object at `path`, to be read with `options`
    /// (limits, `lossy`). One GET of the object's first 64 KiB, which holds
    /// the header of any file numpy writes; a second GET only for a longer
    /// header (a raised [`ReadOptions::max_header_size`]). The header is
    /// checked as [`from_slice`](crate::from_slice) checks it, and the
    /// shape against the object's size.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::{ObjectStore, ObjectStoreExt, memory::InMemory};
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let waker = std::task::Waker::noop();
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     let mut f = std::pin::pin!(f);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    /// # block_on(async {
    /// use npy_serde::object_store::NpyObject;
    /// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// let mut file = npy_serde::to_vec(&vec![0u32; 100])?;
    /// file.truncate(file.len() - 1);
    /// store.put(&"cut.npy".into(), file.into()).await.unwrap();
    /// let err = NpyObject::open(store.clone(), "cut.npy").await.unwrap_err();
    /// assert!(err.to_string().starts_with("object 'cut.npy': "), "{err}");
    /// let opts = npy_serde::ReadOptions::new().max_elements(10);
    /// NpyObject::put(&*store, "big.npy", &vec![0u32; 100]).await?;
    /// let big = NpyObject::open_with(store, "big.npy", opts).await?;
    /// assert!(big.read::<Vec<u32>>().await.is_err());
    /// assert_eq!(big.rows::<Vec<u32>>(0..10).await?, [0; 10]);
    /// # Ok::<(), npy_serde::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn open_with(
        store: Arc<dyn ObjectStore>,
        path: impl Into<Path>,
        options: ReadOptions,
    ) -> Result<Self> {
        let path = path.into();
        let (parsed, size, head) = read_header(&*store, &path, &options)
            .await
            .map_err(|e| e.in_object(path.as_ref()))?;
        Ok(NpyObject {
            store,
            path,
            options,
            parsed,
            size,
            head,
        })
    }

    /// The header: dtype, order, shape.
    pub fn header(&self) -> &Header {
        &self.parsed.header
    }

    /// The dtype of the array's elements.
    pub fn dtype(&self) -> &Dtype {
        &self.parsed.header.descr
    }

    /// The array's shape.
    pub fn shape(&self) -> &[u64] {
        &self.parsed.header.shape
    }

    /// How the data is laid out (the header's `fortran_order`, normalised
    /// as [`Order::of`] does).
    pub fn order(&self) -> Order {
        Order::of_header(self.parsed.header.fortran_order, &self.parsed.header.shape)
    }

    /// The first dimension (the number of rows [`NpyObject::rows`] takes
    /// from), or 1 for a 0-d array, as [`NpyReader::len`](crate::NpyReader::len).
    pub fn len(&self) -> u64 {
        self.parsed.header.shape.first().copied().unwrap_or(1)
    }

    /// Whether the first dimension is 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The object's size in bytes, as the store reported it.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Reads the whole array into `T`, as [`from_slice`](crate::from_slice)
    /// reads the file: records, `NdArray<T>`, `Vec<T>`, `Bulk<T>`, any
    /// `DeserializeOwned`. One GET of the data (none when the object is
    /// under 64 KiB: `open` read it all).
    pub async fn read<T: DeserializeOwned>(&self) -> Result<T> {
        self.read_all()
            .await
            .map_err(|e| e.in_object(self.path.as_ref()))
    }

    async fn read_all<T: DeserializeOwned>(&self) -> Result<T> {
        let header = &self.parsed.header;
        check_element_limits(header, self.options.max_elements)?;
        let budget = Budget::new(self.options.max_bytes);
        budget.charge_data(header)?;
        let data = self.bytes(self.data_offset()..self.size).await?;
        deserialize_data_in(
            header,
            &data,
            self.options.cfg(),
            self.options.max_elements,
            &budget,
        )
    }

    /// Reads rows `range` of the first axis into `T`: what
    /// [`from_slice_rows`](crate::from_slice_rows) reads, refusing the
    /// same arrays (Fortran order of two or more axes, 0-d) and ranges.
    /// One GET of exactly the rows' bytes (none when they lie in the
    /// object's first 64 KiB, which `open` read). `max_elements` and
    /// `max_bytes` apply to the rows.
    pub async fn rows<T: DeserializeOwned>(&self, range: Range<u64>) -> Result<T> {
        self.read_rows(range)
            .await
            .map_err(|e| e.in_object(self.path.as_ref()))
    }

    async fn read_rows<T: DeserializeOwned>(&self, range: Range<u64>) -> Result<T> {
        let budget = Budget::new(self.options.max_bytes);
        let w = checked_window(
            &self.parsed.header,
            &range,
            self.options.max_elements,
            &budget,
        )?;
        // within the data, which was checked to end at the object's end
        let start = self.data_offset().saturating_add(w.start);
        let rows = self.bytes(start..start.saturating_add(w.len)).await?;
        deserialize_data_in(
            &w.header,
            &rows,
            self.options.cfg(),
            self.options.max_elements,
            &budget,
        )
    }

    fn data_offset(&self) -> u64 {
        self.parsed.data_offset as u64
    }

    /// Bytes `range` of the object: from the first bytes where they hold
    /// them, else one GET.
    async fn bytes(&self, range: Range<u64>) -> Result<Bytes> {
        let (Ok(start), Ok(end)) = (usize::try_from(range.start), usize::try_from(range.end))
        else {
            return get_range(&*self.store, &self.path, range).await;
        };
        match self.head.get(start..end) {
            Some(_) => Ok(self.head.slice(start..end)),
            None => get_range(&*self.store, &self.path, range).await,
        }
    }

    /// Writes `value` as an `.npy` object at `path`: the bytes
    /// [`to_vec`](crate::to_vec) gives, encoded in memory, then one PUT (up
    /// to 16 MiB) or a multipart upload in 8 MiB parts. An async upload
    /// cannot pause inside a serde walk, so the whole file is encoded
    /// first; [`NpyObject::put_records`] encodes a slice of records part by
    /// part instead.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::{ObjectStore, ObjectStoreExt, memory::InMemory};
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let waker = std::task::Waker::noop();
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     let mut f = std::pin::pin!(f);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    /// # block_on(async {
    /// let store = InMemory::new();
    /// npy_serde::object_store::NpyObject::put(&store, "a.npy", &[1.5f64, 2.5]).await?;
    /// let got = store.get(&"a.npy".into()).await.unwrap().bytes().await.unwrap();
    /// assert_eq!(got, npy_serde::to_vec(&[1.5f64, 2.5])?);
    /// # Ok::<(), npy_serde::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn put<T: ?Sized + Serialize>(
        store: &dyn ObjectStore,
        path: impl Into<Path>,
        value: &T,
    ) -> Result<()> {
        let path = path.into();
        let bytes = crate::to_vec(value).map_err(|e| e.in_object(path.as_ref()))?;
        upload(store, &path, bytes).await
    }

    /// Writes `records` as an `.npy` object at `path`, encoding them part
    /// by part as they go up, so memory stays at about one 8-MiB part: the
    /// bytes are those of [`to_vec`](crate::to_vec) of the slice (string
    /// widths widened over all the records, by a first pass that encodes
    /// nothing). Up to 16 MiB, one PUT; above, a multipart upload, aborted
    /// if a record fails to encode or a part fails to go up.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::{ObjectStore, ObjectStoreExt, memory::InMemory};
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let waker = std::task::Waker::noop();
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     let mut f = std::pin::pin!(f);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    /// # block_on(async {
    /// #[derive(serde::Serialize)]
    /// struct Hit { id: u32, name: String }
    /// let hits = vec![Hit { id: 1, name: "a".into() }, Hit { id: 2, name: "bcd".into() }];
    /// let store = InMemory::new();
    /// npy_serde::object_store::NpyObject::put_records(&store, "hits.npy", &hits).await?;
    /// let got = store.get(&"hits.npy".into()).await.unwrap().bytes().await.unwrap();
    /// assert_eq!(got, npy_serde::to_vec(&hits)?);
    /// assert!(String::from_utf8_lossy(&got).contains("('name', '<U3')"));
    /// # Ok::<(), npy_serde::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn put_records<T: Serialize>(
        store: &dyn ObjectStore,
        path: impl Into<Path>,
        records: &[T],
    ) -> Result<()> {
        let path = path.into();
        let named = |e: Error| e.in_object(path.as_ref());
        let (writer, data_len) = records_writer(records).map_err(named)?;
        let Some(mut w) = writer else {
            // records that are n-d arrays: encoded whole
            return Self::put(store, path, records).await;
        };
        if data_len <= (SINGLE_PUT as u64).saturating_sub(HEAD) {
            for r in records {
                w.serialize(r).map_err(named)?;
            }
            let bytes = w.finish().map_err(named)?;
            return upload(store, &path, bytes).await;
        }
        let mut parts = Multipart::start(store, &path).await?;
        for r in records {
            if let Err(e) = w.serialize(r) {
                return Err(parts.abort(named(e)).await);
            }
            if w.get_mut().len() >= PART {
                parts.put(Bytes::from(std::mem::take(w.get_mut()))).await?;
            }
        }
        match w.finish() {
            Ok(rest) => parts.put(Bytes::from(rest)).await?,
            Err(e) => return Err(parts.abort(named(e)).await),
        }
        parts.complete().await
    }
}

/// The writer `records` are encoded into, with the dtype and shape
/// [`to_vec`](crate::to_vec) of the slice gives, and the data's size;
/// `None` for records that are n-d arrays (`NdArray`).
fn records_writer<T: Serialize>(records: &[T]) -> Result<(Option<NpyWriter<Vec<u8>>>, u64)> {
    let plan = crate::ser::plan(&records, &WriteOptions::new())?;
    if plan.nd.is_some() {
        return Ok((None, 0));
    }
    let header = Header::new(plan.dtype.clone(), false, plan.shape.clone());
    let data_len = header.data_len()?;
    let record = match plan.shape.get(1..) {
        Some(dims) if !dims.is_empty() => Dtype::Subarray(Box::new(plan.dtype), dims.to_vec()),
        _ => plan.dtype,
    };
    let writer = NpyWriter::with_len(Vec::new(), Some(record), records.len() as u64);
    Ok((Some(writer), data_len))
}

/// Reads and checks the header of the object at `path`: one GET of its
/// first [`HEAD`] bytes, a second for a longer header. Returns the header,
/// the object's size and the bytes read.
async fn read_header(
    store: &dyn ObjectStore,
    path: &Path,
    options: &ReadOptions,
) -> Result<(ParsedHeader, u64, Bytes)> {
    let first = get(store, path, GetRange::Bounded(0..HEAD)).await?;
    let (size, mut head) = (first.size, first.bytes);
    // the element limit applies to what is read: a whole array or rows
    let header_options = whole_array(options);
    // a header longer than the first bytes, within the limit on its size
    // (a longer claim is refused by the parse below, reading no more)
    let longest = options.max_header_size.saturating_mul(4).saturating_add(12) as u64;
    if let Some(end) = declared_data_offset(&head) {
        if end > head.len() as u64 && end <= size.min(longest) {
            head = get_range(store, path, 0..end).await?;
        }
    }
    let parsed = parse_header(&head, &header_options)?;
    check_readable(&parsed.header.descr)?;
    check_data_len(
        &parsed.header,
        size.saturating_sub(parsed.data_offset as u64),
    )?;
    Ok((parsed, size, head))
}
