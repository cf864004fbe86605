//! A `RecordBatch` as a numpy array: the dtype it came from (its schema's
//! metadata) or the one the mapping gives, then each column scattered into
//! the rows.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;

use super::places::{Places, bytes_at_mut, scatter};
use super::read::{number_type, rows_of, swapped};
use super::time::{self, NAT};
use super::{DESCR_KEY, FORTRAN_KEY, SHAPE_KEY};
use crate::de::array::fortran_to_c;
use crate::error::{Error, Result};
use crate::format::dtype::{ByteOrder, Dtype, Scalar, ScalarType};
use crate::format::header::Header;

/// The header and data section of the array `batch` holds.
pub(super) fn encode(batch: &RecordBatch) -> Result<(Header, Vec<u8>)> {
    let n = batch.num_rows();
    let (header, row) = match from_metadata(batch)? {
        Some(found) => found,
        None => derived(batch)?,
    };
    let row_size = row.itemsize();
    let len = n
        .checked_mul(row_size)
        .ok_or_else(|| too_big(n, row_size))?;
    let mut data = Vec::new();
    data.try_reserve_exact(len)
        .map_err(|_| too_big(n, row_size))?;
    data.resize(len, 0);
    let places = Places::rows(n, row_size);
    match &row {
        Dtype::Record(record) => {
            for (f, column) in record.fields().iter().zip(batch.columns()) {
                put(f.dtype(), column, &mut data, &places.at(f.offset()))
                    .map_err(|e| e.in_field(f.name()))?;
            }
        }
        _ => {
            let column = batch
                .columns()
                .first()
                .ok_or_else(|| Error::schema("the batch has no column"))?;
            put(&row, column, &mut data, &places)
                .map_err(|e| e.in_field(batch.schema_ref().field(0).name()))?;
        }
    }
    if header.column_major() {
        // C order of shape (a, b, c) is the Fortran order of its transpose
        // (c, b, a): reordering that into C order gives the Fortran order
        let reversed: Vec<u64> = header.shape.iter().rev().copied().collect();
        data = fortran_to_c(&data, &reversed, header.descr.itemsize())?;
    }
    Ok((header, data))
}

fn too_big(n: usize, row_size: usize) -> Error {
    Error::limit(format!(
        "{n} rows of {row_size} bytes do not fit this machine's memory"
    ))
}

/// The header the schema's metadata describes, when the batch's columns
/// are still that dtype's fields (`None` otherwise: a batch from elsewhere,
/// or one whose columns were selected or renamed, goes by the mapping).
fn from_metadata(batch: &RecordBatch) -> Result<Option<(Header, Dtype)>> {
    let md = batch.schema_ref().metadata();
    let (Some(descr), Some(shape), Some(order)) =
        (md.get(DESCR_KEY), md.get(SHAPE_KEY), md.get(FORTRAN_KEY))
    else {
        return Ok(None);
    };
    let descr: Dtype = descr
        .parse()
        .map_err(|e: Error| Error::schema(format!("the schema's {DESCR_KEY}: {e}")))?;
    let mut shape = parse_shape(shape)
        .ok_or_else(|| Error::schema(format!("the schema's {SHAPE_KEY} {shape:?} is no shape")))?;
    let n = batch.num_rows() as u64;
    match shape.first_mut() {
        Some(first) => *first = n,
        None if n == 1 => {}
        None => shape = vec![n],
    }
    let header = Header::new(descr, order == "True", shape);
    let names: Vec<&str> = batch
        .schema_ref()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    let split = names.first() == Some(&"0");
    let (_, row) = rows_of(&header, split)?;
    let fits = match &row {
        Dtype::Record(r) => r
            .fields()
            .iter()
            .map(|f| f.name())
            .eq(names.iter().copied()),
        _ => names.len() == 1,
    };
    Ok(fits.then_some((header, row)))
}

/// `(3, 4)`, `(3,)`, `()` back into a shape.
fn parse_shape(text: &str) -> Option<Vec<u64>> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect()
}

/// The record dtype of the batch's columns by the mapping (packed, as
/// numpy builds a structured array from columns), one row per row.
fn derived(batch: &RecordBatch) -> Result<(Header, Dtype)> {
    let mut builder = Dtype::record();
    for (field, column) in batch.schema_ref().fields().iter().zip(batch.columns()) {
        let dtype = dtype_of(column).map_err(|e| e.in_field(field.name()))?;
        builder = builder.field(field.name().clone(), dtype);
    }
    let row = builder.build()?;
    let header = Header::new(row.clone(), false, vec![batch.num_rows() as u64]);
    Ok((header, row))
}

/// The dtype a column becomes by the mapping; strings as wide as the
/// longest value (at least 1, as numpy).
fn dtype_of(column: &ArrayRef) -> Result<Dtype> {
    let dt = column.data_type();
    let le = |ty| Ok(Dtype::Scalar(Scalar::le(ty)));
    match dt {
        DataType::Boolean => le(ScalarType::Bool),
        DataType::Int8 => le(ScalarType::Int(1)),
        DataType::Int16 => le(ScalarType::Int(2)),
        DataType::Int32 => le(ScalarType::Int(4)),
        DataType::Int64 => le(ScalarType::Int(8)),
        DataType::UInt8 => le(ScalarType::UInt(1)),
        DataType::UInt16 => le(ScalarType::UInt(2)),
        DataType::UInt32 => le(ScalarType::UInt(4)),
        DataType::UInt64 => le(ScalarType::UInt(8)),
        DataType::Float16 => le(ScalarType::Float(2)),
        DataType::Float32 => le(ScalarType::Float(4)),
        DataType::Float64 => le(ScalarType::Float(8)),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
            let width = texts(column)?
                .map(|s| s.map_or(0, |s| s.chars().count()))
                .max();
            le(ScalarType::Unicode(width.unwrap_or(0).max(1)))
        }
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => {
            let width = binaries(column)?.map(|b| b.map_or(0, <[u8]>::len)).max();
            le(ScalarType::Bytes(width.unwrap_or(0).max(1)))
        }
        DataType::FixedSizeBinary(w) => le(ScalarType::Void(*w as usize)),
        DataType::Date32 | DataType::Date64 | DataType::Timestamp(..) | DataType::Duration(_) => {
            let (unit, datetime) = time::numpy_unit(dt)
                .ok_or_else(|| mismatch("a date, timestamp or duration", dt))?;
            le(if datetime {
                ScalarType::Datetime(unit)
            } else {
                ScalarType::Timedelta(unit)
            })
        }
        DataType::Struct(fields) => {
            let s = column.as_struct();
            if let Some(ty) = complex_of(fields) {
                return le(ty);
            }
            let mut builder = Dtype::record();
            for (f, child) in fields.iter().zip(s.columns()) {
                builder = builder.field(
                    f.name().clone(),
                    dtype_of(child).map_err(|e| e.in_field(f.name()))?,
                );
            }
            builder.build()
        }
        DataType::FixedSizeList(_, k) => {
            let list = column.as_fixed_size_list();
            let child = dtype_of(list.values())?;
            let k = *k as u64;
            Ok(match child {
                Dtype::Subarray(base, mut shape) => {
                    shape.insert(0, k);
                    Dtype::Subarray(base, shape)
                }
                other => Dtype::Subarray(Box::new(other), vec![k]),
            })
        }
        other => Err(Error::unsupported(format!(
            "Arrow's {other} has no numpy dtype here (numbers, booleans, strings, binary, \
             dates, timestamps, durations, structs and fixed-size lists have)"
        ))),
    }
}

/// `Struct{re, im}` of two floats of one width: numpy's complex.
fn complex_of(fields: &arrow_schema::Fields) -> Option<ScalarType> {
    match fields
        .iter()
        .map(|f| (f.name().as_str(), f.data_type()))
        .collect::<Vec<_>>()[..]
    {
        [("re", DataType::Float32), ("im", DataType::Float32)] => Some(ScalarType::Complex(8)),
        [("re", DataType::Float64), ("im", DataType::Float64)] => Some(ScalarType::Complex(16)),
        _ => None,
    }
}

fn texts(column: &ArrayRef) -> Result<Box<dyn Iterator<Item = Option<&str>> + '_>> {
    Ok(match column.data_type() {
        DataType::Utf8 => Box::new(column.as_string::<i32>().iter()),
        DataType::LargeUtf8 => Box::new(column.as_string::<i64>().iter()),
        DataType::Utf8View => Box::new(column.as_string_view().iter()),
        other => return Err(mismatch("Utf8", other)),
    })
}

fn binaries(column: &ArrayRef) -> Result<Box<dyn Iterator<Item = Option<&[u8]>> + '_>> {
    Ok(match column.data_type() {
        DataType::Binary => Box::new(column.as_binary::<i32>().iter()),
        DataType::LargeBinary => Box::new(column.as_binary::<i64>().iter()),
        DataType::BinaryView => Box::new(column.as_binary_view().iter()),
        DataType::FixedSizeBinary(_) => Box::new(column.as_fixed_size_binary().iter()),
        other => return Err(mismatch("Binary", other)),
    })
}

fn mismatch(expected: &str, found: &DataType) -> Error {
    Error::mismatch(format!("expected Arrow's {expected}, found {found}"))
}

/// The first null of a column whose dtype has none.
fn refuse_nulls(column: &ArrayRef, dtype: &Dtype) -> Result<()> {
    match column.logical_nulls() {
        Some(nulls) if nulls.null_count() > 0 => {
            let first = (0..column.len()).find(|&i| nulls.is_null(i)).unwrap_or(0);
            Err(Error::mismatch(format!(
                "{} null value(s), the first in row {first}: numpy's {} has no null (fill \
                 them, or drop those rows, first)",
                nulls.null_count(),
                short(dtype)
            )))
        }
        _ => Ok(()),
    }
}

fn short(dtype: &Dtype) -> String {
    match dtype {
        Dtype::Scalar(s) => format!("'{s}'"),
        other => other.to_string(),
    }
}

/// Writes `column`'s values, of `dtype`, at `places` of `out`.
fn put(dtype: &Dtype, column: &ArrayRef, out: &mut [u8], places: &Places) -> Result<()> {
    match dtype {
        Dtype::Scalar(s) => put_scalar(s, column, out, places),
        Dtype::Subarray(base, shape) => put_list(base, shape, column, out, places),
        Dtype::Record(record) => {
            refuse_nulls(column, dtype)?;
            let DataType::Struct(_) = column.data_type() else {
                return Err(mismatch(&format!("Struct for {dtype}"), column.data_type()));
            };
            let s = column.as_struct();
            for f in record.fields() {
                let child = s.column_by_name(f.name()).ok_or_else(|| {
                    Error::schema(format!(
                        "no child '{}' in the struct (it has {})",
                        f.name(),
                        s.column_names().join(", ")
                    ))
                })?;
                put(f.dtype(), child, out, &places.at(f.offset()))
                    .map_err(|e| e.in_field(f.name()))?;
            }
            Ok(())
        }
    }
}

/// A subarray of `shape`: one fixed-size list per axis.
fn put_list(
    base: &Dtype,
    shape: &[u64],
    column: &ArrayRef,
    out: &mut [u8],
    places: &Places,
) -> Result<()> {
    let Some((&k, rest)) = shape.split_first() else {
        return put(base, column, out, places);
    };
    let list = match column.data_type() {
        DataType::FixedSizeList(_, size) if *size as u64 == k => column.as_fixed_size_list(),
        other => return Err(mismatch(&format!("FixedSizeList of {k}"), other)),
    };
    refuse_nulls(column, base)?;
    let k = k as usize;
    let stride = rest
        .iter()
        .fold(base.itemsize(), |acc, &d| acc.saturating_mul(d as usize));
    let values = list.values().slice(
        list.offset().saturating_mul(k),
        list.len().saturating_mul(k),
    );
    put_list(base, rest, &values, out, &places.split(k, stride))
}

fn put_scalar(s: &Scalar, column: &ArrayRef, out: &mut [u8], places: &Places) -> Result<()> {
    let dt = column.data_type();
    // the file's order: numbers come from Arrow in this machine's, text
    // and datetimes are written in the file's explicitly
    let big = s.order() == ByteOrder::Big;
    if !matches!(s.ty(), ScalarType::Datetime(_) | ScalarType::Timedelta(_)) {
        refuse_nulls(column, &Dtype::Scalar(*s))?;
    }
    if let Some(expected) = number_type(s.ty()) {
        if *dt != expected {
            return Err(mismatch(&format!("{expected} for '{s}'"), dt));
        }
        let size = s.itemsize();
        let data = column.to_data();
        let buffer = data
            .buffers()
            .first()
            .ok_or_else(|| mismatch("a value buffer", dt))?;
        let start = data.offset().saturating_mul(size);
        let values = buffer
            .as_slice()
            .get(start..start.saturating_add(column.len().saturating_mul(size)))
            .ok_or_else(|| mismatch("values as long as the column", dt))?;
        return scatter(out, places, values, size, swapped(s));
    }
    let mut i = 0usize;
    let mut each = |f: &mut dyn FnMut(&mut [u8], usize) -> Result<()>| {
        let size = s.itemsize();
        places.for_each(|at| {
            f(bytes_at_mut(out, at, size)?, i).map_err(|e| e.at_index(i as u64))?;
            i += 1;
            Ok(())
        })
    };
    match s.ty() {
        ScalarType::Bool => {
            if *dt != DataType::Boolean {
                return Err(mismatch("Boolean for '|b1'", dt));
            }
            let b = column.as_boolean();
            each(&mut |dst, i| {
                if let Some(d) = dst.first_mut() {
                    *d = u8::from(b.value(i));
                }
                Ok(())
            })
        }
        ScalarType::Complex(8 | 16) => {
            let half = Scalar::new(ScalarType::Float(s.itemsize() as u8 / 2), s.order());
            if !matches!(dt, DataType::Struct(fields) if complex_of(fields) == Some(s.ty())) {
                let want = format!(
                    "Struct{{re, im}} of {}-byte floats for '{s}'",
                    half.itemsize()
                );
                return Err(mismatch(&want, dt));
            }
            let parts = column.as_struct();
            put_scalar(&half, parts.column(0), out, places).map_err(|e| e.in_field("re"))?;
            put_scalar(&half, parts.column(1), out, &places.at(half.itemsize()))
                .map_err(|e| e.in_field("im"))
        }
        ScalarType::Bytes(w) | ScalarType::Void(w) => {
            let mut values = binaries(column)?;
            each(&mut |dst, _| {
                let v = values.next().flatten().unwrap_or_default();
                if v.len() > w {
                    return Err(Error::mismatch(format!(
                        "a value of {} bytes does not fit '{s}'",
                        v.len()
                    )));
                }
                if let Some(d) = dst.get_mut(..v.len()) {
                    d.copy_from_slice(v);
                }
                Ok(())
            })
        }
        ScalarType::Unicode(w) => {
            let mut values = texts(column)?;
            each(&mut |dst, _| {
                let v = values.next().flatten().unwrap_or_default();
                let count = v.chars().count();
                if count > w {
                    return Err(Error::mismatch(format!(
                        "a string of {count} characters does not fit '{s}'"
                    )));
                }
                for (c, d) in v.chars().zip(dst.chunks_exact_mut(4)) {
                    let b = if big {
                        u32::from(c).to_be_bytes()
                    } else {
                        u32::from(c).to_le_bytes()
                    };
                    d.copy_from_slice(&b);
                }
                Ok(())
            })
        }
        ScalarType::Datetime(unit) | ScalarType::Timedelta(unit) => {
            let datetime = matches!(s.ty(), ScalarType::Datetime(_));
            let Some((from, _)) = time::numpy_unit(dt).filter(|&(_, d)| d == datetime) else {
                let want = if datetime {
                    "Date32, Date64 or Timestamp"
                } else {
                    "Duration"
                };
                return Err(mismatch(&format!("{want} for '{s}'"), dt));
            };
            let data = column.to_data();
            let nulls = column.logical_nulls();
            let wide = |i: usize| -> i64 {
                let at = data.offset().saturating_add(i);
                let buffer = data.buffers().first();
                match dt {
                    DataType::Date32 => buffer
                        .and_then(|b| b.typed_data::<i32>().get(at).copied())
                        .map_or(0, i64::from),
                    _ => buffer
                        .and_then(|b| b.typed_data::<i64>().get(at).copied())
                        .unwrap_or(0),
                }
            };
            each(&mut |dst, i| {
                let v = if nulls.as_ref().is_some_and(|n| n.is_null(i)) {
                    NAT
                } else {
                    time::to_unit(wide(i), from, unit, datetime)?
                };
                dst.copy_from_slice(&if big {
                    v.to_be_bytes()
                } else {
                    v.to_le_bytes()
                });
                Ok(())
            })
        }
        _ => Err(Error::unsupported(format!(
            "'{s}' cannot be written from Arrow"
        ))),
    }
}
