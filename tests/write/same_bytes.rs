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

/// A sequence that gives serde no length (as a filtered iterator does).
struct Unsized<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for Unsized<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().filter(|_| true))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The single walks that write as they encode (`to_path`'s temporary
    /// file, an npz member) give `to_vec`'s bytes on arrays larger than
    /// their 64-KiB chunks, with and without length hints, when a later
    /// record widens a string after chunks were written (the walk starts
    /// over), aligned or packed.
    #[test]
    fn single_walk_paths_agree(
        v in proptest::collection::vec(rec(), 1..12),
        reps in 1usize..1500,
        hinted in any::<bool>(),
        align in any::<bool>(),
        late_wide in any::<bool>(),
        first_widest in any::<bool>(),
    ) {
        let mut v = v;
        if first_widest {
            // the first record fixes the string width: the walk goes to the
            // end (otherwise a wider name early starts it over)
            v[0].name = "zzzzzz".into();
        }
        let mut big: Vec<Rec> = v.iter().cycle().take(v.len() * reps).cloned().collect();
        if late_wide {
            // wider than any generated name, three quarters in
            let at = big.len() * 3 / 4;
            big[at].name = "wider than the rest".into();
        }
        let opts = WriteOptions::new().align(align);
        let expected = opts.to_vec(&big).unwrap();
        let mut z = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new()));
        if hinted {
            z.add_with_options("m", &opts, &big).unwrap();
        } else {
            z.add_with_options("m", &opts, &Unsized(&big)).unwrap();
        }
        let mut r = npy_serde::npz::NpzReader::new(z.finish().unwrap()).unwrap();
        prop_assert_eq!(&r.raw("m").unwrap(), &expected);
        let dir = std::env::temp_dir().join(format!("npy_serde_props_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.npy");
        if hinted {
            opts.to_path(&path, &big).unwrap();
        } else {
            opts.to_path(&path, &Unsized(&big)).unwrap();
        }
        prop_assert_eq!(&std::fs::read(&path).unwrap(), &expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
