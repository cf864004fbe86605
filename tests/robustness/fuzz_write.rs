//! The `write` fuzz target's oracle (`fuzz/fuzz_targets/check_write.rs`) on
//! stable: the committed corpus of minimized inputs from the
//! coverage-guided campaigns (`fuzz/seeds/write`), random inputs with a
//! fixed budget, and the campaigns' findings as regression tests.

#[path = "../../fuzz/fuzz_targets/check_write.rs"]
mod check_write;

use npy_serde::{Dtype, Header, NpyWriter, ReadOptions, WriteOptions};

#[test]
fn corpus_replays() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/write");
    let mut typed = 0;
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        typed += usize::from(check_write::check(&bytes));
        n += 1;
    }
    assert!(n >= 50, "the committed corpus is missing");
    assert!(
        typed > 0 && typed < n,
        "the corpus has typed and derived cases"
    );
}

/// `FUZZ_CASES=100000 cargo test --test fuzz_write` runs longer.
#[test]
fn random_inputs() {
    let cases: u64 = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..cases {
        let len = (next() % 600) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        check_write::check(&bytes);
    }
}

fn header(bytes: &[u8]) -> Header {
    check_write::check_header(bytes)
}

/// Finding of the write campaign: with a given subarray dtype and a value
/// with no elements (nothing shows the subarray's axes), the header had the
/// subarray as descr, which numpy cannot read ("Expected (3,) = 3
/// elements, could only read 6"). Its axes join the shape.
#[test]
fn a_given_subarray_dtype_folds_into_the_shape() {
    let sub = |base: &str, dims: Vec<u64>| Dtype::subarray(base.parse().unwrap(), dims).unwrap();
    let empty: Vec<Vec<bool>> = vec![vec![], vec![], vec![]];
    let bytes = WriteOptions::new()
        .dtype(sub("|b1", vec![0]))
        .to_vec(&empty)
        .unwrap();
    let h = header(&bytes);
    assert_eq!(
        (h.descr.to_string().as_str(), h.shape.as_slice()),
        ("'|b1'", &[3, 0][..])
    );
    let bytes = WriteOptions::new()
        .dtype(sub("<f2", vec![2, 0]))
        .to_vec(&vec![Vec::<f32>::new(); 2])
        .unwrap();
    let h = header(&bytes);
    assert_eq!(
        (h.descr.to_string().as_str(), h.shape.as_slice()),
        ("'<f2'", &[2, 0][..])
    );
    // with elements the axes were already folded (Fortran order too)
    let m = vec![
        vec![[1i16, 2], [3, 4]],
        vec![[5, 6], [7, 8]],
        vec![[9, 10], [11, 12]],
    ];
    let opts = WriteOptions::new().fortran_order(true);
    let bytes = opts.clone().dtype(sub("<i2", vec![2])).to_vec(&m).unwrap();
    assert_eq!(bytes, opts.to_vec(&m).unwrap());
    assert_eq!(header(&bytes).shape, [3, 2, 2]);
}

/// Finding of the write campaign: an `NpyWriter` whose record dtype is a
/// subarray of a subarray folded only the outer level into the shape.
#[test]
fn npy_writer_folds_nested_subarrays() {
    let inner = Dtype::subarray("|u1".parse().unwrap(), vec![2]).unwrap();
    let record = Dtype::subarray(inner, vec![3]).unwrap();
    let mut w = NpyWriter::with_dtype(std::io::Cursor::new(Vec::new()), record).unwrap();
    let rows = [[[1u8, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]];
    for r in &rows {
        w.serialize(r).unwrap();
    }
    let bytes = w.finish().unwrap().into_inner();
    assert_eq!(bytes, npy_serde::to_vec(&rows).unwrap());
    let (h, _) = Header::from_bytes(&bytes, &ReadOptions::new()).unwrap();
    assert_eq!(
        (h.descr.to_string().as_str(), h.shape.as_slice()),
        ("'|u1'", &[2, 3, 2][..])
    );
}
