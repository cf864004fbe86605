//! `npy convert` (feature `arrow`, on by default): numpy-written fixtures
//! (`tests/data/arrow`, made by its make.py) through Parquet and Arrow IPC
//! and back byte for byte, `.csv`/`.jsonl` equal to `npy csv`/`npy json`,
//! CSV in, standard input, and the refusals with their exit status.
#![cfg(feature = "arrow")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/arrow")
        .join(name)
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("npy-cli-convert-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&Path], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_npy"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn npy(args: &[&Path]) -> Vec<u8> {
    let (status, stdout, stderr) = run(args, None);
    assert_eq!(status, 0, "{args:?}: {stderr}");
    stdout
}

fn p(s: &str) -> &Path {
    Path::new(s)
}

#[test]
fn parquet_and_arrow_round_trip_byte_for_byte() {
    let dir = scratch("round");
    for name in [
        "records.npy",
        "times.npy",
        "big.npy",
        "padded.npy",
        "fortran.npy",
        "zero_d.npy",
        "bf16.npy",
    ] {
        for ext in ["parquet", "arrow"] {
            let mid = dir.join(format!("{name}.{ext}"));
            let back = dir.join(format!("{name}.{ext}.npy"));
            npy(&[p("convert"), &fixture(name), &mid]);
            npy(&[p("convert"), &mid, &back]);
            assert_eq!(
                std::fs::read(&back).unwrap(),
                std::fs::read(fixture(name)).unwrap(),
                "{name} via {ext}"
            );
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn csv_and_jsonl_are_what_npy_csv_and_json_print() {
    let dir = scratch("text");
    let src = fixture("records.npy");
    npy(&[p("convert"), &src, &dir.join("r.csv")]);
    assert_eq!(
        std::fs::read(dir.join("r.csv")).unwrap(),
        npy(&[p("csv"), &src])
    );
    npy(&[p("convert"), &src, &dir.join("r.jsonl")]);
    assert_eq!(
        std::fs::read(dir.join("r.jsonl")).unwrap(),
        npy(&[p("json"), &src])
    );
    // an npz member
    let npz = fixture("columns.npz");
    npy(&[
        p("convert"),
        &npz,
        &dir.join("x.csv"),
        p("--member"),
        p("x"),
    ]);
    assert_eq!(
        std::fs::read(dir.join("x.csv")).unwrap(),
        npy(&[p("csv"), &npz, p("--member"), p("x")])
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn csv_in_becomes_a_record_array_or_a_plain_one() {
    let dir = scratch("csvin");
    std::fs::write(dir.join("t.csv"), "id,x,name\n1,0.5,ab\n2,-1.5,\n3,2,xyz\n").unwrap();
    npy(&[p("convert"), &dir.join("t.csv"), &dir.join("t.npy")]);
    let bytes = std::fs::read(dir.join("t.npy")).unwrap();
    let (header, _) = npy_serde::Header::from_bytes(&bytes, &Default::default()).unwrap();
    assert_eq!(
        header.to_string(),
        "{'descr': [('id', '<i8'), ('x', '<f8'), ('name', '<U3')], 'fortran_order': False, 'shape': (3,), }"
    );
    insta::assert_snapshot!(
        "csv_in_show",
        String::from_utf8_lossy(&npy(&[p("json"), &dir.join("t.npy")]))
    );

    std::fs::write(dir.join("m.csv"), "a,b\n1.5,2\n3,4.25\n").unwrap();
    npy(&[
        p("convert"),
        &dir.join("m.csv"),
        &dir.join("m.npy"),
        p("--array"),
    ]);
    let m = std::fs::read(dir.join("m.npy")).unwrap();
    let (header, offset) = npy_serde::Header::from_bytes(&m, &Default::default()).unwrap();
    assert_eq!(
        header.to_string(),
        "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }"
    );
    let values: Vec<f64> = m[offset..]
        .chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(values, [1.5, 2.0, 3.0, 4.25]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn standard_input_is_told_by_its_first_bytes() {
    let dir = scratch("stdin");
    let src = std::fs::read(fixture("records.npy")).unwrap();
    let out = dir.join("r.parquet");
    let (status, _, stderr) = run(&[p("convert"), p("-"), &out], Some(&src));
    assert_eq!(status, 0, "{stderr}");
    let parquet = std::fs::read(&out).unwrap();
    let back = dir.join("r.npy");
    let (status, _, stderr) = run(&[p("convert"), p("-"), &back], Some(&parquet));
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(std::fs::read(back).unwrap(), src);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn refusals_and_their_exit_status() {
    let dir = scratch("refuse");
    std::fs::write(dir.join("bad.parquet"), "id,x\n1,2\n").unwrap();
    let cases: Vec<(&str, Vec<PathBuf>)> = vec![
        (
            "unknown_extension",
            vec![fixture("records.npy"), dir.join("x.xlsx")],
        ),
        (
            "npy_to_npy",
            vec![fixture("records.npy"), dir.join("x.npy")],
        ),
        (
            "member_on_npy",
            vec![
                fixture("records.npy"),
                dir.join("x.parquet"),
                "--member".into(),
                "x".into(),
            ],
        ),
        (
            "array_from_npy",
            vec![fixture("records.npy"), dir.join("x.npy"), "--array".into()],
        ),
        (
            "ragged_npz",
            vec![fixture("ragged.npz"), dir.join("x.parquet")],
        ),
        (
            "missing_input",
            vec![dir.join("nothing.npy"), dir.join("x.parquet")],
        ),
        (
            "not_parquet",
            vec![dir.join("bad.parquet"), dir.join("x.npy")],
        ),
    ];
    let mut text = String::new();
    for (name, mut args) in cases {
        args.insert(0, "convert".into());
        let refs: Vec<&Path> = args.iter().map(PathBuf::as_path).collect();
        let (status, stdout, stderr) = run(&refs, None);
        assert!(stdout.is_empty());
        let stderr = stderr
            .replace(&dir.display().to_string(), "DIR")
            .replace(&fixture("").display().to_string(), "FIXTURES/");
        text.push_str(&format!("{name}: status {status}\n{stderr}\n"));
        assert!(
            !dir.join("x.npy").exists() && !dir.join("x.parquet").exists(),
            "{name} left a file"
        );
    }
    insta::assert_snapshot!("convert_refusals", text);
    std::fs::remove_dir_all(dir).unwrap();
}
