//! Opening a file (or standard input, `-`) as `.npy` or `.npz`, choosing
//! an archive member, and the one loop over an array's rows that every
//! command uses.

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::Path;

use npy_serde::npz::NpzReader;
use npy_serde::{Dtype, Header, NpyReader, ReadOptions, ScalarType};

use crate::value::{Raw, Value};

/// Why a command stopped; [`Failure::status`] is the exit status.
#[derive(Debug)]
pub enum Failure {
    /// The file is missing, unreadable or not valid (the library's message).
    File(String),
    /// The command does not apply: no such member, several to choose from,
    /// an array the output format cannot hold.
    Usage(String),
    /// Writing the output failed.
    Output(std::io::Error),
}

impl Failure {
    /// 1 for a file that cannot be read, 2 for a command that does not
    /// apply (as for bad arguments); a closed pipe is not a failure.
    pub fn status(&self) -> u8 {
        match self {
            Failure::File(_) => 1,
            Failure::Usage(_) => 2,
            Failure::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Failure::Output(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::File(m) | Failure::Usage(m) => f.write_str(m),
            Failure::Output(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl From<npy_serde::Error> for Failure {
    fn from(e: npy_serde::Error) -> Self {
        Failure::File(e.to_string())
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Output(e)
    }
}

/// An opened file (one per run: the size difference does not matter).
#[allow(clippy::large_enum_variant)]
pub enum Input {
    Npy(NpyReader<Source>),
    Npz(NpzReader<Source>),
    /// An `.npy` file whose header reads but whose dtype the library
    /// refuses (`'|O'`, pickled Python objects): `show` prints the header.
    Refused(Refused),
}

/// The header of an `.npy` file whose data cannot be read, and why.
pub struct Refused {
    pub header: Header,
    pub version: (u8, u8),
    /// The library's refusal.
    pub failure: Failure,
}

/// Where the bytes come from: a file, or standard input read whole into
/// memory (a pipe cannot seek, and an `.npz` directory is at its end).
pub enum Source {
    File(BufReader<File>),
    Memory(Cursor<Vec<u8>>),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Source::File(f) => f.read(buf),
            Source::Memory(m) => m.read(buf),
        }
    }
}

impl Seek for Source {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        match self {
            Source::File(f) => f.seek(pos),
            Source::Memory(m) => m.seek(pos),
        }
    }
}

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Opens `path` (standard input for `-`) as an `.npz` archive when it
/// starts like a zip file, as an `.npy` file otherwise (whatever its
/// name). An `.npy` file whose dtype the library refuses but whose header
/// reads is [`Input::Refused`].
pub fn open(path: &Path) -> Result<Input, Failure> {
    let source = if is_stdin(path) {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(npy_serde::Error::from)?;
        Source::Memory(Cursor::new(bytes))
    } else {
        Source::File(BufReader::new(
            File::open(path).map_err(npy_serde::Error::from)?,
        ))
    };
    open_source(source)
}

/// [`open`] of bytes already read (or a file already opened).
pub fn open_source(mut source: Source) -> Result<Input, Failure> {
    let mut magic = [0u8; 4];
    let n = read_up_to(&mut source, &mut magic).map_err(npy_serde::Error::from)?;
    source.rewind().map_err(npy_serde::Error::from)?;
    if n == 4 && (&magic == b"PK\x03\x04" || &magic == b"PK\x05\x06") {
        return Ok(Input::Npz(NpzReader::new(source)?));
    }
    // the header alone first: a dtype the reader refuses still has one
    let header = Header::read_from(&mut source, &ReadOptions::new());
    source.rewind().map_err(npy_serde::Error::from)?;
    match (NpyReader::new(source), header) {
        (Ok(reader), _) => Ok(Input::Npy(reader)),
        (Err(e), Ok((header, version))) if has_objects(&header.descr) => {
            Ok(Input::Refused(Refused {
                header,
                version,
                failure: e.into(),
            }))
        }
        (Err(e), _) => Err(e.into()),
    }
}

/// Whether `dtype` holds `'|O'` anywhere (pickled Python objects).
pub fn has_objects(dtype: &Dtype) -> bool {
    match dtype {
        Dtype::Scalar(s) => s.ty() == ScalarType::Object,
        Dtype::Subarray(base, _) => has_objects(base),
        Dtype::Record(rec) => rec.fields().iter().any(|f| has_objects(f.dtype())),
    }
}

/// Reads until `buf` is full or the input ends; the count read.
pub fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// The member to convert: the one `--member` names (the library finds it
/// by key or full name, or says what the archive has), else the only one;
/// a usage error when there are several to choose from.
pub fn choose_member<R: Read + Seek>(
    archive: &NpzReader<R>,
    name: Option<&str>,
) -> Result<String, Failure> {
    match (name, archive.names()) {
        (Some(want), _) => Ok(want.to_owned()),
        (None, [only]) => Ok(only.clone()),
        (None, names) => {
            let quoted: Vec<String> = names
                .iter()
                .map(|n| npy_serde::PyStr(n).to_string())
                .collect();
            Err(Failure::Usage(format!(
                "the archive has {} members, choose one with --member: {}",
                names.len(),
                quoted.join(", ")
            )))
        }
    }
}

/// An array whose rows are read one at a time: an `.npy` file or an `.npz`
/// member (the same walk for both, whatever reads the bytes).
pub trait Rows {
    /// The array's header: dtype, order, shape.
    fn header(&self) -> &Header;
    /// The next row (record of a 1-D array, row of an n-d one, the one
    /// element of a 0-d one) typed by the dtype; `None` after the last.
    fn next_row(&mut self) -> Option<Result<Value, Failure>>;
}

impl<R: Read> Rows for NpyReader<R> {
    fn header(&self) -> &Header {
        NpyReader::header(self)
    }

    fn next_row(&mut self) -> Option<Result<Value, Failure>> {
        let raw = self.deserialize::<Raw>().next()?;
        let header = NpyReader::header(self);
        let dims = header.shape.get(1..).unwrap_or(&[]);
        Some(
            raw.map_err(Failure::from)
                .and_then(|raw| Value::of_dims(raw, dims, &header.descr).map_err(Failure::File)),
        )
    }
}

/// Reads the rows of `reader` (records of a 1-D array, rows of an n-d array,
/// the one element of a 0-d one), at most `limit`, handing each with its
/// index to `each`. The first unreadable row ends it with the library's
/// message, which names the record and field.
pub fn for_each_row(
    reader: &mut dyn Rows,
    limit: u64,
    mut each: impl FnMut(u64, Value) -> Result<(), Failure>,
) -> Result<(), Failure> {
    for index in 0..limit {
        match reader.next_row() {
            Some(value) => each(index, value?)?,
            None => break,
        }
    }
    Ok(())
}

/// How much of an array a command reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// Every row, then the end of an `.npz` member, where its CRC-32 is
    /// checked.
    Whole,
    /// The rows the command wants, nothing more.
    Part,
}

/// Runs `f` on the array in `path`: the `.npy` file itself, or the member
/// of an `.npz` that `member` names (or its only member). `--member` on an
/// `.npy` file is a usage error; a refused dtype is the library's error.
pub fn with_array<T>(
    path: &Path,
    member: Option<&str>,
    extent: Extent,
    f: impl FnOnce(&mut dyn Rows) -> Result<T, Failure>,
) -> Result<T, Failure> {
    with_input(open(path)?, member, extent, f)
}

/// [`with_array`] on a file already opened.
pub fn with_input<T>(
    input: Input,
    member: Option<&str>,
    extent: Extent,
    f: impl FnOnce(&mut dyn Rows) -> Result<T, Failure>,
) -> Result<T, Failure> {
    match input {
        Input::Npy(mut reader) => match member {
            Some(m) => Err(Failure::Usage(format!(
                "--member {m}: the file is an .npy array, not an .npz archive"
            ))),
            None => f(&mut reader),
        },
        Input::Npz(mut archive) => {
            let name = choose_member(&archive, member)?;
            let mut reader = archive.reader(&name)?;
            let result = f(&mut reader)?;
            if extent == Extent::Whole {
                finish(reader)?;
            }
            Ok(result)
        }
        Input::Refused(refused) => match member {
            Some(m) => Err(Failure::Usage(format!(
                "--member {m}: the file is an .npy array, not an .npz archive"
            ))),
            None => Err(refused.failure),
        },
    }
}

/// Reads what is left of `reader`'s input once every row was read: for an
/// `.npz` member its end, where the library checks the CRC-32 (a damaged
/// member is an error naming it).
pub fn finish<R: Read>(reader: NpyReader<R>) -> Result<(), Failure> {
    std::io::copy(&mut reader.into_inner(), &mut std::io::sink())
        .map_err(npy_serde::Error::from)?;
    Ok(())
}
