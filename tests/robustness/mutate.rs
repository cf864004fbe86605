//! Every-prefix truncation and single-byte mutation of every `.npy` fixture
//! under `tests/data` (the numpy-made read and write fixtures and the
//! hostile corpus): reading must never panic — each attempt is either a
//! clean error or a value.
//!
//! Files up to 4 KiB are tried at every position; larger files at every
//! position of their first 64 bytes (magic, length, the start of the
//! header) and a deterministic sample of 128 positions spread over the rest. Each position gets three
//! mutations: all bits flipped, +1, and an ASCII `9` (which turns a shape
//! or size digit into a large one).

use std::path::{Path, PathBuf};

use npy_serde::NpyReader;

const SMALL: usize = 4096;

fn fixtures() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "npy") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &mut out,
    );
    out.sort();
    assert!(out.len() > 50, "fixtures missing: {}", out.len());
    out
}

/// The positions to try in a file of `len` bytes.
fn positions(len: usize) -> Vec<usize> {
    if len <= SMALL {
        return (0..len).collect();
    }
    let mut p: Vec<usize> = (0..64).collect();
    // a fixed LCG: the same sample on every run
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15 ^ len as u64;
    for _ in 0..128 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        p.push(64 + (x >> 33) as usize % (len - 64));
    }
    p.push(len - 1);
    p
}

/// Reads `bytes` every way that must not panic; the results are dropped.
fn read_all(bytes: &[u8]) {
    let _ = npy_serde::from_slice::<serde_json::Value>(bytes);
    // views: a 64-byte aligned copy, so the header and data checks are reached
    let aligned = tests::Aligned::new(bytes, 0);
    let _ = npy_serde::view::<u8>(aligned.bytes());
    let _ = npy_serde::view::<f64>(aligned.bytes());
    let _ = npy_serde::view::<bool>(aligned.bytes());
    // row ranges: the first rows, and ones that may lie past the first axis
    for range in [1..3, 5..1_000_000] {
        let _ = npy_serde::from_slice_rows::<serde_json::Value>(bytes, range.clone());
        let _ = npy_serde::view_rows::<f64>(aligned.bytes(), range.clone());
        if let Ok(mut r) = NpyReader::new(std::io::Cursor::new(bytes)) {
            let _ = r.rows::<serde_json::Value>(range);
        }
    }
    if let Ok(mut r) = NpyReader::new(bytes) {
        let mut n = 0u64;
        for item in r.deserialize::<serde_json::Value>() {
            let _ = item;
            n += 1;
            assert!(n <= 1 << 24, "the iterator does not end");
        }
    }
}

fn run(path: &Path) {
    let orig = std::fs::read(path).unwrap();
    let name = path.display();
    let len = orig.len();
    // every prefix (sampled the same way for large files), and the whole
    for cut in positions(len).into_iter().chain([len]) {
        let prefix = &orig[..cut];
        let r = std::panic::catch_unwind(|| {
            read_all(prefix);
            let _ = npy_serde::from_reader::<serde_json::Value>(prefix);
        });
        assert!(r.is_ok(), "{name}: panic on the first {cut} bytes");
    }
    let mut buf = orig.clone();
    for pos in positions(len) {
        let b = orig[pos];
        for m in [!b, b.wrapping_add(1), b'9'] {
            if m == b {
                continue;
            }
            buf[pos] = m;
            let r = std::panic::catch_unwind(|| read_all(&buf));
            assert!(
                r.is_ok(),
                "{name}: panic with byte {pos} changed from {b:#04x} to {m:#04x}"
            );
        }
        buf[pos] = b;
    }
}

fn run_dir(sub: &str, large: Option<bool>) {
    let start = std::time::Instant::now();
    let files: Vec<PathBuf> = fixtures()
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with(sub)))
        .filter(|p| large.is_none_or(|l| (std::fs::metadata(p).unwrap().len() > SMALL as u64) == l))
        .collect();
    assert!(!files.is_empty(), "no fixtures in tests/data/{sub}");
    for path in &files {
        run(path);
    }
    eprintln!(
        "tests/data/{sub}: {} files in {:?}",
        files.len(),
        start.elapsed()
    );
}

#[test]
fn read_fixtures_never_panic() {
    run_dir("read", None);
}

#[test]
fn write_fixtures_never_panic() {
    run_dir("write", None);
}

#[test]
fn bf16_fixtures_never_panic() {
    run_dir("bf16", None);
}

#[test]
fn nd_fixtures_never_panic() {
    run_dir("nd", None);
}

#[test]
fn view_fixtures_never_panic() {
    run_dir("view", None);
}

#[test]
fn empty_fixtures_never_panic() {
    run_dir("empty", None);
}

#[test]
fn rows_fixtures_never_panic() {
    run_dir("rows", None);
}

#[test]
fn memmap_fixtures_never_panic() {
    run_dir("memmap", None);
}

#[test]
fn small_hostile_fixtures_never_panic() {
    run_dir("hostile", Some(false));
}

#[test]
fn large_hostile_fixtures_never_panic() {
    run_dir("hostile", Some(true));
}

/// Reads an `.npz` every way that must not panic: each member by name and
/// through its record iterator, and the whole archive as a map.
fn read_npz(bytes: &[u8]) {
    use std::io::Cursor;
    let _ = npy_serde::npz::from_reader::<std::collections::BTreeMap<String, serde_json::Value>>(
        Cursor::new(bytes),
    );
    let Ok(mut z) = npy_serde::npz::NpzReader::new(Cursor::new(bytes)) else {
        return;
    };
    let names: Vec<String> = z.names().to_vec();
    for name in &names {
        let _ = z.by_name::<serde_json::Value>(name);
        let _ = z.rows::<serde_json::Value>(name, 1..3);
        if let Ok(mut r) = z.reader(name) {
            for (n, item) in r.deserialize::<serde_json::Value>().enumerate() {
                let _ = item;
                assert!(n <= 1 << 24, "the iterator does not end");
            }
        }
    }
}

/// Every-prefix truncation and single-byte mutation of the `.npz`
/// fixtures (the npz work's damaged archives included).
#[test]
fn npz_fixtures_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/npz");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "npz"))
        .collect();
    files.sort();
    for path in files {
        let orig = std::fs::read(&path).unwrap();
        let name = path.display();
        let len = orig.len();
        for cut in positions(len).into_iter().chain([len]) {
            let r = std::panic::catch_unwind(|| read_npz(&orig[..cut]));
            assert!(r.is_ok(), "{name}: panic on the first {cut} bytes");
        }
        let mut buf = orig.clone();
        for pos in positions(len) {
            let b = orig[pos];
            for m in [!b, b.wrapping_add(1)] {
                buf[pos] = m;
                let r = std::panic::catch_unwind(|| read_npz(&buf));
                assert!(
                    r.is_ok(),
                    "{name}: panic with byte {pos} changed from {b:#04x} to {m:#04x}"
                );
            }
            buf[pos] = b;
        }
    }
}

/// No fixture folder is left out.
#[test]
fn every_folder_is_covered() {
    for path in fixtures() {
        let dir = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            [
                "read",
                "write",
                "hostile",
                "bf16",
                "nd",
                "view",
                "empty",
                "rows",
                "memmap",
                "object_store",
                "arrow"
            ]
            .contains(&dir.as_str()),
            "{}",
            path.display()
        );
    }
}
