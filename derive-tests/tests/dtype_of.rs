//! `Dtype::of::<T>()` against what `to_vec` writes for a sample: for every
//! type whose layout the type alone fixes, they must agree exactly.

mod common;

use common::*;
use derive_tests::*;
use npy_serde::{Dtype, WriteOptions};
use serde::{Deserialize, Serialize};

fn same<T>(samples: Vec<T>)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let traced = Dtype::of::<T>().unwrap();
    let bytes = npy_serde::to_vec(&samples).unwrap();
    assert_eq!(
        traced.to_string(),
        descr(&bytes),
        "{}",
        std::any::type_name::<T>()
    );
    assert_eq!(Dtype::of::<Vec<T>>().unwrap(), traced);

    // Zero records: the traced dtype lets an empty array be written.
    let empty: Vec<T> = Vec::new();
    let bytes = WriteOptions::new()
        .dtype(traced.clone())
        .to_vec(&empty)
        .unwrap();
    assert_eq!(descr(&bytes), traced.to_string());
    assert_eq!(shape(&bytes), "(0,)");
    let back: Vec<T> = npy_serde::from_slice(&bytes).unwrap();
    assert!(back.is_empty());
}

#[test]
fn fixed_types_trace_to_the_written_descr() {
    same(bools());
    same(ints());
    same(uints());
    same(floats());
    same(halves());
    same(complexes());
    same(chars());
    same(nested());
    same(with_newtype());
    same(with_units());
    same(arrays());
    same(tuple_struct());
    same(mixed_tuple());
    same(times());
    same(renamed());
    same(skipped());
    same(defaulted());
    same(with_module());
    same(aliased());
    same(transparent());
    same(strict());
    same(particles());
}

/// Needs `Padding<N>`'s `visit_some` to ask for the `$npy_serde::padding`
/// newtype and its `visit_seq` to take N elements (the protocol in
/// `src/trace.rs`); `src/padding.rs` does not do that yet.
#[test]
fn padding_traces_to_a_gap() {
    same(padded());
}

#[test]
fn value_dependent_types_trace_with_a_hint() {
    // The type alone gives the widest variant; the sample gives the widest written.
    assert_eq!(
        Dtype::of::<WithEnum>().unwrap().to_string(),
        "[('color', '<U5')]"
    );
    let bytes = npy_serde::to_vec(&with_enum()).unwrap();
    assert_eq!(descr(&bytes), "[('color', '<U5')]");

    let refused = [
        ("strings", Dtype::of::<Strings>().unwrap_err().to_string()),
        ("bytes", Dtype::of::<Bytes>().unwrap_err().to_string()),
        (
            "vec_field",
            Dtype::of::<VecField>().unwrap_err().to_string(),
        ),
        ("flatten", Dtype::of::<Flattened>().unwrap_err().to_string()),
        (
            "untagged",
            Dtype::of::<WithUntagged>().unwrap_err().to_string(),
        ),
        (
            "internally_tagged",
            Dtype::of::<Tagged>().unwrap_err().to_string(),
        ),
        (
            "enum_with_data",
            Dtype::of::<WithData>().unwrap_err().to_string(),
        ),
        ("option", Dtype::of::<Optional>().unwrap_err().to_string()),
        ("i128", Dtype::of::<Wide>().unwrap_err().to_string()),
        ("mixed", Dtype::of::<Mixed>().unwrap_err().to_string()),
    ];
    for (name, msg) in refused {
        insta::with_settings!({
            snapshot_path => "../../snapshots/derive-tests",
            prepend_module_to_snapshot => false,
            snapshot_suffix => name,
        }, {
            insta::assert_snapshot!("dtype_of__refused", msg);
        });
    }
}

#[test]
fn an_explicit_dtype_covers_what_the_type_cannot() {
    // Strings need a width: give it, then zero records can be written too.
    let dt = Dtype::record()
        .field("name", Dtype::scalar(npy_serde::ScalarType::Unicode(12)))
        .build()
        .unwrap();
    let bytes = WriteOptions::new().dtype(dt).to_vec(&strings()).unwrap();
    assert_eq!(descr(&bytes), "[('name', '<U12')]");
    let back: Vec<Strings> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, strings());
}
