//! A store that logs every request it passes on to another: the request
//! counts the `object_store` module documents are checked against this
//! log. It can also refuse suffix ranges, as Azure does.

use std::fmt;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use futures_core::stream::BoxStream;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetRange, GetResult, ListResult, MultipartUpload, ObjectMeta,
    ObjectStore, PutMultipartOptions, PutOptions, PutPayload, PutResult, Result, UploadPart,
};

/// Wraps `inner`, logging each request as a line: `GET 0..65536` (the
/// range the store returned), `HEAD`, `PUT 1234`, `MULTIPART`, `PART
/// 8388608`, `COMPLETE`, `ABORT`, `LIST`, `COPY`, `DELETE`.
#[derive(Debug)]
pub struct Counting {
    inner: Arc<dyn ObjectStore>,
    log: Arc<Mutex<Vec<String>>>,
    /// Refuse suffix ranges (as object_store's Azure client does).
    no_suffix: bool,
}

impl Counting {
    pub fn new(inner: Arc<dyn ObjectStore>) -> Arc<Self> {
        Arc::new(Counting {
            inner,
            log: Arc::default(),
            no_suffix: false,
        })
    }

    /// A store that refuses suffix ranges, as Azure does.
    pub fn without_suffix_ranges(inner: Arc<dyn ObjectStore>) -> Arc<Self> {
        Arc::new(Counting {
            inner,
            log: Arc::default(),
            no_suffix: true,
        })
    }

    /// The requests so far, and a fresh log.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.log.lock().unwrap())
    }

    fn note(&self, line: String) {
        self.log.lock().unwrap().push(line);
    }
}

impl fmt::Display for Counting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counting({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for Counting {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> Result<PutResult> {
        self.note(format!("PUT {}", payload.content_length()));
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        self.note("MULTIPART".into());
        let upload = self.inner.put_multipart_opts(location, opts).await?;
        Ok(Box::new(CountingUpload {
            upload,
            log: self.log.clone(),
        }))
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        if options.head {
            self.note("HEAD".into());
            return self.inner.get_opts(location, options).await;
        }
        if self.no_suffix && matches!(options.range, Some(GetRange::Suffix(_))) {
            return Err(object_store::Error::NotSupported {
                source: "this store does not support suffix range requests".into(),
            });
        }
        let got = self.inner.get_opts(location, options).await;
        match &got {
            Ok(r) => self.note(format!("GET {}..{}", r.range.start, r.range.end)),
            Err(_) => self.note("GET (failed)".into()),
        }
        got
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, Result<Path>>,
    ) -> BoxStream<'static, Result<Path>> {
        self.note("DELETE".into());
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.note("LIST".into());
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.note("LIST".into());
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.note("COPY".into());
        self.inner.copy_opts(from, to, options).await
    }
}

/// A multipart upload whose parts are logged.
#[derive(Debug)]
struct CountingUpload {
    upload: Box<dyn MultipartUpload>,
    log: Arc<Mutex<Vec<String>>>,
}

#[async_trait]
impl MultipartUpload for CountingUpload {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        self.log
            .lock()
            .unwrap()
            .push(format!("PART {}", data.content_length()));
        self.upload.put_part(data)
    }

    async fn complete(&mut self) -> Result<PutResult> {
        self.log.lock().unwrap().push("COMPLETE".into());
        self.upload.complete().await
    }

    async fn abort(&mut self) -> Result<()> {
        self.log.lock().unwrap().push("ABORT".into());
        self.upload.abort().await
    }
}
