//! `npy show`: what a file holds, for people.
//!
//! For each array (an `.npy` file, every member of an `.npz`): the format
//! version, shape, memory order and row count; the dtype as numpy writes it
//! and as a table of fields with their offsets and sizes (padding shown);
//! then the first rows in dtype order, each value as numpy prints it.

use std::io::{Read, Seek, Write};

use npy_serde::npz::NpzReader;
use npy_serde::{Dtype, NpyReader, PyBytes, PyStr};

use crate::input::{Failure, Input, finish, for_each_row};
use crate::text;
use crate::value::Value;

/// Shows the file opened as `input`, `limit` rows per array.
pub fn show(input: Input, limit: u64, out: &mut impl Write) -> Result<(), Failure> {
    match input {
        Input::Npy(reader) => array(reader, "", limit, out),
        Input::Npz(archive) => archive_members(archive, limit, out),
    }
}

fn archive_members<R: Read + Seek>(
    mut archive: NpzReader<R>,
    limit: u64,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let names = archive.names().to_vec();
    writeln!(out, "npz archive, {} member(s)", names.len())?;
    for name in names {
        writeln!(out)?;
        writeln!(out, "member {}", PyStr(&name))?;
        let failed = match archive.reader(&name) {
            Ok(reader) => {
                array(reader, "  ", limit, out)?;
                None
            }
            Err(e) => Some(e),
        };
        if let Some(e) = failed {
            // numpy hands a member that is not .npy over as its bytes
            let bytes = archive.raw(&name)?;
            if bytes.starts_with(b"\x93NUMPY") {
                return Err(e.into());
            }
            writeln!(out, "  not an .npy array: {} byte(s)", bytes.len())?;
        }
    }
    Ok(())
}

/// Shows one array; when every row was shown, reads to its end (an `.npz`
/// member's CRC-32 is checked there).
fn array<R: Read>(
    mut reader: NpyReader<R>,
    indent: &str,
    limit: u64,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let (major, minor) = reader.version();
    let order = if reader.fortran_order() {
        "Fortran"
    } else {
        "C"
    };
    let dtype = reader.dtype().clone();
    let noun = if dtype.as_record().is_some() {
        "record"
    } else {
        "row"
    };
    writeln!(
        out,
        "{indent}format {major}.{minor}, shape {}, {order} order, {} {noun}(s)",
        shape(reader.shape()),
        reader.len()
    )?;
    writeln!(out, "{indent}dtype {dtype}")?;
    writeln!(out, "{indent}  itemsize {}", dtype.itemsize())?;
    if dtype.as_record().is_some() {
        let mut rows = Vec::new();
        tree(&dtype, 0, 0, &mut rows);
        let width = rows.iter().map(|r| r.2.len()).max().unwrap_or(0).max(5);
        writeln!(out, "{indent}  offset  size  {:width$}  type", "field")?;
        for (offset, size, label, ty) in rows {
            writeln!(
                out,
                "{indent}  {offset:>6}  {size:>4}  {label:width$}  {ty}"
            )?;
        }
    }
    if reader.shape().is_empty() {
        writeln!(out, "{indent}value:")?;
    } else {
        let shown = limit.min(reader.len());
        writeln!(out, "{indent}first {shown} of {} {noun}(s):", reader.len())?;
    }
    let zero_d = reader.shape().is_empty();
    let all = limit >= reader.len();
    for_each_row(&mut reader, limit, |i, value| {
        let mut line = String::new();
        shown(&value, &mut line);
        if zero_d {
            writeln!(out, "{indent}  {line}")?;
        } else {
            writeln!(out, "{indent}  [{i}] {line}")?;
        }
        Ok(())
    })?;
    if all { finish(reader) } else { Ok(()) }
}

/// numpy's shape text: `()`, `(4,)`, `(2, 3)`.
pub fn shape(dims: &[u64]) -> String {
    match dims {
        [one] => format!("({one},)"),
        _ => {
            let parts: Vec<String> = dims.iter().map(u64::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// One table row per field (and per gap): offset from the start of the
/// element, size, indented name, type.
type Row = (usize, usize, String, String);

/// The rows of record `dtype` at `base`, names indented by `depth`.
fn tree(dtype: &Dtype, base: usize, depth: usize, rows: &mut Vec<Row>) {
    let Some(rec) = dtype.as_record() else {
        return;
    };
    let pad = "  ".repeat(depth);
    let mut end = 0;
    for field in rec.fields() {
        if field.offset() > end {
            let gap = field.offset() - end;
            rows.push((
                base + end,
                gap,
                format!("{pad}(padding)"),
                format!("|V{gap}"),
            ));
        }
        end = end.max(field.offset() + field.dtype().itemsize());
        let title = field
            .title()
            .map(|t| format!(" (title {})", PyStr(t)))
            .unwrap_or_default();
        let label = format!("{pad}{}{title}", field.name());
        let at = base + field.offset();
        let size = field.dtype().itemsize();
        match field.dtype() {
            Dtype::Subarray(inner, dims) => {
                let ty = match inner.as_scalar() {
                    Some(s) => format!("{s} {}", shape(dims)),
                    None => format!("record {} (offsets of the first)", shape(dims)),
                };
                rows.push((at, size, label, ty));
                tree(inner, at, depth + 1, rows);
            }
            Dtype::Record(_) => {
                rows.push((at, size, label, "record".to_owned()));
                tree(field.dtype(), at, depth + 1, rows);
            }
            Dtype::Scalar(s) => rows.push((at, size, label, s.to_string())),
        }
    }
    if rec.itemsize() > end {
        let gap = rec.itemsize() - end;
        rows.push((
            base + end,
            gap,
            format!("{pad}(padding)"),
            format!("|V{gap}"),
        ));
    }
}

/// A value as numpy prints it, records as `{name: value, ...}`.
fn shown(value: &Value, out: &mut String) {
    use std::fmt::Write;
    let _ = match value {
        Value::Bool(b) => write!(out, "{}", if *b { "True" } else { "False" }),
        Value::Int(i) => write!(out, "{i}"),
        Value::UInt(u) => write!(out, "{u}"),
        Value::Float(x) => write!(out, "{}", text::float(*x)),
        Value::Complex(re, im) => write!(out, "{}", text::complex(*re, *im)),
        Value::Bytes(b) | Value::Void(b) => write!(out, "{}", PyBytes(b)),
        Value::Str(s) => write!(out, "{}", PyStr(s)),
        Value::Time(t) => write!(out, "{t}"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                shown(item, out);
            }
            out.push(']');
            Ok(())
        }
        Value::Record(fields) => {
            out.push('{');
            for (i, (name, item)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(name);
                out.push_str(": ");
                shown(item, out);
            }
            out.push('}');
            Ok(())
        }
    };
}
