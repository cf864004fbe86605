//! Reading a deflated archive into a struct stays within 2.1 times the
//! output at its peak: with feature `rayon` the members are inflated ahead
//! on the pool (the compressed bytes of a member are dropped once it is
//! inflated, its inflated bytes once its value is read); without it they
//! stream. A bomb among the members is stopped after a few KiB, through
//! the parallel path too.

use std::io::{Cursor, Write};

use crate::{exclusive, peak_of};
use tests::snapshot::{BulkSnapshot, Snapshot};

/// The bench's snapshot of `n` particles as `np.savez_compressed` writes
/// it, and the bytes its arrays hold.
fn snapshot(n: usize) -> (Vec<u8>, usize) {
    let id: Vec<u64> = (0..n as u64).collect();
    let pos: Vec<[f64; 3]> = (0..n).map(|i| [i as f64, 0.5 * i as f64, -1.0]).collect();
    let vel: Vec<[f32; 3]> = (0..n).map(|i| [(i % 97) as f32, 0.25, 1.0]).collect();
    let mass: Vec<f32> = (0..n).map(|i| 1.0 + (i % 13) as f32).collect();
    let mut w = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new())).compressed(true);
    w.add("id", &id).unwrap();
    w.add("pos", &pos).unwrap();
    w.add("vel", &vel).unwrap();
    w.add("mass", &mass).unwrap();
    let output = n * (8 + 24 + 12 + 4);
    (w.finish().unwrap().into_inner(), output)
}

/// The peak of `f` run on a pool of two threads (with `rayon`), else here.
fn peak_on_two_threads(f: impl FnOnce() + Send) -> usize {
    #[cfg(feature = "rayon")]
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        // the pool's own allocations are made before the peak is measured
        pool.install(|| {});
        peak_of(|| pool.install(f))
    }
    #[cfg(not(feature = "rayon"))]
    peak_of(f)
}

#[test]
fn a_deflated_struct_read_peaks_under_2_1_times_its_output() {
    let _lock = exclusive();
    let (bytes, output) = snapshot(200_000);
    let plain = peak_on_two_threads(|| {
        let s: Snapshot = npy_serde::npz::from_reader(Cursor::new(&bytes[..])).unwrap();
        assert_eq!(s.id.len(), 200_000);
    });
    let bulk = peak_on_two_threads(|| {
        let s: BulkSnapshot = npy_serde::npz::from_reader(Cursor::new(&bytes[..])).unwrap();
        assert_eq!(s.mass.len(), 200_000);
    });
    if std::env::var("ALLOC_TRACE").is_ok() {
        eprintln!(
            "deflated snapshot ({} bytes, output {output}): struct peak {plain}, bulk struct peak {bulk}",
            bytes.len()
        );
    }
    for (what, peak) in [("struct", plain), ("bulk struct", bulk)] {
        assert!(
            peak * 10 <= output * 21,
            "{what}: peak {peak} > 2.1 x output {output}"
        );
    }
}

#[test]
fn a_bomb_among_deflated_members_is_stopped_after_a_few_kib() {
    let _lock = exclusive();
    // the fixture's member (a 10-byte array over 64 MiB of inflated bytes)
    // copied raw as `id`, before three honest deflated members
    let fixture = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/npz/bad_bomb.npz"),
    )
    .unwrap();
    let mut bomb = zip::ZipArchive::new(Cursor::new(fixture)).unwrap();
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    zip.raw_copy_file_rename(bomb.by_index_raw(0).unwrap(), "id.npy")
        .unwrap();
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in [
        ("pos", npy_serde::to_vec(&vec![[1.0f64; 3]; 100]).unwrap()),
        ("vel", npy_serde::to_vec(&vec![[1.0f32; 3]; 100]).unwrap()),
        ("mass", npy_serde::to_vec(&vec![1.0f32; 100]).unwrap()),
    ] {
        zip.start_file(format!("{name}.npy"), opts).unwrap();
        zip.write_all(&bytes).unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();
    let peak = peak_on_two_threads(|| {
        let err = npy_serde::npz::from_reader::<Snapshot>(Cursor::new(&bytes[..])).unwrap_err();
        assert!(err.to_string().contains("goes on after"), "{err}");
    });
    if std::env::var("ALLOC_TRACE").is_ok() {
        eprintln!("bomb among members ({} bytes): peak {peak}", bytes.len());
    }
    // the compressed bytes (64 KiB), two inflaters' windows and state, the
    // first 4 KiB inflated of each member, the sequential reader's buffers
    let limit = bytes.len() + (384 << 10);
    assert!(peak <= limit, "peak {peak} > {limit}");
}

/// A stored member's bytes are known to lie in the archive: a plain-number
/// array is read into an output sized once (no move while it grows), through
/// one 256-KiB buffer, by name and inside a struct.
#[test]
fn a_stored_member_is_read_into_an_output_sized_once() {
    let _lock = exclusive();
    let n = 1usize << 17; // 1 MiB of f64
    let mut w = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new()));
    w.add("a", &vec![0.25f64; n]).unwrap();
    let archive = w.finish().unwrap().into_inner();
    let peak = peak_of(|| {
        let mut r = npy_serde::npz::NpzReader::new(Cursor::new(&archive[..])).unwrap();
        let a: npy_serde::Bulk<f64> = r.by_name("a").unwrap();
        assert_eq!(a.capacity(), n);
        assert!(a.iter().all(|&x| x == 0.25));
    });
    // the output, the read buffer, the reader's directory and key strings
    assert!(
        peak <= 8 * n + (256 << 10) + (64 << 10),
        "stored 1-MiB member via by_name Bulk<f64>: peak {peak}"
    );
}
