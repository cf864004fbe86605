//! Long doubles (`'<f16'`, `'<c32'`, `'<f12'`) under
//! `ReadOptions::long_double` + `lossy(true)`: x87 values from numpy
//! (tests/data/longdouble/x87.npz, numpy on x86-64) equal numpy's own
//! `astype(np.float64)` / `astype(np.float32)` bit for bit; binary128 and
//! double-double from the hand-encoded table ieee_dd.json, whose expected
//! roundings make.py computed with exact Fractions.

use std::collections::BTreeMap;
use std::io::Cursor;

use npy_serde::npz::NpzReader;
use npy_serde::{Header, LongDouble, ReadOptions};
use num_complex::Complex;
use serde::Deserialize;
use serde_json::Value;

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/data/longdouble/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn x87() -> NpzReader<Cursor<Vec<u8>>> {
    let opts = ReadOptions::new().long_double(LongDouble::X87).lossy(true);
    NpzReader::with_options(Cursor::new(data("x87.npz")), opts).unwrap()
}

/// An .npy file of `descr`, `shape` and `data` (format 1.0).
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
    let len = (dict.len() + 11).next_multiple_of(64) - 10;
    let mut v = b"\x93NUMPY\x01\x00".to_vec();
    v.extend((len as u16).to_le_bytes());
    v.extend(format!("{dict:<0$}\n", len - 1).bytes());
    v.extend_from_slice(data);
    v
}

/// The data bytes of a member.
fn member_data(z: &mut NpzReader<Cursor<Vec<u8>>>, name: &str) -> Vec<u8> {
    let raw = z.raw(name).unwrap();
    let (_, offset) = Header::from_bytes(&raw, &ReadOptions::new()).unwrap();
    raw[offset..].to_vec()
}

fn bits64(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn bits32(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn x87_members_equal_numpy_astype_bit_for_bit() {
    let mut z = x87();
    for name in ["hard", "random", "ties", "big_endian"] {
        let got: Vec<f64> = z.by_name(name).unwrap();
        let want: Vec<f64> = z.by_name(&format!("{name}_f8")).unwrap();
        assert_eq!(bits64(&got), bits64(&want), "{name} as f64");
        // f32: rounded once, as numpy's astype(np.float32) does
        let got: Vec<f32> = z.by_name(name).unwrap();
        let want: Vec<f32> = z.by_name(&format!("{name}_f4")).unwrap();
        assert_eq!(bits32(&got), bits32(&want), "{name} as f32");
    }
    // the hard cases include NaNs with payloads, the invalid encodings
    // numpy casts to the negative default NaN, overflow and subnormals
    let hard: Vec<f64> = z.by_name("hard_f8").unwrap();
    assert!(hard.iter().filter(|x| x.is_nan()).count() >= 8);
    assert!(hard.contains(&f64::INFINITY) && hard.contains(&f64::NEG_INFINITY));
    assert!(hard.iter().any(|x| x.is_subnormal()));
    assert!(bits64(&hard).contains(&0xfff8_0000_0000_0000));
    let grid: Vec<Vec<f64>> = z.by_name("grid").unwrap();
    let want: Vec<Vec<f64>> = z.by_name("grid_f8").unwrap();
    assert_eq!(grid, want);
    assert_eq!(grid[0][0], 1.0 / 3.0);
    let nd: npy_serde::NdArray<f64> = z.by_name("grid").unwrap();
    assert_eq!(nd.shape(), [3, 4]);
}

#[test]
fn x87_complex_reads_into_complex_f64_and_f32() {
    let mut z = x87();
    let got: Vec<Complex<f64>> = z.by_name("complex").unwrap();
    let want: Vec<Complex<f64>> = z.by_name("complex_f8").unwrap();
    let flat = |v: &[Complex<f64>]| v.iter().flat_map(|c| [c.re, c.im]).collect::<Vec<_>>();
    assert_eq!(bits64(&flat(&got)), bits64(&flat(&want)));
    let got: Vec<Complex<f32>> = z.by_name("complex").unwrap();
    let want: Vec<Complex<f32>> = z.by_name("complex_f4").unwrap();
    let flat = |v: &[Complex<f32>]| v.iter().flat_map(|c| [c.re, c.im]).collect::<Vec<_>>();
    assert_eq!(bits32(&flat(&got)), bits32(&flat(&want)));
    // through the crate's complex token (a record field)
    #[derive(Deserialize)]
    struct C {
        #[serde(with = "npy_serde::complex")]
        z: Complex<f64>,
    }
    let data = member_data(&mut z, "complex");
    let file = npy("[('z', '<c32')]", "(20,)", &data);
    let opts = ReadOptions::new().long_double(LongDouble::X87).lossy(true);
    let got: Vec<C> = opts.from_slice(&file).unwrap();
    let want: Vec<Complex<f64>> = z.by_name("complex_f8").unwrap();
    assert_eq!(
        bits64(
            &got.iter()
                .flat_map(|c| [c.z.re, c.z.im])
                .collect::<Vec<_>>()
        ),
        bits64(&flat_c64(&want))
    );
}

fn flat_c64(v: &[Complex<f64>]) -> Vec<f64> {
    v.iter().flat_map(|c| [c.re, c.im]).collect()
}

#[test]
fn x87_into_generic_targets_and_records() {
    let mut z = x87();
    // serde_json::Value: as f64 (NaN and infinities become null there)
    let got: Value = z.by_name("hard").unwrap();
    let want: Vec<f64> = z.by_name("hard_f8").unwrap();
    let got = got.as_array().unwrap();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        match g.as_f64() {
            Some(g) => assert_eq!(g.to_bits(), w.to_bits()),
            None => assert!(g.is_null() && !w.is_finite()),
        }
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct R {
        x: f64,
        ld: f64,
    }
    let got: Vec<R> = z.by_name("record").unwrap();
    let want: Vec<f64> = z.by_name("record_ld_f8").unwrap();
    assert_eq!(got.iter().map(|r| r.x).collect::<Vec<_>>(), [1.0, 2.0, 3.0]);
    assert_eq!(
        bits64(&got.iter().map(|r| r.ld).collect::<Vec<_>>()),
        bits64(&want)
    );
    assert_eq!(want[1].to_bits(), 0x8000_0000_0000_0000); // -2^-1075: a tie, to -0.0
    let v: Value = z.by_name("record").unwrap();
    assert_eq!(v[0]["ld"], Value::from(1.0 / 3.0));
    // every member, as scipy's fftw_longdouble_ref.npz would be read
    let names = z.names().to_vec();
    let all: BTreeMap<String, Value> = names
        .iter()
        .map(|n| (n.clone(), z.by_name(n).unwrap()))
        .collect();
    assert_eq!(all.len(), 20);
    assert_eq!(all["grid"], all["grid_f8"]);
}

/// 32-bit x86 numpy writes the same 10 bytes with 2 of padding: '<f12'.
#[test]
fn x87_f12_from_32_bit_x86() {
    let mut z = x87();
    let want: Vec<f64> = z.by_name("hard_f8").unwrap();
    let le = member_data(&mut z, "hard");
    let f12: Vec<u8> = le.chunks(16).flat_map(|c| c[..12].to_vec()).collect();
    let be = member_data(&mut z, "big_endian");
    let f12_be: Vec<u8> = be.chunks(16).flat_map(|c| c[4..].to_vec()).collect();
    let c24: Vec<u8> = f12.chunks(24).flat_map(|c| c.to_vec()).collect();
    let opts = ReadOptions::new().long_double(LongDouble::X87).lossy(true);
    let shape = format!("({},)", want.len());
    let got: Vec<f64> = opts.from_slice(&npy("'<f12'", &shape, &f12)).unwrap();
    assert_eq!(bits64(&got), bits64(&want));
    let got: Vec<f64> = opts.from_slice(&npy("'>f12'", &shape, &f12_be)).unwrap();
    assert_eq!(bits64(&got), bits64(&want));
    let n = want.len() / 2;
    let got: Vec<Complex<f64>> = opts
        .from_slice(&npy("'<c24'", &format!("({n},)"), &c24[..n * 24]))
        .unwrap();
    assert_eq!(bits64(&flat_c64(&got)), bits64(&want[..2 * n]));
}

fn hex_bytes(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
        .collect()
}

fn table(kind: &str) -> Vec<Value> {
    let t: Value = serde_json::from_slice(&data("ieee_dd.json")).unwrap();
    t[kind].as_array().unwrap().clone()
}

fn expected(cases: &[Value]) -> (Vec<u64>, Vec<u32>) {
    let h64 = |c: &Value| u64::from_str_radix(c["f64"].as_str().unwrap(), 16).unwrap();
    let h32 = |c: &Value| u32::from_str_radix(c["f32"].as_str().unwrap(), 16).unwrap();
    (
        cases.iter().map(h64).collect(),
        cases.iter().map(h32).collect(),
    )
}

/// Reads `le` and `be` (one 16-byte value each per case) as `format`, both
/// orders, into f64, f32 and Complex<f64> (pairs of cases).
fn check_table(format: LongDouble, cases: &[Value], le: &[u8], be: &[u8]) {
    let (want64, want32) = expected(cases);
    let opts = ReadOptions::new().long_double(format).lossy(true);
    let shape = format!("({},)", cases.len());
    for (descr, bytes) in [("'<f16'", le), ("'>f16'", be)] {
        let file = npy(descr, &shape, bytes);
        let got: Vec<f64> = opts.from_slice(&file).unwrap();
        for (i, (g, w)) in got.iter().zip(&want64).enumerate() {
            assert_eq!(g.to_bits(), *w, "{format:?} {descr} case {i}: {}", cases[i]);
        }
        let got: Vec<f32> = opts.from_slice(&file).unwrap();
        for (i, (g, w)) in got.iter().zip(&want32).enumerate() {
            assert_eq!(
                g.to_bits(),
                *w,
                "{format:?} {descr} f32 case {i}: {}",
                cases[i]
            );
        }
        let n = cases.len() / 2;
        let c = if descr.starts_with("'<") {
            "'<c32'"
        } else {
            "'>c32'"
        };
        let file = npy(c, &format!("({n},)"), &bytes[..n * 32]);
        let got: Vec<Complex<f64>> = opts.from_slice(&file).unwrap();
        assert_eq!(bits64(&flat_c64(&got)), want64[..2 * n]);
    }
}

#[test]
fn binary128_table() {
    let cases = table("binary128");
    assert!(cases.len() > 300);
    let bits: Vec<u128> = cases
        .iter()
        .map(|c| u128::from_str_radix(c["bits"].as_str().unwrap(), 16).unwrap())
        .collect();
    let le: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
    let be: Vec<u8> = bits.iter().flat_map(|b| b.to_be_bytes()).collect();
    check_table(LongDouble::Binary128, &cases, &le, &be);
}

#[test]
fn double_double_table() {
    let cases = table("double_double");
    assert!(cases.len() > 200);
    let part = |c: &Value, k: &str| hex_bytes(c[k].as_str().unwrap());
    // hi first, each f64 in the file's byte order (ppc64le: '<f16')
    let le: Vec<u8> = cases
        .iter()
        .flat_map(|c| {
            let mut hi = part(c, "hi");
            let mut lo = part(c, "lo");
            hi.reverse();
            lo.reverse();
            [hi, lo].concat()
        })
        .collect();
    let be: Vec<u8> = cases
        .iter()
        .flat_map(|c| [part(c, "hi"), part(c, "lo")].concat())
        .collect();
    check_table(LongDouble::DoubleDouble, &cases, &le, &be);
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

#[test]
fn refusals_name_the_missing_options() {
    let mut z = x87();
    let f16 = member_data(&mut z, "hard");
    let c32 = member_data(&mut z, "complex");
    let f16 = npy("'<f16'", "(49,)", &f16);
    let c32 = npy("'<c32'", "(20,)", &c32);
    let f12 = npy("'<f12'", "(1,)", &[0; 12]);
    let mut lines = Vec::new();
    let mut show = |what: &str, r: npy_serde::Result<Value>| {
        lines.push(format!("{what}: {}", r.unwrap_err()));
    };
    let none = ReadOptions::new();
    let lossy = ReadOptions::new().lossy(true);
    let x87 = ReadOptions::new().long_double(LongDouble::X87);
    let q = ReadOptions::new()
        .long_double(LongDouble::Binary128)
        .lossy(true);
    let dd = ReadOptions::new()
        .long_double(LongDouble::DoubleDouble)
        .lossy(true);
    show("'<f16', no options", none.from_slice(&f16));
    show("'<f16', lossy only", lossy.from_slice(&f16));
    show("'<f16', long_double only", x87.from_slice(&f16));
    show("'<c32', no options", none.from_slice(&c32));
    show("'<c32', lossy only", lossy.from_slice(&c32));
    show("'<c32', long_double only", x87.from_slice(&c32));
    show("'<f12', Binary128 and lossy", q.from_slice(&f12));
    show("'<f12', DoubleDouble and lossy", dd.from_slice(&f12));
    let c24 = npy("'>c24'", "(1,)", &[0; 24]);
    show("'>c24', Binary128 and lossy", q.from_slice(&c24));
    // an npz member and a derived struct say where
    let mut plain = NpzReader::new(Cursor::new(data("x87.npz"))).unwrap();
    lines.push(format!(
        "npz member, no options: {}",
        plain.by_name::<Vec<f64>>("hard").unwrap_err()
    ));
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct R {
        x: f64,
        ld: f32,
    }
    lines.push(format!(
        "record field into f32, lossy only: {}",
        lossy
            .from_slice::<Vec<R>>(&z.raw("record").unwrap())
            .unwrap_err()
    ));
    // numpy-side rounding into an integer is not offered
    lines.push(format!(
        "into i64 with both: {}",
        ReadOptions::new()
            .long_double(LongDouble::X87)
            .lossy(true)
            .from_slice::<Vec<i64>>(&f16)
            .unwrap_err()
    ));
    snapshot!("read_long_double_refusals", lines.join("\n"));
}
