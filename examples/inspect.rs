//! Prints what an `.npy` or `.npz` file holds: format version, header, the
//! dtype as a tree (names, offsets, itemsize, byte order) and the first
//! records as JSON, read through `serde_json::Value` (the crate's
//! `deserialize_any` at work).
//!
//! ```sh
//! cargo run --example inspect -- particles.npy [RECORDS]
//! ```

use std::io::{BufReader, Read, Seek, Write};
use std::process::ExitCode;

use npy_serde::{Dtype, NpyReader};

#[allow(dead_code)] // the snapshot test includes this file and calls `inspect`
fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: inspect FILE.npy|FILE.npz [RECORDS]");
        return ExitCode::from(2);
    };
    let limit: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    let stdout = std::io::stdout();
    match inspect(&path, limit, &mut stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("{path}: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Writes the report for the file at `path` to `out`, with at most `limit`
/// records per array.
pub fn inspect(path: &str, limit: usize, out: &mut dyn Write) -> npy_serde::Result<()> {
    let mut file = BufReader::new(std::fs::File::open(path)?);
    let mut magic = [0u8; 4];
    let n = file.read(&mut magic)?;
    file.rewind()?;
    if n == 4 && (&magic == b"PK\x03\x04" || &magic == b"PK\x05\x06") {
        return inspect_npz(file, limit, out);
    }
    print_array(NpyReader::new(file)?, "", limit, out)
}

fn inspect_npz<R: Read + Seek>(
    file: R,
    limit: usize,
    out: &mut dyn Write,
) -> npy_serde::Result<()> {
    let mut archive = npy_serde::npz::NpzReader::new(file)?;
    let names = archive.names().to_vec();
    writeln!(out, "npz archive, {} member(s)", names.len())?;
    for name in names {
        writeln!(out)?;
        writeln!(out, "member {name:?}")?;
        match archive.reader(&name) {
            Ok(reader) => print_array(reader, "  ", limit, out)?,
            Err(err) => writeln!(out, "  not an array: {err}")?,
        }
    }
    Ok(())
}

fn print_array<R: Read>(
    mut reader: NpyReader<R>,
    indent: &str,
    limit: usize,
    out: &mut dyn Write,
) -> npy_serde::Result<()> {
    let (major, minor) = reader.version();
    writeln!(out, "{indent}format version {major}.{minor}")?;
    writeln!(out, "{indent}header {}", reader.header())?;
    writeln!(out, "{indent}dtype:")?;
    print_dtype(reader.dtype(), 0, &format!("{indent}  "), out)?;
    let len = reader.len();
    let shown = limit.min(usize::try_from(len).unwrap_or(usize::MAX));
    writeln!(out, "{indent}first {shown} of {len} record(s):")?;
    for record in reader.deserialize::<serde_json::Value>().take(limit) {
        writeln!(out, "{indent}  {}", record?)?;
    }
    Ok(())
}

fn print_dtype(
    dtype: &Dtype,
    offset: usize,
    indent: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match dtype {
        Dtype::Scalar(s) => writeln!(
            out,
            "{indent}{s}: offset {offset}, {} byte(s), {:?}",
            s.itemsize(),
            s.order()
        ),
        Dtype::Subarray(base, shape) => {
            writeln!(
                out,
                "{indent}subarray {shape:?}: offset {offset}, {} byte(s), of",
                dtype.itemsize()
            )?;
            print_dtype(base, offset, &format!("{indent}  "), out)
        }
        Dtype::Record(rec) => {
            writeln!(
                out,
                "{indent}record: offset {offset}, itemsize {}, {} field(s)",
                rec.itemsize(),
                rec.fields().len()
            )?;
            for field in rec.fields() {
                let title = field
                    .title()
                    .map(|t| format!(" (title {t:?})"))
                    .unwrap_or_default();
                writeln!(out, "{indent}  {:?}{title}:", field.name())?;
                print_dtype(
                    field.dtype(),
                    offset + field.offset(),
                    &format!("{indent}    "),
                    out,
                )?;
            }
            Ok(())
        }
    }
}
