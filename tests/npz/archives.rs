//! `.npz` archives: numpy's fixtures (tests/data/npz, made by make.py) read
//! with known values, the writer's members and local headers compared with
//! numpy's, refusals of damaged archives, bounded memory while streaming.

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Seek, SeekFrom, Write};

use npy_serde::npz::{self, NpzReader, NpzWriter};
use npy_serde::{Dtype, ScalarType, WriteOptions};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

fn fixture(name: &str) -> Cursor<Vec<u8>> {
    let path = format!("{}/data/npz/{name}", env!("CARGO_MANIFEST_DIR"));
    Cursor::new(std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

fn open(name: &str) -> NpzReader<Cursor<Vec<u8>>> {
    NpzReader::new(fixture(name)).unwrap()
}

fn snap(name: &str, text: String) {
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Basic {
    x: Vec<i64>,
    y: Vec<[f64; 2]>,
    s: f64,
    name: String,
}

fn basic() -> Basic {
    Basic {
        x: vec![0, 1, 2, 3, 4],
        y: vec![[1.5, 2.5], [3.5, 4.5]],
        s: 2.5,
        name: "héllo".into(),
    }
}

#[test]
fn reads_savez_and_savez_compressed() {
    for name in ["savez.npz", "savez_compressed.npz"] {
        let mut z = open(name);
        assert_eq!(z.names(), ["x", "y", "s", "name"], "{name}");
        assert_eq!(z.len(), 4);
        assert_eq!(z.by_name::<Vec<i64>>("x").unwrap(), [0, 1, 2, 3, 4]);
        assert_eq!(z.by_name::<f64>("s.npy").unwrap(), 2.5);
        assert_eq!(npz::from_reader::<Basic>(fixture(name)).unwrap(), basic());
    }
}

#[test]
fn reads_positional() {
    let mut z = open("positional.npz");
    assert_eq!(z.names(), ["k", "arr_0", "arr_1"]);
    assert_eq!(z.by_name::<Vec<i32>>("arr_0").unwrap(), [0, 1, 2]);
    assert_eq!(z.by_name::<Vec<f64>>("arr_1").unwrap(), [1.0, 2.0]);
    assert_eq!(z.by_name::<i16>("k").unwrap(), 7);
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Particle {
    id: u32,
    pos: [f64; 3],
    mass: f32,
    #[serde(with = "serde_bytes")]
    tag: Vec<u8>,
}

fn particles() -> Vec<Particle> {
    vec![
        Particle {
            id: 1,
            pos: [0.0, 0.5, 1.0],
            mass: 0.25,
            tag: b"a".to_vec(),
        },
        Particle {
            id: 2,
            pos: [1.0, 1.5, 2.0],
            mass: 0.5,
            tag: b"bb".to_vec(),
        },
        Particle {
            id: 3,
            pos: [2.0, 2.5, 3.0],
            mass: 0.75,
            tag: b"ccc".to_vec(),
        },
    ]
}

#[test]
fn reads_columnar_records() {
    let ps: Vec<Particle> = npz::from_reader(fixture("columnar.npz")).unwrap();
    assert_eq!(ps, particles());

    #[derive(Deserialize, Debug, PartialEq)]
    struct IdPos {
        pos: [f64; 3],
        id: u64,
    }
    let ps: Vec<IdPos> = npz::from_reader(fixture("columnar_fortran.npz")).unwrap();
    assert_eq!(
        ps,
        [
            IdPos {
                pos: [0.0, 0.5, 1.0],
                id: 1
            },
            IdPos {
                pos: [1.0, 1.5, 2.0],
                id: 2
            }
        ]
    );

    // and as a struct of arrays
    #[derive(Deserialize)]
    struct Cols {
        id: Vec<u32>,
        pos: Vec<Vec<f64>>,
        missing: Option<Vec<u8>>,
        #[serde(default)]
        other: Vec<u8>,
    }
    let c: Cols = npz::from_reader(fixture("columnar.npz")).unwrap();
    assert_eq!(c.id, [1, 2, 3]);
    assert_eq!(c.pos[2], [2.0, 2.5, 3.0]);
    assert!(c.missing.is_none() && c.other.is_empty());
}

#[test]
fn reads_odd_keys() {
    let mut z = open("odd_keys.npz");
    assert_eq!(z.names(), ["a.b", "dir/sub", "整形", "a.npy"]);
    assert_eq!(z.by_name::<Vec<i64>>("a.b").unwrap(), [1]);
    assert_eq!(z.by_name::<Vec<i64>>("dir/sub.npy").unwrap(), [2]);
    assert_eq!(z.by_name::<Vec<i64>>("整形").unwrap(), [3]);
    // numpy: 'a.npy' is not a member name, so it is the key of 'a.npy.npy'
    assert_eq!(z.by_name::<Vec<i64>>("a.npy").unwrap(), [4]);
    assert_eq!(z.by_name::<Vec<i64>>("a.npy.npy").unwrap(), [4]);
    let all: BTreeMap<String, Vec<i64>> = npz::from_reader(fixture("odd_keys.npz")).unwrap();
    assert_eq!(all["整形"], [3]);
}

#[test]
fn reads_non_seekable_stream_archives() {
    for name in ["stream.npz", "stream_compressed.npz"] {
        let mut z = open(name);
        assert_eq!(z.names(), ["x", "y"]);
        assert_eq!(z.by_name::<Vec<f64>>("x").unwrap(), [0.0, 1.0, 2.0, 3.0]);
        assert_eq!(z.by_name::<Vec<u8>>("y").unwrap(), [1, 2]);
    }
    // flag bit 3 (data descriptor) really is set
    let bytes = fixture("stream.npz").into_inner();
    assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]) & 8, 8);
}

#[test]
fn reads_zip64_central_directory() {
    let bytes = fixture("zip64.npz").into_inner();
    assert!(
        bytes.windows(4).any(|w| w == b"PK\x06\x06"),
        "zip64 end record"
    );
    let mut z = open("zip64.npz");
    assert_eq!(z.by_name::<Vec<i64>>("a").unwrap(), [1, 2, 3]);
}

#[test]
fn reads_non_npy_member_as_bytes() {
    let mut z = open("with_readme.npz");
    assert_eq!(z.names(), ["x", "readme.txt"]);
    assert_eq!(z.raw("readme.txt").unwrap(), b"hello npz\n");
    assert_eq!(
        z.by_name::<ByteBuf>("readme.txt").unwrap().into_vec(),
        b"hello npz\n"
    );
    assert!(z.raw("x").unwrap().starts_with(b"\x93NUMPY"));
    #[derive(Deserialize)]
    struct WithReadme {
        x: Vec<f64>,
        #[serde(rename = "readme.txt", with = "serde_bytes")]
        readme: Vec<u8>,
    }
    let w: WithReadme = npz::from_reader(fixture("with_readme.npz")).unwrap();
    assert_eq!((w.x, w.readme), (vec![1.0], b"hello npz\n".to_vec()));
    // columnar reads skip it
    let rows: Vec<BTreeMap<String, f64>> = npz::from_reader(fixture("with_readme.npz")).unwrap();
    assert_eq!(rows, [BTreeMap::from([("x".to_string(), 1.0)])]);
}

#[test]
fn reads_empty_archive() {
    let z = open("empty.npz");
    assert!(z.is_empty());
    let m: BTreeMap<String, Vec<u8>> = npz::from_reader(fixture("empty.npz")).unwrap();
    assert!(m.is_empty());
}

// ---- refusals ---------------------------------------------------------

fn read_err<T: serde::de::DeserializeOwned + std::fmt::Debug>(name: &str, key: &str) -> String {
    open(name).by_name::<T>(key).unwrap_err().to_string()
}

#[test]
fn refusals() {
    let mut lines = Vec::new();
    let mut case = |what: &str, msg: String| lines.push(format!("{what}: {msg}"));
    case("bomb", read_err::<Vec<u8>>("bad_bomb.npz", "x"));
    case("bad crc", read_err::<Vec<i64>>("bad_crc.npz", "x"));
    case("missing member", read_err::<Vec<i64>>("savez.npz", "z"));
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    for k in 0..8 {
        w.add(&format!("k{k}"), &[k]).unwrap();
    }
    let mut many = NpzReader::new(w.finish().unwrap()).unwrap();
    case(
        "missing member, many members",
        many.by_name::<u8>("k9").unwrap_err().to_string(),
    );
    case(
        "column lengths differ",
        npz::from_reader::<Vec<BTreeMap<String, i64>>>(fixture("columns_differ.npz"))
            .unwrap_err()
            .to_string(),
    );
    case("encrypted", read_err::<Vec<i64>>("bad_encrypted.npz", "x"));
    case("bzip2", read_err::<Vec<i64>>("bad_bzip2.npz", "x"));
    case("lzma", read_err::<Vec<i64>>("bad_lzma.npz", "x"));
    case("short member", read_err::<Vec<i64>>("bad_short.npz", "x"));
    case(
        "zip size claim too small",
        read_err::<Vec<i64>>("bad_size_claim_small.npz", "x"),
    );
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    w.add("a", &[1u8]).unwrap();
    case("duplicate key", w.add("a", &[2u8]).unwrap_err().to_string());
    let mut col = w.start("b", Dtype::scalar(ScalarType::UInt(1)), 2).unwrap();
    col.serialize(&1u8).unwrap();
    case("stream short", col.finish().unwrap_err().to_string());
    case("unfinished member", w.finish().unwrap_err().to_string());
    case(
        "struct reads missing member",
        npz::from_reader::<Basic>(fixture("positional.npz"))
            .unwrap_err()
            .to_string(),
    );
    case(
        "not a zip",
        NpzReader::new(Cursor::new(npy_serde::to_vec(&[1u8]).unwrap()))
            .unwrap_err()
            .to_string(),
    );
    let mut cut = fixture("savez.npz").into_inner();
    cut.truncate(cut.len() - 30);
    case(
        "truncated archive",
        NpzReader::new(Cursor::new(cut)).unwrap_err().to_string(),
    );
    let mut zero_d = Cursor::new(Vec::new());
    npz::to_writer(&mut zero_d, &BTreeMap::from([("s", 2.5f64)])).unwrap();
    zero_d.set_position(0);
    case(
        "0-d member as a column",
        npz::from_reader::<Vec<BTreeMap<String, f64>>>(zero_d)
            .unwrap_err()
            .to_string(),
    );
    case(
        "not a struct",
        npz::to_writer(Cursor::new(Vec::new()), &1.5f64)
            .unwrap_err()
            .to_string(),
    );
    snap("npz_refusals", lines.join("\n"));
}

#[test]
fn zip_size_claims_are_not_trusted() {
    // the central directory claims ~4 GiB for a 168-byte member
    let mut z = open("size_claim_big.npz");
    assert_eq!(z.by_name::<Vec<i64>>("x").unwrap(), [0, 1, 2, 3, 4]);
}

#[test]
fn bomb_is_stopped_early() {
    // the member inflates to 64 MiB; the reader stops after its 10 bytes + a probe
    let mut z = open("bad_bomb.npz");
    let err = z.by_name::<Vec<u8>>("x").unwrap_err();
    assert!(err.to_string().contains("goes on after"), "{err}");
    // a struct or streaming read of the same member is no different
    let mut r = z.reader("x").unwrap();
    assert_eq!(r.len(), 10);
    assert_eq!(r.deserialize::<u8>().count(), 10);
}

#[test]
fn streaming_reader_reports_bad_crc_at_the_end() {
    let mut z = open("bad_crc.npz");
    let mut r = z.reader("x").unwrap();
    let values: Vec<i64> = r.deserialize().map(|v| v.unwrap()).collect();
    assert_eq!(values.len(), 5);
    let mut inner = r.into_inner();
    let err = inner.read(&mut [0u8; 8]).unwrap_err();
    assert!(err.to_string().contains("bad CRC-32"), "{err}");
}

// ---- write side against numpy ------------------------------------------

/// The uncompressed bytes of every member, in archive order.
fn members(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut v = Vec::new();
            f.read_to_end(&mut v).unwrap();
            (f.name().to_owned(), v)
        })
        .collect()
}

/// Local header fields numpy fixes: version needed, flags, method, time,
/// date, the 32-bit sizes and the id and size of the first extra field.
fn local_headers(bytes: &[u8]) -> Vec<(String, [u32; 8])> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let f = zip.by_index_raw(i).unwrap();
            let at = f.header_start() as usize;
            let h = &bytes[at..];
            let u16_at = |o: usize| u16::from_le_bytes([h[o], h[o + 1]]) as u32;
            let u32_at = |o: usize| u32::from_le_bytes([h[o], h[o + 1], h[o + 2], h[o + 3]]);
            assert_eq!(&h[..4], b"PK\x03\x04");
            let name_len = u16_at(26) as usize;
            let extra = &h[30 + name_len..];
            let fields = [
                u16_at(4),
                u16_at(6),
                u16_at(8),
                u16_at(10),
                u16_at(12),
                u32_at(18),
                u16::from_le_bytes([extra[0], extra[1]]) as u32,
                u16::from_le_bytes([extra[2], extra[3]]) as u32,
            ];
            (f.name().to_owned(), fields)
        })
        .collect()
}

fn write_basic(compressed: bool) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    let mut w = NpzWriter::new(&mut out).compressed(compressed);
    let b = basic();
    w.add("x", &b.x).unwrap();
    w.add("y", &b.y).unwrap();
    w.add("s", &b.s).unwrap();
    w.add("name", &b.name).unwrap();
    w.finish().unwrap();
    out.into_inner()
}

#[test]
fn members_and_local_headers_match_numpy() {
    for (compressed, name) in [(false, "savez.npz"), (true, "savez_compressed.npz")] {
        let numpy = fixture(name).into_inner();
        let ours = write_basic(compressed);
        assert_eq!(members(&ours), members(&numpy), "{name}");
        assert_eq!(local_headers(&ours), local_headers(&numpy), "{name}");
        // npz::to_writer of the struct gives the same members
        let mut out = Cursor::new(Vec::new());
        npz::to_writer(&mut out, &basic()).unwrap();
        assert_eq!(members(&out.into_inner()), members(&numpy));
    }
    // stored: the whole archive except the central directory is numpy's,
    // but for the extra field that aligns our members' data to 64 bytes
    let numpy = fixture("savez.npz").into_inner();
    let ours = write_basic(false);
    let (ours_entries, ours_starts) = local_entries(&ours);
    let (numpy_entries, numpy_starts) = local_entries(&numpy);
    assert_eq!(ours_entries, numpy_entries);
    assert!(ours_starts.iter().all(|s| s % 64 == 0), "{ours_starts:?}");
    assert!(numpy_starts.iter().any(|s| s % 64 != 0), "{numpy_starts:?}");
}

/// The central directory records of an archive, each with the fields that
/// depend on where members sit (the local header offset) or on the zlib
/// build (the compressed size, when `packed`) zeroed; then the end record
/// with the directory's offset zeroed.
fn central_directory(bytes: &[u8], packed: bool) -> (Vec<Vec<u8>>, Vec<u8>) {
    let end = bytes.len() - 22;
    assert_eq!(&bytes[end..end + 4], b"PK\x05\x06");
    let mut eocd = bytes[end..].to_vec();
    let mut at = u32::from_le_bytes(eocd[16..20].try_into().unwrap()) as usize;
    eocd[16..20].fill(0);
    let mut records = Vec::new();
    while at < end {
        let h = &bytes[at..];
        assert_eq!(&h[..4], b"PK\x01\x02");
        let u16_at = |o: usize| u16::from_le_bytes([h[o], h[o + 1]]) as usize;
        let len = 46 + u16_at(28) + u16_at(30) + u16_at(32);
        let mut r = h[..len].to_vec();
        r[42..46].fill(0);
        if packed {
            r[20..24].fill(0);
        }
        records.push(r);
        at += len;
    }
    (records, eocd)
}

#[test]
fn central_directory_is_numpys() {
    // version made by (Unix, 4.5), version needed, flags, method, time and
    // date, CRC-32, sizes, attributes (0o600), names: as zipfile writes them
    for (compressed, name) in [(false, "savez.npz"), (true, "savez_compressed.npz")] {
        let ours = central_directory(&write_basic(compressed), compressed);
        let numpy = central_directory(&fixture(name).into_inner(), compressed);
        assert_eq!(ours, numpy, "{name}");
    }
    let numpy = fixture("odd_keys.npz").into_inner();
    let ours = write_odd_keys();
    assert_eq!(
        central_directory(&ours, false),
        central_directory(&numpy, false)
    );
    // an empty archive is numpy's 22 bytes
    let empty = NpzWriter::new(Cursor::new(Vec::new())).finish().unwrap();
    assert_eq!(empty.into_inner(), fixture("empty.npz").into_inner());
}

/// A local zip entry: its fixed header fields but the extra field's length,
/// its name, its extra fields but the alignment padding (id 0xa11e), its
/// data.
type Entry = (Vec<u8>, String, Vec<(u16, Vec<u8>)>, Vec<u8>);

/// The local entries of an archive, which must tile it up to the central
/// directory, and where each one's data starts.
fn local_entries(bytes: &[u8]) -> (Vec<Entry>, Vec<u64>) {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let (mut entries, mut starts, mut at) = (Vec::new(), Vec::new(), 0usize);
    for i in 0..zip.len() {
        let f = zip.by_index_raw(i).unwrap();
        let (head, data) = (f.header_start() as usize, f.data_start() as usize);
        assert_eq!(head, at, "entry {i} does not follow the one before");
        let name_len = u16::from_le_bytes([bytes[head + 26], bytes[head + 27]]) as usize;
        let mut extra = &bytes[head + 30 + name_len..data];
        let mut fields = Vec::new();
        while !extra.is_empty() {
            let id = u16::from_le_bytes([extra[0], extra[1]]);
            let len = u16::from_le_bytes([extra[2], extra[3]]) as usize;
            if id != 0xa11e {
                fields.push((id, extra[4..4 + len].to_vec()));
            }
            extra = &extra[4 + len..];
        }
        at = data + f.compressed_size() as usize;
        entries.push((
            bytes[head..head + 28].to_vec(),
            f.name().to_owned(),
            fields,
            bytes[data..at].to_vec(),
        ));
        starts.push(data as u64);
    }
    assert_eq!(
        &bytes[at..at + 4],
        b"PK\x01\x02",
        "the central directory follows"
    );
    (entries, starts)
}

#[test]
fn columnar_members_match_numpy() {
    let numpy = fixture("columnar.npz").into_inner();
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &particles()).unwrap();
    let ours = out.into_inner();
    let mut want = members(&numpy);
    // numpy's fixture names the columns id, pos, mass, tag: the same order
    want.sort_by_key(|(n, _)| {
        ["id.npy", "pos.npy", "mass.npy", "tag.npy"]
            .iter()
            .position(|m| m == n)
    });
    assert_eq!(members(&ours), want);
    assert_eq!(local_headers(&ours), local_headers(&numpy));
    let back: Vec<Particle> = npz::from_reader(Cursor::new(ours)).unwrap();
    assert_eq!(back, particles());
}

/// The members of `odd_keys.npz` (make.py), written by `NpzWriter`.
fn write_odd_keys() -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    let mut w = NpzWriter::new(&mut out);
    for (i, key) in ["a.b", "dir/sub", "整形", "a.npy"].into_iter().enumerate() {
        w.add(key, &[i as i64 + 1]).unwrap();
    }
    w.finish().unwrap();
    out.into_inner()
}

#[test]
fn odd_keys_write_like_numpy() {
    let numpy = fixture("odd_keys.npz").into_inner();
    let ours = write_odd_keys();
    assert_eq!(members(&ours), members(&numpy));
    assert_eq!(local_headers(&ours), local_headers(&numpy));
}

#[test]
fn streamed_member_matches_add() {
    let dt = Dtype::subarray(Dtype::scalar(ScalarType::Float(8)), vec![2]).unwrap();
    let mut out = Cursor::new(Vec::new());
    let mut w = NpzWriter::new(&mut out).compressed(true);
    let mut m = w.start("y", dt, 2).unwrap();
    m.serialize(&[1.5, 2.5]).unwrap();
    m.serialize(&[3.5, 4.5]).unwrap();
    m.finish().unwrap();
    w.add_with_options("x", &WriteOptions::new(), &basic().x)
        .unwrap();
    w.finish().unwrap();
    let ours = members(&out.into_inner());
    let numpy = members(&fixture("savez.npz").into_inner());
    assert_eq!(ours[0], numpy[1]);
    assert_eq!(ours[1], numpy[0]);
}

#[test]
fn none_fields_write_no_member() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct S {
        a: Vec<u8>,
        b: Option<Vec<u8>>,
        c: Option<f64>,
    }
    let s = S {
        a: vec![1],
        b: None,
        c: Some(0.5),
    };
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &s).unwrap();
    out.set_position(0);
    assert_eq!(NpzReader::new(&mut out).unwrap().names(), ["a", "c"]);
    out.set_position(0);
    assert_eq!(npz::from_reader::<S>(&mut out).unwrap(), s);
    // a map works the same, in its order
    let m = BTreeMap::from([("k".to_string(), vec![1u16]), ("j".to_string(), vec![2])]);
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &m).unwrap();
    out.set_position(0);
    assert_eq!(NpzReader::new(&mut out).unwrap().names(), ["j", "k"]);
}

#[test]
fn failed_add_leaves_no_member() {
    let mut out = Cursor::new(Vec::new());
    let mut w = NpzWriter::new(&mut out);
    assert!(w.add("bad", &vec![vec![1u8], vec![1, 2]]).is_err()); // ragged
    w.add("bad", &[1u8]).unwrap(); // the key is free again
    w.finish().unwrap();
    out.set_position(0);
    assert_eq!(NpzReader::new(out).unwrap().names(), ["bad"]);
}

/// `add` writes a member in one walk as it encodes it; when that walk finds
/// the values not uniform, or serde's length hints wrong, after 64-KiB
/// chunks reached the archive, the entry is started again. Every way
/// gives `to_vec`'s bytes, and the archive holds each member once.
#[test]
fn single_pass_members_restart_cleanly() {
    /// A sequence that gives serde no length.
    struct Unsized<'a, T>(&'a [T]);
    impl<T: Serialize> Serialize for Unsized<'_, T> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.0.iter().filter(|_| true))
        }
    }
    let uniform: Vec<(u32, f64)> = (0..20_000).map(|i| (i, f64::from(i))).collect();
    let mut widening: Vec<String> = (0..20_000).map(|i| format!("{:04}", i % 10_000)).collect();
    widening[19_000] = "a much longer string".into();
    let rows: Vec<Vec<u8>> = vec![vec![7u8; 40_000], vec![8u8; 40_000]];
    let row_refs: Vec<Unsized<'_, u8>> = rows.iter().map(|r| Unsized(r)).collect();
    for compressed in [false, true] {
        let mut w = NpzWriter::new(Cursor::new(Vec::new())).compressed(compressed);
        w.add("uniform", &uniform).unwrap();
        w.add("widening", &widening).unwrap();
        w.add("unhinted", &Unsized(&uniform)).unwrap();
        w.add("unhinted_2d", &Unsized(&row_refs)).unwrap();
        // a member that fails after its single walk wrote chunks
        let mut bad: Vec<Option<u32>> = (0..30_000).map(Some).collect();
        bad[29_000] = None;
        let err = w.add("bad", &bad).unwrap_err().to_string();
        assert!(err.contains("record 29000"), "{err}");
        w.add("after", &[1u8, 2]).unwrap();
        let bytes = w.finish().unwrap().into_inner();
        let got = members(&bytes);
        let want = [
            ("uniform.npy", npy_serde::to_vec(&uniform).unwrap()),
            ("widening.npy", npy_serde::to_vec(&widening).unwrap()),
            ("unhinted.npy", npy_serde::to_vec(&uniform).unwrap()),
            ("unhinted_2d.npy", npy_serde::to_vec(&rows).unwrap()),
            ("after.npy", npy_serde::to_vec(&[1u8, 2]).unwrap()),
        ];
        assert_eq!(got.len(), want.len(), "compressed: {compressed}");
        for ((name, data), (wname, wdata)) in got.iter().zip(want) {
            assert_eq!(name, wname);
            assert!(*data == wdata, "{name}, compressed: {compressed}");
        }
    }
}

// ---- bounded memory -----------------------------------------------------

/// A seekable writer that records the largest single write.
#[derive(Default)]
struct Largest {
    inner: Cursor<Vec<u8>>,
    largest: usize,
}

impl Write for Largest {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.largest = self.largest.max(buf.len());
        self.inner.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Seek for Largest {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[test]
fn streaming_writer_never_holds_a_member() {
    const N: u64 = 200_000; // 4.8 MB of records
    let mut w = NpzWriter::new(Largest::default());
    let dt = Dtype::subarray(Dtype::scalar(ScalarType::Float(8)), vec![3]).unwrap();
    let mut m = w.start("pos", dt, N).unwrap();
    for i in 0..N {
        m.serialize(&[i as f64; 3]).unwrap();
    }
    m.finish().unwrap();
    let out = w.finish().unwrap();
    assert!(out.largest <= 128, "largest write {} bytes", out.largest);
    assert!(out.inner.get_ref().len() as u64 > N * 24);

    // columnar: one record encoded at a time, written in chunks of 64 KiB
    #[derive(Serialize)]
    struct P {
        id: u64,
        pos: [f64; 3],
    }
    let ps: Vec<P> = (0..N)
        .map(|i| P {
            id: i,
            pos: [0.0; 3],
        })
        .collect();
    let mut out = Largest::default();
    npz::to_writer(&mut out, &ps).unwrap();
    assert!(
        out.largest <= 64 * 1024,
        "largest write {} bytes",
        out.largest
    );
    let mut z = NpzReader::new(out.inner).unwrap();
    assert_eq!(z.reader("pos").unwrap().shape(), &[N, 3]);
}

/// A seekable file that is zeros below `base` and `data` from there: an
/// archive written past 2 GiB without the 2 GiB.
#[derive(Default)]
struct Sparse {
    base: u64,
    data: Vec<u8>,
    pos: u64,
}

impl Write for Sparse {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let at = (self.pos - self.base) as usize;
        if self.data.len() < at + buf.len() {
            self.data.resize(at + buf.len(), 0);
        }
        self.data[at..at + buf.len()].copy_from_slice(buf);
        self.pos += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Read for Sparse {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let end = self.base + self.data.len() as u64;
        if self.pos >= end {
            return Ok(0);
        }
        let n = if self.pos < self.base {
            let n = buf.len().min((self.base - self.pos) as usize);
            buf[..n].fill(0);
            n
        } else {
            let at = (self.pos - self.base) as usize;
            let n = buf.len().min(self.data.len() - at);
            buf[..n].copy_from_slice(&self.data[at..at + n]);
            n
        };
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Sparse {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.pos = match pos {
            SeekFrom::Start(p) => p,
            SeekFrom::End(d) => (self.base + self.data.len() as u64).saturating_add_signed(d),
            SeekFrom::Current(d) => self.pos.saturating_add_signed(d),
        };
        Ok(self.pos)
    }
}

#[test]
fn members_past_2_gib_get_zip64_records() {
    // zipfile's limit is 2**31 - 1: offsets past it go into the central
    // directory's zip64 extra, and the directory's into the zip64 end
    // records, which readers find
    let base = 3 << 30;
    let mut file = Sparse {
        base,
        pos: base,
        ..Sparse::default()
    };
    let mut w = NpzWriter::new(&mut file);
    w.add("x", &[1.5f64, 2.5]).unwrap();
    w.add("y", &vec![7u8; 100]).unwrap();
    w.finish().unwrap();
    let tail = &file.data;
    assert!(
        tail.windows(4).any(|w| w == b"PK\x06\x06"),
        "zip64 end record"
    );
    assert!(tail.windows(4).any(|w| w == b"PK\x06\x07"), "zip64 locator");
    file.seek(SeekFrom::Start(0)).unwrap();
    let mut z = NpzReader::new(file).unwrap();
    assert_eq!(z.names(), ["x", "y"]);
    assert_eq!(z.by_name::<Vec<f64>>("x").unwrap(), [1.5, 2.5]);
    assert_eq!(z.by_name::<Vec<u8>>("y").unwrap(), vec![7; 100]);
    let range = z.data_range("x").unwrap().range();
    assert!(range.start > base && range.start % 64 == 0, "{range:?}");
}

/// A member that fails after much of it reached the archive is dropped,
/// and what follows may be shorter than it was: the archive still ends
/// with its central directory (no stale bytes after it, where readers
/// look for the end record), for numpy and the zip crate alike.
#[test]
fn a_long_failed_member_leaves_no_stale_tail() {
    for compressed in [false, true] {
        let mut out = Cursor::new(Vec::new());
        let mut w = NpzWriter::new(&mut out).compressed(compressed);
        // 2 MB of data, then a value numpy would lose (a trailing NUL)
        let mut names: Vec<String> = (0..100_000).map(|i| format!("name{i:016}")).collect();
        names.push("bad\0".into());
        assert!(w.add("names", &names).is_err());
        w.add("x", &[1u8, 2]).unwrap();
        w.finish().unwrap();
        let bytes = out.into_inner();
        let mut z = NpzReader::new(Cursor::new(&bytes)).unwrap();
        assert_eq!(z.names(), ["x"]);
        assert_eq!(z.by_name::<Vec<u8>>("x").unwrap(), [1, 2]);
        let end = bytes.len() - 22;
        assert_eq!(
            &bytes[end..end + 4],
            b"PK\x05\x06",
            "compressed {compressed}"
        );
    }
}

/// One member of a random archive: its key, its values, and whether its
/// last value is one numpy would lose (so `add` fails and drops it).
type RandomMember = (String, Vec<u32>, bool);

fn random_members() -> impl proptest::strategy::Strategy<Value = Vec<RandomMember>> {
    use proptest::prelude::*;
    let key = prop_oneof!["[a-z]{1,8}", "[a-z]{1,3}/[a-z]{1,3}", "[α-ω]{1,4}",];
    // up to 640 KB of data: members of one to three deflate pieces
    let values = (0usize..160_000, any::<u32>())
        .prop_map(|(n, seed)| (0..n as u32).map(|i| (i / 7) ^ seed).collect::<Vec<u32>>());
    proptest::collection::vec((key, values, proptest::bool::weighted(0.25)), 0..5)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// Any sequence of members, stored or deflated, some of them failing
    /// halfway: the zip crate reads back exactly the members that were
    /// added, each the bytes `to_vec` writes, in order.
    #[test]
    fn random_archives_read_back(added in random_members(), compressed in proptest::bool::ANY) {
        let mut out = Cursor::new(Vec::new());
        let mut w = NpzWriter::new(&mut out).compressed(compressed);
        let mut want: Vec<(String, Vec<u8>)> = Vec::new();
        for (key, values, fails) in &added {
            let added = if *fails {
                // a string numpy would lose (a trailing NUL) after the values
                let mut strings: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                strings.push("lost\0".into());
                w.add(key, &strings)
            } else {
                w.add(key, values)
            };
            let name = format!("{key}.npy");
            let taken = want.iter().any(|(n, _)| *n == name);
            proptest::prop_assert_eq!(added.is_ok(), !fails && !taken, "{}", key);
            if added.is_ok() {
                want.push((name, npy_serde::to_vec(values).unwrap()));
            }
        }
        w.finish().unwrap();
        let bytes = out.into_inner();
        proptest::prop_assert_eq!(members(&bytes), want);
        let end = bytes.len() - 22;
        proptest::prop_assert_eq!(&bytes[end..end + 4], b"PK\x05\x06");
    }
}
