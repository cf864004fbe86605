//! The npz writers keep memory bounded: the counting allocator of this test
//! binary measures the peak heap growth while a large columnar
//! archive and a large streamed member are written to a writer that keeps
//! nothing.

use std::io::{Seek, SeekFrom, Write};

use npy_serde::npz::{self, NpzWriter};
use npy_serde::{Dtype, ScalarType};

/// Peak heap growth above the current level while `f` runs.
fn peak_growth(f: impl FnOnce()) -> usize {
    let grew = crate::peak_of(f);
    eprintln!("peak heap growth: {grew} bytes");
    grew
}

/// A seekable writer that keeps no bytes, only its position and length.
#[derive(Default)]
struct Discard {
    pos: u64,
    len: u64,
}

impl Write for Discard {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pos += buf.len() as u64;
        self.len = self.len.max(self.pos);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Seek for Discard {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.pos = match pos {
            SeekFrom::Start(p) => p,
            SeekFrom::End(d) => self.len.saturating_add_signed(d),
            SeekFrom::Current(d) => self.pos.saturating_add_signed(d),
        };
        Ok(self.pos)
    }
}

#[derive(serde::Serialize)]
struct P {
    id: u64,
    pos: [f64; 3],
    name: String,
}

const N: u64 = 300_000;
/// One record, 64 KiB chunk buffers, zip and deflate state, headers (measured:
/// about 70 KB stored, 480 KB deflated in one stream, for 14 MB of data).
const BOUND: usize = 1 << 20;

/// A deflated member is compressed in 256 KiB pieces, two per thread at a
/// time, each with its own deflate state (about 300 KB): per thread about
/// 512 KiB of input, its compressed pieces and states, whatever the data's
/// size (measured: 2.5 MB in all at 2 threads).
fn deflated_bound() -> usize {
    #[cfg(feature = "rayon")]
    let threads = rayon::current_num_threads();
    #[cfg(not(feature = "rayon"))]
    let threads = 0;
    BOUND + threads * (1 << 20)
}

#[test]
fn writers_keep_memory_bounded() {
    let _only = crate::exclusive();
    // (one test function: the allocator counts are process-wide)
    let records: Vec<P> = (0..N)
        .map(|i| P {
            id: i,
            pos: [i as f64; 3],
            name: format!("p{}", i % 1000),
        })
        .collect();
    let data_bytes = N as usize * (8 + 24 + 16);
    for compressed in [false, true] {
        let mut out = Discard::default();
        let grew = peak_growth(|| {
            let mut w = NpzWriter::new(&mut out).compressed(compressed);
            w.add("records", &records).unwrap(); // one record array member
            w.finish().unwrap();
        });
        assert!(out.len > if compressed { 0 } else { data_bytes as u64 });
        let bound = if compressed { deflated_bound() } else { BOUND };
        assert!(
            grew < bound,
            "record member (compressed {compressed}): heap grew by {grew} bytes for {data_bytes} bytes of data"
        );
    }
    let mut out = Discard::default();
    let grew = peak_growth(|| {
        npz::to_writer(&mut out, &records).unwrap();
    });
    assert!(grew < BOUND, "npz::to_writer: heap grew by {grew} bytes");

    let mut out = Discard::default();
    let grew = peak_growth(|| {
        let mut w = NpzWriter::new(&mut out).compressed(true);
        let dt = Dtype::subarray(Dtype::scalar(ScalarType::Float(8)), vec![3]).unwrap();
        let mut m = w.start("pos", dt, N).unwrap();
        for i in 0..N {
            m.serialize(&[i as f64; 3]).unwrap();
        }
        m.finish().unwrap();
        w.finish().unwrap();
    });
    assert!(
        grew < deflated_bound(),
        "streamed member: heap grew by {grew} bytes"
    );
}
