//! An array's data section in memory, its header already read: the entry
//! point of `from_slice`, row ranges (`crate::npy::rows`), `NpyReader`'s
//! reordered Fortran data and npz members held in memory.

// Sizes come from untrusted headers: every operation is checked.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use serde::Deserialize;

use super::array::ArrayDe;
use super::charged::AnyCharged;
use super::fortran::FortranFile;
use super::plan::Plan;
use super::stream::{Chunked, row_size};
use super::{Bytes, Cfg};
use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::format::header::Header;

/// Deserializes the data section of an array (exactly `header.data_len()`
/// bytes; shorter or longer is an error). Shared with the npz reader.
#[cfg(test)]
pub(crate) fn deserialize_data<'de, T: Deserialize<'de>>(
    header: &Header,
    data: &'de [u8],
    cfg: Cfg,
    max_elements: u64,
) -> Result<T> {
    deserialize_data_in(header, data, cfg, max_elements, &Budget::new(u64::MAX))
}

/// [`deserialize_data`] charging a generic target to `budget`.
pub(crate) fn deserialize_data_in<'de, T: Deserialize<'de>>(
    header: &Header,
    data: &'de [u8],
    cfg: Cfg,
    max_elements: u64,
    budget: &Budget,
) -> Result<T> {
    check_data_len(header, data.len() as u64)?;
    let plan = Plan::new(&header.descr);
    if header.fortran_order && header.shape.len() >= 2 {
        return T::deserialize(AnyCharged {
            de: FortranFile {
                plan: &plan,
                header,
                bytes: Bytes::Borrowed(data),
                cfg,
                max_elements,
            },
            header,
            budget,
        });
    }
    T::deserialize(AnyCharged {
        de: ArrayDe::new(&plan, &header.shape, Bytes::Borrowed(data), cfg, true)
            .of_file(header, max_elements),
        header,
        budget,
    })
}

/// Checks that the data section in memory, `have` bytes, is exactly the
/// `header.data_len()` bytes the header promises.
pub(crate) fn check_data_len(header: &Header, have: u64) -> Result<()> {
    let total = header.data_len()?;
    if have < total {
        return Err(Chunked::new(std::io::empty(), total, row_size(header)?).truncated(have));
    }
    if have > total {
        return Err(Error::data(format!(
            "{} bytes follow the {total} bytes of data the header promises \
             (from_slice reads exactly one array; use from_reader or NpyReader for a stream \
             of arrays)",
            // have > total (checked above)
            have.wrapping_sub(total)
        )));
    }
    Ok(())
}
