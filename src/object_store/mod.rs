//! `.npy` and `.npz` files in object storage (S3, GCS, Azure, MinIO, a
//! local directory), read by ranged GETs and written by put or multipart
//! upload, through the `object_store` crate's
//! [`ObjectStore`] trait (feature `object_store`).
//!
//! The first byte of a request to a cloud store takes 100–200 ms, so what
//! costs is the number of requests. [`NpyObject`] reads a header with one
//! GET and then exactly the bytes asked for; [`NpzObject`] reads an
//! archive's directory from its end with one GET and then only the members
//! asked for. Everything the file API checks is checked here, against the
//! object's size as the store reports it: header limits, the shape against
//! the bytes present, element and byte limits ([`ReadOptions`](crate::ReadOptions)), the zip
//! directory's offsets, the CRC-32 of a member read whole.
//!
//! # Requests
//!
//! The counts are part of the API: the tests count them with a store that
//! wraps another.
//!
//! | call | requests |
//! |---|---|
//! | [`NpyObject::open`] | 1 GET of the first 64 KiB (a second only for a longer header); the object's size comes with it |
//! | [`NpyObject::read`] | 1 GET of the data (none when the object is under 64 KiB: the first GET holds it) |
//! | [`NpyObject::rows`] | 1 GET of exactly those rows' bytes |
//! | [`NpzObject::open`] | 1 GET of the last 64 KiB + 22 bytes (a suffix range), which holds the end records and the directory of any archive of fewer than about a thousand members; else 1 more GET of the directory |
//! | [`NpzObject::by_name`] | 1 GET of the member's bytes (local header and data, stored or deflated) |
//! | [`NpzObject::rows`] of a stored member | 1 GET of the member's first 64 KiB (local header and npy header), 1 more for the rows unless they lie in it; a deflated member: 1 GET of the member |
//! | [`NpzObject::read`] | 1 GET of the archive before the bytes `open` read |
//! | [`NpyObject::put`], [`NpzObject::put`] | 1 PUT up to 16 MiB; above, a multipart upload: 1 request to start, 1 per 8 MiB part, 1 to complete |
//! | [`NpyObject::put_records`] | as `put`, the parts encoded one after another |
//!
//! So a row range of an `.npy` object costs 2 requests in all, a whole npz
//! member 2 (3 when the directory is not in the tail), and a row range of
//! a stored npz member 3, or 2 when its rows lie in its first 64 KiB.
//!
//! Azure refuses suffix ranges: there [`NpzObject::open`] asks the
//! object's size first with a HEAD, then GETs the same tail, one request
//! more.
//!
//! # Errors
//!
//! An error names the object ([`Segment::Object`](crate::Segment::Object)):
//! `object 'runs/a.npy', record 3: ...`, or `object 'runs/a.npz', member
//! 'x': ...`. A request the store refused is an
//! [`ErrorKind::Io`](crate::ErrorKind::Io) that says which request on which
//! object: `GET bytes 0..65536 of object 'runs/a.npy': ...`, the store's
//! error its source.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use object_store::{ObjectStore, memory::InMemory};
//! use npy_serde::object_store::NpyObject;
//!
//! # block_on(async {
//! let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
//! let table: Vec<[f32; 4]> = (0..1000).map(|i| [i as f32; 4]).collect();
//! NpyObject::put(&*store, "runs/table.npy", &table).await?;
//!
//! let obj = NpyObject::open(store.clone(), "runs/table.npy").await?;
//! assert_eq!(obj.shape(), [1000, 4]);
//! let some: Vec<[f32; 4]> = obj.rows(500..503).await?;
//! assert_eq!(some, [[500.0; 4], [501.0; 4], [502.0; 4]]);
//! # Ok::<(), npy_serde::Error>(())
//! # }).unwrap();
//! # fn block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     let waker = std::task::Waker::noop();
//! #     let mut cx = std::task::Context::from_waker(&waker);
//! #     let mut f = std::pin::pin!(f);
//! #     loop {
//! #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
//! #     }
//! # }
//! ```

// Sizes come from untrusted objects: every operation is checked.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

mod fetched;
mod npy;
mod npz;

pub use npy::NpyObject;
pub use npz::NpzObject;

use std::ops::Range;

use ::object_store::path::Path;
use ::object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt, PutPayload};
use bytes::Bytes;

use crate::error::{Error, Result};

/// The first bytes of an `.npy` object read by `open`, or of an npz member
/// read for its rows: its header, for any file numpy writes.
const HEAD: u64 = 64 * 1024;

/// Objects up to this size go up with one PUT; larger ones by multipart
/// upload.
const SINGLE_PUT: usize = 16 << 20;

/// The part size of a multipart upload (S3 needs 5 MiB or more for every
/// part but the last).
const PART: usize = 8 << 20;

/// An `io::Error` for a request the store refused, saying which.
#[cold]
fn store_error(err: ::object_store::Error, what: String) -> Error {
    let kind = match &err {
        ::object_store::Error::NotFound { .. } => std::io::ErrorKind::NotFound,
        ::object_store::Error::NotSupported { .. } => std::io::ErrorKind::Unsupported,
        _ => std::io::ErrorKind::Other,
    };
    Error::io_at(std::io::Error::new(kind, err), what)
}

/// Bytes `range` of an object (`GET bytes 0..65536`), as a request names them.
fn describe(range: &GetRange) -> String {
    match range {
        GetRange::Bounded(r) => format!("bytes {}..{}", r.start, r.end),
        GetRange::Offset(at) => format!("bytes {at}.."),
        GetRange::Suffix(n) => format!("the last {n} bytes"),
    }
}

/// What one GET returned: the bytes, where they lie, and the object's size.
struct Got {
    at: u64,
    bytes: Bytes,
    size: u64,
}

/// One ranged GET of `path`. The bytes are checked to be the range the
/// store says it returned, within the size it reports.
async fn get(store: &dyn ObjectStore, path: &Path, range: GetRange) -> Result<Got> {
    let what = || format!("GET {} of object '{path}'", describe(&range));
    let got = store
        .get_opts(path, ranged(range.clone()))
        .await
        .map_err(|e| store_error(e, what()))?;
    collect(got, &what).await
}

/// The last `n` bytes of `path` (all of a shorter object) by one suffix
/// GET; where the store refuses suffix ranges (Azure), a HEAD for the
/// object's size first, then a GET of the same bytes.
async fn get_tail(store: &dyn ObjectStore, path: &Path, n: u64) -> Result<Got> {
    let range = GetRange::Suffix(n);
    let what = || format!("GET {} of object '{path}'", describe(&range));
    match store.get_opts(path, ranged(range.clone())).await {
        Ok(got) => collect(got, &what).await,
        Err(::object_store::Error::NotSupported { .. }) => {
            let meta = store
                .head(path)
                .await
                .map_err(|e| store_error(e, format!("HEAD of object '{path}'")))?;
            let size = meta.size;
            get(store, path, GetRange::Bounded(size.saturating_sub(n)..size)).await
        }
        Err(e) => Err(store_error(e, what())),
    }
}

fn ranged(range: GetRange) -> GetOptions {
    GetOptions {
        range: Some(range),
        ..GetOptions::default()
    }
}

/// The bytes of a GET's response, checked against the range and size it
/// reports.
async fn collect(got: ::object_store::GetResult, what: &dyn Fn() -> String) -> Result<Got> {
    let (span, size) = (got.range.clone(), got.meta.size);
    let bytes = got.bytes().await.map_err(|e| store_error(e, what()))?;
    let promised = span.end.checked_sub(span.start);
    if span.end > size || promised != Some(bytes.len() as u64) {
        return Err(Error::data(format!(
            "{}: the store returned {} bytes as bytes {}..{} of an object of {size}",
            what(),
            bytes.len(),
            span.start,
            span.end
        )));
    }
    Ok(Got {
        at: span.start,
        bytes,
        size,
    })
}

/// Bytes `range` of `path` (which the caller has checked lie within the
/// object), with the same checks as [`get`]; an empty range asks nothing.
async fn get_range(store: &dyn ObjectStore, path: &Path, range: Range<u64>) -> Result<Bytes> {
    if range.is_empty() {
        return Ok(Bytes::new());
    }
    let len = range.end.saturating_sub(range.start);
    let got = get(store, path, GetRange::Bounded(range.clone())).await?;
    if got.at != range.start || got.bytes.len() as u64 != len {
        return Err(Error::data(format!(
            "GET bytes {}..{} of object '{path}': the object ends at byte {}; it was \
             shortened since it was opened",
            range.start, range.end, got.size
        )));
    }
    Ok(got.bytes)
}

/// Uploads `bytes` to `path`: one PUT up to [`SINGLE_PUT`], else a
/// multipart upload of [`PART`]-byte parts (aborted if a part fails).
async fn upload(store: &dyn ObjectStore, path: &Path, bytes: Vec<u8>) -> Result<()> {
    if bytes.len() <= SINGLE_PUT {
        store
            .put_opts(path, PutPayload::from(bytes), Default::default())
            .await
            .map_err(|e| store_error(e, format!("PUT of object '{path}'")))?;
        return Ok(());
    }
    let bytes = Bytes::from(bytes);
    let mut parts = Multipart::start(store, path).await?;
    let mut at = 0;
    while at < bytes.len() {
        let end = at.saturating_add(PART).min(bytes.len());
        parts.put(bytes.slice(at..end)).await?;
        at = end;
    }
    parts.complete().await
}

/// A multipart upload in progress: parts go up one at a time, in order.
struct Multipart<'a> {
    upload: Box<dyn ::object_store::MultipartUpload>,
    path: &'a Path,
    parts: usize,
}

impl<'a> Multipart<'a> {
    async fn start(store: &dyn ObjectStore, path: &'a Path) -> Result<Self> {
        let upload = store
            .put_multipart_opts(path, Default::default())
            .await
            .map_err(|e| {
                store_error(e, format!("starting a multipart upload of object '{path}'"))
            })?;
        Ok(Multipart {
            upload,
            path,
            parts: 0,
        })
    }

    /// Uploads the next part; on failure the upload is aborted.
    async fn put(&mut self, part: Bytes) -> Result<()> {
        self.parts = self.parts.saturating_add(1);
        let sent = self.upload.put_part(PutPayload::from(part)).await;
        if let Err(e) = sent {
            let what = format!(
                "uploading part {} of object '{}' (the upload was aborted)",
                self.parts, self.path
            );
            // the part's error is the one to report
            let _ = self.upload.abort().await;
            return Err(store_error(e, what));
        }
        Ok(())
    }

    /// Aborts the upload after `err` (a record that failed to encode),
    /// which is returned.
    async fn abort(mut self, err: Error) -> Error {
        // the encoding error is the one to report
        let _ = self.upload.abort().await;
        err
    }

    /// Completes the upload: the object appears whole.
    async fn complete(mut self) -> Result<()> {
        if let Err(e) = self.upload.complete().await {
            let what = format!("completing the multipart upload of object '{}'", self.path);
            let _ = self.upload.abort().await;
            return Err(store_error(e, what));
        }
        Ok(())
    }
}
