//! Memory is bounded by the bytes present, never by a declared size.
//!
//! A counting global allocator (test-only `unsafe`: the crate's
//! `#![forbid(unsafe_code)]` covers `src/`) tracks the bytes currently
//! allocated and their peak. Every file of the hostile corpus is read every
//! way (`from_slice` and `from_reader` into `serde_json::Value` and into a
//! derived struct, and the `NpyReader` iterator), and the peak above the
//! starting level must stay within
//!
//! ```text
//! PER_BYTE × file size + SLACK   (PER_BYTE = 64, SLACK = 96 KiB)
//! ```
//!
//! 64 per byte leaves room for decoded values (a `|u1` byte becomes a
//! 32-byte `serde_json::Value`, in a `Vec` that may double) and for the
//! parsed header literal; the slack covers the stream reader's read-ahead
//! buffer (at most 64 KiB, and only as bytes arrive) and error messages.
//!
//! Values that hold no bytes are the one thing bytes cannot bound: up to
//! 65536 of them pass the default `max_elements` (an array of shape
//! `(65536, 0)` is a few MiB of empty `Vec`s from a 128-byte file); the
//! corpus holds files just past that cap, which must be refused cheaply.
//!
//! The test holds the binary's lock (`crate::exclusive`), so no other test
//! thread disturbs the counters.

use std::path::Path;

use npy_serde::NpyReader;
use serde::Deserialize;

use crate::peak_of;

const PER_BYTE: usize = 64;
const SLACK: usize = 96 * 1024;

#[derive(Deserialize)]
#[allow(dead_code)]
struct Rec {
    #[serde(default)]
    id: u32,
    #[serde(default)]
    x: f64,
}

/// The peaks of each read path, by name.
fn peaks(bytes: &[u8]) -> Vec<(&'static str, usize)> {
    vec![
        (
            "from_slice Value",
            peak_of(|| drop(npy_serde::from_slice::<serde_json::Value>(bytes))),
        ),
        (
            "from_reader Value",
            peak_of(|| drop(npy_serde::from_reader::<serde_json::Value>(bytes))),
        ),
        (
            "from_slice Vec<Rec>",
            peak_of(|| drop(npy_serde::from_slice::<Vec<Rec>>(bytes))),
        ),
        (
            "from_reader Vec<Rec>",
            peak_of(|| drop(npy_serde::from_reader::<Vec<Rec>>(bytes))),
        ),
        (
            "from_reader Vec<u8>",
            peak_of(|| drop(npy_serde::from_reader::<Vec<u8>>(bytes))),
        ),
        (
            "from_slice Bulk<f64>",
            peak_of(|| drop(npy_serde::from_slice::<npy_serde::Bulk<f64>>(bytes))),
        ),
        (
            "from_reader Bulk<f64>",
            peak_of(|| drop(npy_serde::from_reader::<npy_serde::Bulk<f64>>(bytes))),
        ),
        (
            "from_reader Bulk<u8>",
            peak_of(|| drop(npy_serde::from_reader::<npy_serde::Bulk<u8>>(bytes))),
        ),
        (
            "NpyReader Value",
            peak_of(|| {
                if let Ok(mut r) = NpyReader::new(bytes) {
                    for item in r.deserialize::<serde_json::Value>() {
                        drop(item);
                    }
                }
            }),
        ),
    ]
}

fn hostile_files() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hostile");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "npy"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// A 1-GiB-declared `|u1` array with 900 bytes of data (a 1028-byte file).
fn one_gib_declared() -> Vec<u8> {
    let dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (1073741824,), }";
    let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    v.extend(format!("{dict:<117}\n").bytes());
    v.extend(std::iter::repeat_n(7u8, 900));
    v
}

#[test]
fn allocation_is_bounded_by_the_bytes_present() {
    let _only = crate::exclusive();
    let mut failures = Vec::new();
    for (name, bytes) in hostile_files() {
        let bound = PER_BYTE * bytes.len() + SLACK;
        for (path, peak) in peaks(&bytes) {
            if std::env::var("ALLOC_TRACE").is_ok() {
                eprintln!("{name:40} {path:22} {peak:>9} / {:>6} bytes", bytes.len());
            }
            if peak > bound {
                failures.push(format!(
                    "{name} ({} bytes) via {path}: peak {peak} > bound {bound}",
                    bytes.len()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // A 1-GiB-declared array in a 1-KiB file: refused having allocated at
    // most 8 KiB (from_slice sees the data is short before decoding anything;
    // the stream paths decode the 900 bytes present, then fail).
    let file = one_gib_declared();
    assert_eq!(file.len(), 1028);
    let limits: [(&str, usize); 6] = [
        ("from_slice Vec<u8>", 8 << 10),
        ("from_reader Vec<u8>", 8 << 10),
        ("from_slice Bulk<u8>", 8 << 10),
        ("from_reader Bulk<u8>", 8 << 10),
        ("NpyReader u8", 8 << 10),
        ("from_slice Value", 8 << 10),
    ];
    let got = [
        peak_of(|| assert!(npy_serde::from_slice::<Vec<u8>>(&file).is_err())),
        peak_of(|| assert!(npy_serde::from_reader::<Vec<u8>>(&file[..]).is_err())),
        peak_of(|| assert!(npy_serde::from_slice::<npy_serde::Bulk<u8>>(&file).is_err())),
        peak_of(|| assert!(npy_serde::from_reader::<npy_serde::Bulk<u8>>(&file[..]).is_err())),
        peak_of(|| {
            let mut r = NpyReader::new(&file[..]).unwrap();
            let n = r.deserialize::<u8>().filter(Result::is_ok).count();
            assert_eq!(n, 900);
        }),
        peak_of(|| assert!(npy_serde::from_slice::<serde_json::Value>(&file).is_err())),
    ];
    for ((what, limit), peak) in limits.iter().zip(got) {
        assert!(
            peak <= *limit,
            "1-GiB-declared file via {what}: peak {peak} > {limit}"
        );
    }

    // Bulk from a stream: a '<f8' header claiming 2^30 elements (8 GiB)
    // over 1 MiB of data. The vector grows with the bytes that arrive
    // (doubling: old and new block both live while it moves), so the peak
    // is at most 3x the bytes present plus the 64-KiB read-ahead.
    let dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (1073741824,), }";
    let mut lie = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    lie.extend(format!("{dict:<117}\n").bytes());
    let present = (1 << 20) + 8;
    lie.extend(std::iter::repeat_n(0u8, present));
    let peak =
        peak_of(|| assert!(npy_serde::from_reader::<npy_serde::Bulk<f64>>(&lie[..]).is_err()));
    assert!(
        peak <= 3 * present + SLACK,
        "8-GiB-declared '<f8' over 1 MiB via from_reader Bulk<f64>: peak {peak}"
    );
    // an honest file: the output (exactly its size) plus the read-ahead and
    // one move while it grows
    let honest = npy_serde::to_vec(&vec![0.5f64; 1 << 17]).unwrap();
    let peak = peak_of(|| {
        let v = npy_serde::from_reader::<npy_serde::Bulk<f64>>(&honest[..]).unwrap();
        assert_eq!(v.capacity(), 1 << 17);
    });
    assert!(
        peak <= 3 * (8 << 17) / 2 + SLACK,
        "honest 1-MiB file via from_reader Bulk<f64>: peak {peak}"
    );
    if std::env::var("ALLOC_TRACE").is_ok() {
        eprintln!("honest 1 MiB via Bulk<f64>: peak {peak}");
    }

    // From a path the file's length proves the data present: the output is
    // sized once (no move while it grows), read through a 256-KiB buffer.
    // The lying file is no longer than its 1 MiB, so it is read as a stream.
    let dir = std::env::temp_dir().join(format!("npy_serde_memory_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (honest_path, lie_path) = (dir.join("honest.npy"), dir.join("lie.npy"));
    std::fs::write(&honest_path, &honest).unwrap();
    std::fs::write(&lie_path, &lie).unwrap();
    let peak = peak_of(|| {
        let v = npy_serde::from_path::<npy_serde::Bulk<f64>>(&honest_path).unwrap();
        assert_eq!(v.capacity(), 1 << 17);
        assert!(v.iter().all(|&x| x == 0.5));
    });
    assert!(
        peak <= (8 << 17) + (256 << 10) + SLACK,
        "honest 1-MiB file via from_path Bulk<f64>: peak {peak}"
    );
    let peak =
        peak_of(|| assert!(npy_serde::from_path::<npy_serde::Bulk<f64>>(&lie_path).is_err()));
    assert!(
        peak <= 3 * present + SLACK,
        "8-GiB-declared '<f8' over 1 MiB via from_path Bulk<f64>: peak {peak}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // The same array as the member of a ~1-KiB archive: refused having
    // allocated at most 16 KiB when stored (the zip reader's own buffers
    // included), 64 KiB when deflated (inflate's 32-KiB window and state,
    // a constant of the decompressor).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hostile");
    for name in ["npz_1gib_member_stored", "npz_1gib_member_deflated"] {
        let bytes = std::fs::read(dir.join(format!("{name}.npz"))).unwrap();
        assert!(bytes.len() <= 1200);
        let by_name = peak_of(|| {
            let mut z = npy_serde::npz::NpzReader::new(std::io::Cursor::new(&bytes[..])).unwrap();
            assert!(z.by_name::<Vec<u8>>("x").is_err());
        });
        let bulk = peak_of(|| {
            let mut z = npy_serde::npz::NpzReader::new(std::io::Cursor::new(&bytes[..])).unwrap();
            assert!(z.by_name::<npy_serde::Bulk<u8>>("x").is_err());
        });
        // columns: the member is loaded whole, its buffer sized from what
        // the member can hold, not from the claim
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct Row {
            x: u8,
        }
        let columns = peak_of(|| {
            let r = npy_serde::npz::from_reader::<Vec<Row>>(std::io::Cursor::new(&bytes[..]));
            assert!(r.is_err());
        });
        let whole = peak_of(|| {
            let r = npy_serde::npz::from_reader::<std::collections::BTreeMap<String, Vec<u8>>>(
                std::io::Cursor::new(&bytes[..]),
            );
            assert!(r.is_err());
        });
        if std::env::var("ALLOC_TRACE").is_ok() {
            eprintln!("{name}: by_name {by_name}, from_reader {whole}");
        }
        let limit = if name.ends_with("stored") {
            16 << 10
        } else {
            64 << 10
        };
        for (what, peak) in [
            ("by_name", by_name),
            ("by_name Bulk<u8>", bulk),
            ("npz::from_reader", whole),
            ("npz::from_reader columns", columns),
        ] {
            assert!(peak <= limit, "{name} via {what}: peak {peak} > {limit}");
        }
    }
    // A deflated member whose header claims 1 GiB over 256 KiB of
    // incompressible bytes: a whole-member load (the columnar reader) sizes
    // its buffer from what the member can hold, and deflate can expand
    // 1032-fold; the buffer must still start within a small multiple of
    // the bytes present and grow only as inflated bytes arrive.
    let archive = {
        use std::io::Write;
        let mut npy = Vec::new();
        npy.extend_from_slice(b"\x93NUMPY\x01\x00");
        let mut head =
            b"{'descr': '|u1', 'fortran_order': False, 'shape': (1073741824,), }".to_vec();
        while (10 + head.len() + 1) % 64 != 0 {
            head.push(b' ');
        }
        head.push(b'\n');
        npy.extend_from_slice(&(head.len() as u16).to_le_bytes());
        npy.extend_from_slice(&head);
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..256 * 1024 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            npy.push(x as u8);
        }
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        zip.start_file("x.npy", opts).unwrap();
        zip.write_all(&npy).unwrap();
        let mut bytes = zip.finish().unwrap().into_inner();
        // the directory lies too: 1 GiB uncompressed, in the local header
        // (offset 22) and the central directory entry (offset 24)
        let claim = (1u32 << 30).to_le_bytes();
        for (sig, at) in [(b"PK\x03\x04", 22), (b"PK\x01\x02", 24)] {
            let pos = bytes.windows(4).position(|w| w == sig).unwrap();
            bytes[pos + at..pos + at + 4].copy_from_slice(&claim);
        }
        bytes
    };
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Column {
        x: u8,
    }
    let peak = peak_of(|| {
        let r = npy_serde::npz::from_reader::<Vec<Column>>(std::io::Cursor::new(&archive[..]));
        if std::env::var("ALLOC_TRACE").is_ok() {
            eprintln!(
                "columns over a deflated 1-GiB claim: {:?}",
                r.as_ref().err()
            );
        }
        assert!(r.is_err());
    });
    if std::env::var("ALLOC_TRACE").is_ok() {
        eprintln!(
            "columns over a deflated 1-GiB claim: peak {peak}, {} bytes",
            archive.len()
        );
    }
    let bound = PER_BYTE * archive.len() + SLACK;
    assert!(
        peak <= bound,
        "deflated 1-GiB claim over {} bytes, columnar read: peak {peak} > {bound}",
        archive.len()
    );
}
