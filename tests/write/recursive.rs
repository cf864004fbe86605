//! A recursive value type (the shape of any data tool's generic `Value`)
//! compiles against every write path and writes the bytes of the
//! equivalent derived struct. Each nesting level must reuse the write
//! side's serializer types: a closure made per level once hit rustc's
//! recursion limit here.

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

/// A dynamic value: a number, or a record of named values.
enum Dyn {
    F(f64),
    I(i32),
    Rec(Vec<(&'static str, Dyn)>),
}

impl Serialize for Dyn {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Dyn::F(v) => s.serialize_f64(*v),
            Dyn::I(v) => s.serialize_i32(*v),
            Dyn::Rec(fields) => {
                let mut st = s.serialize_struct("Record", fields.len())?;
                for (k, v) in fields {
                    st.serialize_field(k, v)?;
                }
                st.end()
            }
        }
    }
}

#[derive(Serialize)]
struct Inner {
    x: i32,
    y: f64,
}

#[derive(Serialize)]
struct Outer {
    a: f64,
    inner: Inner,
}

fn dyn_record(i: i32) -> Dyn {
    Dyn::Rec(vec![
        ("a", Dyn::F(f64::from(i) / 2.0)),
        (
            "inner",
            Dyn::Rec(vec![("x", Dyn::I(i)), ("y", Dyn::F(-f64::from(i)))]),
        ),
    ])
}

fn derived(i: i32) -> Outer {
    Outer {
        a: f64::from(i) / 2.0,
        inner: Inner {
            x: i,
            y: -f64::from(i),
        },
    }
}

#[test]
fn recursive_value_writes_the_bytes_of_the_derived_struct() {
    let dyns: Vec<Dyn> = (0..5).map(dyn_record).collect();
    let structs: Vec<Outer> = (0..5).map(derived).collect();
    let expected = npy_serde::to_vec(&structs).unwrap();
    assert_eq!(npy_serde::to_vec(&dyns).unwrap(), expected);
    let mut w = Vec::new();
    npy_serde::to_writer(&mut w, &dyns).unwrap();
    assert_eq!(w, expected);
    // the dtype the derived struct gives, nested record included
    let head = String::from_utf8_lossy(&expected[..expected.len() - 5 * 20]);
    assert!(
        head.contains("'descr': [('a', '<f8'), ('inner', [('x', '<i4'), ('y', '<f8')])]"),
        "{head}"
    );
}
