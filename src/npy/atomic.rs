//! Files written so that a failure loses nothing: [`to_path`] and
//! [`from_path`], and [`write_atomically`] under them (shared with the
//! `.npz` writer).
//!
//! The data goes to a new temporary file in the target's directory (same
//! file system, so the final rename is atomic), is synced to disk, and only
//! then renamed over the target. If anything fails — the values cannot be
//! laid out, the disk fills, the process panics inside the writer — the
//! temporary file is removed and the previous file at `path` is untouched.
//! Because of that, `to_path` need not check every value before writing
//! the first byte (as `to_writer` does, walking the values twice): uniform
//! values are encoded and written in one walk.
//!
//! [`WriteOptions::durable`]`(false)` keeps the temporary file and the
//! rename but skips the syncs: as fast as `np.save`, and still never a
//! half-written file at `path` while the machine stays up. An n-d array of
//! plain numbers has its file's blocks reserved before the data is
//! written ([`preallocate`]), as numpy does.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result, with_path};
use crate::options::{ReadOptions, WriteOptions};

/// Writes `value` as an `.npy` file at `path`, atomically: a failed write
/// leaves the file that was there before untouched and no temporary file
/// behind. See [`to_writer`](crate::to_writer) for the layout.
///
/// The temporary file is `.<name>.<pid>.<n>.tmp` in the same directory. A
/// symlink at `path` is replaced by the new file, not followed; the
/// permissions of a replaced file are kept.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("npy_serde_doc_to_path_{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("x.npy");
/// npy_serde::to_path(&path, &vec![1.0f64, 2.0])?;
/// assert_eq!(npy_serde::from_path::<Vec<f64>>(&path)?, [1.0, 2.0]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_path<T: ?Sized + Serialize>(path: impl AsRef<Path>, value: &T) -> Result<()> {
    WriteOptions::new().to_path(path, value)
}

/// Reads an `.npy` file (buffered). Like [`from_reader`](crate::from_reader),
/// it reads exactly one array; bytes after its data are not looked at.
///
/// Unlike a stream, a file has a length: when it holds all the data its
/// header promises, plain numbers (`NdArray<T>`, `Bulk<T>`) go into an
/// output sized once (backed by huge pages where Linux allows), through a
/// 256-KiB buffer, at about `np.load`'s speed. A file shorter than its
/// header claims is read as a stream: memory grows only as bytes arrive.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("npy_serde_doc_from_path_{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("x.npy");
/// npy_serde::to_path(&path, &vec![[1u8, 2], [3, 4]])?;
/// let x: Vec<Vec<u8>> = npy_serde::from_path(&path)?;
/// assert_eq!(x, [[1, 2], [3, 4]]);
/// assert!(npy_serde::from_path::<u8>(dir.join("missing.npy")).is_err());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_path<T: DeserializeOwned>(path: impl AsRef<Path>) -> Result<T> {
    ReadOptions::new().from_path(path)
}

impl WriteOptions {
    /// [`to_path`] with these options.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("npy_serde_doc_opts_to_path_{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("f.npy");
    /// npy_serde::WriteOptions::new()
    ///     .fortran_order(true)
    ///     .to_path(&path, &vec![[1u8, 2], [3, 4]])?;
    /// assert_eq!(std::fs::read(&path)?[128..], [1, 3, 2, 4]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_path<T: ?Sized + Serialize>(&self, path: impl AsRef<Path>, value: &T) -> Result<()> {
        write_atomically(path.as_ref(), self.durable, |file| {
            self.to_temp_file(file, &crate::ser::spec::Val(value))
        })
    }
}

impl ReadOptions {
    /// [`from_path`] with these options.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("npy_serde_doc_opts_from_path_{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("x.npy");
    /// npy_serde::to_path(&path, &0.1f64)?;
    /// let x: f32 = npy_serde::ReadOptions::new().lossy(true).from_path(&path)?;
    /// assert_eq!(x, 0.1f32);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_path<T: DeserializeOwned>(&self, path: impl AsRef<Path>) -> Result<T> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| with_path(e, "cannot open", path))?;
        // the file's length proves how much data is present
        let len = file.metadata().ok().map(|m| m.len());
        self.read_stream(BufReader::new(file), len)
            .map_err(|e| e.reading_file(path))
    }
}

/// Creates a temporary file next to `path`, lets `write` fill it, syncs
/// it (when `durable`) and renames it over `path`. On any failure (or a
/// panic in `write`) the temporary file is removed and `path` is left as
/// it was.
pub(crate) fn write_atomically(
    path: &Path,
    durable: bool,
    write: impl FnOnce(&mut File) -> Result<()>,
) -> Result<()> {
    let name = path.file_name().ok_or_else(|| {
        Error::from(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        ))
    })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (tmp_path, mut file) = create_temp(dir, name)?;
    let mut guard = RemoveOnDrop(Some(tmp_path));
    // keep the permissions of the file being replaced
    if let Ok(meta) = fs::metadata(path) {
        let _ = file.set_permissions(meta.permissions());
    }
    let writing = |e: Error| {
        e.io_context(|| {
            format!(
                "writing {} (into the temporary file {})",
                path.display(),
                guard.path().display()
            )
        })
        .in_file(path)
    };
    // a durable write is synced behind the writing, then fully
    let clone = durable.then(|| file.try_clone().ok()).flatten();
    syncing_behind(clone, || write(&mut file)).map_err(writing)?;
    file.flush().map_err(|e| writing(e.into()))?;
    if durable {
        file.sync_all()
            .map_err(|e| with_path(e, "cannot sync", &guard.path()))?;
    }
    drop(file);
    fs::rename(guard.path(), path).map_err(|e| with_path(e, "cannot replace", path))?;
    guard.0 = None;
    if durable {
        // make the rename itself durable; not every platform can open a directory
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Reserves the first `len` bytes of a new `file`'s blocks before they are
/// written, as `np.save` does (`fallocate` with `FALLOC_FL_KEEP_SIZE`, so
/// the file's length still grows only as it is written): the file system
/// allocates them at once instead of write by write. Linux only; advice
/// that may be refused (a file system without it), and nothing elsewhere.
pub(crate) fn preallocate(file: &File, len: u64) {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{FallocateFlags, fallocate};
        let _ = fallocate(file, FallocateFlags::KEEP_SIZE, 0, len);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, len);
}

/// How long the file is written before its data starts going to disk
/// behind the writer, and how often that is repeated. Short: measured on
/// this project's ext4 on virtio-blk (1M Particle records, 49 MB, `to_path`
/// 12 times in a row, medians of 3 to 5 runs), every 10 ms gave about
/// 95 ms a file, every 3 ms about 86 ms (every 1 ms or without a pause,
/// the same as 3), and the same bytes written by `write_all` then
/// `sync_all` without syncing behind about 90 ms.
const SYNC_BEHIND: Duration = Duration::from_millis(3);

/// Runs `write` while a thread syncs the file's data written so far, every
/// [`SYNC_BEHIND`], so the disk works while the values are encoded and the
/// final sync waits only for the last part (written first and synced after,
/// the whole file waits). A write done within the first interval (a small
/// file) is never synced by it. When no thread can be had, `write` runs
/// alone; its own failure or panic stops the thread (the sender drops).
/// `file` is a second handle of the file being written.
fn syncing_behind<T>(file: Option<File>, write: impl FnOnce() -> T) -> T {
    let Some(clone) = file else {
        return write();
    };
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let _ = std::thread::Builder::new().spawn_scoped(s, move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(SYNC_BEHIND) {
                // a failure shows again in the final sync, which reports it
                let _ = clone.sync_data();
            }
        });
        let done = write();
        drop(stop);
        done
    })
}

/// Removes the temporary file unless disarmed (`.0 = None`).
struct RemoveOnDrop(Option<PathBuf>);

impl RemoveOnDrop {
    fn path(&self) -> PathBuf {
        self.0.clone().unwrap_or_default()
    }
}

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = fs::remove_file(p);
        }
    }
}

/// A new file `.<name>.<pid>.<n>.tmp` in `dir`, never an existing one.
fn create_temp(dir: &Path, name: &std::ffi::OsStr) -> Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut tries = 1u32;
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.{n}.tmp", std::process::id()));
        let tmp = dir.join(tmp_name);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 100 => {
                tries = tries.saturating_add(1);
            }
            Err(e) => return Err(with_path(e, "cannot create a temporary file in", dir)),
        }
    }
}
