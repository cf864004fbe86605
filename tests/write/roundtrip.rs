//! Write then read back with the crate's own reader: the values survive.

use npy_serde::{Datetime64, Padding, Timedelta64, WriteOptions, from_slice, to_vec, unit};
use num_complex::Complex;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum Kind {
    Star,
    Planet,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Body {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
    _pad: Padding<3>,
    name: String,
    kind: Kind,
    #[serde(with = "npy_serde::complex")]
    z: Complex<f64>,
    t: Datetime64<unit::ns>,
    dt: Timedelta64<unit::s>,
    grid: [[u16; 2]; 2],
    ok: bool,
}

fn body() -> impl Strategy<Value = Body> {
    (
        any::<u64>(),
        any::<[f64; 3]>().prop_filter("no NaN", |p| p.iter().all(|x| !x.is_nan())),
        any::<[i16; 3]>(),
        any::<i8>(),
        "[a-zA-Zé€]{0,5}",
        any::<bool>(),
        any::<i64>(),
        any::<[[u16; 2]; 2]>(),
    )
        .prop_map(|(id, pos, v, charge, name, ok, t, grid)| Body {
            id,
            pos,
            vel: v.map(f32::from),
            mass: f32::from(v[0]) * 0.5,
            charge,
            _pad: Padding,
            name,
            kind: if ok { Kind::Star } else { Kind::Planet },
            z: Complex::new(pos[0], -pos[1]),
            t: Datetime64::new(t),
            dt: Timedelta64::new(t / 3),
            grid,
            ok,
        })
}

proptest! {
    #[test]
    fn records_round_trip(v in proptest::collection::vec(body(), 1..20), align in any::<bool>()) {
        let bytes = WriteOptions::new().align(align).to_vec(&v).unwrap();
        let back: Vec<Body> = from_slice(&bytes).unwrap();
        prop_assert_eq!(back, v);
    }

    #[test]
    fn fortran_round_trip(rows in 1usize..6, cols in 1usize..6, seed in any::<i64>()) {
        let m: Vec<Vec<i64>> = (0..rows)
            .map(|i| (0..cols).map(|j| seed.wrapping_add((i * 31 + j) as i64)).collect())
            .collect();
        let bytes = WriteOptions::new().fortran_order(true).to_vec(&m).unwrap();
        let back: Vec<Vec<i64>> = from_slice(&bytes).unwrap();
        prop_assert_eq!(back, m);
    }
}

#[test]
fn scalar_and_record_0d_round_trip() {
    let b: f64 = from_slice(&to_vec(&2.5f64).unwrap()).unwrap();
    assert_eq!(b, 2.5);
    let t: (u8, String) = from_slice(&to_vec(&(7u8, "hi")).unwrap()).unwrap();
    assert_eq!(t, (7, "hi".to_string()));
}
