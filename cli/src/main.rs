//! `npy`: look into NumPy `.npy` and `.npz` files and convert them, without
//! Python. Built on the `npy_serde` library: every file is read, checked
//! and decoded by it, and its error messages are the tool's.

#![forbid(unsafe_code)]

mod check;
mod columns;
#[cfg(feature = "arrow")]
mod convert;
mod diff;
mod input;
mod json;
mod repr;
mod show;
mod stats;
mod table;
mod text;
mod value;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::diff::Tolerance;
use crate::input::{Extent, Failure, is_stdin, open, with_array};

const EXIT_STATUS: &str = "\
Exit status:
  0  success (npy check: every file is good; npy diff: the arrays are equal)
  1  a file is missing, unreadable or not a valid .npy/.npz, or has no such --member
     (npy check: at least one file); the message is the npy_serde library's.
     npy show of an object array ('|O') prints its header, then fails so.
     npy diff: the arrays differ
  2  bad arguments, or the command does not apply: an .npz with several members and
     no --member, --member on an .npy file, an array csv cannot hold.
     npy diff: any trouble, an unreadable file included (as cmp and diff do)

FILE may be - for standard input (read whole, then as an .npy or .npz by its start).";

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
    /// own width, complex as 1+2j. Every member of an .npz (of more than
    /// 10 members the first and last 3 in full, the others a line each).
    ///
    /// Arrays of more than 1000 elements are summarized as numpy's repr
    /// summarizes them: an axis longer than 6 as its first 3 items, ...,
    /// its last 3 (a long row; all rows, when -n asks for every one). An
    /// object array ('|O') shows its header and a note: its data is
    /// pickled Python objects, which cannot be read (exit status 1).
    #[command(after_help = EXIT_STATUS)]
    Show {
        /// The .npy or .npz file (- for standard input).
        file: PathBuf,
        /// How many rows (records) to print per array.
        #[arg(long, short = 'n', default_value_t = 5)]
        records: u64,
        /// Show only this member of an .npz.
        #[arg(long)]
        member: Option<String>,
    },
    /// Print the first rows only, as show prints them, without the header.
    ///
    /// `[i] value` per row (the value alone for a 0-d array); long rows
    /// summarized as in show.
    #[command(after_help = EXIT_STATUS)]
    Head {
        /// The .npy or .npz file (- for standard input).
        file: PathBuf,
        /// How many rows (records) to print.
        #[arg(short = 'n', long = "lines", default_value_t = 10)]
        n: u64,
        /// The .npz member (needed when the archive has several).
        #[arg(long)]
        member: Option<String>,
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
        /// The .npy or .npz file (- for standard input).
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
        /// The .npy or .npz file (- for standard input).
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
    // (the help text as attributes: rustdoc would read pos[0] as a link)
    #[command(
        about = "Count, NaN count, min, max, mean and std of every numeric column",
        long_about = "Count, NaN count, min, max, mean and std of every numeric column.\n\n\
            Columns as npy csv names them: a field, pos[0] for a subarray element, \
            sub.x for a nested record, 0, 1, ... for a 2-D array (0 for 1-D). \
            count is every value, NaN included; nan the NaNs; min, max, mean and std \
            are over the values that are not NaN (numpy's nanmin, nanmax, nanmean, \
            nanstd; infinities included), - when there is none. std has ddof 0. Mean \
            and std are computed in f64 (Welford's one pass); min and max are exact, \
            in the column's own type. bool counts as 0/1 (min and max print \
            False/True, the mean is the share of True). A complex column is two: \
            z.real and z.imag. S, U, V, datetimes and timedeltas are not numeric: \
            they are listed as skipped under the table.",
        after_help = EXIT_STATUS
    )]
    Stats {
        /// The .npy or .npz file (- for standard input).
        file: PathBuf,
        /// The .npz member (needed when the archive has several).
        #[arg(long)]
        member: Option<String>,
    },
    /// Compare two arrays value by value, as np.testing.assert_allclose.
    ///
    /// Equal shapes and field names are needed, else that is the
    /// difference reported; a field whose dtype differs is a difference
    /// (its values still compared). Numbers are close when
    /// |a - b| <= atol + rtol * |b| (complex: the moduli); NaN equals NaN,
    /// an infinity only the same one; bool, S, U, V and datetimes must be
    /// equal exactly (NaT equals NaT). Prints per differing column the
    /// number of differing rows, the largest differences and the first 5
    /// rows with both values; or one line when the arrays are equal.
    /// Exit status 0 equal, 1 different, 2 trouble.
    #[command(after_help = EXIT_STATUS)]
    Diff {
        /// The first file, a (- for standard input).
        a: PathBuf,
        /// The second file, b: the reference (|b| scales rtol).
        b: PathBuf,
        /// The member of each .npz (needed when an archive has several); an
        /// .npy file is compared as it is.
        #[arg(long)]
        member: Option<String>,
        /// Relative tolerance.
        #[arg(long, default_value_t = 1e-7, value_parser = tolerance)]
        rtol: f64,
        /// Absolute tolerance.
        #[arg(long, default_value_t = 0.0, value_parser = tolerance)]
        atol: f64,
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
        Command::Show {
            file,
            records,
            member,
        } => in_file(
            &file,
            open(&file).and_then(|i| show::show(i, member.as_deref(), records, &mut out)),
        ),
        Command::Head { file, n, member } => in_file(
            &file,
            with_array(&file, member.as_deref(), Extent::Part, |r| {
                show::rows(r, "", n, &mut out)
            }),
        ),
        Command::Json { file, member } => in_file(
            &file,
            with_array(&file, member.as_deref(), Extent::Whole, |r| {
                json::json(r, &mut out)
            }),
        ),
        Command::Csv { file, member } => in_file(
            &file,
            with_array(&file, member.as_deref(), Extent::Whole, |r| {
                table::csv(r, &mut out)
            }),
        ),
        Command::Stats { file, member } => in_file(
            &file,
            with_array(&file, member.as_deref(), Extent::Whole, |r| {
                stats::stats(r, &mut out)
            }),
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
        Command::Diff {
            a,
            b,
            member,
            rtol,
            atol,
        } => {
            let tol = Tolerance { rtol, atol };
            return diff_status(diff::diff(&a, &b, member.as_deref(), tol, &mut out), out);
        }
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
                } else if is_stdin(&path) {
                    eprintln!("npy: (standard input): {failure}");
                } else {
                    eprintln!("npy: {}: {failure}", path.display());
                }
            }
            ExitCode::from(status)
        }
    }
}

/// `npy diff`'s exit status, as `cmp` and `diff` have it: 0 equal, 1
/// different, 2 trouble (its message on stderr; a failure names its file).
fn diff_status(result: Result<bool, Failure>, mut out: impl Write) -> ExitCode {
    let result = result.and_then(|equal| {
        out.flush()?;
        Ok(equal)
    });
    drop(out);
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // a closed pipe: the reader has seen enough
        Err(failure) if failure.status() == 0 => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("npy: {failure}");
            ExitCode::from(2)
        }
    }
}

/// A tolerance: a number, finite and not negative.
fn tolerance(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("{text:?} is not a finite number >= 0")),
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
