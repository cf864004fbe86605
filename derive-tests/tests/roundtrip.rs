//! `from_slice(to_vec(x)) == x` for every type, plus the attributes that only
//! show when reading (alias, default, deny_unknown_fields) and the values
//! `to_vec` must refuse.

mod common;

use common::*;
use derive_tests::*;
use serde::{Deserialize, Serialize};

fn roundtrip<T>(samples: Vec<T>)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let bytes = npy_serde::to_vec(&samples).unwrap();
    let back: Vec<T> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, samples, "{}", std::any::type_name::<T>());
}

fn refused<T: Serialize>(name: &str, value: &T) {
    let msg = npy_serde::to_vec(value).unwrap_err().to_string();
    insta::with_settings!({
        snapshot_path => "../../snapshots/derive-tests",
        prepend_module_to_snapshot => false,
        snapshot_suffix => name,
    }, {
        insta::assert_snapshot!("to_vec__refused", msg);
    });
}

#[test]
fn every_type_round_trips() {
    roundtrip(bools());
    roundtrip(ints());
    roundtrip(uints());
    roundtrip(floats());
    roundtrip(halves());
    roundtrip(complexes());
    roundtrip(chars());
    roundtrip(strings());
    roundtrip(bytes());
    roundtrip(nested());
    roundtrip(with_newtype());
    roundtrip(with_units());
    roundtrip(arrays());
    roundtrip(vec_field());
    roundtrip(tuple_struct());
    roundtrip(mixed_tuple());
    roundtrip(padded());
    roundtrip(with_enum());
    roundtrip(times());
    roundtrip(renamed());
    roundtrip(skipped());
    roundtrip(flattened());
    roundtrip(defaulted());
    roundtrip(with_module());
    roundtrip(aliased());
    roundtrip(transparent());
    roundtrip(with_untagged());
    roundtrip(tagged());
    roundtrip(strict());
    roundtrip(optional());
    roundtrip(particles());
    roundtrip(mixed());
}

#[test]
fn single_values_round_trip() {
    let one = particles().remove(0);
    let back: Particle = npy_serde::from_slice(&npy_serde::to_vec(&one).unwrap()).unwrap();
    assert_eq!(back, one);
    let arrays = vec![[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let bytes = npy_serde::to_vec(&arrays).unwrap();
    assert_eq!(descr(&bytes), "'<f8'");
    assert_eq!(shape(&bytes), "(2, 3)");
    let back: Vec<[f64; 3]> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, arrays);
}

#[test]
fn alias_reads_the_old_name() {
    #[derive(Serialize)]
    struct Old {
        x_old: f64,
    }
    let bytes = npy_serde::to_vec(&vec![Old { x_old: 4.0 }]).unwrap();
    let back: Vec<Aliased> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, vec![Aliased { x: 4.0 }]);
}

#[test]
fn default_fills_a_missing_field() {
    let bytes = npy_serde::to_vec(&strict()).unwrap();
    let back: Vec<Defaulted> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, vec![Defaulted { a: 1, b: 0 }]);
}

#[test]
fn extra_fields_are_ignored_unless_denied() {
    let bytes = npy_serde::to_vec(&wider()).unwrap();
    // A struct with fewer fields reads by name and skips the rest.
    #[derive(Deserialize, Debug, PartialEq)]
    struct OnlyB {
        b: u8,
    }
    let back: Vec<OnlyB> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, vec![OnlyB { b: 2 }]);

    let msg = npy_serde::from_slice::<Vec<Strict>>(&bytes)
        .unwrap_err()
        .to_string();
    insta::with_settings!({
        snapshot_path => "../../snapshots/derive-tests",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!("from_slice__deny_unknown_fields", msg);
    });
}

#[test]
fn values_without_a_numpy_layout_are_refused() {
    refused(
        "none",
        &vec![Optional { maybe: Some(1.0) }, Optional { maybe: None }],
    );
    refused("i128", &vec![Wide { big: 1 }]);
    refused("enum_with_data", &vec![WithData::Circle(1.0)]);
    refused(
        "tagged_mixed_variants",
        &vec![Tagged::Circle { r: 1.0 }, Tagged::Square { side: 2.0 }],
    );
    refused(
        "untagged_mixed_variants",
        &vec![
            WithUntagged {
                v: Untagged::F(1.0),
            },
            WithUntagged { v: Untagged::I(1) },
        ],
    );
    refused(
        "ragged_vec",
        &vec![
            VecField { samples: vec![1.0] },
            VecField {
                samples: vec![1.0, 2.0],
            },
        ],
    );
    refused(
        "trailing_nul_string",
        &vec![Strings {
            name: "ab\0".into(),
        }],
    );
    refused(
        "trailing_nul_bytes",
        &vec![Bytes {
            raw: b"ab\0".to_vec(),
        }],
    );
}
