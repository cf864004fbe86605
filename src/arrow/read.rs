//! A numpy array's data section as Arrow arrays: each column gathered from
//! the bytes by its dtype, one copy per leaf, no per-value calls into a
//! user's type (there is none).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions, make_array};
use arrow_buffer::{BooleanBuffer, Buffer};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Fields, Schema};

use super::places::{Places, bytes_at, gather};
use super::time::{self, NAT};
use super::{DESCR_KEY, FORTRAN_KEY, SHAPE_KEY, VALUES};
use crate::de::array::fortran_to_c;
use crate::error::{Error, Result};
use crate::format::dtype::{ByteOrder, Dtype, Scalar, ScalarType, ShapeRepr};
use crate::format::header::Header;

/// The rows of an array as Arrow sees them: their count and the dtype of
/// one row. A 0-d array is one row; an n-d array's rows are its first
/// axis, each a subarray of the rest; `split` makes a 2-d plain array's
/// columns fields `"0"`, `"1"`, ... (as `npy csv` names them).
pub(super) fn rows_of(header: &Header, split: bool) -> Result<(usize, Dtype)> {
    let shape = header.usize_shape()?;
    let n = shape.first().copied().unwrap_or(1);
    let row = match (shape.get(1..), &header.descr) {
        (Some([k]), Dtype::Scalar(_)) if split => {
            let mut builder = Dtype::record();
            for j in 0..*k {
                builder = builder.field(j.to_string(), header.descr.clone());
            }
            builder.build()?
        }
        (Some(rest), _) if !rest.is_empty() => Dtype::Subarray(
            Box::new(header.descr.clone()),
            rest.iter().map(|&d| d as u64).collect(),
        ),
        _ => header.descr.clone(),
    };
    Ok((n, row))
}

/// The batch of an array whose data section, exactly `header.data_len()`
/// bytes, is `data` (owned when read from a stream: a little-endian 1-d
/// array of numbers becomes its column without a copy).
pub(super) fn batch(header: &Header, data: Cow<'_, [u8]>, split: bool) -> Result<RecordBatch> {
    crate::de::check_readable(&header.descr)?;
    let data = if header.column_major() {
        Cow::Owned(fortran_to_c(&data, &header.shape, header.descr.itemsize())?)
    } else {
        data
    };
    let (n, row) = rows_of(header, split)?;
    let places = Places::rows(n, row.itemsize());
    let (fields, columns): (Vec<Field>, Vec<ArrayRef>) = match &row {
        Dtype::Record(record) => record
            .fields()
            .iter()
            .map(|f| {
                column(f.dtype(), &data, &places.at(f.offset()))
                    .map(|c| c.named(f.name()))
                    .map_err(|e| e.in_field(f.name()))
            })
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .unzip(),
        _ => {
            let c = match (data, &row) {
                (Cow::Owned(bytes), Dtype::Scalar(s))
                    if places.contiguous(s.itemsize()).is_some() =>
                {
                    whole(s, bytes)?
                }
                (data, _) => column(&row, &data, &places)?,
            };
            let (f, a) = c.named(VALUES);
            (vec![f], vec![a])
        }
    };
    let metadata = HashMap::from([
        (DESCR_KEY.to_owned(), header.descr.to_string()),
        (SHAPE_KEY.to_owned(), ShapeRepr(&header.shape).to_string()),
        (
            FORTRAN_KEY.to_owned(),
            if header.fortran_order {
                "True"
            } else {
                "False"
            }
            .to_owned(),
        ),
    ]);
    let schema = Arc::new(Schema::new_with_metadata(fields, metadata));
    RecordBatch::try_new_with_options(
        schema,
        columns,
        &RecordBatchOptions::new().with_row_count(Some(n)),
    )
    .map_err(internal)
}

/// One column: its Arrow type, values and whether it may hold nulls
/// (only datetimes do: NaT).
struct Column {
    data: ArrayData,
    nullable: bool,
    metadata: HashMap<String, String>,
}

impl Column {
    fn plain(data: ArrayData) -> Column {
        Column {
            data,
            nullable: false,
            metadata: HashMap::new(),
        }
    }

    fn field(&self, name: &str) -> Field {
        Field::new(name, self.data.data_type().clone(), self.nullable)
            .with_metadata(self.metadata.clone())
    }

    fn named(self, name: &str) -> (Field, ArrayRef) {
        (self.field(name), make_array(self.data))
    }
}

pub(super) fn internal(e: arrow_schema::ArrowError) -> Error {
    Error::data(format!("internal error: Arrow refused an array: {e}"))
}

fn build(builder: arrow_data::ArrayDataBuilder) -> Result<ArrayData> {
    builder.align_buffers(true).build().map_err(internal)
}

/// The column of `dtype` values at `places`.
fn column(dtype: &Dtype, data: &[u8], places: &Places) -> Result<Column> {
    match dtype {
        Dtype::Scalar(s) => scalar(s, data, places),
        Dtype::Subarray(base, shape) => {
            // one more axis of `places` per dimension, innermost last
            let mut inner = places.clone();
            let mut stride = base.itemsize();
            let mut strides = Vec::with_capacity(shape.len());
            for &d in shape.iter().rev() {
                strides.push(stride);
                stride = stride.saturating_mul(d as usize);
            }
            let mut lens = vec![places.len()];
            for (&d, &s) in shape.iter().zip(strides.iter().rev()) {
                inner = inner.split(d as usize, s);
                lens.push(inner.len());
            }
            let mut c = column(base, data, &inner)?;
            for (&d, &len) in shape.iter().zip(&lens).rev() {
                let size = i32::try_from(d).map_err(|_| {
                    Error::limit(format!(
                        "a subarray axis of {d} is longer than Arrow's lists"
                    ))
                })?;
                let item = Arc::new(c.field("item"));
                let data = build(
                    ArrayData::builder(DataType::FixedSizeList(item, size))
                        .len(len)
                        .add_child_data(c.data),
                )?;
                c = Column::plain(data);
            }
            Ok(c)
        }
        Dtype::Record(record) => {
            let mut fields = Vec::with_capacity(record.fields().len());
            let mut children = Vec::with_capacity(record.fields().len());
            for f in record.fields() {
                let c = column(f.dtype(), data, &places.at(f.offset()))
                    .map_err(|e| e.in_field(f.name()))?;
                fields.push(c.field(f.name()));
                children.push(c.data);
            }
            let data = build(
                ArrayData::builder(DataType::Struct(Fields::from(fields)))
                    .len(places.len())
                    .child_data(children),
            )?;
            Ok(Column::plain(data))
        }
    }
}

/// The Arrow type of a number of numpy's `kind` and `size`; `None` where
/// Arrow has none.
pub(super) fn number_type(ty: ScalarType) -> Option<DataType> {
    Some(match ty {
        ScalarType::Int(1) => DataType::Int8,
        ScalarType::Int(2) => DataType::Int16,
        ScalarType::Int(4) => DataType::Int32,
        ScalarType::Int(8) => DataType::Int64,
        ScalarType::UInt(1) => DataType::UInt8,
        ScalarType::UInt(2) => DataType::UInt16,
        ScalarType::UInt(4) => DataType::UInt32,
        ScalarType::UInt(8) => DataType::UInt64,
        ScalarType::Float(2) => DataType::Float16,
        ScalarType::Float(4) => DataType::Float32,
        ScalarType::Float(8) => DataType::Float64,
        _ => return None,
    })
}

/// Whether values of `s` are stored in the other order than this
/// machine's (Arrow's buffers hold this machine's).
pub(super) fn swapped(s: &Scalar) -> bool {
    s.order() != ByteOrder::NATIVE && s.order() != ByteOrder::NotApplicable
}

/// A whole 1-d (or 0-d) array of numbers read from a stream: its bytes
/// become the column's buffer as they are.
fn whole(s: &Scalar, mut bytes: Vec<u8>) -> Result<Column> {
    match number_type(s.ty()) {
        Some(dt) => {
            let n = bytes.len() / s.itemsize().max(1);
            if swapped(s) {
                bytes
                    .chunks_exact_mut(s.itemsize())
                    .for_each(<[u8]>::reverse);
            }
            let data = build(
                ArrayData::builder(dt)
                    .len(n)
                    .add_buffer(Buffer::from_vec(bytes)),
            )?;
            Ok(Column::plain(data))
        }
        None => scalar(
            s,
            &bytes,
            &Places::rows(bytes.len() / s.itemsize().max(1), s.itemsize()),
        ),
    }
}

fn scalar(s: &Scalar, data: &[u8], places: &Places) -> Result<Column> {
    let n = places.len();
    let size = s.itemsize();
    if let Some(dt) = number_type(s.ty()) {
        let bytes = gather(data, places, size, swapped(s))?;
        return Ok(Column::plain(build(
            ArrayData::builder(dt)
                .len(n)
                .add_buffer(Buffer::from_vec(bytes)),
        )?));
    }
    match s.ty() {
        ScalarType::Bool => {
            let bytes = gather(data, places, 1, false)?;
            let bits = BooleanBuffer::collect_bool(n, |i| bytes.get(i).is_some_and(|&b| b != 0));
            Ok(Column::plain(build(
                ArrayData::builder(DataType::Boolean)
                    .len(n)
                    .add_buffer(bits.into_inner()),
            )?))
        }
        ScalarType::Complex(8 | 16) => {
            let half = Scalar::new(
                ScalarType::Float(s.ty().itemsize().unwrap_or(0) as u8 / 2),
                s.order(),
            );
            let re = scalar(&half, data, places)?;
            let im = scalar(&half, data, &places.at(half.itemsize()))?;
            let fields = Fields::from(vec![re.field("re"), im.field("im")]);
            Ok(Column::plain(build(
                ArrayData::builder(DataType::Struct(fields))
                    .len(n)
                    .child_data(vec![re.data, im.data]),
            )?))
        }
        ScalarType::Bytes(w) => strings(DataType::Binary, data, places, w, |v, out| {
            let end = v.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
            out.extend_from_slice(v.get(..end).unwrap_or_default());
            Ok(())
        }),
        ScalarType::Unicode(w) => {
            let big = s.order() == ByteOrder::Big;
            strings(
                DataType::Utf8,
                data,
                places,
                w.saturating_mul(4),
                |v, out| {
                    let units = v.chunks_exact(4).map(|c| {
                        let b = [c.first(), c.get(1), c.get(2), c.get(3)]
                            .map(|b| b.copied().unwrap_or(0));
                        if big {
                            u32::from_be_bytes(b)
                        } else {
                            u32::from_le_bytes(b)
                        }
                    });
                    let len = units.clone().rposition(|u| u != 0).map_or(0, |p| p + 1);
                    for u in units.take(len) {
                        let c = char::from_u32(u).ok_or_else(|| {
                            Error::data(format!("code point {u:#x} is not a Unicode scalar value"))
                        })?;
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                    Ok(())
                },
            )
        }
        ScalarType::Void(w) => {
            let width = i32::try_from(w).map_err(|_| {
                Error::limit(format!("'|V{w}' is wider than Arrow's fixed-size binary"))
            })?;
            let bytes = gather(data, places, w, false)?;
            let mut c = Column::plain(build(
                ArrayData::builder(DataType::FixedSizeBinary(width))
                    .len(n)
                    .add_buffer(Buffer::from_vec(bytes)),
            )?);
            c.metadata.insert(DESCR_KEY.to_owned(), s.to_string());
            Ok(c)
        }
        ScalarType::Datetime(unit) | ScalarType::Timedelta(unit) => {
            let datetime = matches!(s.ty(), ScalarType::Datetime(_));
            let dt = time::arrow_type(unit, datetime)?;
            let to = time::counted_in(&dt);
            let raw = gather(data, places, 8, swapped(s))?;
            let mut valid = Vec::with_capacity(n);
            let mut wide = Vec::with_capacity(n);
            for (i, c) in raw.chunks_exact(8).enumerate() {
                // gathered in this machine's order
                let v = i64::from_ne_bytes(c.try_into().unwrap_or([0; 8]));
                if v == NAT {
                    valid.push(false);
                    wide.push(0);
                } else {
                    valid.push(true);
                    let v =
                        time::to_unit(v, unit, to, datetime).map_err(|e| e.at_index(i as u64))?;
                    wide.push(v);
                }
            }
            let values = if dt == DataType::Date32 {
                let days = wide
                    .iter()
                    .enumerate()
                    .map(|(i, &d)| {
                        i32::try_from(d).map_err(|_| {
                            Error::data(format!("{d} days does not fit Arrow's Date32"))
                                .at_index(i as u64)
                        })
                    })
                    .collect::<Result<Vec<i32>>>()?;
                Buffer::from_vec(days)
            } else {
                Buffer::from_vec(wide)
            };
            let nulls = valid
                .iter()
                .any(|v| !v)
                .then(|| BooleanBuffer::from(valid).into_inner());
            let data = build(
                ArrayData::builder(dt)
                    .len(n)
                    .add_buffer(values)
                    .null_bit_buffer(nulls),
            )?;
            Ok(Column {
                data,
                nullable: true,
                metadata: HashMap::new(),
            })
        }
        ScalarType::Float(16) | ScalarType::Complex(32) => Err(Error::unsupported(format!(
            "'{s}' (long double) has no Arrow type; read it with npy_serde::LongDouble"
        ))),
        _ => Err(Error::unsupported(format!("'{s}' has no Arrow type"))),
    }
}

/// A Binary or Utf8 column of `width`-byte values, each turned into its
/// bytes by `value`.
fn strings(
    dt: DataType,
    data: &[u8],
    places: &Places,
    width: usize,
    mut value: impl FnMut(&[u8], &mut Vec<u8>) -> Result<()>,
) -> Result<Column> {
    let n = places.len();
    let mut offsets = Vec::with_capacity(n.saturating_add(1));
    offsets.push(0i32);
    let mut bytes = Vec::new();
    let mut i = 0u64;
    places.for_each(|at| {
        value(bytes_at(data, at, width)?, &mut bytes).map_err(|e| e.at_index(i))?;
        i += 1;
        offsets.push(i32::try_from(bytes.len()).map_err(|_| {
            Error::limit(
                "a column of strings holds more than 2 GiB, more than Arrow's Utf8/Binary offsets",
            )
        })?);
        Ok(())
    })?;
    Ok(Column::plain(build(
        ArrayData::builder(dt)
            .len(n)
            .add_buffer(Buffer::from_vec(offsets))
            .add_buffer(Buffer::from_vec(bytes)),
    )?))
}
