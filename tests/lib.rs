//! The test suite of npy_serde (unpublished): one test binary per
//! capability, each a directory whose `main.rs` lists its modules.
//!
//! | binary | what it proves |
//! |---|---|
//! | `write` | byte-exact output against numpy's files, every write path, refusals |
//! | `read` | numpy-made files into derived structs and JSON, headers and descrs, `Bulk` |
//! | `npz` | archives read and written, columnar members |
//! | `fidelity` | numpy's bytes through a generic value and back unchanged, NaN payloads, datetime text |
//! | `robustness` | hostile and mutated input, nesting depth, write faults, fuzzing |
//! | `memory` | memory bounded by the bytes present and by the writers' buffers |
//! | `interop` | live round trips with numpy (driven by `.ci/run`) |
//! | `dtype` | `Dtype::of` refusals and limits, with their messages |
//! | `parallel` | the `rayon` feature's paths equal the sequential ones |
//!
//! Fixtures live beside them: `data/` (numpy-made files and the hostile
//! corpus, each with the script that made it), `fixtures/` (header and
//! descr texts numpy produced) and `interop/*.py` (numpy's side of the live
//! interop). Snapshots are in `../snapshots/npy_serde`. The benches against
//! npyz and hand-written codecs are in `benches/npy.rs`.
#![forbid(unsafe_code)]

/// The README's and the tutorial's memory-map code, run here as doctests:
/// it uses memmap2, a dev-dependency of this package only (the root
/// package's doctests mark it `ignore`; `build.rs` collects it).
#[doc = include_str!(concat!(env!("OUT_DIR"), "/memory_map_docs.md"))]
pub mod memory_map_docs {}

/// A copy of some bytes at a chosen alignment in memory: its first byte at
/// a multiple of 64 plus `shift` (a `Vec<u8>` alone is only 1-byte aligned),
/// for the zero-copy views (`npy_serde::view`).
pub struct Aligned {
    buf: Vec<u8>,
    start: usize,
    len: usize,
}

impl Aligned {
    /// `bytes` copied to an address `shift` bytes past a multiple of 64.
    pub fn new(bytes: &[u8], shift: usize) -> Aligned {
        let mut buf = vec![0u8; bytes.len() + shift + 64];
        let start = buf.as_ptr().align_offset(64) + shift;
        buf[start..start + bytes.len()].copy_from_slice(bytes);
        Aligned {
            buf,
            start,
            len: bytes.len(),
        }
    }

    /// The copy.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[self.start..self.start + self.len]
    }

    /// The copy, to write.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

/// A version 1.0 npy header for a 1-d array of `descr` and `n` elements,
/// padded like numpy's (for archives built by hand, whose data follows).
pub fn npy_header_1d(descr: &str, n: u64) -> Vec<u8> {
    let text = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({n},), }}");
    let hlen = text.len() + 1;
    let pad = (64 - (10 + hlen) % 64) % 64;
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&u16::try_from(hlen + pad).unwrap().to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    out.extend(std::iter::repeat_n(b' ', pad));
    out.push(b'\n');
    out
}

/// The npz bench's four arrays (`benches/npy.rs`, also read by the
/// `memory` and `parallel` binaries): the `Particle` columns without
/// `charge`, as `np.savez(f, id=..., pos=..., vel=..., mass=...)` writes
/// them, and the same read through the typed bulk path.
pub mod snapshot {
    use serde::{Deserialize, Serialize};

    /// Four members of four dtypes (48 bytes a record).
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub struct Snapshot {
        pub id: Vec<u64>,
        pub pos: Vec<[f64; 3]>,
        pub vel: Vec<[f32; 3]>,
        pub mass: Vec<f32>,
    }

    /// The same archive read through `#[serde(with = "npy_serde::bulk")]`.
    #[derive(Deserialize, Debug, PartialEq)]
    pub struct BulkSnapshot {
        #[serde(with = "npy_serde::bulk")]
        pub id: Vec<u64>,
        #[serde(with = "npy_serde::bulk")]
        pub pos: Vec<[f64; 3]>,
        #[serde(with = "npy_serde::bulk")]
        pub vel: Vec<[f32; 3]>,
        #[serde(with = "npy_serde::bulk")]
        pub mass: Vec<f32>,
    }

    impl PartialEq<Snapshot> for BulkSnapshot {
        fn eq(&self, s: &Snapshot) -> bool {
            self.id == s.id && self.pos == s.pos && self.vel == s.vel && self.mass == s.mass
        }
    }
}
