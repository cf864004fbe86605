//! Reading matches fields by name, never by position: `alias` puts extra
//! names into serde's field list, so a file whose names happen to equal that
//! list must still be matched name by name.

use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct File3 {
    a: i32,
    b: i32,
    c: i32,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Aliased {
    #[serde(alias = "b")]
    a: i32,
    c: i32,
}

#[test]
fn alias_in_the_field_list_is_not_read_by_position() {
    // serde's FIELDS for `Aliased` is ["a", "b", "c"], the file's names too.
    let bytes = npy_serde::to_vec(&vec![File3 { a: 1, b: 2, c: 3 }]).unwrap();
    // By name, `a` and its alias `b` both arrive: serde reports the duplicate.
    // By position, `c` would silently get `b`'s value 2.
    let err = npy_serde::from_slice::<Vec<Aliased>>(&bytes).unwrap_err();
    assert!(err.to_string().contains("duplicate field `a`"), "{err}");
}

#[test]
fn alias_reads_the_aliased_column() {
    #[derive(Serialize)]
    struct File2 {
        b: i32,
        c: i32,
    }
    let bytes = npy_serde::to_vec(&vec![File2 { b: 2, c: 3 }]).unwrap();
    let v: Vec<Aliased> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!((v[0].a, v[0].c), (2, 3));
}

/// How a [`Spy`] keys its fields, and how many elements its `visit_seq`
/// takes (2 for a well-formed type).
trait How {
    type Key: for<'de> Deserialize<'de>;
    /// The field a key names: 0 for `a`, 1 for `b`, `None` for another.
    fn field(key: Self::Key) -> Option<usize>;
    const SEQ_LEN: usize = 2;
}

/// A type that tells how each record was read: `visit_map` (by name) or
/// `visit_seq` (by position).
#[derive(Debug, PartialEq)]
struct Spy<H> {
    by: &'static str,
    a: u8,
    b: i16,
    how: std::marker::PhantomData<H>,
}

impl<'de, H: How> Deserialize<'de> for Spy<H> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_struct(
            "Spy",
            &["a", "b"],
            SpyVisitor::<H>(std::marker::PhantomData),
        )
    }
}

struct SpyVisitor<H>(std::marker::PhantomData<H>);

impl<'de, H: How> serde::de::Visitor<'de> for SpyVisitor<H> {
    type Value = Spy<H>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a spy")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Spy<H>, A::Error> {
        let (mut a, mut b) = (0, 0);
        while let Some(k) = m.next_key::<H::Key>()? {
            match H::field(k) {
                Some(0) => a = m.next_value()?,
                Some(_) => b = m.next_value()?,
                None => {
                    m.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(spy("map", a, b))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<Spy<H>, A::Error> {
        let a = s.next_element()?.unwrap_or_default();
        let b = match H::SEQ_LEN {
            1 => 0,
            _ => s.next_element()?.unwrap_or_default(),
        };
        Ok(spy("seq", a, b))
    }
}

fn spy<H>(by: &'static str, a: u8, b: i16) -> Spy<H> {
    Spy {
        by,
        a,
        b,
        how: std::marker::PhantomData,
    }
}

/// A derive's field identifier: an enum, a variant per field and one for
/// the names it ignores.
enum Field {
    A,
    B,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match String::deserialize(d)?.as_str() {
            "a" => Ok(Field::A),
            "b" => Ok(Field::B),
            _ => Ok(Field::Other),
        }
    }
}

#[derive(Debug, PartialEq)]
struct EnumKeys;
impl How for EnumKeys {
    type Key = Field;
    fn field(key: Field) -> Option<usize> {
        match key {
            Field::A => Some(0),
            Field::B => Some(1),
            Field::Other => None,
        }
    }
}

#[derive(Debug, PartialEq)]
struct StringKeys;
impl How for StringKeys {
    type Key = String;
    fn field(key: String) -> Option<usize> {
        match key.as_str() {
            "a" => Some(0),
            "b" => Some(1),
            _ => None,
        }
    }
}

/// Proven by its keys, but its `visit_seq` takes one field of two.
#[derive(Debug, PartialEq)]
struct ShortSeq;
impl How for ShortSeq {
    type Key = Field;
    fn field(key: Field) -> Option<usize> {
        EnumKeys::field(key)
    }
    const SEQ_LEN: usize = 1;
}

/// The spies of `n` records `(i, -i)`, the first read `first`, the others
/// `rest` ("map" or "seq").
fn spies<H>(n: u8, first: &'static str, rest: &'static str) -> Vec<Spy<H>> {
    (0..n)
        .map(|i| spy(if i == 0 { first } else { rest }, i, -i16::from(i)))
        .collect()
}

/// Four records `{a: u8, b: i16}`: (0, 0), (1, -1), (2, -2), (3, -3).
fn narrow_file() -> Vec<u8> {
    #[derive(Serialize)]
    struct Narrow {
        a: u8,
        b: i16,
    }
    let rows: Vec<Narrow> = (0..4)
        .map(|i| Narrow {
            a: i,
            b: -i16::from(i),
        })
        .collect();
    npy_serde::to_vec(&rows).unwrap()
}

#[test]
fn equal_names_go_by_position_once_one_record_proved_them() {
    let got: Vec<Spy<EnumKeys>> = npy_serde::from_slice(&narrow_file()).unwrap();
    assert_eq!(got, spies(4, "map", "seq"));
    // each read proves it again: the proof belongs to the file's plan
    let again: Vec<Spy<EnumKeys>> = npy_serde::from_slice(&narrow_file()).unwrap();
    assert_eq!(again, spies(4, "map", "seq"));
}

#[test]
fn a_list_naming_some_fields_in_order_goes_by_position_over_those() {
    #[derive(Serialize)]
    struct Wider {
        x: f64,
        a: u8,
        y: [u16; 2],
        b: i16,
        z: bool,
    }
    let rows: Vec<Wider> = (0..4)
        .map(|i| Wider {
            x: f64::from(i),
            a: i,
            y: [7; 2],
            b: -i16::from(i),
            z: true,
        })
        .collect();
    let bytes = npy_serde::to_vec(&rows).unwrap();
    let got: Vec<Spy<EnumKeys>> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(got, spies(4, "map", "seq"));
    // a derived type over the same fields: the values by position
    #[derive(Deserialize, Debug, PartialEq)]
    struct Some2 {
        a: u8,
        b: i16,
    }
    let got: Vec<Some2> = npy_serde::from_slice(&bytes).unwrap();
    let want: Vec<Some2> = (0..4)
        .map(|i| Some2 {
            a: i,
            b: -i16::from(i),
        })
        .collect();
    assert_eq!(got, want);
}

/// A [`Spy`] whose `deserialize` names a longer field list after the first
/// record (a hand-written type may): its visitor's proof still holds, so
/// the later records go by position over all of the record's fields.
#[derive(Debug, PartialEq)]
struct Relisted(Spy<EnumKeys>);

thread_local! {
    static RELISTED_CALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl<'de> Deserialize<'de> for Relisted {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let call = RELISTED_CALLS.with(|c| c.replace(c.get() + 1));
        let fields: &'static [&'static str] = if call == 0 {
            &["a", "b"]
        } else {
            &["a", "b", "c"]
        };
        d.deserialize_struct(
            "Spy",
            fields,
            SpyVisitor::<EnumKeys>(std::marker::PhantomData),
        )
        .map(Relisted)
    }
}

#[test]
fn a_proven_type_naming_another_list_later_goes_by_position_over_all_fields() {
    RELISTED_CALLS.with(|c| c.set(0));
    let got: Vec<Relisted> = npy_serde::from_slice(&narrow_file()).unwrap();
    let want: Vec<Relisted> = spies(4, "map", "seq").into_iter().map(Relisted).collect();
    assert_eq!(got, want);
}

#[test]
fn a_list_missing_from_the_file_stays_by_name() {
    #[derive(Serialize)]
    struct OnlyA {
        a: u8,
        x: i16,
    }
    let rows: Vec<OnlyA> = (0..3).map(|i| OnlyA { a: i, x: 9 }).collect();
    let bytes = npy_serde::to_vec(&rows).unwrap();
    let got: Vec<Spy<EnumKeys>> = npy_serde::from_slice(&bytes).unwrap();
    let want: Vec<Spy<EnumKeys>> = (0..3).map(|i| spy("map", i, 0)).collect();
    assert_eq!(got, want);
}

#[test]
fn keys_that_cannot_be_told_apart_stay_by_name() {
    let got: Vec<Spy<StringKeys>> = npy_serde::from_slice(&narrow_file()).unwrap();
    assert_eq!(got, spies(4, "map", "map"));
}

#[test]
fn names_in_another_order_stay_by_name() {
    #[derive(Serialize)]
    struct Swapped {
        b: i16,
        a: u8,
    }
    let rows: Vec<Swapped> = (0..3)
        .map(|i| Swapped {
            b: -i16::from(i),
            a: i,
        })
        .collect();
    let bytes = npy_serde::to_vec(&rows).unwrap();
    let got: Vec<Spy<EnumKeys>> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(got, spies(3, "map", "map"));
}

#[test]
fn a_type_that_takes_fewer_fields_by_position_is_refused() {
    // the first record (by name) is whole; the second, by position, would
    // lose `b`: refused rather than read short
    let err = npy_serde::from_slice::<Vec<Spy<ShortSeq>>>(&narrow_file()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 1: the type takes only 1 of the 2 fields of the record"
    );
}

#[test]
fn a_failing_field_reads_the_same_by_position_and_by_name() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Positional {
        a: u8,
        b: i8,
    }
    // not the file's names (an extra defaulted field): always by name
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct ByName {
        a: u8,
        b: i8,
        #[serde(default)]
        c: u8,
    }
    #[derive(Serialize)]
    struct File2 {
        a: u8,
        b: i16,
    }
    let rows = [(1, 5), (2, 6), (3, 300), (4, 7)].map(|(a, b)| File2 { a, b });
    let bytes = npy_serde::to_vec(&rows).unwrap();
    let by_position = npy_serde::from_slice::<Vec<Positional>>(&bytes).unwrap_err();
    let by_name = npy_serde::from_slice::<Vec<ByName>>(&bytes).unwrap_err();
    assert_eq!(by_position.to_string(), by_name.to_string());
    assert!(
        by_position.to_string().starts_with("record 2, field b"),
        "{by_position}"
    );
    // some fields by position (`x` skipped): the same message again
    #[derive(Serialize)]
    struct File3 {
        a: u8,
        x: u8,
        b: i16,
    }
    let rows = [(1, 5), (2, 6), (3, 300), (4, 7)].map(|(a, b)| File3 { a, x: 0, b });
    let bytes = npy_serde::to_vec(&rows).unwrap();
    let by_position = npy_serde::from_slice::<Vec<Positional>>(&bytes).unwrap_err();
    let by_name = npy_serde::from_slice::<Vec<ByName>>(&bytes).unwrap_err();
    assert_eq!(by_position.to_string(), by_name.to_string());
    assert!(
        by_position.to_string().starts_with("record 2, field b"),
        "{by_position}"
    );
}

#[test]
fn a_nested_record_goes_by_position_too() {
    #[derive(Serialize)]
    struct Inner {
        a: u8,
        b: i16,
    }
    #[derive(Serialize)]
    struct OuterFile {
        s: Inner,
        c: u8,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Outer {
        s: Spy<EnumKeys>,
        c: u8,
    }
    let rows: Vec<OuterFile> = (0..4)
        .map(|i| OuterFile {
            s: Inner {
                a: i,
                b: -i16::from(i),
            },
            c: i,
        })
        .collect();
    let bytes = npy_serde::to_vec(&rows).unwrap();
    let got: Vec<Outer> = npy_serde::from_slice(&bytes).unwrap();
    let inner: Vec<Spy<EnumKeys>> = got.into_iter().map(|o| o.s).collect();
    assert_eq!(inner, spies(4, "map", "seq"));
}

#[test]
fn each_type_proves_its_own_list() {
    #[derive(Serialize)]
    struct File3 {
        a: u8,
        x: u8,
        b: i16,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Lenient {
        a: u8,
        b: i16,
    }
    // the same field list, but a type that refuses the file's `x`
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        a: u8,
        b: i16,
    }
    let rows: Vec<File3> = (0..4).map(|i| File3 { a: i, x: 0, b: 1 }).collect();
    let bytes = npy_serde::to_vec(&rows).unwrap();
    let mut r = npy_serde::NpyReader::new(&bytes[..]).unwrap();
    // two records proved `Lenient` (the second read by position)
    let lenient: Vec<Lenient> = r.deserialize().take(2).map(Result::unwrap).collect();
    assert_eq!(lenient, [Lenient { a: 0, b: 1 }, Lenient { a: 1, b: 1 }]);
    // the next record, as `Strict`: by name, and refused
    let err = r.deserialize::<Strict>().next().unwrap().unwrap_err();
    assert!(err.to_string().contains("unknown field `x`"), "{err}");
}
