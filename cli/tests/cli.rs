//! The built `npy` binary on numpy-written fixtures (`tests/data/make.py`):
//! its output, messages and exit status pinned by insta snapshots.

use std::process::Command;

/// Runs `npy ARGS` in the crate's folder: the command line, the exit
/// status, stdout and stderr as one text.
fn npy(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_npy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    format!(
        "$ npy {}\nstatus {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The stdout of a run that must succeed.
fn stdout(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_npy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn show_records() {
    insta::assert_snapshot!(npy(&["show", "tests/data/records.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/records.npy", "--records", "1"]));
}

#[test]
fn show_plain_arrays() {
    insta::assert_snapshot!(npy(&["show", "tests/data/plain_2d.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/plain_3d.npy", "-n", "1"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/fortran.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/zero_d.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/plain_1d.npy"]));
}

#[test]
fn show_npz_archives() {
    insta::assert_snapshot!(npy(&["show", "tests/data/archive.npz", "--records", "2"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/with_text.npz"]));
    // more than 10 members: 3 at each edge in full, a line each between
    insta::assert_snapshot!(npy(&["show", "tests/data/many.npz", "-n", "2"]));
}

#[test]
fn show_broken_files() {
    // the records before the damage are shown, then the library's message
    insta::assert_snapshot!(npy(&["show", "tests/data/truncated.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/not_npy.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/object.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/no_such_file.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/bad_crc.npz"]));
}

#[test]
fn json_records() {
    insta::assert_snapshot!(npy(&["json", "tests/data/records.npy"]));
    // every line is JSON; integers past 2^53 exact; keys in dtype order
    let text = String::from_utf8(stdout(&["json", "tests/data/records.npy"])).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in &lines {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v.is_object());
    }
    assert!(
        lines[1].starts_with(r#"{"id":18446744073709551615,"pos":["NaN","inf"],"mass":"-inf","#)
    );
    assert!(lines[2].starts_with(r#"{"id":9007199254740993,"#));
    assert!(lines[0].contains(r#""mass":0.001,"#));
}

#[test]
fn json_plain_arrays() {
    insta::assert_snapshot!(npy(&["json", "tests/data/plain_2d.npy"]));
    insta::assert_snapshot!(npy(&["json", "tests/data/plain_3d.npy"]));
    insta::assert_snapshot!(npy(&["json", "tests/data/fortran.npy"]));
    insta::assert_snapshot!(npy(&["json", "tests/data/plain_1d.npy"]));
    insta::assert_snapshot!(npy(&["json", "tests/data/zero_d.npy"]));
}

#[test]
fn json_npz_members() {
    insta::assert_snapshot!(npy(&[
        "json",
        "tests/data/archive.npz",
        "--member",
        "counts"
    ]));
    insta::assert_snapshot!(npy(&["json", "tests/data/one.npz"]));
    // several members and none chosen, or a missing one: usage errors
    insta::assert_snapshot!(npy(&["json", "tests/data/archive.npz"]));
    insta::assert_snapshot!(npy(&["json", "tests/data/archive.npz", "--member", "nope"]));
    insta::assert_snapshot!(npy(&["json", "tests/data/records.npy", "--member", "x"]));
    // a damaged member: its rows, then the CRC-32 error at its end
    insta::assert_snapshot!(npy(&["json", "tests/data/bad_crc.npz"]));
}

#[test]
fn csv_records() {
    insta::assert_snapshot!(npy(&["csv", "tests/data/records.npy"]));
    // the csv crate reads it back: a header and rows of the same width
    let bytes = stdout(&["csv", "tests/data/records.npy"]);
    let mut r = csv::ReaderBuilder::new().from_reader(&bytes[..]);
    let header = r.byte_headers().unwrap().clone();
    assert_eq!(&header[1], b"pos[0]");
    assert_eq!(&header[header.len() - 1], b"sub.h");
    let rows: Vec<csv::ByteRecord> = r.byte_records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|row| row.len() == header.len()));
    // an S value's bytes as they are, not UTF-8
    assert_eq!(&rows[2][4], b"\xff\x00z");
}

/// 1000 floats of each width (random bit patterns and short decimals):
/// the tool prints each as numpy's `str()` does (`tests/data/floats.csv`,
/// written by numpy), ties between two shortest candidates included.
#[test]
fn floats_print_as_numpy_prints_them() {
    let ours = String::from_utf8(stdout(&["csv", "tests/data/floats.npy"])).unwrap();
    let numpy = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/floats.csv"),
    )
    .unwrap();
    for (i, (a, b)) in ours.lines().zip(numpy.lines()).enumerate() {
        assert_eq!(a, b, "line {}", i + 1);
    }
    assert_eq!(ours.lines().count(), 1001);
    assert_eq!(numpy.lines().count(), 1001);
}

#[test]
fn csv_plain_arrays_and_members() {
    insta::assert_snapshot!(npy(&["csv", "tests/data/plain_2d.npy"]));
    insta::assert_snapshot!(npy(&["csv", "tests/data/fortran.npy"]));
    insta::assert_snapshot!(npy(&["csv", "tests/data/plain_1d.npy"]));
    insta::assert_snapshot!(npy(&[
        "csv",
        "tests/data/archive.npz",
        "--member",
        "records.npy"
    ]));
    // a 3-D array does not fit a table
    insta::assert_snapshot!(npy(&["csv", "tests/data/plain_3d.npy"]));
    insta::assert_snapshot!(npy(&["csv", "tests/data/archive.npz"]));
}

#[test]
fn check_files() {
    insta::assert_snapshot!(npy(&[
        "check",
        "tests/data/records.npy",
        "tests/data/plain_3d.npy",
        "tests/data/fortran.npy",
        "tests/data/zero_d.npy",
        "tests/data/archive.npz",
        "tests/data/with_text.npz",
    ]));
    insta::assert_snapshot!(npy(&[
        "check",
        "tests/data/records.npy",
        "tests/data/truncated.npy",
        "tests/data/trailing.npy",
        "tests/data/object.npy",
        "tests/data/not_npy.npy",
        "tests/data/bad_crc.npz",
        "tests/data/no_such_file.npy",
    ]));
}

/// Truncated and lying archives (the library's hostile corpus): each says
/// where it is cut and what its directory promises, never "failed to fill
/// whole buffer".
#[test]
fn check_truncated_npz() {
    let out = npy(&[
        "check",
        "../tests/data/hostile/npz_cut_in_end_record.npz",
        "../tests/data/hostile/npz_cut_in_directory.npz",
        "../tests/data/hostile/npz_member_data_past_end.npz",
        "../tests/data/hostile/npz_local_header_cut.npz",
    ]);
    assert!(!out.contains("fill whole buffer"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn usage_and_exit_statuses_documented() {
    let help = String::from_utf8(stdout(&["--help"])).unwrap();
    assert!(help.contains("Exit status:"), "{help}");
    insta::assert_snapshot!(help);
    insta::assert_snapshot!(npy(&["check"]));
}

/// Runs `npy ARGS` with the file `input` (in the crate's folder) on its
/// standard input; the same text as [`npy`], the input named after `<`.
fn npy_stdin(args: &[&str], input: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(dir.join(input)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_npy"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // written by a thread: a full stdout pipe must not block the writer
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    format!(
        "$ npy {} < {input}\nstatus {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn stats_columns() {
    // every numeric kind, NaNs, a subarray, complex, skipped columns
    insta::assert_snapshot!(npy(&["stats", "tests/data/nans.npy"]));
    insta::assert_snapshot!(npy(&["stats", "tests/data/plain_2d.npy"]));
    insta::assert_snapshot!(npy(&["stats", "tests/data/one.npz"]));
    insta::assert_snapshot!(npy(&["stats", "tests/data/archive.npz"]));
    insta::assert_snapshot!(npy(&["stats", "tests/data/object.npy"]));
    insta::assert_snapshot!(npy(&[
        "stats",
        "tests/data/with_text.npz",
        "--member",
        "readme.txt"
    ]));
    // infinities as numpy's nanmean/nanstd take them: pos[1] (-1, inf,
    // 1e16) has mean inf, mass (0.001, -inf, 1e6) -inf, both std nan;
    // sub.h (f2) mean 21834.69999186198, std 30878.85816545112 (numpy 2.4)
    insta::assert_snapshot!(npy(&[
        "stats",
        "tests/data/archive.npz",
        "--member",
        "records"
    ]));
}

/// `npy stats nans.npy` prints numpy's nanmin, nanmax, nanmean and nanstd
/// and the NaN count of every column (`tests/data/nans_stats.json`,
/// written by numpy): mean and std to 1e-12 (numpy sums pairwise, the tool
/// by Welford's method), min and max as stored (an `f4` to its precision).
#[test]
fn stats_match_numpy() {
    let text = String::from_utf8(stdout(&["stats", "tests/data/nans.npy"])).unwrap();
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nans_stats.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let expected = expected.as_object().unwrap();
    let number = |s: &str| match s {
        "True" => 1.0,
        "False" => 0.0,
        s => s.parse::<f64>().unwrap(),
    };
    let close = |got: f64, want: f64, rel: f64| (got - want).abs() <= rel * want.abs();
    let mut seen = 0;
    for line in text.lines().skip(1) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let Some(want) = expected.get(cells[0]) else {
            continue;
        };
        let want = |k: &str| want[k].as_f64().unwrap();
        assert_eq!(number(cells[3]), want("nan"), "{line}");
        assert!(close(number(cells[4]), want("min"), 1e-7), "{line}");
        assert!(close(number(cells[5]), want("max"), 1e-7), "{line}");
        assert!(close(number(cells[6]), want("mean"), 1e-12), "{line}");
        assert!(close(number(cells[7]), want("std"), 1e-12), "{line}");
        seen += 1;
    }
    assert_eq!(seen, expected.len(), "{text}");
}

#[test]
fn diff_equal() {
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/close_a.npy"
    ]));
    // NaN equals NaN, in every numeric kind
    insta::assert_snapshot!(npy(&["diff", "tests/data/nans.npy", "tests/data/nans.npy"]));
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/archive.npz",
        "tests/data/archive.npz",
        "--member",
        "counts"
    ]));
}

#[test]
fn diff_unequal() {
    // within 1e-5, not within the default 1e-7: exit status 1
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/close_b.npy"
    ]));
    // --rtol 1e-5 makes them equal (|b| scales it: b is the reference)
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/close_b.npy",
        "--rtol",
        "1e-5"
    ]));
    // as much as --atol 1e-5 does
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/close_b.npy",
        "--atol",
        "1e-5"
    ]));
    // numbers, a NaN for a number, a string; more than 5 rows of v[1]
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/close_c.npy"
    ]));
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/shape_b.npy"
    ]));
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/fields_b.npy"
    ]));
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/plain_1d.npy",
        "tests/data/trailing.npy"
    ]));
    // a dtype difference, the values equal; --member picks the archive's
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/archive.npz",
        "tests/data/counts_f8.npy",
        "--member",
        "counts"
    ]));
}

#[test]
fn diff_trouble_is_status_2() {
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/no_such_file.npy"
    ]));
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/truncated.npy",
        "tests/data/records.npy"
    ]));
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/archive.npz",
        "tests/data/archive.npz"
    ]));
    insta::assert_snapshot!(npy(&["diff", "-", "-"]));
    insta::assert_snapshot!(npy(&[
        "diff",
        "tests/data/close_a.npy",
        "tests/data/close_b.npy",
        "--rtol",
        "nan"
    ]));
}

#[test]
fn head_rows() {
    insta::assert_snapshot!(npy(&["head", "tests/data/records.npy", "-n", "2"]));
    insta::assert_snapshot!(npy(&["head", "tests/data/long.npy"]));
    insta::assert_snapshot!(npy(&["head", "tests/data/zero_d.npy"]));
    insta::assert_snapshot!(npy(&[
        "head",
        "tests/data/archive.npz",
        "--member",
        "counts",
        "-n",
        "1"
    ]));
    insta::assert_snapshot!(npy(&["head", "tests/data/archive.npz"]));
}

/// numpy's repr summarizes arrays of more than 1000 elements: rows of
/// 1500 floats as their first and last 3 values, 2000 rows asked for as
/// the first and last 3 rows.
#[test]
fn show_summarizes_large_arrays() {
    insta::assert_snapshot!(npy(&["show", "tests/data/long_rows.npy"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/long.npy", "-n", "5000"]));
    insta::assert_snapshot!(npy(&["head", "tests/data/long_rows.npy", "-n", "1"]));
}

#[test]
fn show_object_array_headers() {
    // the header, a note, then status 1 with the library's refusal
    insta::assert_snapshot!(npy(&["show", "tests/data/objects.npz"]));
}

#[test]
fn show_one_member() {
    insta::assert_snapshot!(npy(&[
        "show",
        "tests/data/archive.npz",
        "--member",
        "counts"
    ]));
    insta::assert_snapshot!(npy(&["show", "tests/data/archive.npz", "--member", "nope"]));
    insta::assert_snapshot!(npy(&["show", "tests/data/records.npy", "--member", "x"]));
}

#[test]
fn standard_input() {
    insta::assert_snapshot!(npy_stdin(
        &["show", "-", "-n", "1"],
        "tests/data/records.npy"
    ));
    insta::assert_snapshot!(npy_stdin(
        &["head", "-", "--member", "counts"],
        "tests/data/archive.npz"
    ));
    insta::assert_snapshot!(npy_stdin(&["json", "-"], "tests/data/one.npz"));
    insta::assert_snapshot!(npy_stdin(&["csv", "-"], "tests/data/plain_2d.npy"));
    insta::assert_snapshot!(npy_stdin(&["stats", "-"], "tests/data/plain_1d.npy"));
    insta::assert_snapshot!(npy_stdin(
        &["diff", "-", "tests/data/close_b.npy"],
        "tests/data/close_a.npy"
    ));
    insta::assert_snapshot!(npy_stdin(&["show", "-"], "tests/data/object.npy"));
    insta::assert_snapshot!(npy_stdin(&["show", "-"], "tests/data/not_npy.npy"));
}

#[test]
fn new_commands_documented() {
    insta::assert_snapshot!(String::from_utf8(stdout(&["stats", "--help"])).unwrap());
    insta::assert_snapshot!(String::from_utf8(stdout(&["diff", "--help"])).unwrap());
    insta::assert_snapshot!(String::from_utf8(stdout(&["head", "--help"])).unwrap());
}
