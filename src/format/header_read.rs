//! Reading and checking an `.npy` header, as numpy's `_read_array_header`
//! does, but with limits checked before anything is allocated.
//!
//! Layout: magic `\x93NUMPY`, version (1,0)/(2,0)/(3,0), a u16 (v1) or u32
//! (v2, v3) little-endian HEADER_LEN, then HEADER_LEN bytes of latin-1 (v1,
//! v2) or UTF-8 (v3) text holding a Python dict literal. Padding, trailing
//! whitespace, key order, a missing trailing comma and old multi-line
//! `pprint` headers are all accepted, as is the Python-2 `3L` suffix in
//! v1/v2 headers (numpy's `_filter_header`).
//!
//! A top-level subarray descr (`('<i4', (2, 3))`) cannot be an array dtype in
//! numpy: creating such an array folds the subarray dims into the shape. We
//! do the same when reading: shape `(4,)` with that descr becomes shape
//! `(4, 2, 3)` of `'<i4'`. (numpy 2.4's own `np.load` fails on such files;
//! the data layout is unambiguous for C order, so we read them. With
//! `fortran_order: True` the layout is not a plain Fortran order of the
//! folded shape, so that combination is refused.)

// Sizes here come from untrusted headers: every operation is checked.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::Read;

use crate::error::{Error, Result};
use crate::format::descr;
use crate::format::dtype::{Dtype, ShapeRepr};
use crate::format::header::{Header, MAGIC};
use crate::format::literal::{self, Value};
use crate::format::pyrepr::{PyBytes, PyStr};
use crate::options::ReadOptions;

/// A header as read from a file.
#[derive(Debug, Clone)]
pub(crate) struct ParsedHeader {
    pub header: Header,
    pub version: (u8, u8),
    /// Bytes from the start of the file to the first data byte.
    pub data_offset: usize,
    /// Dims of a top-level subarray descr that were appended to the shape
    /// (empty for ordinary headers), kept for messages.
    #[allow(dead_code)]
    pub folded_dims: Vec<u64>,
}

impl Header {
    /// Reads the header of an `.npy` stream (magic, version, length, dict),
    /// leaving the reader at the first data byte. Returns the header and the
    /// format version. Limits from `opts` (`max_header_size`, `max_depth`,
    /// `max_elements`) are checked before anything large is allocated.
    ///
    /// A top-level subarray descr is folded into the shape, as numpy does
    /// when it creates such an array.
    ///
    /// ```
    /// use npy_serde::{Header, ReadOptions};
    /// let mut file: &[u8] = b"\x93NUMPY\x01\x00\x3a\x00\
    ///     {'descr': '<i4', 'fortran_order': False, 'shape': (3,), }\n\
    ///     \x01\x00\x00\x00";
    /// let (header, version) = Header::read_from(&mut file, &ReadOptions::new()).unwrap();
    /// assert_eq!(header.shape, vec![3]);
    /// assert_eq!(version, (1, 0));
    /// assert_eq!(file.len(), 4); // positioned at the data
    /// ```
    pub fn read_from<R: Read>(reader: &mut R, opts: &ReadOptions) -> Result<(Header, (u8, u8))> {
        read_header(reader, opts).map(|p| (p.header, p.version))
    }

    /// Parses the header at the start of `bytes`; returns it with the offset
    /// of the first data byte.
    ///
    /// ```
    /// use npy_serde::{Header, ReadOptions};
    /// let err = Header::from_bytes(b"\x93NUMPY\x07\x00", &ReadOptions::new()).unwrap_err();
    /// assert!(err.to_string().contains("format version"));
    /// ```
    pub fn from_bytes(bytes: &[u8], opts: &ReadOptions) -> Result<(Header, usize)> {
        parse_header(bytes, opts).map(|p| (p.header, p.data_offset))
    }
}

/// Reads the header from a stream, leaving it positioned at the first data byte.
pub(crate) fn read_header<R: Read>(reader: &mut R, opts: &ReadOptions) -> Result<ParsedHeader> {
    let (version, len_size, header_len) = read_prefix(reader)?;
    let header_len = usize::try_from(header_len).unwrap_or(usize::MAX);

    // Check the claimed length before reading or allocating anything. A
    // latin-1 char is one byte; a UTF-8 char at most four.
    let max = opts.max_header_size;
    let byte_limit = max.saturating_mul(if version.0 == 3 { 4 } else { 1 });
    if header_len > byte_limit {
        return Err(too_long(header_len, max, version.0 == 3));
    }
    let bytes = read_up_to(reader, u64::try_from(header_len).unwrap_or(u64::MAX))?;
    if bytes.len() < header_len {
        return Err(eof("array header", header_len, bytes.len()));
    }
    let text = if version.0 == 3 {
        String::from_utf8(bytes).map_err(|e| {
            Error::header(format!(
                "the header of a version 3.0 file is not valid UTF-8 (at byte {})",
                e.utf8_error().valid_up_to()
            ))
        })?
    } else {
        bytes.iter().map(|&b| char::from(b)).collect()
    };
    let chars = text.chars().count();
    if chars > max {
        return Err(too_long(chars, max, false));
    }
    let (header, folded_dims) = parse_text(&text, version, opts)?;
    // magic, version, length field, header
    let data_offset = header_len.saturating_add(len_size).saturating_add(8);
    Ok(ParsedHeader {
        header,
        version,
        data_offset,
        folded_dims,
    })
}

/// Reads the magic, the version and the header length field: the version,
/// the field's size and HEADER_LEN.
fn read_prefix<R: Read>(reader: &mut R) -> Result<((u8, u8), usize, u32)> {
    let prefix = read_up_to(reader, 8)?;
    let got = prefix.len();
    if got == 0 {
        return Err(Error::header(
            "the input is empty; expected an npy file starting with b'\\x93NUMPY'",
        ));
    }
    let magic_part = prefix.get(..got.min(MAGIC.len())).unwrap_or(&[]);
    // A correct but truncated magic is an EOF error (as numpy reports it).
    if !MAGIC.starts_with(magic_part) {
        let hint = if magic_part.starts_with(b"PK") {
            " (this looks like a zip archive: read .npz files as archives)"
        } else {
            ""
        };
        return Err(Error::header(format!(
            "the magic string is not correct; expected b'\\x93NUMPY', found {}{hint}",
            PyBytes(magic_part)
        )));
    }
    let (Some(&major), Some(&minor)) = (prefix.get(6), prefix.get(7)) else {
        return Err(eof("magic string", 8, got));
    };
    let version = (major, minor);
    let len_size = match version {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        _ => {
            return Err(Error::header(format!(
                "we only support format version (1,0), (2,0), and (3,0), not ({major},{minor})"
            )));
        }
    };
    let len_bytes = read_up_to(reader, len_size as u64)?;
    if len_bytes.len() < len_size {
        return Err(eof("array header length", len_size, len_bytes.len()));
    }
    let mut le = [0u8; 4];
    le.iter_mut().zip(&len_bytes).for_each(|(d, &b)| *d = b);
    Ok((version, len_size, u32::from_le_bytes(le)))
}

/// Where the data starts by the length a file's first bytes declare (the
/// magic, version and header length: 10 or 12 bytes); `None` where they
/// are too few or no npy prefix. For a reader that fetched the first bytes
/// of an object and must know whether they hold the whole header.
#[cfg(feature = "object_store")]
pub(crate) fn declared_data_offset(bytes: &[u8]) -> Option<u64> {
    let (_, len_size, header_len) = read_prefix(&mut { bytes }).ok()?;
    // magic, version, length field, header
    u64::from(header_len)
        .checked_add(len_size as u64)?
        .checked_add(8)
}

/// Parses the header at the start of `bytes`.
pub(crate) fn parse_header(bytes: &[u8], opts: &ReadOptions) -> Result<ParsedHeader> {
    read_header(&mut { bytes }, opts)
}

fn too_long(n: usize, max: usize, bytes: bool) -> Error {
    let unit = if bytes { "bytes" } else { "characters" };
    Error::limit(format!(
        "header is {n} {unit}, more than max_header_size {max}; raise it with \
         ReadOptions::max_header_size({n})"
    ))
}

/// numpy's message for a header part cut short.
fn eof(what: &str, expected: usize, got: usize) -> Error {
    Error::header(format!(
        "EOF: reading {what}, expected {expected} bytes got {got}"
    ))
}

/// Reads up to `len` bytes from `r`, or fewer at EOF, leaving the reader
/// just past them, into a buffer that grows as they arrive (a size claim
/// alone allocates nothing); the caller checks how many came.
pub(crate) fn read_up_to<R: Read>(r: &mut R, len: u64) -> Result<Vec<u8>> {
    const FIRST: u64 = 64 * 1024;
    let mut out = Vec::with_capacity(usize::try_from(len.min(FIRST)).unwrap_or(0));
    r.take(len).read_to_end(&mut out)?;
    Ok(out)
}

/// The header dict text -> Header (with a top-level subarray folded in).
fn parse_text(text: &str, version: (u8, u8), opts: &ReadOptions) -> Result<(Header, Vec<u64>)> {
    let config = literal::Config {
        max_depth: opts.max_depth,
        free_levels: 1,
        allow_long_suffix: version.0 < 3,
        syntax: |m| Error::header(format!("cannot parse the header dict: {m}")),
    };
    let value = literal::parse(text, config)?;
    let Value::Dict(items) = value else {
        return Err(Error::header(format!(
            "the header is not a dict: found {}",
            value.type_name()
        )));
    };
    let mut slots = ["descr", "fortran_order", "shape"].map(|k| (k, None));
    for (key, value) in items {
        let slot = match &key {
            Value::Str(k) => slots.iter_mut().find(|(name, _)| name == k),
            _ => None,
        };
        let Some((_, slot)) = slot else {
            let what = match key {
                Value::Str(k) => format!("an unexpected key {}", PyStr(&k)),
                other => format!("a key of type {}", other.type_name()),
            };
            return Err(Error::header(format!(
                "the header has {what}; expected exactly the keys 'descr', 'fortran_order' and \
                 'shape'"
            )));
        };
        // duplicate keys: the last one wins, as in a Python dict
        *slot = Some(value);
    }
    let [descr, fortran, shape] =
        slots.map(|(k, v)| v.ok_or_else(|| Error::header(format!("the header has no '{k}' key"))));
    let (descr, fortran, shape) = (descr?, fortran?, shape?);

    let Value::Bool(fortran_order) = fortran else {
        return Err(Error::header(format!(
            "'fortran_order' is not a bool: found {}",
            fortran.type_name()
        )));
    };
    let mut shape = header_shape(&shape)?;
    let mut descr = descr::dtype_from_literal(&descr, opts.max_depth)?;
    let mut folded = Vec::new();
    while let Dtype::Subarray(base, dims) = descr {
        if fortran_order {
            return Err(Error::unsupported(
                "a subarray descr at the top level with fortran_order True (numpy cannot read \
                 it either)",
            ));
        }
        shape.extend_from_slice(&dims);
        folded.extend_from_slice(&dims);
        descr = *base;
    }
    // The deserializer recurses once per axis and record level, so the
    // depth of the value it presents is limited too, not only the brackets
    // (a shape or subarray tuple of 3000 ones is one bracket level).
    let depth = shape.len().saturating_add(tally(&descr).0);
    let header = Header::new(descr, fortran_order, shape);
    header.data_len()?;
    if depth > opts.max_depth {
        return Err(Error::limit(format!(
            "the array's values are nested {depth} deep (dimensions of the shape and of \
             subarrays, and record levels), more than max_depth {}; raise the limit with \
             ReadOptions::max_depth",
            opts.max_depth
        )));
    }
    check_element_limits(&header, opts.max_elements)?;
    Ok((header, folded))
}

/// The element count of `header` (and the values that hold no bytes)
/// against `max_elements`: the check every header read makes, and row
/// ranges make of the rows they read.
pub(crate) fn check_element_limits(header: &Header, max_elements: u64) -> Result<()> {
    let count = header.element_count().unwrap_or(u64::MAX);
    if count > max_elements {
        return Err(Error::limit(format!(
            "shape {} has {count} elements, more than max_elements {}; raise it with \
             ReadOptions::max_elements({count})",
            ShapeRepr(&header.shape),
            max_elements
        )));
    }
    // Values that hold no bytes (empty records, alone or in subarrays) are
    // not bounded by the data present: a 128-byte file can declare billions
    // of them. Each counts as EMPTY_VALUE_COST elements. Empty sequences of
    // a shape with a 0 axis are checked where the shape is presented as
    // nested sequences ([`check_empty_axes`]): an `NdArray` holds them in
    // O(1).
    if empty_axes(&header.shape).is_none() {
        let own = u64::from(header.descr.itemsize() == 0);
        let empty = count.saturating_mul(own.saturating_add(tally(&header.descr).1));
        check_empty(header, empty, max_elements)?;
    }
    Ok(())
}

/// The limit on values that hold no bytes for a shape with a 0 axis
/// (`(12345678, 0)`: 12345678 empty sequences when presented as nested
/// sequences); checked by every read that presents the shape so, not by
/// `NdArray`, which holds such an array in O(1).
pub(crate) fn check_empty_axes(header: &Header, max_elements: u64) -> Result<()> {
    empty_axes(&header.shape).map_or(Ok(()), |empty| check_empty(header, empty, max_elements))
}

/// `empty` values that hold no bytes against `max_elements`.
fn check_empty(header: &Header, empty: u64, max_elements: u64) -> Result<()> {
    let needed = empty.saturating_mul(EMPTY_VALUE_COST);
    if needed > max_elements {
        return Err(Error::limit(format!(
            "shape {} of {} declares {empty} values that hold no bytes (each counts as \
             {EMPTY_VALUE_COST} elements against max_elements {max_elements}); raise it with \
             ReadOptions::max_elements({needed})",
            ShapeRepr(&header.shape),
            header.descr,
        )));
    }
    Ok(())
}

/// For dims with a 0 (no elements at all), the number of empty sequences
/// still presented: `(1, 2**32, 0)` is one sequence of 2^32 empty ones.
/// `None` when no dim is 0.
fn empty_axes(dims: &[u64]) -> Option<u64> {
    let zero = dims.iter().position(|&d| d == 0)?;
    let before = dims.get(..zero).unwrap_or(&[]);
    let n = before.iter().fold(1u64, |acc, &d| acc.saturating_mul(d));
    // one empty sequence is fixed overhead, like any field
    Some(if n <= 1 { 0 } else { n })
}

/// One walk over an element of `dt`, as the deserializer presents it:
/// - its nesting: a level per subarray dimension and per record;
/// - the values in it that are not backed by data bytes and that the
///   deserializer would still visit: the elements of subarrays of zero-size
///   bases, multiplied out, and the empty sequences of zero-length axes (not
///   `dt` itself when its itemsize is 0: fixed per-field overhead is bounded
///   by the header size, so a record's fields do not count themselves);
/// - the values a generic target builds for it (a key and a value per
///   field, and the map).
///
/// Saturates.
pub(crate) fn tally(dt: &Dtype) -> (usize, u64, u64) {
    match dt {
        Dtype::Scalar(_) => (0, 0, 1),
        Dtype::Subarray(base, dims) => {
            let (depth, empty, any) = tally(base);
            let n = dims.iter().fold(1u64, |acc, &d| acc.saturating_mul(d));
            let empty = empty.saturating_add(u64::from(base.itemsize() == 0));
            (
                dims.len().saturating_add(depth),
                empty_axes(dims).unwrap_or(n.saturating_mul(empty)),
                n.saturating_mul(any).saturating_add(outer_values(dims)),
            )
        }
        Dtype::Record(r) => r.fields().iter().map(|f| tally(f.dtype())).fold(
            (1, 0, 1),
            |(depth, empty, any), (d, e, a)| {
                let any = any.saturating_add(a).saturating_add(1);
                (depth.max(d.saturating_add(1)), empty.saturating_add(e), any)
            },
        ),
    }
}

/// The sequences a shape is presented as (one for every index of the axes
/// before each axis).
pub(crate) fn outer_values(dims: &[u64]) -> u64 {
    let mut rows = 1u64;
    let mut total = 0u64;
    for &d in dims {
        total = total.saturating_add(rows);
        rows = rows.saturating_mul(d);
    }
    total
}

/// How many elements a value that holds no bytes (an empty record) counts
/// as against `max_elements`: the default limit allows 65536 of them
/// (a `(65536, 0)` array: at most a few MiB of empty Rust values).
pub(crate) const EMPTY_VALUE_COST: u64 = 1 << 16;

/// `shape`: a tuple of non-negative ints (`True` is not an int here).
fn header_shape(value: &Value) -> Result<Vec<u64>> {
    let Value::Tuple(items) = value else {
        let hint = if matches!(value, Value::Int(_)) {
            " (one dimension is written (n,))"
        } else {
            ""
        };
        return Err(Error::header(format!(
            "'shape' is not a tuple: found {}{hint}",
            value.type_name()
        )));
    };
    items
        .iter()
        .map(|v| match v {
            Value::Int(n) => u64::try_from(*n).map_err(|_| {
                Error::header(format!("'shape' has a negative or too large dimension {n}"))
            }),
            other => Err(Error::header(format!(
                "'shape' is not a tuple of ints: found {}",
                other.type_name()
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A complete file prefix with the given version and text, padded like numpy.
    pub(crate) fn file(version: u8, text: &str) -> Vec<u8> {
        let body: Vec<u8> = if version == 3 {
            text.as_bytes().to_vec()
        } else {
            text.chars().map(|c| c as u32 as u8).collect()
        };
        let len_size = if version == 1 { 2 } else { 4 };
        let hlen = body.len() + 1;
        let pad = 64 - (8 + len_size + hlen) % 64;
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[version, 0]);
        let total = hlen + pad;
        if version == 1 {
            out.extend_from_slice(&(total as u16).to_le_bytes());
        } else {
            out.extend_from_slice(&(total as u32).to_le_bytes());
        }
        out.extend_from_slice(&body);
        out.extend(std::iter::repeat_n(b' ', pad));
        out.push(b'\n');
        out
    }

    fn ok(version: u8, text: &str) -> ParsedHeader {
        parse_header(&file(version, text), &ReadOptions::default()).unwrap()
    }
    fn err(version: u8, text: &str) -> String {
        parse_header(&file(version, text), &ReadOptions::default())
            .unwrap_err()
            .to_string()
    }

    /// A version 1 header of `text` is refused with a message containing
    /// `part`.
    #[track_caller]
    fn assert_refused(text: &str, part: &str) {
        let e = err(1, text);
        assert!(e.contains(part), "{e}");
    }

    #[test]
    fn reads_numpy_headers() {
        let p = ok(
            1,
            "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }",
        );
        assert_eq!(p.header.descr.to_string(), "'<i4'");
        assert_eq!(p.header.shape, vec![3]);
        assert!(!p.header.fortran_order);
        assert_eq!(p.version, (1, 0));
        assert_eq!(p.data_offset, 128);
        let p = ok(
            2,
            "{'shape': (2, 3), 'fortran_order': True, 'descr': '>f8'}",
        );
        assert!(p.header.fortran_order);
        assert_eq!(p.data_offset % 64, 0);
        let p = ok(
            3,
            "{'descr': [('整形', '<i4')], 'fortran_order': False, 'shape': ()}",
        );
        assert_eq!(p.header.shape, Vec::<u64>::new());
        assert_eq!(
            p.header.descr.as_record().unwrap().fields()[0].name(),
            "整形"
        );
    }

    #[test]
    fn latin1_in_v1() {
        let p = ok(
            1,
            "{'descr': [('é', '<i4')], 'fortran_order': False, 'shape': (1,)}",
        );
        assert_eq!(p.header.descr.as_record().unwrap().fields()[0].name(), "é");
    }

    #[test]
    fn legacy_pprint_and_long_suffix() {
        let text = "{'descr': [('x', '<i4', (2,)), ('y', '<f8', (2, 2)), ('z', '|u1')],\n \
                    'fortran_order': False,\n 'shape': (2L,)}";
        let p = ok(1, text);
        assert_eq!(p.header.shape, vec![2]);
        assert!(err(3, text).contains("cannot parse the header dict"));
    }

    #[test]
    fn top_level_subarray_is_folded() {
        let p = ok(
            1,
            "{'descr': ('<i4', (2, 3)), 'fortran_order': False, 'shape': (4,), }",
        );
        assert_eq!(p.header.shape, vec![4, 2, 3]);
        assert_eq!(p.header.descr.to_string(), "'<i4'");
        assert_eq!(p.folded_dims, vec![2, 3]);
        assert_refused(
            "{'descr': ('<i4', (2,)), 'fortran_order': True, 'shape': (4, 2), }",
            "fortran_order True",
        );
    }

    #[test]
    fn key_rules() {
        let p = ok(
            1,
            "{'descr': '<i4', 'descr': '<f8', 'fortran_order': False, 'shape': (1,)}",
        );
        assert_eq!(p.header.descr.to_string(), "'<f8'");
        assert!(err(1, "{'descr': '<i4', 'shape': (1,)}").contains("no 'fortran_order' key"));
        assert!(
            err(
                1,
                "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), 'extrakey': 1}"
            )
            .contains("unexpected key 'extrakey'")
        );
        assert!(
            err(1, "{'descr': '<i4', 'fortran_order': 0, 'shape': (1,)}")
                .contains("'fortran_order' is not a bool: found int")
        );
        assert!(
            err(
                1,
                "{'descr': '<i4', 'fortran_order': False, 'shape': (True,)}"
            )
            .contains("found bool")
        );
        assert!(err(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (3)}").contains("(n,)"));
        assert!(
            err(1, "{'descr': '<i4', 'fortran_order': False, 'shape': [3]}").contains("found list")
        );
        assert!(
            err(
                1,
                "{'descr': '<i4', 'fortran_order': False, 'shape': (-1,)}"
            )
            .contains("negative")
        );
        assert!(err(1, "['descr']").contains("not a dict"));
    }

    #[test]
    fn sizes_are_checked() {
        assert_refused(
            "{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2)}",
            "too big",
        );
        assert_refused(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4611686018427387904)}",
            "too big",
        );
        assert_refused(
            "{'descr': '|u1', 'fortran_order': False, 'shape': (8589934592,)}",
            "max_elements",
        );
        let opts = ReadOptions::default().max_elements(1 << 40);
        let f = file(
            1,
            "{'descr': '|u1', 'fortran_order': False, 'shape': (8589934592,)}",
        );
        assert!(parse_header(&f, &opts).is_ok());
    }

    /// Regression: billions of empty records in a 128-byte file, or a
    /// subarray of 2^62 empty records inside one record, ran for minutes and
    /// exhausted memory in the deserializer.
    #[test]
    fn empty_values_are_limited() {
        assert_refused(
            "{'descr': [], 'fortran_order': False, 'shape': (4000000000,)}",
            "4000000000 values that hold no bytes",
        );
        assert_refused(
            "{'descr': [('a', '<i4'), ('b', [], (2147483647, 2))], 'fortran_order': False, \
             'shape': (1,)}",
            "values that hold no bytes",
        );
        // regression: (1, 2**32, 0) is a sequence of 2^32 empty sequences;
        // checked where the shape is presented as sequences (an NdArray
        // holds it in O(1))
        let f = file(
            1,
            "{'descr': '|S3', 'fortran_order': False, 'shape': (1, 4294967296, 0)}",
        );
        assert!(parse_header(&f, &ReadOptions::default()).is_ok());
        let e = crate::from_slice::<Vec<Vec<Vec<String>>>>(&f)
            .unwrap_err()
            .to_string();
        assert!(e.contains("4294967296 values that hold no bytes"), "{e}");
        let e = crate::from_reader::<Vec<Vec<Vec<String>>>>(&f[..])
            .unwrap_err()
            .to_string();
        assert!(e.contains("4294967296 values that hold no bytes"), "{e}");
        assert_refused(
            "{'descr': [('a', '<i4', (2147483647, 0))], 'fortran_order': False, 'shape': (9,)}",
            "values that hold no bytes",
        );
        // 65536 empty records are fine by default, a (0,) field costs nothing
        ok(
            1,
            "{'descr': [], 'fortran_order': False, 'shape': (65536,)}",
        );
        ok(
            1,
            "{'descr': '<f8', 'fortran_order': False, 'shape': (65536, 0)}",
        );
        assert_refused(
            "{'descr': [], 'fortran_order': False, 'shape': (65537,)}",
            "65537 values that hold no bytes",
        );
        ok(
            1,
            "{'descr': [('a', '<i4'), ('b', '<i4', (0,))], 'fortran_order': False, \
             'shape': (1000000,)}",
        );
        let opts = ReadOptions::default().max_elements(u64::MAX);
        let f = file(
            1,
            "{'descr': [], 'fortran_order': False, 'shape': (4000000000,)}",
        );
        assert!(parse_header(&f, &opts).is_ok());
    }

    /// Regression: a shape or subarray tuple of 3000 ones is one bracket
    /// level but 3000 levels of nested sequences: it overflowed the stack.
    #[test]
    fn value_depth_is_limited() {
        let ones = "1, ".repeat(65);
        let e = err(
            1,
            &format!("{{'descr': '<i4', 'fortran_order': False, 'shape': ({ones})}}"),
        );
        assert!(e.contains("nested 65 deep"), "{e}");
        let e = err(
            1,
            &format!("{{'descr': [('a', '<i4', ({ones}))], 'fortran_order': False, 'shape': ()}}"),
        );
        assert!(e.contains("nested 66 deep"), "{e}");
        let ones = "1, ".repeat(64);
        ok(
            1,
            &format!("{{'descr': '<i4', 'fortran_order': False, 'shape': ({ones})}}"),
        );
    }

    #[test]
    fn magic_and_version() {
        let opts = ReadOptions::default();
        let e = |b: &[u8]| parse_header(b, &opts).unwrap_err().to_string();
        assert!(e(b"").contains("empty"));
        assert!(e(b"\x93NUMPZ\x01\x00").contains("found b'\\x93NUMPZ'"));
        assert!(e(b"PK\x03\x04").contains("found b'PK\\x03\\x04'"));
        assert!(e(b"\x93NUMPY\x01").contains("EOF: reading magic string, expected 8 bytes got 7"));
        assert!(e(b"\x93NUM").contains("EOF"));
        assert!(e(b"\x93NUMPY\x01\x01\x00\x00").contains("not (1,1)"));
        assert!(e(b"\x93NUMPY\x01\x00\x10").contains("expected 2 bytes got 1"));
        assert!(e(b"\x93NUMPY\x01\x00\x10\x00{}").contains("expected 16 bytes got 2"));
    }

    #[test]
    fn header_size_limit_before_allocation() {
        let opts = ReadOptions::default();
        let mut f = b"\x93NUMPY\x02\x00".to_vec();
        f.extend_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        let e = parse_header(&f, &opts).unwrap_err().to_string();
        assert!(
            e.contains("header is 4294967280 characters, more than max_header_size 10000"),
            "{e}"
        );
        assert!(
            e.contains("ReadOptions::max_header_size(4294967280)"),
            "{e}"
        );
        let mut f = b"\x93NUMPY\x03\x00".to_vec();
        f.extend_from_slice(&40_001u32.to_le_bytes());
        let e = parse_header(&f, &opts).unwrap_err().to_string();
        assert!(e.contains("40001 bytes"), "{e}");
        // v3: 10 000 bytes of 2-byte chars are fine, counted as characters
        let name = "é".repeat(4990);
        let text =
            format!("{{'descr': [('{name}', '<i4')], 'fortran_order': False, 'shape': (1,)}}");
        let f = file(3, &text);
        assert!(f.len() > 10_000);
        assert!(parse_header(&f, &opts).is_ok());
        let name = "é".repeat(10_000);
        let text =
            format!("{{'descr': [('{name}', '<i4')], 'fortran_order': False, 'shape': (1,)}}");
        let e = parse_header(&file(3, &text), &opts)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("characters, more than max_header_size 10000"),
            "{e}"
        );
    }

    #[test]
    fn bad_utf8_in_v3() {
        let mut f = file(3, "{'descr': '<i4', 'fortran_order': False, 'shape': (1,)}");
        f[20] = 0xff;
        let e = parse_header(&f, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not valid UTF-8"), "{e}");
    }

    /// The writer in header.rs reproduces numpy's header bytes exactly
    /// (tests/fixtures/headers.txt, written by numpy 2.4.6).
    #[test]
    fn encode_matches_numpy() {
        let fixtures = include_str!("../../tests/fixtures/headers.txt");
        for line in fixtures.lines() {
            let (hex, _, _, _, version): (String, String, bool, Vec<u64>, [u8; 2]) =
                serde_json::from_str(line).unwrap();
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            // numpy writes shapes like (10**15, 0): 10^15 empty sequences
            let opts = ReadOptions::default().max_elements(u64::MAX);
            let parsed = parse_header(&bytes, &opts).unwrap();
            let (out, v) = parsed
                .header
                .encode(Some((version[0], version[1])))
                .unwrap();
            assert_eq!([v.0, v.1], version);
            assert_eq!(out, bytes, "{}", parsed.header);
        }
    }

    #[test]
    fn read_header_leaves_stream_at_data() {
        let mut f = file(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (1,)}");
        f.extend_from_slice(&[1, 2, 3, 4]);
        let mut r = &f[..];
        let p = read_header(&mut r, &ReadOptions::default()).unwrap();
        assert_eq!(r, &[1, 2, 3, 4]);
        assert_eq!(p.data_offset, 128);
    }
}
