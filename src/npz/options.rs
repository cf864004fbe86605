//! [`NpzOptions`]: how [`super::to_writer`] and [`super::to_path`] write an
//! archive (stored or deflated, and at which level).

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, Write};

use serde::Serialize;

use crate::error::Result;

use super::deflate::DEFAULT_LEVEL;
use super::{NpzWriter, add_value, check_level};

/// How a whole value is written as an `.npz` archive: [`npz::to_writer`]
/// and [`npz::to_path`](super::to_path) with options. The defaults are
/// theirs: members stored, like `np.savez`.
///
/// [`npz::to_writer`]: super::to_writer
///
/// ```
/// use std::io::Cursor;
/// use npy_serde::npz::{self, NpzOptions};
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Snapshot { ids: Vec<u32>, mass: Vec<f64> }
/// let snap = Snapshot { ids: (0..1000).collect(), mass: vec![1.5; 1000] };
/// let size = |opts: &NpzOptions| -> npy_serde::Result<usize> {
///     let mut file = Cursor::new(Vec::new());
///     opts.to_writer(&mut file, &snap)?;
///     file.set_position(0);
///     assert_eq!(npz::from_reader::<Snapshot>(&mut file)?, snap);
///     Ok(file.into_inner().len())
/// };
/// let stored = size(&NpzOptions::new())?; // as npz::to_writer
/// let numpys = size(&NpzOptions::new().compressed(true))?; // as np.savez_compressed: level 6
/// let smallest = size(&NpzOptions::new().compression_level(9))?;
/// assert!(smallest <= numpys && numpys < stored / 2);
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpzOptions {
    compressed: bool,
    /// Checked by the terminal methods.
    level: u32,
}

impl Default for NpzOptions {
    /// [`NpzOptions::new`].
    fn default() -> Self {
        NpzOptions {
            compressed: false,
            level: DEFAULT_LEVEL,
        }
    }
}

impl NpzOptions {
    /// The defaults of [`npz::to_writer`](super::to_writer): members
    /// stored, like `np.savez`; level 6 once compressed.
    ///
    /// ```
    /// # use std::io::Cursor;
    /// let (mut a, mut b) = (Cursor::new(Vec::new()), Cursor::new(Vec::new()));
    /// npy_serde::npz::NpzOptions::new().to_writer(&mut a, &(vec![1u8, 2], 3.5f64))?;
    /// npy_serde::npz::to_writer(&mut b, &(vec![1u8, 2], 3.5f64))?;
    /// assert_eq!(a.into_inner(), b.into_inner());
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Deflate the members (at level 6, like `np.savez_compressed`, or the
    /// one set by [`compression_level`](Self::compression_level)), or store
    /// them (`false`, like `np.savez`), as
    /// [`NpzWriter::compressed`](super::NpzWriter::compressed) does.
    ///
    /// ```
    /// # use std::io::Cursor;
    /// let zeros = vec![0.0f64; 1000];
    /// let mut file = Cursor::new(Vec::new());
    /// npy_serde::npz::NpzOptions::new().compressed(true).to_writer(&mut file, &(&zeros,))?;
    /// assert!(file.get_ref().len() < 1000); // 8000 bytes of zeros deflate well
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    #[must_use]
    pub fn compressed(mut self, compressed: bool) -> Self {
        self.compressed = compressed;
        self
    }

    /// Deflate the members at `level`, 0 (stored blocks, the fastest) to 9
    /// (the smallest); implies [`compressed(true)`](Self::compressed), as
    /// [`NpzWriter::compression_level`](super::NpzWriter::compression_level)
    /// does. Another level is reported by `to_writer` and `to_path`,
    /// before anything is written.
    ///
    /// ```
    /// # use std::io::Cursor;
    /// use npy_serde::npz::NpzOptions;
    /// let ramp: Vec<u32> = (0..100_000).map(|i| i / 7).collect();
    /// let size = |level: u32| -> npy_serde::Result<usize> {
    ///     let mut file = Cursor::new(Vec::new());
    ///     NpzOptions::new().compression_level(level).to_writer(&mut file, &(&ramp,))?;
    ///     Ok(file.into_inner().len())
    /// };
    /// assert!(size(9)? < size(1)? && size(1)? < size(0)?);
    /// let err = size(10).unwrap_err();
    /// assert!(err.to_string().contains("compression level 10"), "{err}");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    #[must_use]
    pub fn compression_level(mut self, level: u32) -> Self {
        self.level = level;
        self.compressed = true;
        self
    }

    /// Writes `value` through an [`NpzWriter`] with these options (an
    /// invalid level is an error) and completes the archive.
    fn write<W: Write + Seek, T: ?Sized + Serialize>(&self, writer: W, value: &T) -> Result<W> {
        let mut npz = NpzWriter::new(writer)
            .compression_level(self.level)?
            .compressed(self.compressed);
        add_value(&mut npz, value)?;
        npz.finish()
    }

    /// Writes `value` as [`npz::to_writer`](super::to_writer) does, with
    /// these options.
    ///
    /// ```
    /// # use std::io::Cursor;
    /// let mut file = Cursor::new(Vec::new());
    /// let opts = npy_serde::npz::NpzOptions::new().compression_level(1);
    /// opts.to_writer(&mut file, &(vec![1i32, 2, 3], vec![0.5f64, 1.5]))?;
    /// file.set_position(0);
    /// let (a, b): (Vec<i32>, Vec<f64>) = npy_serde::npz::from_reader(&mut file)?;
    /// assert_eq!((a, b), (vec![1, 2, 3], vec![0.5, 1.5]));
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn to_writer<W: Write + Seek, T: ?Sized + Serialize>(
        &self,
        writer: W,
        value: &T,
    ) -> Result<()> {
        self.write(writer, value).map(drop)
    }

    /// Writes `value` to `path` atomically, as
    /// [`npz::to_path`](super::to_path) does, with these options. An
    /// invalid level leaves `path` untouched.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use npy_serde::npz::NpzOptions;
    /// let dir = std::env::temp_dir().join(format!("npz-doc-opts-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("m.npz");
    /// let m = BTreeMap::from([("a".to_string(), vec![1.0f64; 500])]);
    /// NpzOptions::new().compression_level(9).to_path(&path, &m)?;
    /// assert_eq!(npy_serde::npz::from_path::<BTreeMap<String, Vec<f64>>>(&path)?, m);
    /// assert!(NpzOptions::new().compression_level(10).to_path(&path, &m).is_err());
    /// assert_eq!(npy_serde::npz::from_path::<BTreeMap<String, Vec<f64>>>(&path)?, m); // untouched
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn to_path<T: ?Sized + Serialize>(
        &self,
        path: impl AsRef<std::path::Path>,
        value: &T,
    ) -> Result<()> {
        check_level(self.level)?;
        crate::npy::atomic::write_atomically(path.as_ref(), true, |file| {
            // flush explicitly: a BufWriter dropped unflushed would hide the error
            self.write(std::io::BufWriter::new(file), value)?.flush()?;
            Ok(())
        })
    }
}
