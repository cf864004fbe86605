//! `Dtype::of` (the dtype a type gives without a value): the types it
//! refuses and the recursion limit, with their messages (snapshots named
//! `trace__*`, after the module that traces a type).

use std::collections::BTreeMap;

use npy_serde::Dtype;
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, Visitor};

fn refusal<'de, T: Deserialize<'de>>() -> String {
    Dtype::of::<T>().unwrap_err().to_string()
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(concat!("trace__", $name), $value);
        })
    };
}

#[test]
fn padding_without_the_size_protocol_is_refused() {
    /// A padding type whose `visit_some` just skips the value.
    struct OldPad;
    impl<'de> Deserialize<'de> for OldPad {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = OldPad;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("padding")
                }
                fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<OldPad, D::Error> {
                    IgnoredAny::deserialize(d).map(|_| OldPad)
                }
            }
            d.deserialize_option(V)
        }
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Rec {
        a: u8,
        pad: OldPad,
    }
    snapshot!("padding_without_protocol", refusal::<Rec>());
}

#[test]
fn recursive_type_hits_the_depth_limit() {
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Node {
        value: f64,
        next: Box<Node>,
    }
    let msg = refusal::<Node>();
    assert!(msg.starts_with("field next.next.next"), "{msg}");
    snapshot!("recursive_type", msg.replace(".next", ""));

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Wrap(Box<Wrap>);
    assert!(Dtype::of::<Wrap>().is_err());
    assert!(Dtype::of_with_depth::<[[u8; 1]; 1]>(1).is_err());
    assert!(Dtype::of_with_depth::<[[u8; 1]; 1]>(2).is_ok());
}

#[test]
fn refusals() {
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct WithString {
        pos: [f64; 2],
        name: String,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct WithVec {
        samples: Vec<f32>,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct WithOption {
        maybe: Option<f64>,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct WithBytes {
        #[serde(with = "serde_bytes")]
        raw: Vec<u8>,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct WithMap {
        extra: BTreeMap<String, f64>,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Flat {
        a: u8,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct WithFlatten {
        #[serde(flatten)]
        flat: Flat,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    #[serde(untagged)]
    enum Untagged {
        A(u8),
        B(f64),
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    #[serde(tag = "kind")]
    enum Tagged {
        A { x: u8 },
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        A,
        B,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct InVec {
        name: String,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    enum Shape {
        Empty,
        Circle(f64),
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct WithWide {
        inner: [(u8, i128); 1],
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Ident {
        #[serde(with = "serde_json_value")]
        v: (),
    }
    mod serde_json_value {
        pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<(), D::Error> {
            serde_json::Value::deserialize(d).map(drop)
        }
        use serde::Deserialize;
    }
    let cases = [
        ("string", refusal::<WithString>()),
        ("str_top", refusal::<String>()),
        ("vec_field", refusal::<WithVec>()),
        ("vec_vec", refusal::<Vec<Vec<f64>>>()),
        ("option", refusal::<WithOption>()),
        ("bytes", refusal::<WithBytes>()),
        ("map", refusal::<WithMap>()),
        ("flatten", refusal::<WithFlatten>()),
        ("untagged", refusal::<Untagged>()),
        ("internally_tagged", refusal::<Tagged>()),
        ("enum_with_data", refusal::<Shape>()),
        ("adjacently_tagged", refusal::<Adjacent>()),
        ("string_in_vec", refusal::<Vec<InVec>>()),
        ("i128", refusal::<WithWide>()),
        ("u128", refusal::<u128>()),
        ("any", refusal::<Ident>()),
    ];
    for (name, msg) in &cases {
        insta::with_settings!({
            snapshot_path => "../../snapshots/npy_serde",
            prepend_module_to_snapshot => false,
            snapshot_suffix => *name,
        }, {
            insta::assert_snapshot!("trace__refusal", msg);
        });
    }
}
