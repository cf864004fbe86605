//! bfloat16 (`half::bf16`, feature `half`) as ml_dtypes saves it: `'|V2'`,
//! read bit-exact from numpy-made files (tests/data/bf16/make.py) and
//! written back as the same bytes.

use half::bf16;
use serde::{Deserialize, Serialize};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/data/bf16/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The bit patterns make.py stored, from its bits.json.
fn bits(key: &str) -> Vec<u16> {
    let json: serde_json::Value = serde_json::from_slice(&fixture("bits.json")).unwrap();
    json[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| u16::try_from(b.as_u64().unwrap()).unwrap())
        .collect()
}

#[derive(Serialize, Deserialize, Debug)]
struct Rec {
    w: bf16,
    x: f32,
}

#[test]
fn bf16_reads_from_v2_bit_exact() {
    let v: Vec<bf16> = npy_serde::from_slice(&fixture("plain.npy")).unwrap();
    let got: Vec<u16> = v.iter().map(|b| b.to_bits()).collect();
    assert_eq!(got, bits("plain"));
    // the values are the bfloat16 ones: 1, -2, pi rounded to 8 bits
    assert_eq!(v[0].to_f32(), 1.0);
    assert_eq!(v[1].to_f32(), -2.0);
    assert_eq!(v[2].to_f32(), 3.140625);
    // NaN payloads and signalling bits pass unchanged
    assert!(v[9].is_nan() && v[9].to_bits() == 0x7f81);

    let r: Vec<Rec> = npy_serde::from_slice(&fixture("records.npy")).unwrap();
    let got: Vec<u16> = r.iter().map(|r| r.w.to_bits()).collect();
    assert_eq!(got, bits("records"));
    assert_eq!(r.iter().map(|r| r.x).collect::<Vec<_>>(), [0.5, -1.5, 3.0]);
}

#[test]
fn bf16_writes_as_v2_byte_identical() {
    for name in ["plain.npy", "records.npy"] {
        let file = fixture(name);
        let again = if name == "plain.npy" {
            let v: Vec<bf16> = npy_serde::from_slice(&file).unwrap();
            npy_serde::to_vec(&v).unwrap()
        } else {
            let v: Vec<Rec> = npy_serde::from_slice(&file).unwrap();
            npy_serde::to_vec(&v).unwrap()
        };
        assert_eq!(again, file, "{name}");
    }
    // an npz member of bfloat16 is the same '|V2' array
    #[derive(Serialize, Deserialize)]
    struct Weights {
        w: Vec<bf16>,
    }
    let w: Vec<bf16> = npy_serde::from_slice(&fixture("plain.npy")).unwrap();
    let mut zip = Vec::new();
    npy_serde::npz::to_writer(std::io::Cursor::new(&mut zip), &Weights { w: w.clone() }).unwrap();
    let mut archive = npy_serde::npz::NpzReader::new(std::io::Cursor::new(&zip)).unwrap();
    assert_eq!(archive.raw("w").unwrap(), fixture("plain.npy"));
    let back: Weights = npy_serde::npz::from_reader(std::io::Cursor::new(&zip)).unwrap();
    let bits = |v: &[bf16]| v.iter().map(|b| b.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&back.w), bits(&w));
    // the dtype of the type alone agrees
    assert_eq!(
        npy_serde::Dtype::of::<Rec>().unwrap().to_string(),
        "[('w', '|V2'), ('x', '<f4')]"
    );
}

/// Into a float dtype given by hand, a bfloat16 is its f32 value: exact in
/// `f4`/`f8`, refused where it does not fit.
#[test]
fn bf16_into_float_dtypes_converts_exactly() {
    let v = vec![bf16::from_bits(0x4049), bf16::from_bits(0x7f81)];
    let f4: npy_serde::Dtype = "<f4".parse().unwrap();
    let bytes = npy_serde::WriteOptions::new().dtype(f4).to_vec(&v).unwrap();
    let back: Vec<f32> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back[0], 3.140625);
    assert_eq!(back[1].to_bits(), 0x7f81_0000);
    let f2: npy_serde::Dtype = "<f2".parse().unwrap();
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        let err = npy_serde::WriteOptions::new()
            .dtype(f2)
            .to_vec(&[bf16::from_bits(0x7f7f)])
            .unwrap_err();
        insta::assert_snapshot!("bf16_into_f2_refused", err.to_string());
    });
}

#[test]
fn half_floats_meet_a_2d_array_alike() {
    // f16 and bf16 are both this crate's special newtypes: a row of a 2-d
    // array is refused in the same words for both, from a slice and from
    // a stream (the read side knows the special names from one list; bf16
    // was once taken for an ordinary newtype over u16 here, and the
    // message told to read the file as u16)
    use half::f16;
    let b = npy_serde::to_vec(&vec![[bf16::from_f32(1.0); 2]; 2]).unwrap();
    let h = npy_serde::to_vec(&vec![[f16::from_f32(1.0); 2]; 2]).unwrap();
    let hint = "; the file holds a 2-d array of shape (2, 2): read it as NdArray<T> \
                (shape and flat data) or as nested Vecs (Vec<Vec<T>>)";
    for e in [
        npy_serde::from_slice::<Vec<bf16>>(&b).unwrap_err(),
        npy_serde::from_reader::<Vec<bf16>>(&b[..]).unwrap_err(),
    ] {
        let want = "record 0: expected tuple struct bf16, found subarray of shape (2,) of '|V2'";
        assert_eq!(e.to_string(), format!("{want}{hint}"));
    }
    for e in [
        npy_serde::from_slice::<Vec<f16>>(&h).unwrap_err(),
        npy_serde::from_reader::<Vec<f16>>(&h[..]).unwrap_err(),
    ] {
        let want = "record 0: expected tuple struct f16, found subarray of shape (2,) of '<f2'";
        assert_eq!(e.to_string(), format!("{want}{hint}"));
    }
}
