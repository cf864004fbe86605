//! [`NpzObject`]: an `.npz` object read from its end (the zip directory)
//! and member by member with ranged GETs, written by put or multipart
//! upload.
//!
//! Every member is read by the file API's own [`NpzReader`], over a
//! [`Fetched`] stream that holds the bytes fetched so far: the directory
//! checks, limits, CRC-32 and messages are the file API's. Each call
//! fetches first the bytes the reader is about to read, which the
//! directory tells: a member's bytes run from its local header to the next
//! member's (or the directory).

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::ops::Range;
use std::sync::Arc;

use ::object_store::ObjectStore;
use ::object_store::path::Path;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::fetched::Fetched;
use super::{HEAD, get_range, get_tail, upload};
use crate::error::Result;
use crate::npz::extent::{Extent, TAIL};
use crate::npz::{NpzOptions, NpzReader};
use crate::options::ReadOptions;

/// An `.npz` archive in an object store, its directory read: members are
/// then read with one GET each, and rows of a stored member with one or
/// two (see the [module docs](super) for the requests of every call). Keys
/// are member names with one `.npy` suffix removed, and a member is found
/// by its key or its full name, as [`NpzReader`] finds them.
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
/// use npy_serde::object_store::NpzObject;
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Run { time: Vec<f64>, ids: Vec<u32> }
/// let run = Run { time: vec![0.0, 0.5, 1.0], ids: vec![7, 8, 9] };
/// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
/// NpzObject::put(&*store, "run.npz", &run).await?;
///
/// let z = NpzObject::open(store, "run.npz").await?;
/// assert_eq!(z.names(), ["time", "ids"]);
/// assert_eq!(z.by_name::<Vec<u32>>("ids").await?, [7, 8, 9]);
/// assert_eq!(z.rows::<Vec<f64>>("time", 1..3).await?, [0.5, 1.0]);
/// assert_eq!(z.read::<Run>().await?, run);
/// let err = z.by_name::<Vec<u32>>("idx").await.unwrap_err();
/// assert_eq!(err.to_string(), "object 'run.npz', member 'idx': not in the archive; it has 'time', 'ids'");
/// # Ok::<(), npy_serde::Error>(())
/// # }).unwrap();
/// ```
pub struct NpzObject {
    store: Arc<dyn ObjectStore>,
    path: Path,
    options: ReadOptions,
    /// The archive's end (and its directory where that lies before it).
    fetched: Fetched,
    /// Where the bytes `open` read from the end start.
    tail_at: u64,
    size: u64,
    names: Vec<String>,
}

impl std::fmt::Debug for NpzObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NpzObject")
            .field("store", &format_args!("{}", self.store))
            .field("path", &self.path.as_ref())
            .field("names", &self.names)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl NpzObject {
    /// Opens the `.npz` object at `path` with the default [`ReadOptions`]
    /// (see [`NpzObject::open_with`]).
    pub async fn open(store: Arc<dyn ObjectStore>, path: impl Into<Path>) -> Result<Self> {
        Self::open_with(store, path, ReadOptions::new()).await
    }

    /// Opens the `.npz` object at `path`, its members to be read with
    /// `options`: one GET of its last 64 KiB + 22 bytes, which holds the
    /// end of central directory record (zip64 included) and, for any
    /// archive of fewer than about a thousand members, the directory; else
    /// one GET more of the directory. The directory is checked as
    /// [`NpzReader::with_options`] checks it, against the object's size.
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
    /// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// let mut file = std::io::Cursor::new(Vec::new());
    /// npy_serde::npz::to_writer(&mut file, &(vec![1u8, 2],))?;
    /// let mut file = file.into_inner();
    /// file.truncate(file.len() - 30);
    /// store.put(&"cut.npz".into(), file.into()).await.unwrap();
    /// let err = npy_serde::object_store::NpzObject::open(store, "cut.npz").await.unwrap_err();
    /// assert!(err.to_string().starts_with("object 'cut.npz': not a readable .npz (zip) archive"), "{err}");
    /// # Ok::<(), npy_serde::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn open_with(
        store: Arc<dyn ObjectStore>,
        path: impl Into<Path>,
        options: ReadOptions,
    ) -> Result<Self> {
        let path = path.into();
        let (fetched, tail_at, size, names) = read_directory(&*store, &path, &options)
            .await
            .map_err(|e| e.in_object(path.as_ref()))?;
        Ok(NpzObject {
            store,
            path,
            options,
            fetched,
            tail_at,
            size,
            names,
        })
    }

    /// The keys (member names without one `.npy` suffix), in archive order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the archive has no members.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The object's size in bytes, as the store reported it.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Reads member `name` into `T`, as [`NpzReader::by_name`] reads it:
    /// one GET of the member's bytes (local header and data), stored or
    /// deflated; its CRC-32 is checked.
    pub async fn by_name<T: DeserializeOwned>(&self, name: &str) -> Result<T> {
        self.member(name)
            .await
            .map_err(|e| e.in_object(self.path.as_ref()))
    }

    async fn member<T: DeserializeOwned>(&self, name: &str) -> Result<T> {
        let mut fetched = self.fetched.clone();
        let (_, span, _) = self.reader(fetched.clone())?.span(name)?;
        self.fetch(&mut fetched, span).await?;
        self.reader(fetched)?.by_name(name)
    }

    /// Reads rows `range` of the first axis of member `name` into `T`, as
    /// [`NpzReader::rows`] reads them. A stored member: one GET of its
    /// first 64 KiB (its local and npy headers), and one of exactly the
    /// rows' bytes unless they lie in it. A deflated member is inflated up
    /// to the rows: one GET of the member. `max_elements` and `max_bytes`
    /// apply to the rows.
    pub async fn rows<T: DeserializeOwned>(&self, name: &str, range: Range<u64>) -> Result<T> {
        self.member_rows(name, range)
            .await
            .map_err(|e| e.in_object(self.path.as_ref()))
    }

    async fn member_rows<T: DeserializeOwned>(&self, name: &str, range: Range<u64>) -> Result<T> {
        let mut fetched = self.fetched.clone();
        let (_, span, stored) = self.reader(fetched.clone())?.span(name)?;
        if !stored {
            self.fetch(&mut fetched, span).await?;
            return self.reader(fetched)?.rows(name, range);
        }
        let head_end = span.end.min(span.start.saturating_add(HEAD));
        self.fetch(&mut fetched, span.start..head_end).await?;
        let data = self.reader(fetched.clone())?.data_range(name)?;
        // a range the member's shape refuses is refused by `rows` below,
        // with its message, before it reads any row
        if let Ok(w) = crate::npy::rows::window(data.header(), &range) {
            let start = data.range().start.saturating_add(w.start);
            // within the member's data (the window is checked against its
            // shape), which data_range checked to lie in the archive
            self.fetch(&mut fetched, start..start.saturating_add(w.len))
                .await?;
        }
        self.reader(fetched)?.rows(name, range)
    }

    /// Reads the whole archive into `T`, as
    /// [`npz::from_reader`](crate::npz::from_reader) reads it (a struct or
    /// map of members, a tuple of them in order): one GET of the archive's
    /// bytes before those `open` read.
    pub async fn read<T: DeserializeOwned>(&self) -> Result<T> {
        self.read_all()
            .await
            .map_err(|e| e.in_object(self.path.as_ref()))
    }

    async fn read_all<T: DeserializeOwned>(&self) -> Result<T> {
        let mut fetched = self.fetched.clone();
        self.fetch(&mut fetched, 0..self.tail_at).await?;
        self.reader(fetched)?.read_all()
    }

    /// The file API's reader over `fetched`.
    fn reader(&self, fetched: Fetched) -> Result<NpzReader<Fetched>> {
        NpzReader::with_options(fetched, self.options.clone())
    }

    /// Fetches `range` into `fetched` unless it holds it already.
    async fn fetch(&self, fetched: &mut Fetched, range: Range<u64>) -> Result<()> {
        if !fetched.covers(&range) {
            let bytes = get_range(&*self.store, &self.path, range.clone()).await?;
            fetched.add(range.start, bytes);
        }
        Ok(())
    }

    /// Writes `value` as an `.npz` object at `path`, its members stored (as
    /// [`npz::to_writer`](crate::npz::to_writer) writes them, numpy's
    /// `np.savez`): encoded in memory, then one PUT (up to 16 MiB) or a
    /// multipart upload in 8 MiB parts.
    pub async fn put<T: ?Sized + Serialize>(
        store: &dyn ObjectStore,
        path: impl Into<Path>,
        value: &T,
    ) -> Result<()> {
        Self::put_with(store, path, &NpzOptions::new(), value).await
    }

    /// [`NpzObject::put`] with these options (deflated members, a
    /// compression level).
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
    /// use npy_serde::{npz::NpzOptions, object_store::NpzObject};
    /// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    /// let columns = (vec![0.0f64; 10_000], vec![1u8; 10_000]);
    /// NpzObject::put_with(&*store, "c.npz", &NpzOptions::new().compressed(true), &columns).await?;
    /// let z = NpzObject::open(store, "c.npz").await?;
    /// assert!(z.size() < 2_000);
    /// assert_eq!(z.rows::<Vec<u8>>("arr_1", 10..12).await?, [1, 1]);
    /// # Ok::<(), npy_serde::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn put_with<T: ?Sized + Serialize>(
        store: &dyn ObjectStore,
        path: impl Into<Path>,
        options: &NpzOptions,
        value: &T,
    ) -> Result<()> {
        let path = path.into();
        let mut file = std::io::Cursor::new(Vec::new());
        options
            .to_writer(&mut file, value)
            .map_err(|e| e.in_object(path.as_ref()))?;
        upload(store, &path, file.into_inner()).await
    }
}

/// Reads the end of the archive at `path` and its directory: the bytes
/// fetched, where the tail starts, the object's size, and the keys.
async fn read_directory(
    store: &dyn ObjectStore,
    path: &Path,
    options: &ReadOptions,
) -> Result<(Fetched, u64, u64, Vec<String>)> {
    let tail = get_tail(store, path, TAIL).await?;
    let mut fetched = Fetched::new(tail.size);
    fetched.add(tail.at, tail.bytes);
    let directory = Extent::directory_range(&mut fetched.clone(), tail.size)?;
    if !fetched.covers(&directory) {
        let bytes = get_range(store, path, directory.clone()).await?;
        fetched.add(directory.start, bytes);
    }
    let names = NpzReader::with_options(fetched.clone(), options.clone())?
        .names()
        .to_vec();
    Ok((fetched, tail.at, tail.size, names))
}
