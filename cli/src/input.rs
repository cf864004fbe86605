//! Opening a file as `.npy` or `.npz`, choosing an archive member, and
//! the one loop over an array's rows that every command uses.

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

use npy_serde::NpyReader;
use npy_serde::npz::NpzReader;

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
    Npy(NpyReader<BufReader<File>>),
    Npz(NpzReader<BufReader<File>>),
}

/// Opens `path` as an `.npz` archive when it starts like a zip file, as an
/// `.npy` file otherwise (whatever its name).
pub fn open(path: &Path) -> Result<Input, Failure> {
    let mut file = BufReader::new(File::open(path).map_err(npy_serde::Error::from)?);
    let mut magic = [0u8; 4];
    let n = read_up_to(&mut file, &mut magic).map_err(npy_serde::Error::from)?;
    file.rewind().map_err(npy_serde::Error::from)?;
    Ok(
        if n == 4 && (&magic == b"PK\x03\x04" || &magic == b"PK\x05\x06") {
            Input::Npz(NpzReader::new(file)?)
        } else {
            Input::Npy(NpyReader::new(file)?)
        },
    )
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

/// Reads the rows of `reader` (records of a 1-D array, rows of an n-d one,
/// the one element of a 0-d one), at most `limit`, handing each with its
/// index to `each`. The first unreadable row ends it with the library's
/// message, which names the record and field.
pub fn for_each_row<R: Read>(
    reader: &mut NpyReader<R>,
    limit: u64,
    mut each: impl FnMut(u64, Value) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let dims = reader.shape().get(1..).unwrap_or(&[]).to_vec();
    let dtype = reader.dtype().clone();
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    for (index, raw) in (0u64..).zip(reader.deserialize::<Raw>().take(limit)) {
        let value = Value::of_dims(raw?, &dims, &dtype).map_err(Failure::File)?;
        each(index, value)?;
    }
    Ok(())
}

/// Reads what is left of `reader`'s input once every row was read: for an
/// `.npz` member its end, where the library checks the CRC-32 (a damaged
/// member is an error naming it).
pub fn finish<R: Read>(reader: NpyReader<R>) -> Result<(), Failure> {
    std::io::copy(&mut reader.into_inner(), &mut std::io::sink())
        .map_err(npy_serde::Error::from)?;
    Ok(())
}
