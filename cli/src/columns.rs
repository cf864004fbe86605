//! The columns of an array, as `npy csv`, `npy stats` and `npy diff` name
//! them: one per scalar of a row, in dtype order.
//!
//! A field is its name, a nested record's fields are `sub.x`, a subarray's
//! elements are `pos[0]`, `pos[1]` (`m[0][1]` for two dimensions); the
//! columns of a 2-D array are `0`, `1`, ... (an n-d array's `0[0]`,
//! `0[1]`, ...: its row elements as a 2-D array of subarrays would name
//! them) and a 0-d or 1-D array of scalars is the one column `0` (as pandas
//! names them).

use npy_serde::{Dtype, Scalar};

use crate::value::Value;

/// One column: its name and the scalar type of its cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub name: String,
    pub scalar: Scalar,
}

/// The columns of an array of `dtype` and `shape`.
pub fn columns(dtype: &Dtype, shape: &[u64]) -> Vec<Column> {
    let mut out = Vec::new();
    match shape {
        [] | [_] => of_dtype(dtype, "", &mut out),
        [_, n, rest @ ..] => {
            for j in 0..*n {
                for index in indices(rest) {
                    of_dtype(dtype, &format!("{j}{index}"), &mut out);
                }
            }
        }
    }
    out
}

/// The columns of `dtype` under `prefix`.
fn of_dtype(dtype: &Dtype, prefix: &str, out: &mut Vec<Column>) {
    match dtype {
        Dtype::Scalar(s) => out.push(Column {
            name: if prefix.is_empty() {
                "0".to_owned()
            } else {
                prefix.to_owned()
            },
            scalar: *s,
        }),
        Dtype::Subarray(base, dims) => {
            for index in indices(dims) {
                of_dtype(base, &format!("{prefix}{index}"), out);
            }
        }
        Dtype::Record(rec) => {
            for f in rec.fields() {
                let name = if prefix.is_empty() {
                    f.name().to_owned()
                } else {
                    format!("{prefix}.{}", f.name())
                };
                of_dtype(f.dtype(), &name, out);
            }
        }
    }
}

/// `[0][0]`, `[0][1]`, ... for every element of `dims` in C order (one
/// empty index for no dims).
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

/// The cells of a row in column order (a row is typed by its dtype, so
/// there is one per column).
pub fn cells(row: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    push_cells(row, &mut out);
    out
}

fn push_cells<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| push_cells(v, out)),
        Value::Record(fields) => fields.iter().for_each(|(_, v)| push_cells(v, out)),
        scalar => out.push(scalar),
    }
}
