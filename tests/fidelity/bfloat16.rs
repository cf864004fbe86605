//! bfloat16 (`half::bf16`, feature `half`) as ml_dtypes saves it: `'|V2'`,
//! read bit-exact from numpy-made files (tests/data/bf16/make.py).

use half::bf16;
use serde::Deserialize;

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

#[derive(Deserialize, Debug)]
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
