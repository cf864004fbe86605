//! `npy csv`: a record array or a 1-D/2-D array as CSV (through the `csv`
//! crate), one row per record or row, with a header.
//!
//! Columns come from the dtype: a field is its name, a nested record's
//! fields are `sub.x`, a subarray's elements are `pos[0]`, `pos[1]`
//! (`m[0][1]` for two dimensions); the columns of a 2-D array are `0`,
//! `1`, ... and a 1-D array of scalars is the one column `0` (as pandas
//! names them). Values are numpy's text (`True`, `1e-05`, `nan`, `1+2j`,
//! `2024-01-01T00:00`); `S` and `V` cells hold their bytes.

use std::io::{Read, Write};

use npy_serde::{Dtype, NpyReader};

use crate::input::{Failure, for_each_row};
use crate::show::shape;
use crate::text;
use crate::value::Value;

/// Writes `reader`'s array as CSV.
pub fn csv<R: Read>(reader: &mut NpyReader<R>, out: impl Write) -> Result<(), Failure> {
    let dtype = reader.dtype().clone();
    let header = match reader.shape() {
        [] | [_] => columns(&dtype, ""),
        [_, n] => (0..*n)
            .flat_map(|j| columns(&dtype, &j.to_string()))
            .collect(),
        dims => {
            return Err(Failure::Usage(format!(
                "csv holds a 1-D or 2-D array; this one has shape {} (use npy json)",
                shape(dims)
            )));
        }
    };
    let mut w = csv::Writer::from_writer(out);
    w.write_record(&header).map_err(csv_failure)?;
    let mut cells: Vec<Vec<u8>> = Vec::with_capacity(header.len());
    for_each_row(reader, u64::MAX, |_, value| {
        cells.clear();
        flatten(&value, &mut cells);
        w.write_record(&cells).map_err(csv_failure)
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

/// The column names of `dtype` under `prefix`.
fn columns(dtype: &Dtype, prefix: &str) -> Vec<String> {
    match dtype {
        Dtype::Scalar(_) if prefix.is_empty() => vec!["0".to_owned()],
        Dtype::Scalar(_) => vec![prefix.to_owned()],
        Dtype::Subarray(base, dims) => indices(dims)
            .into_iter()
            .flat_map(|index| columns(base, &format!("{prefix}{index}")))
            .collect(),
        Dtype::Record(rec) => rec
            .fields()
            .iter()
            .flat_map(|f| {
                let name = if prefix.is_empty() {
                    f.name().to_owned()
                } else {
                    format!("{prefix}.{}", f.name())
                };
                columns(f.dtype(), &name)
            })
            .collect(),
    }
}

/// `[0][0]`, `[0][1]`, ... for every element of `dims` in C order.
fn indices(dims: &[u64]) -> Vec<String> {
    let mut out = vec![String::new()];
    for &n in dims {
        out = out
            .iter()
            .flat_map(|head| (0..n).map(move |i| format!("{head}[{i}]")))
            .collect();
    }
    out
}

/// The cells of `value` in column order.
fn flatten(value: &Value, cells: &mut Vec<Vec<u8>>) {
    let cell = match value {
        Value::Array(items) => return items.iter().for_each(|v| flatten(v, cells)),
        Value::Record(fields) => return fields.iter().for_each(|(_, v)| flatten(v, cells)),
        Value::Bool(b) => (if *b { "True" } else { "False" }).into(),
        Value::Int(i) => i.to_string().into_bytes(),
        Value::UInt(u) => u.to_string().into_bytes(),
        Value::Float(x) => text::float(*x).into_bytes(),
        Value::Complex(re, im) => text::complex(*re, *im).into_bytes(),
        Value::Bytes(b) | Value::Void(b) => b.clone(),
        Value::Str(s) | Value::Time(s) => s.clone().into_bytes(),
    };
    cells.push(cell);
}
