//! `npz::from_reader` into a struct or a map inflates the deflated members
//! on rayon's pool: the values are those of reading the members one by one
//! (`NpzReader::by_name`, the sequential path), and so are the errors (the
//! same message, the same member), wherever the damage is: a bad CRC-32 in
//! the first, a middle or the last member, a corrupt deflate stream, a
//! member cut short, a bomb; at one thread (where nothing changes), two and
//! three.

use std::collections::BTreeMap;
use std::io::{Cursor, Write};

use npy_serde::npz::{self, NpzReader};

use crate::read::pool;
use tests::snapshot::{BulkSnapshot, Snapshot};

const KEYS: [&str; 4] = ["id", "pos", "vel", "mass"];

/// `Snapshot` read member by member with `by_name`, in field order: what the
/// struct read does without rayon.
fn one_by_one(bytes: &[u8]) -> Result<Snapshot, String> {
    let mut z = NpzReader::new(Cursor::new(bytes)).map_err(|e| e.to_string())?;
    let s = |e: npy_serde::Error| e.to_string();
    Ok(Snapshot {
        id: z.by_name("id").map_err(s)?,
        pos: z.by_name("pos").map_err(s)?,
        vel: z.by_name("vel").map_err(s)?,
        mass: z.by_name("mass").map_err(s)?,
    })
}

/// The map read member by member, in archive order.
fn map_one_by_one(bytes: &[u8]) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let mut z = NpzReader::new(Cursor::new(bytes)).map_err(|e| e.to_string())?;
    let mut m = BTreeMap::new();
    for k in z.names().to_vec() {
        let v = z.by_name(&k).map_err(|e| e.to_string())?;
        m.insert(k, v);
    }
    Ok(m)
}

/// A result in a line: its error, or how many records it holds (a value
/// printed whole would be megabytes).
fn line<T>(r: &Result<T, String>, len: impl Fn(&T) -> usize) -> String {
    match r {
        Ok(v) => format!("Ok({} records)", len(v)),
        Err(e) => format!("Err({e})"),
    }
}

/// The struct, bulk struct and map reads agree with the member-by-member
/// reads at 1 (the sequential path), 2 and 3 threads; returns the
/// struct's result.
fn agree(bytes: &[u8]) -> Result<Snapshot, String> {
    let seq = one_by_one(bytes);
    let seq_map = map_one_by_one(bytes);
    for threads in [1, 2, 3] {
        pool(threads).install(|| {
            let par = npz::from_reader::<Snapshot>(Cursor::new(bytes)).map_err(|e| e.to_string());
            assert!(
                par == seq,
                "struct at {threads} thread(s): {} but {}",
                line(&par, |s| s.id.len()),
                line(&seq, |s| s.id.len())
            );
            let bulk =
                npz::from_reader::<BulkSnapshot>(Cursor::new(bytes)).map_err(|e| e.to_string());
            match (&bulk, &seq) {
                (Ok(b), Ok(s)) => assert!(
                    b.id == s.id && b.pos == s.pos && b.vel == s.vel && b.mass == s.mass,
                    "bulk struct at {threads} thread(s)"
                ),
                (Err(b), Err(s)) => assert_eq!(b, s, "bulk struct at {threads} thread(s)"),
                _ => panic!(
                    "bulk struct at {threads} thread(s): {} but {}",
                    line(&bulk, |s| s.id.len()),
                    line(&seq, |s| s.id.len())
                ),
            }
            let map = npz::from_reader::<BTreeMap<String, serde_json::Value>>(Cursor::new(bytes))
                .map_err(|e| e.to_string());
            assert!(
                map == seq_map,
                "map at {threads} thread(s): {} but {}",
                line(&map, BTreeMap::len),
                line(&seq_map, BTreeMap::len)
            );
        });
    }
    seq
}

/// A small xorshift: reproducible random data without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Snapshot members of `n` records, as `to_vec` writes them; the values
/// repeat enough to deflate (to a few hundred bytes for some).
fn members(rng: &mut Rng, n: usize) -> Vec<(&'static str, Vec<u8>)> {
    let id: Vec<u64> = (0..n as u64).map(|i| i * 3 + rng.below(2)).collect();
    let pos: Vec<[f64; 3]> = (0..n)
        .map(|i| [i as f64, rng.below(1000) as f64 * 0.5, -1.0])
        .collect();
    let vel: Vec<[f32; 3]> = (0..n).map(|_| [rng.below(7) as f32, 0.0, 1.5]).collect();
    let mass: Vec<f32> = (0..n)
        .map(|_| f32::from_bits(rng.next() as u32 & 0x3fff_ffff))
        .collect();
    vec![
        ("id", npy_serde::to_vec(&id).unwrap()),
        ("pos", npy_serde::to_vec(&pos).unwrap()),
        ("vel", npy_serde::to_vec(&vel).unwrap()),
        ("mass", npy_serde::to_vec(&mass).unwrap()),
    ]
}

/// A zip of `.npy` members as Python's zipfile writes them (no zip64),
/// each stored or deflated.
fn archive(members: &[(&str, Vec<u8>, bool)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes, deflated) in members {
        let method = if *deflated {
            zip::CompressionMethod::Deflated
        } else {
            zip::CompressionMethod::Stored
        };
        let opts = zip::write::SimpleFileOptions::default().compression_method(method);
        zip.start_file(format!("{name}.npy"), opts).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// All members deflated, in the bench's order.
fn deflated(n: usize, seed: u64) -> Vec<u8> {
    let ms = members(&mut Rng(seed), n);
    archive(
        &ms.into_iter()
            .map(|(k, b)| (k, b, true))
            .collect::<Vec<_>>(),
    )
}

/// Where each local header (`PK\3\4`) and central directory entry
/// (`PK\1\2`) starts, in archive order.
fn entries(bytes: &[u8], sig: &[u8; 4]) -> Vec<usize> {
    bytes
        .windows(4)
        .enumerate()
        .filter(|(_, w)| w == sig)
        .map(|(i, _)| i)
        .collect()
}

/// Where member `k`'s compressed bytes lie (after its local header).
fn data_of(bytes: &[u8], k: usize) -> std::ops::Range<usize> {
    let at = entries(bytes, b"PK\x03\x04")[k];
    let u16_at = |o: usize| u16::from_le_bytes([bytes[at + o], bytes[at + o + 1]]) as usize;
    let size = u32::from_le_bytes(bytes[at + 18..at + 22].try_into().unwrap()) as usize;
    let start = at + 30 + u16_at(26) + u16_at(28);
    start..start + size
}

#[test]
fn random_archives_read_as_member_by_member() {
    for seed in 1..=12u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let n = [2, 1, 7, 300, 5000, 40_000][rng.below(6) as usize];
        let mut ms: Vec<(&str, Vec<u8>, bool)> = members(&mut rng, n)
            .into_iter()
            .map(|(k, b)| (k, b, rng.below(4) != 0))
            .collect();
        // any archive order, and a member the struct does not ask for
        let extra = npy_serde::to_vec(&vec![7u8; n]).unwrap();
        ms.insert(rng.below(5) as usize, ("extra", extra, rng.below(2) == 0));
        for i in (1..ms.len()).rev() {
            ms.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let bytes = archive(&ms);
        let got = agree(&bytes).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(got.id.len(), n);
    }
}

#[test]
fn a_bad_crc_is_reported_at_its_member_first_middle_or_last() {
    let good = deflated(20_000, 3);
    for (k, key) in KEYS.iter().enumerate() {
        let mut bytes = good.clone();
        // the CRC-32 in the local header (offset 14) and the directory (16)
        bytes[entries(&good, b"PK\x03\x04")[k] + 14] ^= 1;
        bytes[entries(&good, b"PK\x01\x02")[k] + 16] ^= 1;
        let err = agree(&bytes).unwrap_err();
        assert_eq!(
            err,
            format!("member '{key}': bad CRC-32: the member's data is damaged"),
        );
    }
}

#[test]
fn a_corrupt_deflate_stream_is_reported_at_its_member() {
    let good = deflated(20_000, 4);
    for k in [0, 2, 3] {
        // a reserved block type at the stream's start
        let mut bytes = good.clone();
        let data = data_of(&good, k);
        bytes[data.start] = 0xff;
        let err = agree(&bytes).unwrap_err();
        assert!(
            err.starts_with(&format!("member '{}': ", KEYS[k])) && err.contains("damaged"),
            "{err}"
        );
        // damage in the middle of the data
        let mut bytes = good.clone();
        let mid = data.start + data.len() / 2;
        bytes[mid..mid + 16].fill(0xff);
        let err = agree(&bytes).unwrap_err();
        assert!(err.starts_with(&format!("member '{}': ", KEYS[k])), "{err}");
    }
}

#[test]
fn a_member_cut_short_is_reported_at_its_member() {
    let mut rng = Rng(5);
    let ms = members(&mut rng, 20_000);
    for k in [0, 1, 3] {
        // the npy data ends early
        let mut cut: Vec<(&str, Vec<u8>, bool)> =
            ms.iter().map(|(n, b)| (*n, b.clone(), true)).collect();
        let len = cut[k].1.len();
        cut[k].1.truncate(len - 100);
        let err = agree(&archive(&cut)).unwrap_err();
        assert!(
            err.starts_with(&format!("member '{}': ", KEYS[k])) && err.contains("ends after"),
            "{err}"
        );
        // the deflate stream ends early: the zip's compressed size says so
        let good = deflated(20_000, 5);
        let mut bytes = good.clone();
        let local = entries(&good, b"PK\x03\x04")[k];
        let central = entries(&good, b"PK\x01\x02")[k];
        let size = data_of(&good, k).len() as u32 / 2;
        bytes[local + 18..local + 22].copy_from_slice(&size.to_le_bytes());
        bytes[central + 20..central + 24].copy_from_slice(&size.to_le_bytes());
        let err = agree(&bytes).unwrap_err();
        assert!(err.starts_with(&format!("member '{}': ", KEYS[k])), "{err}");
    }
}

#[test]
fn a_bomb_is_stopped_early_with_the_sequential_error() {
    // the fixture's member (a 10-byte npy header over 64 MiB of inflated
    // bytes, '|u1', which reads as u64) copied raw as `id`, before honest
    // deflated members
    let fixture = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/npz/bad_bomb.npz"),
    )
    .unwrap();
    let mut bomb = zip::ZipArchive::new(Cursor::new(fixture)).unwrap();
    let ms = members(&mut Rng(6), 1000);
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in &ms {
        if *name == "id" {
            let file = bomb.by_index_raw(0).unwrap();
            zip.raw_copy_file_rename(file, "id.npy").unwrap();
        } else {
            zip.start_file(format!("{name}.npy"), opts).unwrap();
            zip.write_all(bytes).unwrap();
        }
    }
    let bytes = zip.finish().unwrap().into_inner();
    let err = agree(&bytes).unwrap_err();
    assert!(
        err.starts_with("member 'id': ") && err.contains("goes on after"),
        "{err}"
    );
}
