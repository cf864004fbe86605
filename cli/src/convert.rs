//! `npy convert IN OUT`: between numpy files and the formats a pipeline
//! uses, chosen by extension. `.npy`/`.npz` become `.parquet`, `.arrow`
//! (Arrow IPC file), `.csv` or `.jsonl`; `.parquet`, `.arrow` and `.csv`
//! become `.npy`. Arrow batches come from and go to the library
//! (`npy_serde::arrow`): its mapping and its schema metadata, so a file that
//! goes to Parquet or Arrow and back is the same file. `.csv` and `.jsonl`
//! are what `npy csv` and `npy json` print.

use std::fs::File;
use std::io::{BufWriter, Cursor, Read, Write};
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};

use npy_serde::npz::NpzReader;

use crate::input::{Extent, Failure, Source, open_source, with_input};

/// The formats by extension.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Format {
    Npy,
    Npz,
    Parquet,
    Ipc,
    Csv,
    Jsonl,
}

fn format_of(path: &Path) -> Result<Format, Failure> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    Ok(match ext.as_deref() {
        Some("npy") => Format::Npy,
        Some("npz") => Format::Npz,
        Some("parquet" | "pq") => Format::Parquet,
        Some("arrow" | "ipc" | "feather") => Format::Ipc,
        Some("csv") => Format::Csv,
        Some("jsonl" | "ndjson") => Format::Jsonl,
        _ => {
            return Err(Failure::Usage(format!(
                "{}: unknown extension (npy convert knows .npy, .npz, .parquet, .arrow, .csv, \
                 .jsonl)",
                path.display()
            )));
        }
    })
}

/// The format of an input read from standard input, by its first bytes.
fn sniff(bytes: &[u8]) -> Format {
    if bytes.starts_with(b"\x93NUMPY") {
        Format::Npy
    } else if bytes.starts_with(b"PK") {
        Format::Npz
    } else if bytes.starts_with(b"PAR1") {
        Format::Parquet
    } else if bytes.starts_with(b"ARROW1") {
        Format::Ipc
    } else {
        Format::Csv
    }
}

/// What `npy convert` was asked.
pub struct Request<'a> {
    pub input: &'a Path,
    pub output: &'a Path,
    pub member: Option<&'a str>,
    pub array: bool,
}

pub fn convert(req: &Request<'_>) -> Result<(), Failure> {
    let bytes = read_input(req.input)?;
    let from = if req.input == Path::new("-") {
        sniff(&bytes)
    } else {
        format_of(req.input)?
    };
    let to = format_of(req.output)?;
    let numpy = matches!(from, Format::Npy | Format::Npz);
    if req.member.is_some() && from != Format::Npz {
        return Err(Failure::Usage("--member applies to an .npz input".into()));
    }
    if req.array && (numpy || to != Format::Npy) {
        return Err(Failure::Usage(
            "--array applies to a .parquet, .arrow or .csv input converted to .npy".into(),
        ));
    }
    match (numpy, to) {
        (true, Format::Csv | Format::Jsonl) => write_output(req.output, |out| {
            text_of(&bytes, req.member, to == Format::Csv, out)
        }),
        (true, Format::Parquet | Format::Ipc) => {
            let batch = numpy_batch(&bytes, from, req.member)?;
            write_output(req.output, |out| write_batch(&batch, to, out))
        }
        (false, Format::Npy) => {
            let batch = read_batches(bytes, from)?;
            let batch = if req.array { as_array(batch)? } else { batch };
            let npy = npy_serde::arrow::to_vec(&batch)?;
            write_output(req.output, |out| Ok(out.write_all(&npy)?))
        }
        _ => Err(Failure::Usage(format!(
            "npy convert turns .npy/.npz into .parquet, .arrow, .csv or .jsonl, and .parquet, \
             .arrow or .csv into .npy; not {} into {}",
            name(from),
            name(to)
        ))),
    }
}

fn name(f: Format) -> &'static str {
    match f {
        Format::Npy => ".npy",
        Format::Npz => ".npz",
        Format::Parquet => ".parquet",
        Format::Ipc => ".arrow",
        Format::Csv => ".csv",
        Format::Jsonl => ".jsonl",
    }
}

fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::File(format!("reading standard input: {e}")))?;
    } else {
        File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| Failure::File(e.to_string()))?;
    }
    Ok(bytes)
}

/// Writes the output file whole, or removes what was written on failure.
fn write_output(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let file = File::create(path)
        .map_err(|e| Failure::File(format!("creating {}: {e}", path.display())))?;
    let mut out = BufWriter::new(file);
    let result = write(&mut out).and_then(|()| Ok(out.flush()?));
    if result.is_err() {
        drop(out);
        let _ = std::fs::remove_file(path);
    }
    result
}

/// `npy csv`/`npy json` of the array in `bytes`.
fn text_of(
    bytes: &[u8],
    member: Option<&str>,
    csv: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let input = open_source(Source::Memory(Cursor::new(bytes.to_vec())))?;
    with_input(input, member, Extent::Whole, |rows| {
        if csv {
            crate::table::csv(rows, out)
        } else {
            crate::json::json(rows, out)
        }
    })
}

/// The batch of an `.npy` file, an `.npz` member, or a whole `.npz` whose
/// members have one length.
fn numpy_batch(bytes: &[u8], from: Format, member: Option<&str>) -> Result<RecordBatch, Failure> {
    Ok(match (from, member) {
        (Format::Npz, Some(name)) => {
            let mut archive = NpzReader::new(Cursor::new(bytes))?;
            let member = archive.raw(name)?;
            npy_serde::arrow::from_slice(&member).map_err(|e| e.in_member(name))?
        }
        (Format::Npz, None) => npy_serde::arrow::from_npz(Cursor::new(bytes))?,
        _ => npy_serde::arrow::from_slice(bytes)?,
    })
}

fn arrow_failure(what: &str) -> impl Fn(arrow_schema::ArrowError) -> Failure + '_ {
    move |e| Failure::File(format!("{what}: {e}"))
}

fn parquet_failure(what: &str) -> impl Fn(parquet::errors::ParquetError) -> Failure + '_ {
    move |e| Failure::File(format!("{what}: {e}"))
}

fn write_batch(
    batch: &RecordBatch,
    to: Format,
    out: &mut (impl Write + Send),
) -> Result<(), Failure> {
    match to {
        Format::Parquet => {
            let mut w = parquet::arrow::ArrowWriter::try_new(out, batch.schema(), None)
                .map_err(parquet_failure("writing Parquet"))?;
            w.write(batch).map_err(parquet_failure("writing Parquet"))?;
            w.close().map_err(parquet_failure("writing Parquet"))?;
        }
        _ => {
            let mut w = arrow_ipc::writer::FileWriter::try_new(out, &batch.schema())
                .map_err(arrow_failure("writing Arrow IPC"))?;
            w.write(batch).map_err(arrow_failure("writing Arrow IPC"))?;
            w.finish().map_err(arrow_failure("writing Arrow IPC"))?;
        }
    }
    Ok(())
}

/// Every batch of a Parquet, Arrow IPC or CSV input, as one.
fn read_batches(bytes: Vec<u8>, from: Format) -> Result<RecordBatch, Failure> {
    let (schema, batches) = match from {
        Format::Parquet => {
            let what = "reading Parquet";
            let builder = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
                bytes::Bytes::from(bytes),
            )
            .map_err(parquet_failure(what))?;
            let schema = builder.schema().clone();
            let reader = builder.build().map_err(parquet_failure(what))?;
            let batches = reader
                .collect::<Result<Vec<_>, _>>()
                .map_err(arrow_failure(what))?;
            (schema, batches)
        }
        Format::Ipc => {
            let what = "reading Arrow IPC";
            let reader = arrow_ipc::reader::FileReader::try_new(Cursor::new(bytes), None)
                .map_err(arrow_failure(what))?;
            let schema = reader.schema();
            let batches = reader
                .collect::<Result<Vec<_>, _>>()
                .map_err(arrow_failure(what))?;
            (schema, batches)
        }
        _ => {
            let what = "reading CSV";
            let format = arrow_csv::reader::Format::default().with_header(true);
            let (schema, _) = format
                .infer_schema(Cursor::new(&bytes), None)
                .map_err(arrow_failure(what))?;
            let schema = Arc::new(schema);
            let reader = arrow_csv::ReaderBuilder::new(schema.clone())
                .with_format(format)
                .build(Cursor::new(&bytes))
                .map_err(arrow_failure(what))?;
            let batches = reader
                .map(|b| b.and_then(empty_not_null))
                .collect::<Result<Vec<_>, _>>()
                .map_err(arrow_failure(what))?;
            (schema, batches)
        }
    };
    arrow_select::concat::concat_batches(&schema, &batches)
        .map_err(arrow_failure("joining batches"))
}

/// An empty CSV cell of a text column is the empty string, not a null
/// (arrow-csv reads it as a null; in a number column it stays one, and
/// the library names the column that holds it).
fn empty_not_null(batch: RecordBatch) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let columns = batch
        .columns()
        .iter()
        .map(|c| match c.data_type() {
            DataType::Utf8 if c.null_count() > 0 => {
                let text: StringArray = c
                    .as_string::<i32>()
                    .iter()
                    .map(|v| Some(v.unwrap_or("")))
                    .collect();
                Arc::new(text) as ArrayRef
            }
            _ => c.clone(),
        })
        .collect();
    RecordBatch::try_new(batch.schema(), columns)
}

/// The batch's columns, all of one number type, as a plain array: `(n,)`
/// for one column, `(n, k)` for `k`; the library writes it so when the
/// schema says so and the columns are named `"0"`, `"1"`, ...
fn as_array(batch: RecordBatch) -> Result<RecordBatch, Failure> {
    let Some(first) = batch
        .schema()
        .fields()
        .first()
        .map(|f| f.data_type().clone())
    else {
        return Err(Failure::Usage("--array: the input has no column".into()));
    };
    if let Some(other) = batch
        .schema()
        .fields()
        .iter()
        .find(|f| *f.data_type() != first)
    {
        return Err(Failure::Usage(format!(
            "--array needs columns of one type: '{}' is {first}, '{}' is {}",
            batch.schema().field(0).name(),
            other.name(),
            other.data_type()
        )));
    }
    let descr = match first {
        DataType::Boolean => "'|b1'",
        DataType::Int8 => "'|i1'",
        DataType::Int16 => "'<i2'",
        DataType::Int32 => "'<i4'",
        DataType::Int64 => "'<i8'",
        DataType::UInt8 => "'|u1'",
        DataType::UInt16 => "'<u2'",
        DataType::UInt32 => "'<u4'",
        DataType::UInt64 => "'<u8'",
        DataType::Float16 => "'<f2'",
        DataType::Float32 => "'<f4'",
        DataType::Float64 => "'<f8'",
        other => {
            return Err(Failure::Usage(format!(
                "--array needs columns of numbers or booleans; these are {other}"
            )));
        }
    };
    let k = batch.num_columns();
    let shape = if k == 1 {
        format!("({},)", batch.num_rows())
    } else {
        format!("({}, {k})", batch.num_rows())
    };
    let fields: Vec<Field> = (0..k)
        .map(|j| Field::new(j.to_string(), first.clone(), true))
        .collect();
    let metadata: std::collections::HashMap<String, String> = [
        (npy_serde::arrow::DESCR_KEY, descr.to_owned()),
        (npy_serde::arrow::SHAPE_KEY, shape),
        (npy_serde::arrow::FORTRAN_KEY, "False".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let columns: Vec<ArrayRef> = batch.columns().to_vec();
    RecordBatch::try_new(
        Arc::new(Schema::new_with_metadata(fields, metadata)),
        columns,
    )
    .map_err(arrow_failure("--array"))
}
