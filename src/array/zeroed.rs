//! [`write_zeroed`]: an `.npy` file of zeros of any size, to be filled in
//! place (through a writable memory map and [`view_mut`](crate::view_mut)),
//! as ndarray-npy's `write_zeroed_npy`. With the feature `memmap`,
//! `memmap::create` makes such a file and maps it in one call.

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};

use crate::de::check_readable;
use crate::error::{Error, Result};
use crate::format::dtype::Dtype;
use crate::npy::writer::npy_header;

/// Makes `file` an `.npy` file of `dtype` and `shape` (C order) whose data
/// is all zero bytes: the header exactly as [`to_writer`](crate::to_writer)
/// writes it, then the data section extended with `set_len`, so it takes
/// no time and, where the file system allows, no disk space until written.
/// Whatever `file` held before is gone.
///
/// A subarray dtype joins the shape, as numpy folds it. An error, before
/// anything is written, when the data size overflows (numpy's limit: the
/// byte count must fit `isize`) or for `'|O'` (pickled objects have no zero
/// value).
///
/// ```
/// use npy_serde::{Dtype, write_zeroed};
///
/// # let dir = std::env::temp_dir().join(format!("npy-zeroed-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("zeros.npy");
/// let file = std::fs::File::create_new(&path)?;
/// write_zeroed(&file, &"<f8".parse::<Dtype>()?, &[1000, 3])?;
/// assert_eq!(file.metadata()?.len(), 128 + 8 * 3000);
///
/// let back: Vec<[f64; 3]> = npy_serde::from_path(&path)?;
/// assert_eq!((back.len(), back[999]), (1000, [0.0; 3]));
///
/// // sizes that do not fit are refused
/// assert!(write_zeroed(&file, &"<f8".parse::<Dtype>()?, &[usize::MAX, 2]).is_err());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_zeroed(file: &File, dtype: &Dtype, shape: &[usize]) -> Result<()> {
    check_readable(dtype)?;
    let shape: Vec<u64> = shape.iter().map(|&n| n as u64).collect();
    let (header, head) = npy_header(dtype, &shape)?;
    let data = header.data_len()?;
    let total = (head.len() as u64)
        .checked_add(data)
        .ok_or_else(|| Error::limit("the file size overflows u64"))?;
    let mut out = file;
    // truncate first: old bytes past the header must not survive as data
    let io = |what: &'static str| move |e| Error::io_at(e, what);
    file.set_len(0)
        .map_err(io("truncating the file to write zeros into"))?;
    out.seek(SeekFrom::Start(0))
        .map_err(io("seeking to the start of the file to write zeros into"))?;
    out.write_all(&head)
        .map_err(io("writing the npy header of the zeroed file"))?;
    file.set_len(total)
        .map_err(io("extending the zeroed file to its size"))?;
    Ok(())
}
