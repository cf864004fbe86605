//! `npy check`: reads each file whole, as the other commands would.
//!
//! An `.npy` file: the header (the library's limits and checks), every row
//! through the same walk `show`, `json` and `csv` use, then the end: no
//! bytes may follow the data the header promises. An `.npz` archive: the
//! zip directory, then every member read whole by the library
//! (`NpzReader::by_name`), which checks each value, the member's end and
//! its CRC-32; a member that is not `.npy` counts as good (numpy loads it
//! as bytes).

use std::path::Path;

use crate::input::{Failure, Input, for_each_row, open};
use crate::show::shape;
use crate::value::Discard;

/// A one-line summary of a good file, or why it is not.
pub fn check(path: &Path) -> Result<String, Failure> {
    match open(path)? {
        Input::Npy(mut reader) => {
            let (major, minor) = reader.version();
            let summary = format!(
                "ok, .npy {major}.{minor}, shape {}, dtype {}",
                shape(reader.shape()),
                reader.dtype()
            );
            let total = reader.header().data_len()?;
            for_each_row(&mut reader, u64::MAX, |_, _| Ok(()))?;
            let rest = std::io::copy(&mut reader.into_inner(), &mut std::io::sink())
                .map_err(npy_serde::Error::from)?;
            if rest > 0 {
                return Err(Failure::File(format!(
                    "{rest} bytes follow the {total} bytes of data the header promises"
                )));
            }
            Ok(summary)
        }
        Input::Npz(mut archive) => {
            let names = archive.names().to_vec();
            for name in &names {
                // The library's rule decides what is an array: a member that
                // is not `.npy` reads only into bytes (numpy loads it as
                // bytes, so it counts as good); a `.npy` member reads whole
                // (a damaged one, without the npy magic or with a broken
                // header, fails the byte read with the library's message).
                if archive.reader(name).is_ok() {
                    archive.by_name::<Discard>(name)?;
                } else {
                    archive.by_name::<serde_bytes::ByteBuf>(name)?;
                }
            }
            Ok(format!("ok, .npz, {} member(s)", names.len()))
        }
        Input::Refused(refused) => Err(refused.failure),
    }
}
