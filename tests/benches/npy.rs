//! Throughput of npy_serde's read and write paths against their limits.
//!
//! For each data set (records of issue 6), in one run:
//! - ours: `to_vec` (fresh output), `to_writer` into a reused `Vec`, into a
//!   fresh `Vec` reserved to the file's size (`to_writer_reserved`) and into
//!   a `BufWriter<File>`, `NpyWriter` streaming; `from_slice`, `from_reader`
//!   over a `BufReader<File>`, the `NpyReader::deserialize` iterator;
//! - npyz (derive) on the same records, writing to a fresh `Vec` and reading
//!   from a slice and from a file;
//! - a hand-written fixed-offset encoder / decoder (the practical limit);
//! - a copy of the same bytes into fresh and into reused memory (the
//!   physical limit);
//! - for the plain arrays (`f64`, `f32x3`) also the typed bulk path,
//!   `npy_serde::Bulk<T>` from a slice and from a `BufReader<File>`.
//!
//! Every data set is checked once before timing: our bytes equal the
//! hand-written encoder's, and every reader (ours, npyz, hand-written)
//! gives the records back, from our bytes and from npyz's. A fast wrong path
//! cannot win.
//!
//! `bench/compare` runs this with short settings and reads criterion's JSON.
//! The environment variable `NPY_BENCH_SCALE` (default 1) scales the record
//! counts, for quick runs. The files written here stay in
//! `$TMPDIR/npy_serde_bench/` so numpy can check that it loads them.
//!
//! The `byte_order` group: `from_slice::<Vec<Particle>>` of the same records
//! in a little-endian file (`le`) and in a big-endian one (`be`, every
//! multi-byte field `>`), both checked to decode back.
//!
//! The `npz` group: a struct of four arrays (`id`, `pos`, `vel`, `mass`
//! of the `Particle` records, ~48 MB at scale 1), the way
//! `np.savez_compressed(f, id=..., pos=..., vel=..., mass=...)` is used,
//! written stored and deflated and read back, in memory and through files;
//! also read into a struct whose fields use `#[serde(with =
//! "npy_serde::bulk")]` (`read_stored_bulk`, `read_deflated_bulk`);
//! the archives are checked to decode back before timing and left in the
//! bench directory for numpy to load. Also the columnar form: a
//! `Vec<Particle>` as one member per field (`npz::to_writer` /
//! `npz::from_reader`, stored; no numpy counterpart).
//!
//! The `nd` group: an `NdArray<f64>` of 8M elements, shape (2000, 4000),
//! read from memory (`from_slice`, its sink the returned array) against a
//! fresh copy of the same bytes (`to_vec`) and ndarray-npy's
//! `ReadNpyExt::read_npy` into an `Array2<f64>`; the same read of the file
//! in big-endian order (`'>f8'`, `from_slice_be`), and the 1-d 8M `'<f8'` /
//! `'>f8'` files into serde's `Vec<f64>` and `Bulk<f64>` (`*_be`: the
//! big-endian file). Every reader is checked to give the values back.
//! Writing: the `NdArray<f64>` by `to_writer` into a `BufWriter<File>`
//! (`to_writer_file`) against ndarray-npy's `WriteNpyExt::write_npy` of the
//! `Array2<f64>` into a `BufWriter<File>` (`ndarray_npy_write_file`); no
//! fsync in either; ours checked to write numpy's bytes, theirs the same data.
//!
//! The `files` group (issue 35): whole files through the path functions.
//! An `NdArray<f64>` of shape (8000, 1000) (64 MB, `'<f8'`, values
//! `i * 0.5`, in the page cache) read by `from_path` (`from_path`) against
//! ndarray-npy's `read_npy(path)` into an `Array2<f64>`
//! (`ndarray_npy_read_file`); written by `WriteOptions::durable(false)
//! .to_path` (`to_path_nondurable`: temporary file and rename, no fsync),
//! `to_path` (`to_path`: fsync) and `to_writer` into a `BufWriter<File>`
//! (`to_writer_file`). The 1M `Particle` records from a file by `from_path`
//! (`particle_from_path`) against `std::fs::read` + `from_slice`
//! (`particle_read_slice`). Member `a` (the same array) of a stored and of a
//! deflated archive (`NpzWriter`, level 6), read by `NpzReader::by_name`
//! over a `BufReader<File>` (`npz_stored_by_name`, `npz_deflated_by_name`).
//! Rows 4000..4100 by `NpyReader::rows` over a `BufReader<File>` opened for
//! each call (`rows`). A 2M `'<i8'` ramp (16 MB, `i / 7`, compressible) written
//! as member `a` by `NpzOptions::compression_level(1)` and `(6)`
//! `.to_writer` into a `BufWriter<File>` (`npz_level1_write`,
//! `npz_level6_write`; no fsync, as `np.savez_compressed`). Everything is
//! checked before timing (files equal `to_vec`'s bytes, readers give the
//! values back, archives decode back); `files.npy`, `files_stored.npz`,
//! `files_deflated.npz`, `files_level1.npz` and `files_level6.npz` stay in
//! the bench directory for numpy to load.

use std::fs::File;
use std::hint::black_box;
use std::io::{BufReader, BufWriter, Cursor, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use npy_serde::{Bulk, Datetime64, NdArray, NpyReader, NpyWriter, WriteOptions, unit};
use npyz::WriterBuilder;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tests::snapshot::{BulkSnapshot, Snapshot};

// ---------------------------------------------------------------- records

#[derive(
    Serialize,
    Deserialize,
    npyz::Serialize,
    npyz::Deserialize,
    npyz::AutoSerialize,
    Clone,
    Copy,
    Debug,
    PartialEq,
    Default,
)]
struct Particle {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
}

#[derive(
    Serialize,
    Deserialize,
    npyz::Serialize,
    npyz::Deserialize,
    npyz::AutoSerialize,
    Clone,
    Copy,
    Debug,
    PartialEq,
    Default,
)]
struct Narrow {
    a: u8,
    b: i16,
}

macro_rules! wide {
    ($($f:ident)*) => {
        /// 64 `f64` fields.
        #[derive(Serialize, Deserialize, npyz::Serialize, npyz::Deserialize, npyz::AutoSerialize)]
        #[derive(Clone, Copy, Debug, PartialEq, Default)]
        struct Wide { $($f: f64,)* }

        impl Wide {
            fn make(i: usize) -> Self {
                let mut k = 0.0;
                $(k += 1.0; let $f = i as f64 * 0.5 + k;)*
                Wide { $($f,)* }
            }
            fn enc(&self, out: &mut [u8]) {
                let mut o = 0;
                $(out[o..o + 8].copy_from_slice(&self.$f.to_le_bytes()); o += 8;)*
                let _ = o;
            }
            fn dec(c: &[u8]) -> Self {
                let mut o = 0;
                $(let $f = f64::from_le_bytes(c[o..o + 8].try_into().unwrap()); o += 8;)*
                let _ = o;
                Wide { $($f,)* }
            }
        }
    };
}

wide!(f00 f01 f02 f03 f04 f05 f06 f07 f08 f09 f10 f11 f12 f13 f14 f15
      f16 f17 f18 f19 f20 f21 f22 f23 f24 f25 f26 f27 f28 f29 f30 f31
      f32 f33 f34 f35 f36 f37 f38 f39 f40 f41 f42 f43 f44 f45 f46 f47
      f48 f49 f50 f51 f52 f53 f54 f55 f56 f57 f58 f59 f60 f61 f62 f63);

/// `U16` + `S8` + `M8[ns]`: itemsize 64 + 8 + 8 = 80.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Tagged {
    name: String,
    #[serde(with = "serde_bytes")]
    code: Vec<u8>,
    t: Datetime64<unit::ns>,
}

// ------------------------------------------------------------ generators

fn particles(n: usize) -> Vec<Particle> {
    (0..n)
        .map(|i| {
            let x = i as f64;
            Particle {
                id: i as u64 * 7919,
                pos: [x * 0.25, -x, x + 0.5],
                vel: [(i % 1000) as f32 * 0.5, 1.25, -2.0],
                mass: (i % 97) as f32 + 0.75,
                charge: (i % 7) as i8 - 3,
            }
        })
        .collect()
}

fn narrows(n: usize) -> Vec<Narrow> {
    (0..n)
        .map(|i| Narrow {
            a: i as u8,
            b: (i as i16).wrapping_mul(31),
        })
        .collect()
}

fn tagged(n: usize) -> Vec<Tagged> {
    (0..n)
        .map(|i| {
            // one value of each string at full width fixes U16 / S8
            let name = if i == 0 {
                "sixteen-chars-éé".to_string()
            } else {
                format!("rec-{}", i % 100_000)
            };
            let code = if i == 0 {
                b"ABCDEFGH".to_vec()
            } else {
                format!("c{}", i % 1000).into_bytes()
            };
            Tagged {
                name,
                code,
                t: Datetime64::new(1_700_000_000_000_000_000 + i as i64),
            }
        })
        .collect()
}

// ------------------------------------------------ hand-written coders

/// A fixed-offset coder for one record type, written by hand: the limit a
/// format layer could reach.
trait Hand: Sized {
    const ITEM: usize;
    fn enc(&self, out: &mut [u8]);
    fn dec(c: &[u8]) -> Self;
}

fn le<const N: usize>(c: &[u8], o: usize) -> [u8; N] {
    c[o..o + N].try_into().unwrap()
}

impl Hand for Particle {
    const ITEM: usize = 49;
    #[inline]
    fn enc(&self, o: &mut [u8]) {
        o[0..8].copy_from_slice(&self.id.to_le_bytes());
        o[8..16].copy_from_slice(&self.pos[0].to_le_bytes());
        o[16..24].copy_from_slice(&self.pos[1].to_le_bytes());
        o[24..32].copy_from_slice(&self.pos[2].to_le_bytes());
        o[32..36].copy_from_slice(&self.vel[0].to_le_bytes());
        o[36..40].copy_from_slice(&self.vel[1].to_le_bytes());
        o[40..44].copy_from_slice(&self.vel[2].to_le_bytes());
        o[44..48].copy_from_slice(&self.mass.to_le_bytes());
        o[48] = self.charge as u8;
    }
    #[inline]
    fn dec(c: &[u8]) -> Self {
        Particle {
            id: u64::from_le_bytes(le(c, 0)),
            pos: [
                f64::from_le_bytes(le(c, 8)),
                f64::from_le_bytes(le(c, 16)),
                f64::from_le_bytes(le(c, 24)),
            ],
            vel: [
                f32::from_le_bytes(le(c, 32)),
                f32::from_le_bytes(le(c, 36)),
                f32::from_le_bytes(le(c, 40)),
            ],
            mass: f32::from_le_bytes(le(c, 44)),
            charge: c[48] as i8,
        }
    }
}

impl Hand for Narrow {
    const ITEM: usize = 3;
    #[inline]
    fn enc(&self, o: &mut [u8]) {
        o[0] = self.a;
        o[1..3].copy_from_slice(&self.b.to_le_bytes());
    }
    #[inline]
    fn dec(c: &[u8]) -> Self {
        Narrow {
            a: c[0],
            b: i16::from_le_bytes(le(c, 1)),
        }
    }
}

impl Hand for Wide {
    const ITEM: usize = 512;
    #[inline]
    fn enc(&self, o: &mut [u8]) {
        Wide::enc(self, o)
    }
    #[inline]
    fn dec(c: &[u8]) -> Self {
        Wide::dec(c)
    }
}

impl Hand for Tagged {
    const ITEM: usize = 80;
    #[inline]
    fn enc(&self, o: &mut [u8]) {
        o[..72].fill(0);
        for (k, ch) in self.name.chars().enumerate() {
            o[4 * k..4 * k + 4].copy_from_slice(&(ch as u32).to_le_bytes());
        }
        o[64..64 + self.code.len()].copy_from_slice(&self.code);
        o[72..80].copy_from_slice(&self.t.count().to_le_bytes());
    }
    #[inline]
    fn dec(c: &[u8]) -> Self {
        let mut name = String::new();
        for k in 0..16 {
            let u = u32::from_le_bytes(le(c, 4 * k));
            if u == 0 {
                break;
            }
            name.push(char::from_u32(u).unwrap());
        }
        let s = &c[64..72];
        let n = s.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        Tagged {
            name,
            code: s[..n].to_vec(),
            t: Datetime64::new(i64::from_le_bytes(le(c, 72))),
        }
    }
}

impl Hand for f64 {
    const ITEM: usize = 8;
    #[inline]
    fn enc(&self, o: &mut [u8]) {
        o.copy_from_slice(&self.to_le_bytes());
    }
    #[inline]
    fn dec(c: &[u8]) -> Self {
        f64::from_le_bytes(le(c, 0))
    }
}

impl Hand for [f32; 3] {
    const ITEM: usize = 12;
    #[inline]
    fn enc(&self, o: &mut [u8]) {
        o[0..4].copy_from_slice(&self[0].to_le_bytes());
        o[4..8].copy_from_slice(&self[1].to_le_bytes());
        o[8..12].copy_from_slice(&self[2].to_le_bytes());
    }
    #[inline]
    fn dec(c: &[u8]) -> Self {
        [
            f32::from_le_bytes(le(c, 0)),
            f32::from_le_bytes(le(c, 4)),
            f32::from_le_bytes(le(c, 8)),
        ]
    }
}

/// Header (taken from our own output) + fixed-offset records into `out`
/// (resized only when its length differs: a reused buffer is overwritten).
fn hand_encode<T: Hand>(header: &[u8], recs: &[T], out: &mut Vec<u8>) {
    let total = header.len() + recs.len() * T::ITEM;
    if out.len() != total {
        out.clear();
        out.resize(total, 0);
    }
    let (h, data) = out.split_at_mut(header.len());
    h.copy_from_slice(header);
    for (r, o) in recs.iter().zip(data.chunks_exact_mut(T::ITEM)) {
        r.enc(o);
    }
}

fn hand_decode<T: Hand>(data: &[u8]) -> Vec<T> {
    data.chunks_exact(T::ITEM).map(T::dec).collect()
}

// ------------------------------------------------------------ npyz

type NpyzW<T> = fn(&[T]) -> Vec<u8>;
type NpyzR<T> = fn(&[u8]) -> Vec<T>;
type NpyzRF<T> = fn(&Path) -> Vec<T>;

fn npyz_write<T: npyz::AutoSerialize>(recs: &[T]) -> Vec<u8> {
    let mut buf = Vec::new();
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(&[recs.len() as u64])
        .writer(&mut buf)
        .begin_nd()
        .unwrap();
    w.extend(recs.iter()).unwrap();
    w.finish().unwrap();
    buf
}

fn npyz_read<T: npyz::Deserialize>(bytes: &[u8]) -> Vec<T> {
    npyz::NpyFile::new(bytes).unwrap().into_vec::<T>().unwrap()
}

fn npyz_read_file<T: npyz::Deserialize>(p: &Path) -> Vec<T> {
    let f = BufReader::new(File::open(p).unwrap());
    npyz::NpyFile::new(f).unwrap().into_vec::<T>().unwrap()
}

fn npyz_write_f32x3(recs: &[[f32; 3]]) -> Vec<u8> {
    let mut buf = Vec::new();
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(&[recs.len() as u64, 3])
        .writer(&mut buf)
        .begin_nd()
        .unwrap();
    w.extend(recs.iter().flatten()).unwrap();
    w.finish().unwrap();
    buf
}

fn rows3(v: Vec<f32>) -> Vec<[f32; 3]> {
    v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
}

fn npyz_read_f32x3(bytes: &[u8]) -> Vec<[f32; 3]> {
    rows3(npyz_read::<f32>(bytes))
}

fn npyz_read_file_f32x3(p: &Path) -> Vec<[f32; 3]> {
    rows3(npyz_read_file::<f32>(p))
}

// ------------------------------------------------------------ the runs

struct Set<T> {
    name: &'static str,
    recs: Vec<T>,
    npyz: Option<(NpyzW<T>, NpyzR<T>, NpyzRF<T>)>,
    /// The typed bulk path (`npy_serde::Bulk<T>`) for plain numeric arrays:
    /// from a slice, from a file.
    bulk: Option<(BulkR<T>, BulkRF<T>)>,
}

type BulkR<T> = fn(&[u8]) -> Vec<T>;
type BulkRF<T> = fn(&Path) -> Vec<T>;

fn bulk_read<T: npy_serde::bulk::Element>(bytes: &[u8]) -> Vec<T> {
    npy_serde::from_slice::<npy_serde::Bulk<T>>(bytes)
        .unwrap()
        .into_inner()
}

fn bulk_read_file<T: npy_serde::bulk::Element>(p: &Path) -> Vec<T> {
    let f = BufReader::new(File::open(p).unwrap());
    npy_serde::from_reader::<npy_serde::Bulk<T>>(f)
        .unwrap()
        .into_inner()
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join("npy_serde_bench");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn scaled(n: usize) -> usize {
    let s: f64 = std::env::var("NPY_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    ((n as f64 * s) as usize).max(1)
}

fn stream_write<T: Serialize, W: Write + std::io::Seek>(out: W, recs: &[T]) -> W {
    let mut w = NpyWriter::new(out).unwrap();
    for r in recs {
        w.serialize(r).unwrap();
    }
    w.finish().unwrap()
}

fn stream_read<T: DeserializeOwned>(p: &Path) -> Vec<T> {
    let mut r = NpyReader::new(BufReader::new(File::open(p).unwrap())).unwrap();
    r.deserialize::<T>().collect::<Result<Vec<T>, _>>().unwrap()
}

fn to_file<T: Serialize>(p: &Path, recs: &Vec<T>) {
    let mut w = BufWriter::new(File::create(p).unwrap());
    npy_serde::to_writer(&mut w, recs).unwrap();
    w.flush().unwrap();
}

/// Checks every path once (a fast wrong path cannot win), then times them.
fn run_set<T>(c: &mut Criterion, set: Set<T>)
where
    T: Serialize + DeserializeOwned + Hand + PartialEq + std::fmt::Debug + Send + Sync,
{
    let Set {
        name,
        recs,
        npyz,
        bulk,
    } = set;
    let ours = npy_serde::to_vec(&recs).unwrap();
    let data_len = recs.len() * T::ITEM;
    let header = ours[..ours.len() - data_len].to_vec();
    let path = dir().join(format!("{name}.npy"));
    let scratch = dir().join(format!("{name}.tmp.npy"));

    // --- self-checks
    let mut hand = Vec::new();
    hand_encode(&header, &recs, &mut hand);
    assert!(
        hand == ours,
        "{name}: our bytes differ from the hand encoder's"
    );
    assert!(
        npy_serde::from_slice::<Vec<T>>(&ours).unwrap() == recs,
        "{name}: from_slice"
    );
    assert!(
        hand_decode::<T>(&ours[header.len()..]) == recs,
        "{name}: hand decoder"
    );
    to_file(&path, &recs);
    assert!(
        std::fs::read(&path).unwrap() == ours,
        "{name}: to_writer(file)"
    );
    let f = BufReader::new(File::open(&path).unwrap());
    assert!(
        npy_serde::from_reader::<Vec<T>>(f).unwrap() == recs,
        "{name}: from_reader"
    );
    assert!(stream_read::<T>(&path) == recs, "{name}: NpyReader");
    npy_serde::to_path(&scratch, &recs).unwrap();
    assert!(std::fs::read(&scratch).unwrap() == ours, "{name}: to_path");
    assert!(
        npy_serde::from_path::<Vec<T>>(&path).unwrap() == recs,
        "{name}: from_path"
    );
    let streamed = stream_write(Cursor::new(Vec::new()), &recs).into_inner();
    assert!(streamed == ours, "{name}: NpyWriter");
    if let Some((w, r, rf)) = npyz {
        let theirs = w(&recs);
        assert!(
            npy_serde::from_slice::<Vec<T>>(&theirs).unwrap() == recs,
            "{name}: npyz bytes"
        );
        assert!(r(&ours) == recs, "{name}: npyz reads ours");
        assert!(rf(&path) == recs, "{name}: npyz reads our file");
    }
    if let Some((r, rf)) = bulk {
        assert!(r(&ours) == recs, "{name}: bulk from_slice");
        assert!(rf(&path) == recs, "{name}: bulk from_reader");
    }
    drop(hand);

    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(ours.len() as u64));

    // --- write
    g.bench_function("to_vec", |b| {
        b.iter(|| npy_serde::to_vec(black_box(&recs)).unwrap())
    });
    let mut buf = Vec::with_capacity(ours.len());
    g.bench_function("to_writer_reused", |b| {
        b.iter(|| {
            buf.clear();
            npy_serde::to_writer(&mut buf, black_box(&recs)).unwrap();
        })
    });
    // into a fresh Vec reserved to the file's size (issue 34: against
    // to_vec, which sizes its own)
    g.bench_function("to_writer_reserved", |b| {
        b.iter(|| {
            let mut v = Vec::with_capacity(ours.len());
            npy_serde::to_writer(&mut v, black_box(&recs)).unwrap();
            v
        })
    });
    g.bench_function("to_writer_file", |b| {
        b.iter(|| to_file(&scratch, black_box(&recs)))
    });
    g.bench_function("npywriter_reused", |b| {
        b.iter(|| {
            buf.clear();
            stream_write(Cursor::new(&mut buf), black_box(&recs[..]));
        })
    });
    g.bench_function("hand_enc_fresh", |b| {
        b.iter(|| {
            let mut v = Vec::new();
            hand_encode(&header, black_box(&recs), &mut v);
            v
        })
    });
    let mut hbuf = Vec::new();
    g.bench_function("hand_enc_reused", |b| {
        b.iter(|| hand_encode(&header, black_box(&recs), &mut hbuf))
    });
    g.bench_function("copy_fresh", |b| b.iter(|| black_box(&ours[..]).to_vec()));
    g.bench_function("copy_reused", |b| {
        b.iter(|| {
            buf.clear();
            buf.extend_from_slice(black_box(&ours[..]));
        })
    });
    g.bench_function("to_path", |b| {
        b.iter(|| npy_serde::to_path(&scratch, black_box(&recs)).unwrap())
    });
    // the file system's share: the finished bytes written by std (which
    // cannot preallocate; np.save calls fallocate first, which ext4 rewards)
    g.bench_function("bytes_file", |b| {
        b.iter(|| std::fs::write(&scratch, black_box(&ours[..])).unwrap())
    });
    g.bench_function("bytes_file_fsync", |b| {
        b.iter(|| {
            let mut f = File::create(&scratch).unwrap();
            f.write_all(black_box(&ours[..])).unwrap();
            f.sync_all().unwrap();
        })
    });
    if let Some((w, _, _)) = npyz {
        g.bench_function("npyz_write", |b| b.iter(|| w(black_box(&recs))));
    }

    // --- read
    g.bench_function("from_slice", |b| {
        b.iter(|| npy_serde::from_slice::<Vec<T>>(black_box(&ours)).unwrap())
    });
    g.bench_function("from_reader_file", |b| {
        b.iter(|| {
            let f = BufReader::new(File::open(&path).unwrap());
            npy_serde::from_reader::<Vec<T>>(f).unwrap()
        })
    });
    g.bench_function("npyreader_iter", |b| b.iter(|| stream_read::<T>(&path)));
    g.bench_function("from_path", |b| {
        b.iter(|| npy_serde::from_path::<Vec<T>>(&path).unwrap())
    });
    g.bench_function("hand_dec", |b| {
        b.iter(|| hand_decode::<T>(black_box(&ours[header.len()..])))
    });
    #[cfg(feature = "rayon")]
    {
        assert!(
            npy_serde::par_from_slice::<T>(&ours).unwrap() == recs,
            "{name}: par_from_slice"
        );
        assert!(
            npy_serde::par_from_path::<T>(&path).unwrap() == recs,
            "{name}: par_from_path"
        );
        g.bench_function("par_from_slice", |b| {
            b.iter(|| npy_serde::par_from_slice::<T>(black_box(&ours)).unwrap())
        });
        g.bench_function("par_from_path", |b| {
            b.iter(|| npy_serde::par_from_path::<T>(&path).unwrap())
        });
        let one = one_thread();
        g.bench_function("par_from_slice_1t", |b| {
            b.iter(|| one.install(|| npy_serde::par_from_slice::<T>(black_box(&ours)).unwrap()))
        });
        g.bench_function("par_from_path_1t", |b| {
            b.iter(|| one.install(|| npy_serde::par_from_path::<T>(&path).unwrap()))
        });
        assert!(
            npy_serde::par_to_vec(&recs).unwrap() == ours,
            "{name}: par_to_vec"
        );
        g.bench_function("par_to_vec", |b| {
            b.iter(|| npy_serde::par_to_vec(black_box(&recs)).unwrap())
        });
        g.bench_function("par_to_vec_1t", |b| {
            b.iter(|| one.install(|| npy_serde::par_to_vec(black_box(&recs)).unwrap()))
        });
    }
    if let Some((r, rf)) = bulk {
        g.bench_function("bulk_from_slice", |b| b.iter(|| r(black_box(&ours))));
        g.bench_function("bulk_from_reader_file", |b| b.iter(|| rf(&path)));
    }
    if let Some((_, r, rf)) = npyz {
        g.bench_function("npyz_read", |b| b.iter(|| r(black_box(&ours))));
        g.bench_function("npyz_read_file", |b| b.iter(|| rf(&path)));
    }
    g.finish();
    let _ = std::fs::remove_file(&scratch);
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
}

fn particle(c: &mut Criterion) {
    run_set(
        c,
        Set {
            name: "particle",
            recs: particles(scaled(1_000_000)),
            npyz: Some((npyz_write, npyz_read, npyz_read_file)),
            bulk: None,
        },
    );
}

fn narrow(c: &mut Criterion) {
    run_set(
        c,
        Set {
            name: "narrow",
            recs: narrows(scaled(1_000_000)),
            npyz: Some((npyz_write, npyz_read, npyz_read_file)),
            bulk: None,
        },
    );
}

fn wide(c: &mut Criterion) {
    run_set(
        c,
        Set {
            name: "wide",
            recs: (0..scaled(100_000)).map(Wide::make).collect(),
            npyz: Some((npyz_write, npyz_read, npyz_read_file)),
            bulk: None,
        },
    );
}

/// npyz has no derive support for `U`/`S` strings next to `M8` fields in
/// one record, so this set has no npyz baseline.
fn strings(c: &mut Criterion) {
    run_set(
        c,
        Set {
            name: "strings",
            recs: tagged(scaled(1_000_000)),
            npyz: None,
            bulk: None,
        },
    );
}

fn f64s(c: &mut Criterion) {
    run_set(
        c,
        Set {
            name: "f64",
            recs: (0..scaled(8_000_000)).map(|i| i as f64 * 0.5).collect(),
            npyz: Some((npyz_write, npyz_read, npyz_read_file)),
            bulk: Some((bulk_read::<f64>, bulk_read_file::<f64>)),
        },
    );
}

fn f32x3(c: &mut Criterion) {
    run_set(
        c,
        Set {
            name: "f32x3",
            recs: (0..scaled(2_000_000))
                .map(|i| [i as f32, i as f32 * 0.5, -(i as f32)])
                .collect(),
            npyz: Some((npyz_write_f32x3, npyz_read_f32x3, npyz_read_file_f32x3)),
            bulk: Some((bulk_read::<[f32; 3]>, bulk_read_file::<[f32; 3]>)),
        },
    );
}

/// Time per record from 10^5 to 10^7 `Particle`s: reused output buffer for
/// writing (and fresh beside it), `from_slice` for reading.
fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("scaling");
    g.sampling_mode(SamplingMode::Flat);
    let mut buf = Vec::new();
    for n in [100_000usize, 1_000_000, 10_000_000] {
        let n = scaled(n);
        let recs = particles(n);
        let bytes = npy_serde::to_vec(&recs).unwrap();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("to_writer_reused", n), &recs, |b, r| {
            b.iter(|| {
                buf.clear();
                npy_serde::to_writer(&mut buf, r).unwrap();
            })
        });
        g.bench_with_input(BenchmarkId::new("to_vec", n), &recs, |b, r| {
            b.iter(|| npy_serde::to_vec(r).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("from_slice", n), &bytes, |b, s| {
            b.iter(|| npy_serde::from_slice::<Vec<Particle>>(s).unwrap())
        });
    }
    g.finish();
}

fn npz_read_bulk(bytes: &[u8]) -> BulkSnapshot {
    npy_serde::npz::from_reader(Cursor::new(bytes)).unwrap()
}

const NPZ_KEYS: [&str; 4] = ["id", "pos", "vel", "mass"];

fn snapshot(n: usize) -> Snapshot {
    let ps = particles(n);
    Snapshot {
        id: ps.iter().map(|p| p.id).collect(),
        pos: ps.iter().map(|p| p.pos).collect(),
        vel: ps.iter().map(|p| p.vel).collect(),
        mass: ps.iter().map(|p| p.mass).collect(),
    }
}

/// `np.savez` / `np.savez_compressed`: one member per array, in order.
fn npz_write<W: Write + std::io::Seek>(out: W, s: &Snapshot, compressed: bool) -> W {
    let mut w = npy_serde::npz::NpzWriter::new(out).compressed(compressed);
    w.add("id", &s.id).unwrap();
    w.add("pos", &s.pos).unwrap();
    w.add("vel", &s.vel).unwrap();
    w.add("mass", &s.mass).unwrap();
    w.finish().unwrap()
}

fn npz_write_file(p: &Path, s: &Snapshot, compressed: bool) {
    let mut f = npz_write(BufWriter::new(File::create(p).unwrap()), s, compressed);
    f.flush().unwrap();
}

fn npz_read(bytes: &[u8]) -> Snapshot {
    npy_serde::npz::from_reader(Cursor::new(bytes)).unwrap()
}

/// Checks both archives (members = `to_vec` of each array, decode back,
/// files equal the in-memory archives), leaves them for numpy, then times
/// writing and reading them in memory and through files.
/// A pool of one thread: the parallel paths' rows at one thread (their
/// scaling against the global pool's).
#[cfg(feature = "rayon")]
fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

fn npz(c: &mut Criterion) {
    let snap = snapshot(scaled(1_000_000));
    let members: Vec<Vec<u8>> = vec![
        npy_serde::to_vec(&snap.id).unwrap(),
        npy_serde::to_vec(&snap.pos).unwrap(),
        npy_serde::to_vec(&snap.vel).unwrap(),
        npy_serde::to_vec(&snap.mass).unwrap(),
    ];
    let raw_len: usize = members.iter().map(Vec::len).sum();
    let stored = npz_write(Cursor::new(Vec::new()), &snap, false).into_inner();
    let deflated = npz_write(Cursor::new(Vec::new()), &snap, true).into_inner();

    // --- self-checks
    let mut via_to_writer = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut via_to_writer, &snap).unwrap();
    assert!(
        via_to_writer.into_inner() == stored,
        "npz: to_writer(struct)"
    );
    for (name, bytes) in [("stored", &stored), ("deflated", &deflated)] {
        let mut z = npy_serde::npz::NpzReader::new(Cursor::new(&bytes[..])).unwrap();
        assert_eq!(z.names(), NPZ_KEYS, "npz {name}: member names");
        for (k, m) in NPZ_KEYS.iter().zip(&members) {
            assert!(z.raw(k).unwrap() == *m, "npz {name}: member {k}");
        }
        assert!(npz_read(bytes) == snap, "npz {name}: from_reader");
        assert!(npz_read_bulk(bytes) == snap, "npz {name}: bulk from_reader");
        let path = dir().join(format!("npz_{name}.npz"));
        npz_write_file(&path, &snap, name == "deflated");
        assert!(std::fs::read(&path).unwrap() == *bytes, "npz {name}: file");
        assert!(
            npy_serde::npz::from_path::<Snapshot>(&path).unwrap() == snap,
            "npz {name}: from_path"
        );
    }
    eprintln!(
        "npz: {} records, {raw_len} bytes of members, stored archive {} bytes, deflated {} bytes",
        snap.id.len(),
        stored.len(),
        deflated.len()
    );

    let mut g = c.benchmark_group("npz");
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(raw_len as u64));
    let scratch = dir().join("npz.tmp.npz");
    for (name, compressed, bytes) in [("stored", false, &stored), ("deflated", true, &deflated)] {
        g.bench_function(format!("write_{name}"), |b| {
            b.iter(|| npz_write(Cursor::new(Vec::new()), black_box(&snap), compressed))
        });
        g.bench_function(format!("write_{name}_file"), |b| {
            b.iter(|| npz_write_file(&scratch, black_box(&snap), compressed))
        });
        g.bench_function(format!("read_{name}"), |b| {
            b.iter(|| npz_read(black_box(bytes)))
        });
        g.bench_function(format!("read_{name}_bulk"), |b| {
            b.iter(|| npz_read_bulk(black_box(bytes)))
        });
        let path = dir().join(format!("npz_{name}.npz"));
        g.bench_function(format!("read_{name}_file"), |b| {
            b.iter(|| npy_serde::npz::from_path::<Snapshot>(&path).unwrap())
        });
    }
    // the parallel members at one thread (the scaling rows)
    #[cfg(feature = "rayon")]
    {
        let one = one_thread();
        g.bench_function("write_deflated_1t", |b| {
            b.iter(|| one.install(|| npz_write(Cursor::new(Vec::new()), black_box(&snap), true)))
        });
        g.bench_function("read_deflated_bulk_1t", |b| {
            b.iter(|| one.install(|| npz_read_bulk(black_box(&deflated))))
        });
    }
    // columnar: the records themselves, one member per field (5 members)
    let recs = particles(snap.id.len());
    let mut cols = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut cols, &recs).unwrap();
    let cols = cols.into_inner();
    let back: Vec<Particle> = npy_serde::npz::from_reader(Cursor::new(&cols[..])).unwrap();
    assert!(back == recs, "npz columns: from_reader");
    g.throughput(Throughput::Bytes(cols.len() as u64));
    g.bench_function("write_columns", |b| {
        b.iter(|| {
            let mut out = Cursor::new(Vec::new());
            npy_serde::npz::to_writer(&mut out, black_box(&recs)).unwrap();
            out
        })
    });
    g.bench_function("read_columns", |b| {
        b.iter(|| {
            npy_serde::npz::from_reader::<Vec<Particle>>(Cursor::new(black_box(&cols[..]))).unwrap()
        })
    });
    g.finish();
    let _ = std::fs::remove_file(&scratch);
}

/// What `finish_durable`'s two syncs cost: appending 100 Particle records
/// to a file and finishing with `finish` (flush only) or `finish_durable`
/// (data synced, tail cut, header patched and synced):
/// `cargo bench --bench npy -- append`.
fn append(c: &mut Criterion) {
    let path = dir().join("append.npy");
    let recs = particles(100);
    let mut g = c.benchmark_group("append");
    g.sampling_mode(SamplingMode::Flat);
    for durable in [false, true] {
        npy_serde::to_path(&path, &particles(1000)).unwrap();
        let name = if durable {
            "finish_durable_100"
        } else {
            "finish_100"
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                let file = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&path)
                    .unwrap();
                let mut w = NpyWriter::append(file).unwrap();
                for p in &recs {
                    w.serialize(black_box(p)).unwrap();
                }
                if durable {
                    w.finish_durable()
                } else {
                    w.finish()
                }
                .unwrap()
            })
        });
    }
    g.finish();
    let _ = std::fs::remove_file(&path);
}

/// `npy_serde::view::<f64>` of a 64-KB and a 64-MB `'<f8'` file in memory
/// (64-byte aligned, as a memory map is): the header is parsed and the data
/// cast in place, so the time must not grow with the size (the sink: the
/// view's length and first element). Not scaled by `NPY_BENCH_SCALE`: the
/// two sizes are the comparison.
fn view(c: &mut Criterion) {
    let mut g = c.benchmark_group("view");
    for (name, bytes) in [("view_64k", 64usize << 10), ("view_64m", 64 << 20)] {
        let n = bytes / 8;
        let xs: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let file = tests::Aligned::new(&npy_serde::to_vec(&xs).unwrap(), 0);
        let v = npy_serde::view::<f64>(file.bytes()).unwrap();
        assert!(v.data() == &xs[..], "{name}: the view holds the values");
        g.bench_function(name, |b| {
            b.iter(|| {
                let v = npy_serde::view::<f64>(black_box(file.bytes())).unwrap();
                black_box((v.len(), v.data()[0]))
            })
        });
    }
    g.finish();
}

/// The big-endian Particle descr (numpy's spelling).
const PARTICLE_BE: &str = "[('id', '>u8'), ('pos', '>f8', (3,)), ('vel', '>f4', (3,)), ('mass', '>f4'), ('charge', 'i1')]";

fn byte_order(c: &mut Criterion) {
    let recs = particles(scaled(1_000_000));
    let le = npy_serde::to_vec(&recs).unwrap();
    let be = npy_serde::WriteOptions::new()
        .dtype(PARTICLE_BE.parse().unwrap())
        .to_vec(&recs)
        .unwrap();
    assert!(be != le, "byte_order: the big-endian file differs");
    for (name, bytes) in [("le", &le), ("be", &be)] {
        assert!(
            npy_serde::from_slice::<Vec<Particle>>(bytes).unwrap() == recs,
            "byte_order: {name} from_slice"
        );
    }
    let mut g = c.benchmark_group("byte_order");
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(le.len() as u64));
    for (name, bytes) in [("le_from_slice", &le), ("be_from_slice", &be)] {
        g.bench_function(name, |b| {
            b.iter(|| npy_serde::from_slice::<Vec<Particle>>(black_box(bytes)).unwrap())
        });
    }
    g.finish();
}

/// See the module docs (`nd`): n-d reads against a fresh copy, ndarray-npy
/// and big-endian data.
fn nd(c: &mut Criterion) {
    use ndarray_npy::{ReadNpyExt, WriteNpyExt};
    let (rows, cols) = (scaled(2000), 4000);
    let xs: Vec<f64> = (0..rows * cols).map(|i| i as f64 * 0.5).collect();
    let want = NdArray::from_shape_vec(vec![rows, cols], xs.clone()).unwrap();
    let nested: Vec<&[f64]> = xs.chunks(cols).collect();
    let be_opts = WriteOptions::new().dtype(">f8".parse().unwrap());
    let le = npy_serde::to_vec(&nested).unwrap();
    let be = be_opts.to_vec(&nested).unwrap();
    let flat_le = npy_serde::to_vec(&xs).unwrap();
    let flat_be = be_opts.to_vec(&xs).unwrap();
    std::fs::write(dir().join("nd.npy"), &le).unwrap();

    // --- self-checks
    for (file, what) in [(&le, "'<f8'"), (&be, "'>f8'")] {
        let a: NdArray<f64> = npy_serde::from_slice(file).unwrap();
        assert!(a == want, "nd: from_slice of {what}");
    }
    let theirs = ndarray::Array2::<f64>::read_npy(&le[..]).unwrap();
    assert!(theirs.as_slice() == Some(&xs[..]), "nd: ndarray-npy");
    let scratch = dir().join("nd.tmp.npy");
    let ours_to_file = || {
        let mut w = BufWriter::new(File::create(&scratch).unwrap());
        npy_serde::to_writer(&mut w, black_box(&want)).unwrap();
        w.flush().unwrap();
    };
    let theirs_to_file = || {
        let mut w = BufWriter::new(File::create(&scratch).unwrap());
        black_box(&theirs).write_npy(&mut w).unwrap();
        w.flush().unwrap();
    };
    ours_to_file();
    assert!(std::fs::read(&scratch).unwrap() == le, "nd: to_writer");
    theirs_to_file();
    // its header differs from numpy's in spacing; the data is the same
    let written = std::fs::read(&scratch).unwrap();
    assert!(
        written.len() == le.len() && written.ends_with(&le[128..]),
        "nd: write_npy"
    );
    for file in [&flat_le, &flat_be] {
        assert!(
            npy_serde::from_slice::<Vec<f64>>(file).unwrap() == xs,
            "nd: Vec<f64>"
        );
        assert!(
            *npy_serde::from_slice::<Bulk<f64>>(file).unwrap() == xs,
            "nd: Bulk<f64>"
        );
    }

    let mut g = c.benchmark_group("nd");
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(le.len() as u64));
    g.bench_function("from_slice", |b| {
        b.iter(|| npy_serde::from_slice::<NdArray<f64>>(black_box(&le)).unwrap())
    });
    g.bench_function("from_slice_be", |b| {
        b.iter(|| npy_serde::from_slice::<NdArray<f64>>(black_box(&be)).unwrap())
    });
    // with feature rayon the block splits across the pool; here at one thread
    #[cfg(feature = "rayon")]
    {
        let one = one_thread();
        g.bench_function("from_slice_1t", |b| {
            b.iter(|| {
                one.install(|| npy_serde::from_slice::<NdArray<f64>>(black_box(&le)).unwrap())
            })
        });
    }
    g.bench_function("copy_fresh", |b| b.iter(|| black_box(&le[..]).to_vec()));
    g.bench_function("ndarray_npy_read", |b| {
        b.iter(|| ndarray::Array2::<f64>::read_npy(black_box(&le[..])).unwrap())
    });
    g.bench_function("vec_from_slice", |b| {
        b.iter(|| npy_serde::from_slice::<Vec<f64>>(black_box(&flat_le)).unwrap())
    });
    g.bench_function("vec_from_slice_be", |b| {
        b.iter(|| npy_serde::from_slice::<Vec<f64>>(black_box(&flat_be)).unwrap())
    });
    g.bench_function("bulk_from_slice", |b| {
        b.iter(|| npy_serde::from_slice::<Bulk<f64>>(black_box(&flat_le)).unwrap())
    });
    g.bench_function("bulk_from_slice_be", |b| {
        b.iter(|| npy_serde::from_slice::<Bulk<f64>>(black_box(&flat_be)).unwrap())
    });
    g.bench_function("to_writer_file", |b| b.iter(ours_to_file));
    g.bench_function("ndarray_npy_write_file", |b| b.iter(theirs_to_file));
    g.finish();
}

/// One member `a`: the archives of the `files` group.
#[derive(Serialize, Deserialize, PartialEq)]
struct MemberA<T> {
    a: T,
}

/// See the module docs (`files`): whole files through the path functions
/// (issue 35), against numpy's and ndarray-npy's.
fn files(c: &mut Criterion) {
    use npy_serde::npz::{NpzOptions, NpzReader, NpzWriter};
    let (rows, cols) = (scaled(8000), 1000);
    let xs: Vec<f64> = (0..rows * cols).map(|i| i as f64 * 0.5).collect();
    let want = NdArray::from_shape_vec(vec![rows, cols], xs.clone()).unwrap();
    let bytes = npy_serde::to_vec(&want).unwrap();
    let path = dir().join("files.npy");
    std::fs::write(&path, &bytes).unwrap();
    let scratch = dir().join("files.tmp.npy");
    let (r0, r1) = ((rows / 2) as u64, (rows / 2 + 100).min(rows) as u64);
    let open_rows = || {
        let mut r = NpyReader::new(BufReader::new(File::open(&path).unwrap())).unwrap();
        r.rows::<NdArray<f64>>(r0..r1).unwrap()
    };
    let nondurable = WriteOptions::new().durable(false);
    let to_file = || {
        let mut w = BufWriter::new(File::create(&scratch).unwrap());
        npy_serde::to_writer(&mut w, black_box(&want)).unwrap();
        w.flush().unwrap();
    };
    // the records
    let recs = particles(scaled(1_000_000));
    let ppath = dir().join("files_particle.npy");
    npy_serde::to_path(&ppath, &recs).unwrap();
    let read_slice =
        || npy_serde::from_slice::<Vec<Particle>>(&std::fs::read(&ppath).unwrap()).unwrap();
    // the archives: the array as member "a", stored and deflated (level 6)
    let npz_path = |name: &str| dir().join(format!("files_{name}.npz"));
    for (name, compressed) in [("stored", false), ("deflated", true)] {
        let mut w = NpzWriter::new(BufWriter::new(File::create(npz_path(name)).unwrap()))
            .compressed(compressed);
        w.add("a", &want).unwrap();
        w.finish().unwrap().flush().unwrap();
    }
    let by_name = |name: &str| {
        let f = BufReader::new(File::open(npz_path(name)).unwrap());
        NpzReader::new(f)
            .unwrap()
            .by_name::<NdArray<f64>>("a")
            .unwrap()
    };
    // the compressible ramp for the levels
    let ramp = MemberA {
        a: (0..scaled(2_000_000) as i64)
            .map(|i| i / 7)
            .collect::<Vec<i64>>(),
    };
    let level_write = |level: u32, p: &Path| {
        let mut w = BufWriter::new(File::create(p).unwrap());
        NpzOptions::new()
            .compression_level(level)
            .to_writer(&mut w, black_box(&ramp))
            .unwrap();
        w.flush().unwrap();
    };
    let npz_scratch = dir().join("files.tmp.npz");

    // --- self-checks
    assert!(
        npy_serde::from_path::<NdArray<f64>>(&path).unwrap() == want,
        "files: from_path"
    );
    let theirs: ndarray::Array2<f64> = ndarray_npy::read_npy(&path).unwrap();
    assert!(
        theirs.as_slice() == Some(&xs[..]),
        "files: ndarray-npy read_npy"
    );
    nondurable.to_path(&scratch, &want).unwrap();
    assert!(
        std::fs::read(&scratch).unwrap() == bytes,
        "files: to_path (durable(false))"
    );
    std::fs::remove_file(&scratch).unwrap();
    npy_serde::to_path(&scratch, &want).unwrap();
    assert!(std::fs::read(&scratch).unwrap() == bytes, "files: to_path");
    std::fs::remove_file(&scratch).unwrap();
    to_file();
    assert!(
        std::fs::read(&scratch).unwrap() == bytes,
        "files: to_writer"
    );
    assert!(
        npy_serde::from_path::<Vec<Particle>>(&ppath).unwrap() == recs,
        "files: Particle from_path"
    );
    assert!(read_slice() == recs, "files: Particle read + from_slice");
    for name in ["stored", "deflated"] {
        assert!(by_name(name) == want, "files: npz {name} by_name");
        let mut z = NpzReader::new(File::open(npz_path(name)).unwrap()).unwrap();
        assert!(z.raw("a").unwrap() == bytes, "files: npz {name} member");
    }
    let part = open_rows();
    assert!(
        part.shape() == [(r1 - r0) as usize, cols]
            && part.data() == &xs[r0 as usize * cols..r1 as usize * cols],
        "files: rows"
    );
    let mut sizes = Vec::new();
    for level in [1, 6] {
        let p = npz_path(&format!("level{level}"));
        level_write(level, &p);
        let back: MemberA<Vec<i64>> = npy_serde::npz::from_path(&p).unwrap();
        assert!(back == ramp, "files: npz level {level}");
        sizes.push(std::fs::metadata(&p).unwrap().len());
    }
    eprintln!(
        "files: ramp of {} i64, archives: level 1 {} bytes, level 6 {} bytes",
        ramp.a.len(),
        sizes[0],
        sizes[1]
    );

    let mut g = c.benchmark_group("files");
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("from_path", |b| {
        b.iter(|| npy_serde::from_path::<NdArray<f64>>(&path).unwrap())
    });
    g.bench_function("ndarray_npy_read_file", |b| {
        b.iter(|| ndarray_npy::read_npy::<_, ndarray::Array2<f64>>(&path).unwrap())
    });
    g.bench_function("to_path_nondurable", |b| {
        b.iter(|| nondurable.to_path(&scratch, black_box(&want)).unwrap())
    });
    g.bench_function("to_path", |b| {
        b.iter(|| npy_serde::to_path(&scratch, black_box(&want)).unwrap())
    });
    g.bench_function("to_writer_file", |b| b.iter(to_file));
    g.bench_function("npz_stored_by_name", |b| b.iter(|| by_name("stored")));
    g.bench_function("npz_deflated_by_name", |b| b.iter(|| by_name("deflated")));
    g.bench_function("rows", |b| b.iter(open_rows));
    g.throughput(Throughput::Bytes(ramp.a.len() as u64 * 8));
    for level in [1, 6] {
        g.bench_function(format!("npz_level{level}_write"), |b| {
            b.iter(|| level_write(level, &npz_scratch))
        });
    }
    g.throughput(Throughput::Bytes(std::fs::metadata(&ppath).unwrap().len()));
    g.bench_function("particle_from_path", |b| {
        b.iter(|| npy_serde::from_path::<Vec<Particle>>(&ppath).unwrap())
    });
    g.bench_function("particle_read_slice", |b| b.iter(read_slice));
    g.finish();
    for p in [&scratch, &npz_scratch] {
        let _ = std::fs::remove_file(p);
    }
}

/// Issue 37: a file of 1M Particle records into an Arrow `RecordBatch`,
/// by `arrow::from_slice` (from the dtype, one gather per field) against
/// the route a user had before: `from_slice::<Vec<Particle>>` then
/// serde_arrow's `to_record_batch`. Feature `arrow` (bench/compare builds
/// with it); without it the group is empty.
fn arrow(c: &mut Criterion) {
    #[cfg(feature = "arrow")]
    {
        use serde_arrow::schema::{SchemaLike, TracingOptions};
        let recs = particles(scaled(1_000_000));
        let bytes = npy_serde::to_vec(&recs).unwrap();
        let fields =
            Vec::<arrow_schema::FieldRef>::from_type::<Particle>(TracingOptions::default())
                .unwrap();
        // both hold the same values
        let ours = npy_serde::arrow::from_slice(&bytes).unwrap();
        let theirs = serde_arrow::to_record_batch(&fields, &recs).unwrap();
        assert_eq!(
            (ours.num_rows(), ours.num_columns()),
            (theirs.num_rows(), theirs.num_columns())
        );
        let mut g = c.benchmark_group("arrow");
        g.sampling_mode(SamplingMode::Flat);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("from_slice", |b| {
            b.iter(|| npy_serde::arrow::from_slice(black_box(&bytes)).unwrap())
        });
        g.bench_function("serde_arrow", |b| {
            b.iter(|| {
                let v: Vec<Particle> = npy_serde::from_slice(black_box(&bytes)).unwrap();
                serde_arrow::to_record_batch(&fields, &v).unwrap()
            })
        });
        g.finish();
    }
    #[cfg(not(feature = "arrow"))]
    let _ = c;
}

criterion_group! {
    name = benches;
    config = config();
    targets = particle, narrow, wide, strings, f64s, f32x3, byte_order, scaling, npz, append, view, nd, files, arrow
}
criterion_main!(benches);
