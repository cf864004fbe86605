//! `npy`: look into NumPy `.npy` and `.npz` files and convert them, without
//! Python. Built on the `npy_serde` library: every file is read, checked
//! and decoded by it, and its error messages are the tool's.

#![forbid(unsafe_code)]

mod check;
#[cfg(feature = "arrow")]
mod convert;
mod input;
mod json;
mod show;
mod table;
mod text;
mod value;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::input::{Failure, Input, choose_member, finish, open};

const EXIT_STATUS: &str = "\
Exit status:
  0  success (npy check: every file is good)
  1  a file is missing, unreadable or not a valid .npy/.npz, or has no such --member
     (npy check: at least one file); the message is the npy_serde library's
  2  bad arguments, or the command does not apply: an .npz with several members and
     no --member, --member on an .npy file, an array csv cannot hold";

/// Look into NumPy .npy and .npz files and convert them to JSON Lines, CSV, Parquet or Arrow.
#[derive(Parser)]
#[command(name = "npy", version, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show what a file holds: header, dtype, the first rows.
    ///
    /// Version, shape, memory order, the dtype as numpy writes it and as a
    /// table of fields with offsets and sizes (padding shown), and the
    /// first rows in dtype order as numpy prints them: S as b'..', U as
    /// '..', datetimes in ISO 8601, floats in the shortest digits of their
    /// own width, complex as 1+2j. Every member of an .npz.
    #[command(after_help = EXIT_STATUS)]
    Show {
        /// The .npy or .npz file.
        file: PathBuf,
        /// How many rows (records) to print per array.
        #[arg(long, short = 'n', default_value_t = 5)]
        records: u64,
    },
    /// Convert to JSON Lines: one record (or row) per line.
    ///
    /// Records are objects with their fields in dtype order, rows of an
    /// n-d array nested arrays. Integers are exact (u8 included); NaN and
    /// the infinities, which JSON lacks, are the strings "NaN", "inf" and
    /// "-inf"; S is a string when its bytes are UTF-8 (else an array of
    /// byte values), V an array of byte values, complex [re, im],
    /// datetimes and timedeltas numpy's text ("2024-01-01T00:00:00",
    /// "5 seconds", "NaT").
    #[command(after_help = EXIT_STATUS)]
    Json {
        /// The .npy or .npz file.
        file: PathBuf,
        /// The .npz member to convert (needed when the archive has several).
        #[arg(long)]
        member: Option<String>,
    },
    // (the help text as attributes: rustdoc would read pos[0] as a link)
    #[command(
        about = "Convert a record array or a 1-D/2-D array to CSV, with a header",
        long_about = "Convert a record array or a 1-D/2-D array to CSV, with a header.\n\n\
            Columns: a field's name, pos[0] and pos[1] for a (2,) subarray, sub.x for a \
            nested record, 0, 1, ... for a 2-D array (0 for a 1-D array of scalars). \
            Values as numpy prints them; S and V cells hold their bytes.",
        after_help = EXIT_STATUS
    )]
    Csv {
        /// The .npy or .npz file.
        file: PathBuf,
        /// The .npz member to convert (needed when the archive has several).
        #[arg(long)]
        member: Option<String>,
    },
    /// Convert between numpy files and Parquet, Arrow IPC, CSV and JSON Lines.
    ///
    /// By extension: .npy/.npz to .parquet, .arrow (IPC file), .csv or
    /// .jsonl; .parquet, .arrow or .csv to .npy. Record arrays become one
    /// column per field (nested records structs, subarrays fixed-size
    /// lists, datetimes timestamps, NaT null), a plain array one column
    /// "values"; an .npz without --member becomes one table of its members
    /// (they must have one length). The numpy dtype, shape and order travel
    /// in the schema's metadata: a file converted to Parquet or Arrow and
    /// back is the same file. A table without them becomes a record array
    /// (strings as wide as the longest), or with --array a plain array of
    /// its columns (one number type). .csv and .jsonl are what npy csv and
    /// npy json print. IN may be - (standard input; the format is told by
    /// its first bytes).
    #[cfg(feature = "arrow")]
    #[command(after_help = EXIT_STATUS)]
    Convert {
        /// The file to convert (- for standard input).
        input: PathBuf,
        /// The file to write; its extension says the format.
        output: PathBuf,
        /// The .npz member to convert (else all members, as one table).
        #[arg(long)]
        member: Option<String>,
        /// Write a table's columns as a plain 2-D array (one column: 1-D).
        #[arg(long)]
        array: bool,
    },
    /// Validate files for scripts and CI: one line per file.
    ///
    /// Reads each file whole: the header, every value, the end of the data
    /// (no bytes may follow it); for an .npz the zip directory and every
    /// member with its CRC-32. Exit status 0 only when every file is good.
    #[command(after_help = EXIT_STATUS)]
    Check {
        /// The .npy and .npz files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Show { file, records } => in_file(
            &file,
            open(&file).and_then(|i| show::show(i, records, &mut out)),
        ),
        Command::Json { file, member } => in_file(
            &file,
            convert(&file, member.as_deref(), Convert::Json, &mut out),
        ),
        Command::Csv { file, member } => in_file(
            &file,
            convert(&file, member.as_deref(), Convert::Csv, &mut out),
        ),
        #[cfg(feature = "arrow")]
        Command::Convert {
            input,
            output,
            member,
            array,
        } => in_file(
            &input,
            convert::convert(&convert::Request {
                input: &input,
                output: &output,
                member: member.as_deref(),
                array,
            }),
        ),
        Command::Check { files } => check_all(&files, &mut out),
    };
    let result = result.and_then(|()| out.flush().map_err(|e| (PathBuf::new(), e.into())));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err((path, failure)) => {
            let status = failure.status();
            if status != 0 {
                drop(out);
                if path.as_os_str().is_empty() {
                    eprintln!("npy: {failure}");
                } else {
                    eprintln!("npy: {}: {failure}", path.display());
                }
            }
            ExitCode::from(status)
        }
    }
}

/// The failure with the file it is about.
type Located = (PathBuf, Failure);

fn in_file(path: &Path, r: Result<(), Failure>) -> Result<(), Located> {
    r.map_err(|f| match f {
        // an output error is not about the file
        Failure::Output(_) => (PathBuf::new(), f),
        f => (path.to_owned(), f),
    })
}

/// The two conversions of one array.
#[derive(Clone, Copy)]
enum Convert {
    Json,
    Csv,
}

/// Converts the array in `path`: the `.npy` file itself, or the member of
/// an `.npz` that `member` names (or its only member).
fn convert(
    path: &Path,
    member: Option<&str>,
    how: Convert,
    out: &mut impl Write,
) -> Result<(), Failure> {
    match open(path)? {
        Input::Npy(mut reader) => match member {
            Some(m) => Err(Failure::Usage(format!(
                "--member {m}: the file is an .npy array, not an .npz archive"
            ))),
            None => convert_array(&mut reader, how, out),
        },
        Input::Npz(mut archive) => {
            let name = choose_member(&archive, member)?;
            let mut reader = archive.reader(&name)?;
            convert_array(&mut reader, how, out)?;
            finish(reader)
        }
    }
}

fn convert_array<R: std::io::Read>(
    reader: &mut npy_serde::NpyReader<R>,
    how: Convert,
    out: &mut impl Write,
) -> Result<(), Failure> {
    match how {
        Convert::Json => json::json(reader, out),
        Convert::Csv => table::csv(reader, out),
    }
}

/// `npy check`: one line per file on stdout; the failure of the last bad
/// file, without repeating its message, decides the status.
fn check_all(files: &[PathBuf], out: &mut impl Write) -> Result<(), Located> {
    let mut bad = 0usize;
    for file in files {
        let line = match check::check(file) {
            Ok(summary) => summary,
            Err(Failure::Output(e)) => return Err((PathBuf::new(), Failure::Output(e))),
            Err(failure) => {
                bad += 1;
                format!("error: {failure}")
            }
        };
        writeln!(out, "{}: {line}", file.display()).map_err(|e| (PathBuf::new(), e.into()))?;
    }
    if bad == 0 {
        Ok(())
    } else {
        Err((
            PathBuf::new(),
            Failure::File(format!("{bad} of {} file(s) failed the check", files.len())),
        ))
    }
}
