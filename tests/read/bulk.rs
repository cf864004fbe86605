//! `Bulk<T>` and `#[serde(with = "npy_serde::bulk")]` through the public
//! API: writes the bytes `Vec<T>` writes (npy, record fields, npz), reads
//! the same values and errors as `Vec<T>` (the hostile corpus, truncated
//! and lying streams, awkward readers, npz members stored and deflated),
//! and stays an ordinary sequence in other formats (JSON).

use std::io::{Cursor, Read};
use std::path::Path;

use npy_serde::npz::{NpzReader, NpzWriter};
use npy_serde::{Bulk, Dtype, NpyReader, NpyWriter};
use serde::{Deserialize, Serialize};

fn show<T: std::fmt::Debug>(r: npy_serde::Result<T>) -> String {
    match r {
        Ok(v) => format!("Ok({v:?})"),
        Err(e) => format!("Err({e})"),
    }
}

fn f64s(n: usize) -> Vec<f64> {
    (0..n).map(|i| i as f64 * 0.25 - 7.0).collect()
}

fn rows(n: usize) -> Vec<[f32; 3]> {
    (0..n)
        .map(|i| [i as f32, -(i as f32) * 0.5, 1.0 / (i as f32 + 1.0)])
        .collect()
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Columns {
    #[serde(with = "npy_serde::bulk")]
    t: Vec<f64>,
    #[serde(with = "npy_serde::bulk")]
    pos: Vec<[f32; 3]>,
    #[serde(with = "npy_serde::bulk")]
    id: Vec<u64>,
    #[serde(with = "npy_serde::bulk")]
    ok: Vec<bool>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct PlainColumns {
    t: Vec<f64>,
    pos: Vec<[f32; 3]>,
    id: Vec<u64>,
    ok: Vec<bool>,
}

fn columns(n: usize) -> (Columns, PlainColumns) {
    let t = f64s(n);
    let pos = rows(n);
    let id: Vec<u64> = (0..n as u64).map(|i| i * 7919).collect();
    let ok: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
    (
        Columns {
            t: t.clone(),
            pos: pos.clone(),
            id: id.clone(),
            ok: ok.clone(),
        },
        PlainColumns { t, pos, id, ok },
    )
}

#[test]
fn writes_the_bytes_vec_writes() {
    let v = f64s(1000);
    assert_eq!(
        npy_serde::to_vec(&Bulk(v.clone())).unwrap(),
        npy_serde::to_vec(&v).unwrap()
    );
    let r = rows(100);
    assert_eq!(
        npy_serde::to_vec(&Bulk(r.clone())).unwrap(),
        npy_serde::to_vec(&r).unwrap()
    );
    let empty: Vec<u16> = Vec::new();
    let opts = npy_serde::WriteOptions::new().dtype("<u2".parse().unwrap());
    assert_eq!(
        opts.to_vec(&Bulk(empty.clone())).unwrap(),
        opts.to_vec(&empty).unwrap()
    );
    // a sequence of Bulk rows: shape (2, 3)
    let nested = vec![Bulk(vec![1i32, 2, 3]), Bulk(vec![4, 5, 6])];
    assert_eq!(
        npy_serde::to_vec(&nested).unwrap(),
        npy_serde::to_vec(&[[1i32, 2, 3], [4, 5, 6]]).unwrap()
    );

    // as a subarray field of records
    #[derive(Serialize)]
    struct WithBulk {
        id: u8,
        #[serde(with = "npy_serde::bulk")]
        xs: Vec<f32>,
    }
    #[derive(Serialize)]
    struct Plain {
        id: u8,
        xs: Vec<f32>,
    }
    let a: Vec<WithBulk> = (0..5)
        .map(|i| WithBulk {
            id: i,
            xs: vec![f32::from(i); 4],
        })
        .collect();
    let b: Vec<Plain> = (0..5)
        .map(|i| Plain {
            id: i,
            xs: vec![f32::from(i); 4],
        })
        .collect();
    let bytes = npy_serde::to_vec(&a).unwrap();
    assert_eq!(bytes, npy_serde::to_vec(&b).unwrap());
    assert_eq!(
        Dtype::of::<Vec<Bulk<f64>>>().map(|d| d.to_string()).ok(),
        Dtype::of::<Vec<Vec<f64>>>().map(|d| d.to_string()).ok()
    );
    assert_eq!(
        show(Dtype::of::<Bulk<[f32; 3]>>()),
        show(Dtype::of::<Vec<[f32; 3]>>())
    );

    // streaming writer, row by row
    let mut w1 = Vec::new();
    let mut w = NpyWriter::new(Cursor::new(&mut w1)).unwrap();
    for row in &nested {
        w.serialize(row).unwrap();
    }
    w.finish().unwrap();
    let mut w2 = Vec::new();
    let mut w = NpyWriter::new(Cursor::new(&mut w2)).unwrap();
    for row in [[1i32, 2, 3], [4, 5, 6]] {
        w.serialize(&row).unwrap();
    }
    w.finish().unwrap();
    assert_eq!(w1, w2);

    // npz, stored and deflated
    let (bulk, plain) = columns(300);
    for compressed in [false, true] {
        let mut x = NpzWriter::new(Cursor::new(Vec::new())).compressed(compressed);
        x.add("t", &Bulk(bulk.t.clone())).unwrap();
        x.add("pos", &Bulk(bulk.pos.clone())).unwrap();
        let mut y = NpzWriter::new(Cursor::new(Vec::new())).compressed(compressed);
        y.add("t", &plain.t).unwrap();
        y.add("pos", &plain.pos).unwrap();
        assert_eq!(
            x.finish().unwrap().into_inner(),
            y.finish().unwrap().into_inner()
        );
    }
    let mut x = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut x, &bulk).unwrap();
    let mut y = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut y, &plain).unwrap();
    assert_eq!(x.into_inner(), y.into_inner());
}

#[test]
fn reads_what_vec_reads() {
    for n in [1, 7, 8191, 8192, 8193, 100_000] {
        let v = f64s(n);
        let file = npy_serde::to_vec(&v).unwrap();
        let a: Bulk<f64> = npy_serde::from_slice(&file).unwrap();
        let b: Bulk<f64> = npy_serde::from_reader(&file[..]).unwrap();
        assert_eq!((&*a, &*b), (&v, &v), "{n}");
        let r = rows(n);
        let file = npy_serde::to_vec(&r).unwrap();
        let a: Bulk<[f32; 3]> = npy_serde::from_slice(&file).unwrap();
        let b: Bulk<[f32; 3]> = npy_serde::from_reader(&file[..]).unwrap();
        assert_eq!((&*a, &*b), (&r, &r), "{n}");
        // with_capacity from the bytes present: no slack
        assert_eq!(a.capacity(), n);
        // from a stream: never more than the header's length
        assert_eq!(b.capacity(), n);
    }
    let opts = npy_serde::WriteOptions::new().dtype("<f8".parse().unwrap());
    let file = opts.to_vec(&Vec::<f64>::new()).unwrap();
    assert!(
        npy_serde::from_slice::<Bulk<f64>>(&file)
            .unwrap()
            .is_empty()
    );
    assert!(
        npy_serde::from_reader::<Bulk<f64>>(&file[..])
            .unwrap()
            .is_empty()
    );
}

/// A reader handing out 1 to 7 bytes per call.
struct Dribble<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.step = self.step % 7 + 1;
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn awkward_readers_and_streams_of_arrays() {
    let r = rows(30_000); // 360 kB: several chunks
    let mut stream = npy_serde::to_vec(&r).unwrap();
    stream.extend(npy_serde::to_vec(&[1.5f64, 2.5]).unwrap());
    let mut rd = Dribble {
        data: &stream,
        step: 0,
    };
    let a: Bulk<[f32; 3]> = npy_serde::from_reader(&mut rd).unwrap();
    // the reader stops right after the first array's data
    let b: Bulk<f64> = npy_serde::from_reader(&mut rd).unwrap();
    assert_eq!(*a, r);
    assert_eq!(*b, [1.5, 2.5]);
}

#[test]
fn truncated_and_lying_streams_fail_as_vec_does() {
    let v = f64s(20_000);
    let file = npy_serde::to_vec(&v).unwrap();
    let header = file.len() - 8 * v.len();
    for cut in [
        header,
        header + 1,
        header + 8,
        header + 8 * 9000 + 3,
        header + 65536,
        file.len() - 1,
    ] {
        let part = &file[..cut];
        assert_eq!(
            show(npy_serde::from_reader::<Bulk<f64>>(part).map(|b| b.0)),
            show(npy_serde::from_reader::<Vec<f64>>(part)),
            "cut at {cut}"
        );
        assert_eq!(
            show(npy_serde::from_slice::<Bulk<f64>>(part).map(|b| b.0)),
            show(npy_serde::from_slice::<Vec<f64>>(part)),
            "cut at {cut}"
        );
        let mut rd = Dribble {
            data: part,
            step: 3,
        };
        let mut rd2 = Dribble {
            data: part,
            step: 3,
        };
        assert_eq!(
            show(npy_serde::from_reader::<Bulk<f64>>(&mut rd).map(|b| b.0)),
            show(npy_serde::from_reader::<Vec<f64>>(&mut rd2)),
            "cut at {cut}, dribbled"
        );
    }
    // a header claiming 2^32 elements over 900 bytes
    let dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296,), }";
    let mut lie = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    lie.extend(format!("{dict:<117}\n").bytes());
    lie.extend(std::iter::repeat_n(7u8, 900));
    let err = npy_serde::from_reader::<Bulk<f64>>(&lie[..]).unwrap_err();
    assert_eq!(
        err.to_string(),
        npy_serde::from_reader::<Vec<f64>>(&lie[..])
            .unwrap_err()
            .to_string()
    );
}

macro_rules! same_on {
    ($bytes:expr, $name:expr; $($t:ty),*) => {$({
        let bulk = show(npy_serde::from_slice::<Bulk<$t>>($bytes).map(|b| b.0));
        let plain = show(npy_serde::from_slice::<Vec<$t>>($bytes));
        assert_eq!(bulk, plain, "from_slice {} into {}", $name, stringify!($t));
        let bulk = show(npy_serde::from_reader::<Bulk<$t>>($bytes).map(|b| b.0));
        let plain = show(npy_serde::from_reader::<Vec<$t>>($bytes));
        assert_eq!(bulk, plain, "from_reader {} into {}", $name, stringify!($t));
    })*};
}

#[test]
fn hostile_corpus_reads_as_vec_does() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hostile");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "npy") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        same_on!(&bytes[..], name; u8, bool, i32, f64, [f32; 3], [u8; 2]);
        n += 1;
    }
    assert!(n > 100, "only {n} hostile files");
}

#[test]
fn npz_struct_of_arrays() {
    for (n, compressed) in [(1, false), (5, true), (50_000, false), (50_000, true)] {
        let (bulk, plain) = columns(n);
        let mut w = NpzWriter::new(Cursor::new(Vec::new())).compressed(compressed);
        w.add("t", &plain.t).unwrap();
        w.add("pos", &plain.pos).unwrap();
        w.add("id", &plain.id).unwrap();
        w.add("ok", &plain.ok).unwrap();
        let mut file = w.finish().unwrap();
        file.set_position(0);
        let back: Columns = npy_serde::npz::from_reader(&mut file).unwrap();
        assert_eq!(back, bulk);
        file.set_position(0);
        let mut z = NpzReader::new(&mut file).unwrap();
        let t: Bulk<f64> = z.by_name("t").unwrap();
        assert_eq!(*t, plain.t);
        // a damaged member fails as for Vec
        if n > 0 && compressed {
            let mut bytes = file.into_inner().clone();
            let at = bytes.len() / 3;
            bytes[at] ^= 0x55;
            let a = show(npy_serde::npz::from_reader::<Columns>(Cursor::new(&bytes)));
            let b = show(
                npy_serde::npz::from_reader::<PlainColumns>(Cursor::new(&bytes)).map(|p| Columns {
                    t: p.t,
                    pos: p.pos,
                    id: p.id,
                    ok: p.ok,
                }),
            );
            assert_eq!(a, b);
        }
    }
    // members of another type read through the ordinary path
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    w.add("t", &[1.5f32, 2.0]).unwrap(); // '<f4' into Vec<f64>: widened
    w.add("pos", &[[1.0f64, 2.0, 3.0]]).unwrap(); // '<f8' into [f32; 3]: exact values
    w.add("id", &[1u8, 2]).unwrap();
    w.add("ok", &[true]).unwrap();
    let back: Columns = npy_serde::npz::from_reader(w.finish().unwrap()).unwrap();
    assert_eq!(back.t, [1.5, 2.0]);
    assert_eq!(back.pos, [[1.0, 2.0, 3.0]]);
    assert_eq!(back.id, [1, 2]);
}

#[test]
fn records_with_bulk_fields() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Rec {
        id: u32,
        #[serde(with = "npy_serde::bulk")]
        pos: Vec<f64>,
        #[serde(with = "npy_serde::bulk")]
        m: Vec<[i16; 2]>,
    }
    let recs: Vec<Rec> = (0..1000)
        .map(|i| Rec {
            id: i,
            pos: vec![f64::from(i), 0.5, -1.0],
            m: vec![[i as i16, 1], [2, 3], [4, -5]],
        })
        .collect();
    let bytes = npy_serde::to_vec(&recs).unwrap();
    let header = NpyReader::new(&bytes[..]).unwrap().dtype().to_string();
    assert_eq!(
        header,
        "[('id', '<u4'), ('pos', '<f8', (3,)), ('m', '<i2', (3, 2))]"
    );
    assert_eq!(npy_serde::from_slice::<Vec<Rec>>(&bytes).unwrap(), recs);
    assert_eq!(
        npy_serde::from_reader::<Vec<Rec>>(&bytes[..]).unwrap(),
        recs
    );
    let mut r = NpyReader::new(&bytes[..]).unwrap();
    let it: Vec<Rec> = r.deserialize().collect::<npy_serde::Result<_>>().unwrap();
    assert_eq!(it, recs);
    // a field of the wrong width names record and field, as Vec does
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        #[serde(with = "npy_serde::bulk")]
        m: Vec<[i16; 3]>,
    }
    let err = npy_serde::from_slice::<Vec<Wrong>>(&bytes).unwrap_err();
    assert!(err.to_string().starts_with("record 0, field m"), "{err}");
}

#[test]
fn npz_columns_of_records_with_bulk_fields() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Rec {
        id: u16,
        #[serde(with = "npy_serde::bulk")]
        pos: Vec<f32>,
    }
    let recs: Vec<Rec> = (0..100)
        .map(|i| Rec {
            id: i,
            pos: vec![f32::from(i), 2.0, 3.0],
        })
        .collect();
    let mut file = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut file, &recs).unwrap(); // id.npy (100,), pos.npy (100, 3)
    file.set_position(0);
    let mut z = NpzReader::new(&mut file).unwrap();
    assert_eq!(z.reader("pos").unwrap().shape(), &[100, 3]);
    file.set_position(0);
    let back: Vec<Rec> = npy_serde::npz::from_reader(&mut file).unwrap();
    assert_eq!(back, recs);
}

#[test]
fn other_formats_see_a_sequence() {
    let b = Bulk(vec![1.5f64, -2.0]);
    let json = serde_json::to_string(&b).unwrap();
    assert_eq!(json, "[1.5,-2.0]");
    assert_eq!(serde_json::from_str::<Bulk<f64>>(&json).unwrap(), b);
    let (cols, _) = columns(3);
    let json = serde_json::to_string(&cols).unwrap();
    assert!(
        json.starts_with(r#"{"t":[-7.0,-6.75,-6.5],"pos":[[0.0,"#),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<Columns>(&json).unwrap(), cols);
    // through serde's buffering (untagged enum)
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Either {
        Nums(Bulk<u8>),
        Text(String),
    }
    assert_eq!(
        serde_json::from_str::<Either>("[1, 2]").unwrap(),
        Either::Nums(Bulk(vec![1, 2]))
    );
    let file = npy_serde::to_vec(&[3u8, 4]).unwrap();
    assert_eq!(
        npy_serde::from_slice::<Either>(&file).unwrap(),
        Either::Nums(Bulk(vec![3, 4]))
    );
    // Option reads Some
    let file = npy_serde::to_vec(&[1.0f64]).unwrap();
    assert_eq!(
        npy_serde::from_slice::<Option<Bulk<f64>>>(&file).unwrap(),
        Some(Bulk(vec![1.0]))
    );
}

#[test]
fn the_newtype_itself() {
    let mut b: Bulk<u16> = vec![1, 2].into();
    b.push(3);
    assert_eq!(b.len(), 3);
    assert_eq!(format!("{b:?}"), "Bulk([1, 2, 3])");
    assert_eq!(b.clone().into_inner(), [1, 2, 3]);
    assert_eq!(Vec::from(b.clone()), [1, 2, 3]);
    assert_eq!(Bulk::<u16>::default().len(), 0);
    assert_eq!((1..4).collect::<Bulk<u16>>(), b);
}
