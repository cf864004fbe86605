//! The dtype of a batch of records: what `to_writer` would infer for them,
//! widths taken from the longest value of each field, so that a stream
//! ([`NpyWriter`](crate::NpyWriter)) can start with room for later records
//! without a hand-written dtype.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::format::dtype::Dtype;
use crate::options::WriteOptions;
use crate::ser::nd::subarray_of;

impl Dtype {
    /// The dtype of one record of `records`, as [`to_writer`](crate::to_writer)
    /// would infer it for the whole batch: every string and bytes field as
    /// wide as its longest value in the batch. A record that is itself an
    /// array (`[f32; 3]`) gives a subarray dtype.
    ///
    /// A stream's dtype is fixed by its first record; to leave room for
    /// longer strings later, take it from a first batch (or pad one sample):
    ///
    /// ```
    /// use npy_serde::{Dtype, NpyWriter};
    /// #[derive(serde::Serialize)]
    /// struct Row { id: u32, name: String }
    /// let first = [
    ///     Row { id: 1, name: "a".into() },
    ///     Row { id: 2, name: "longest".into() },
    /// ];
    /// let dtype = Dtype::of_records(&first)?;
    /// assert_eq!(dtype.to_string(), "[('id', '<u4'), ('name', '<U7')]");
    /// let mut w = NpyWriter::with_dtype(std::io::Cursor::new(Vec::new()), dtype)?;
    /// for row in &first {
    ///     w.serialize(row)?;
    /// }
    /// w.serialize(&Row { id: 3, name: "seven!!".into() })?;
    /// w.finish()?;
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn of_records<T: Serialize>(records: &[T]) -> Result<Dtype> {
        if records.is_empty() {
            return Err(Error::schema(
                "no records to take a dtype from (give at least one)",
            ));
        }
        // what `to_writer` plans for them without options
        let plan = crate::ser::plan(&records, &WriteOptions::new())?;
        subarray_of(plan.dtype, plan.shape.get(1..).unwrap_or_default())
    }
}
