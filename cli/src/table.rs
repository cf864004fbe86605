//! `npy csv`: a record array or a 1-D/2-D array as CSV (through the `csv`
//! crate), one row per record or row, with a header.
//!
//! Columns come from the dtype (see [`crate::columns`]): a field is its
//! name, a nested record's fields are `sub.x`, a subarray's elements are
//! `pos[0]`, `pos[1]` (`m[0][1]` for two dimensions); the columns of a 2-D
//! array are `0`, `1`, ... and a 1-D array of scalars is the one column `0`
//! (as pandas names them). Values are numpy's text (`True`, `1e-05`, `nan`, `1+2j`,
//! `2024-01-01T00:00`); `S` and `V` cells hold their bytes.

use std::io::Write;

use crate::columns::{cells, columns};
use crate::input::{Failure, Rows, for_each_row};
use crate::show::shape;
use crate::text;
use crate::value::Value;

/// Writes `reader`'s array as CSV.
pub fn csv(reader: &mut dyn Rows, out: impl Write) -> Result<(), Failure> {
    let header = reader.header();
    if header.shape.len() > 2 {
        return Err(Failure::Usage(format!(
            "csv holds a 1-D or 2-D array; this one has shape {} (use npy json)",
            shape(&header.shape)
        )));
    }
    let names: Vec<String> = columns(&header.descr, &header.shape)
        .into_iter()
        .map(|c| c.name)
        .collect();
    let mut w = csv::Writer::from_writer(out);
    w.write_record(&names).map_err(csv_failure)?;
    let mut text: Vec<Vec<u8>> = Vec::with_capacity(names.len());
    for_each_row(reader, u64::MAX, |_, value| {
        text.clear();
        text.extend(cells(&value).into_iter().map(cell));
        w.write_record(&text).map_err(csv_failure)
    })?;
    w.flush()?;
    Ok(())
}

/// The csv crate's errors here are I/O errors: records are written as
/// given (no serde), each as wide as the header.
fn csv_failure(e: csv::Error) -> Failure {
    if !matches!(e.kind(), csv::ErrorKind::Io(_)) {
        return Failure::File(format!("internal error: {e}"));
    }
    match e.into_kind() {
        csv::ErrorKind::Io(e) => Failure::Output(e),
        _ => Failure::File("internal error: csv".to_owned()),
    }
}

/// A cell's bytes: numpy's text, the bytes themselves for `S` and `V`.
fn cell(value: &Value) -> Vec<u8> {
    match value {
        Value::Bool(b) => (if *b { "True" } else { "False" }).into(),
        Value::Int(i) => i.to_string().into_bytes(),
        Value::UInt(u) => u.to_string().into_bytes(),
        Value::Float(x) => text::float(*x).into_bytes(),
        Value::Complex(re, im) => text::complex(*re, *im).into_bytes(),
        Value::Bytes(b) | Value::Void(b) => b.clone(),
        Value::Str(s) | Value::Time(s) => s.clone().into_bytes(),
        // cells() yields scalars only
        Value::Array(_) | Value::Record(_) => Vec::new(),
    }
}
