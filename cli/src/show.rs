//! `npy show`: what a file holds, for people.
//!
//! For each array (an `.npy` file, every member of an `.npz` or the one
//! `--member` names): the format version, shape, memory order and row
//! count; the dtype as numpy writes it and as a table of fields with their
//! offsets and sizes (padding shown); then the first rows in dtype order,
//! each value as numpy prints it, large arrays summarized as numpy's repr
//! summarizes them (see [`crate::repr`]). An array whose dtype the library
//! refuses (`'|O'`, pickled Python objects) shows its header and a note.

use std::collections::VecDeque;
use std::io::{Read, Seek, Write};

use npy_serde::npz::NpzReader;
use npy_serde::{Dtype, Header, NpyReader, PyStr, ReadOptions};

use crate::input::{Failure, Input, Rows, choose_member, finish, for_each_row, has_objects};
use crate::repr::{EDGE_ITEMS, THRESHOLD, repr};

/// Shows the file opened as `input` (only `member` of an archive when
/// given), `limit` rows per array.
pub fn show(
    input: Input,
    member: Option<&str>,
    limit: u64,
    out: &mut impl Write,
) -> Result<(), Failure> {
    match (input, member) {
        (Input::Npz(archive), None) => archive_members(archive, limit, out),
        (Input::Npz(mut archive), Some(want)) => {
            let name = choose_member(&archive, Some(want))?;
            let mut failed = None;
            one_member(&mut archive, &name, limit, &mut failed, out)?;
            failed.map_or(Ok(()), Err)
        }
        (Input::Npy(_) | Input::Refused(_), Some(m)) => Err(Failure::Usage(format!(
            "--member {m}: the file is an .npy array, not an .npz archive"
        ))),
        (Input::Npy(reader), None) => array(reader, "", limit, out),
        (Input::Refused(refused), None) => {
            header_block(&refused.header, refused.version, "", out)?;
            refused_note("", out)?;
            Err(refused.failure)
        }
    }
}

fn archive_members<R: Read + Seek>(
    mut archive: NpzReader<R>,
    limit: u64,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let names = archive.names().to_vec();
    writeln!(out, "npz archive, {} member(s)", names.len())?;
    // a member with a refused dtype is shown as far as it can be; the
    // first such refusal is the command's failure, after every member
    let mut failed = None;
    let many = names.len() > MEMBERS_THRESHOLD;
    let last_edge = names.len().saturating_sub(MEMBER_EDGE);
    for (i, name) in names.iter().enumerate() {
        if many && (MEMBER_EDGE..last_edge).contains(&i) {
            if i == MEMBER_EDGE {
                writeln!(out)?;
                writeln!(
                    out,
                    "... {} more member(s), a line each (npy show --member NAME shows one):",
                    last_edge - MEMBER_EDGE
                )?;
            }
            member_line(&mut archive, name, limit, &mut failed, out)?;
            continue;
        }
        writeln!(out)?;
        one_member(&mut archive, name, limit, &mut failed, out)?;
    }
    failed.map_or(Ok(()), Err)
}

/// An archive of more members than this is shown as numpy summarizes a
/// long array: the first and last [`MEMBER_EDGE`] in full, the others a
/// line each (scipy's boost.npz, 111 members, in 174 lines, not 1222).
const MEMBERS_THRESHOLD: usize = 10;
const MEMBER_EDGE: usize = 3;

/// Member `name` in one line: its name and header as numpy writes it; a
/// member whose header cannot be shown so is shown in full.
fn member_line<R: Read + Seek>(
    archive: &mut NpzReader<R>,
    name: &str,
    limit: u64,
    failed: &mut Option<Failure>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let header = archive.reader(name).map(|r| r.header().clone());
    match header {
        Ok(header) => Ok(writeln!(out, "  {}: {header}", PyStr(name))?),
        Err(_) => one_member(archive, name, limit, failed, out),
    }
}

/// Shows member `name`; a refused dtype (its header and a note) leaves its
/// failure in `failed` when none is there yet.
fn one_member<R: Read + Seek>(
    archive: &mut NpzReader<R>,
    name: &str,
    limit: u64,
    failed: &mut Option<Failure>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let refused = match archive.reader(name) {
        Ok(reader) => {
            writeln!(out, "member {}", PyStr(name))?;
            return array(reader, "  ", limit, out);
        }
        Err(e) => e,
    };
    // numpy hands a member that is not .npy over as its bytes (a member
    // not in the archive fails here, before its name is printed)
    let bytes = archive.raw(name)?;
    writeln!(out, "member {}", PyStr(name))?;
    if !bytes.starts_with(b"\x93NUMPY") {
        writeln!(out, "  not an .npy array: {} byte(s)", bytes.len())?;
        return Ok(());
    }
    let header = match Header::from_bytes(&bytes, &ReadOptions::new()) {
        Ok((header, _)) if has_objects(&header.descr) => header,
        _ => return Err(refused.into()),
    };
    // the version bytes follow the 6-byte magic (checked by from_bytes)
    let version = (
        bytes.get(6).copied().unwrap_or(0),
        bytes.get(7).copied().unwrap_or(0),
    );
    header_block(&header, version, "  ", out)?;
    refused_note("  ", out)?;
    failed.get_or_insert(refused.into());
    Ok(())
}

/// The note under the header of an array whose data cannot be read.
fn refused_note(indent: &str, out: &mut impl Write) -> Result<(), Failure> {
    writeln!(
        out,
        "{indent}data not shown: object arrays ('|O', pickled Python objects) cannot be read"
    )?;
    Ok(())
}

/// Format version, shape, order, row count, dtype and its table of fields.
fn header_block(
    header: &Header,
    (major, minor): (u8, u8),
    indent: &str,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let order = if header.fortran_order { "Fortran" } else { "C" };
    let dtype = &header.descr;
    let len = header.shape.first().copied().unwrap_or(1);
    writeln!(
        out,
        "{indent}format {major}.{minor}, shape {}, {order} order, {len} {}(s)",
        shape(&header.shape),
        noun(dtype)
    )?;
    writeln!(out, "{indent}dtype {dtype}")?;
    writeln!(out, "{indent}  itemsize {}", dtype.itemsize())?;
    if dtype.as_record().is_some() {
        let mut rows = Vec::new();
        tree(dtype, 0, 0, &mut rows);
        let width = rows.iter().map(|r| r.2.len()).max().unwrap_or(0).max(5);
        writeln!(out, "{indent}  offset  size  {:width$}  type", "field")?;
        for (offset, size, label, ty) in rows {
            writeln!(
                out,
                "{indent}  {offset:>6}  {size:>4}  {label:width$}  {ty}"
            )?;
        }
    }
    Ok(())
}

/// What a row of an array of `dtype` is called.
fn noun(dtype: &Dtype) -> &'static str {
    if dtype.as_record().is_some() {
        "record"
    } else {
        "row"
    }
}

/// Shows one array; when every row was shown, reads to its end (an `.npz`
/// member's CRC-32 is checked there). Asked for every row of an array of
/// more than 1000 elements and more than 6 rows, it shows the first 3 and
/// the last 3 rows, as numpy's repr does.
fn array<R: Read>(
    mut reader: NpyReader<R>,
    indent: &str,
    limit: u64,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let header = reader.header().clone();
    header_block(&header, reader.version(), indent, out)?;
    let len = reader.len();
    let noun = noun(&header.descr);
    let edges = EDGE_ITEMS as u64;
    if header.shape.is_empty() {
        writeln!(out, "{indent}value:")?;
        rows(&mut reader, &format!("{indent}  "), limit, out)?;
    } else if limit >= len && summarized(&header) && len > 2 * edges {
        writeln!(
            out,
            "{indent}first {edges} and last {edges} of {len} {noun}(s):"
        )?;
        ends(&mut reader, indent, out)?;
    } else {
        let shown = limit.min(len);
        writeln!(out, "{indent}first {shown} of {len} {noun}(s):")?;
        rows(&mut reader, &format!("{indent}  "), limit, out)?;
    }
    if limit >= len { finish(reader) } else { Ok(()) }
}

/// Whether the rows of this array are summarized: numpy's threshold on
/// the number of elements of the whole array.
fn summarized(header: &Header) -> bool {
    header.element_count().is_none_or(|n| n > THRESHOLD)
}

/// Prints the first `limit` rows of `reader` as `[i] value` (the value
/// alone for a 0-d array), each line after `prefix`, long rows summarized
/// as numpy's repr does. `npy head` is this without the header.
pub fn rows(
    reader: &mut dyn Rows,
    prefix: &str,
    limit: u64,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let zero_d = reader.header().shape.is_empty();
    let summarize = summarized(reader.header());
    let mut line = String::new();
    for_each_row(reader, limit, |i, value| {
        line.clear();
        repr(&value, summarize, &mut line);
        if zero_d {
            writeln!(out, "{prefix}{line}")?;
        } else {
            writeln!(out, "{prefix}[{i}] {line}")?;
        }
        Ok(())
    })
}

/// Prints the first and the last [`EDGE_ITEMS`] rows with `...` between:
/// every row is read (and checked), the last ones kept until the end.
fn ends(reader: &mut dyn Rows, indent: &str, out: &mut impl Write) -> Result<(), Failure> {
    let mut last: VecDeque<(u64, String)> = VecDeque::with_capacity(EDGE_ITEMS + 1);
    for_each_row(reader, u64::MAX, |i, value| {
        let mut line = String::new();
        repr(&value, true, &mut line);
        if i < EDGE_ITEMS as u64 {
            writeln!(out, "{indent}  [{i}] {line}")?;
        } else {
            last.push_back((i, line));
            if last.len() > EDGE_ITEMS {
                last.pop_front();
            }
        }
        Ok(())
    })?;
    writeln!(out, "{indent}  ...")?;
    for (i, line) in last {
        writeln!(out, "{indent}  [{i}] {line}")?;
    }
    Ok(())
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
