//! Property: every write path gives the same bytes.

use std::io::Cursor;

use npy_serde::{WriteOptions, to_vec, to_writer};
use proptest::prelude::*;
use serde::Serialize;

#[derive(Serialize, Debug, Clone)]
struct Rec {
    id: u64,
    pos: [f64; 3],
    name: String,
    flag: bool,
    small: i8,
}

fn rec() -> impl Strategy<Value = Rec> {
    (
        any::<u64>(),
        any::<[f64; 3]>(),
        "[a-zé]{0,6}",
        any::<bool>(),
        any::<i8>(),
    )
        .prop_map(|(id, pos, name, flag, small)| Rec {
            id,
            pos,
            name,
            flag,
            small,
        })
}

proptest! {
    #[test]
    fn all_paths_agree(v in proptest::collection::vec(rec(), 1..40), align in any::<bool>()) {
        let opts = WriteOptions::new().align(align);
        let a = opts.to_vec(&v).unwrap();
        let mut b = Vec::new();
        opts.to_writer(&mut b, &v).unwrap();
        prop_assert_eq!(&a, &b);
        // NpyWriter takes string widths from the first record: compare
        // when the first name is the longest
        let widest = v.iter().map(|r| r.name.chars().count()).max().unwrap_or(0);
        if v[0].name.chars().count() == widest {
            let mut w = opts.npy_writer(Cursor::new(Vec::new())).unwrap();
            for r in &v { w.serialize(r).unwrap(); }
            let dtype = w.dtype().unwrap().clone();
            prop_assert_eq!(&a, &w.finish().unwrap().into_inner());
            let mut w = opts.npy_writer_with_len(Vec::new(), v.len() as u64);
            for r in &v { w.serialize(r).unwrap(); }
            prop_assert_eq!(&a, &w.finish().unwrap());
            // the same dtype given explicitly: the same bytes
            let c = WriteOptions::new().dtype(dtype.clone()).to_vec(&v).unwrap();
            prop_assert_eq!(&a, &c);
            let mut d = Vec::new();
            WriteOptions::new().dtype(dtype).to_writer(&mut d, &v).unwrap();
            prop_assert_eq!(&a, &d);
        }
    }

    #[test]
    fn fortran_matches_transpose(rows in 1usize..5, cols in 1usize..5, seed in any::<i32>()) {
        let m: Vec<Vec<i32>> = (0..rows)
            .map(|i| (0..cols).map(|j| seed.wrapping_add((i * cols + j) as i32)).collect())
            .collect();
        let f = WriteOptions::new().fortran_order(true).to_vec(&m).unwrap();
        let t: Vec<Vec<i32>> = (0..cols).map(|j| (0..rows).map(|i| m[i][j]).collect()).collect();
        let c = to_vec(&t).unwrap();
        // same data bytes (the transpose in C order), different headers
        let hf = f.len() - rows * cols * 4;
        let hc = c.len() - rows * cols * 4;
        prop_assert_eq!(&f[hf..], &c[hc..]);
        let mut w = Vec::new();
        WriteOptions::new().fortran_order(true).to_writer(&mut w, &m).unwrap();
        prop_assert_eq!(&f, &w);
        let _ = to_writer(Vec::new(), &m);
    }
}
