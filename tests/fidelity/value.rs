//! A generic serde value for tests (like serde-value's): holds whatever a
//! deserializer hands to `deserialize_any` and serializes it back through
//! the same serde calls.
#![allow(dead_code)]

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Bool(bool),
    I64(i64),
    U64(u64),
    F32(f32),
    F64(f64),
    Char(char),
    String(String),
    Bytes(Vec<u8>),
    Unit,
    Seq(Vec<Value>),
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// A sequence of u8: how the reader hands over `S` and `V`.
    pub fn bytes_seq(b: &[u8]) -> Value {
        Value::Seq(b.iter().map(|&x| Value::U64(x.into())).collect())
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Bool(v) => s.serialize_bool(*v),
            Value::I64(v) => s.serialize_i64(*v),
            Value::U64(v) => s.serialize_u64(*v),
            Value::F32(v) => s.serialize_f32(*v),
            Value::F64(v) => s.serialize_f64(*v),
            Value::Char(v) => s.serialize_char(*v),
            Value::String(v) => s.serialize_str(v),
            Value::Bytes(v) => s.serialize_bytes(v),
            Value::Unit => s.serialize_unit(),
            Value::Seq(v) => {
                let mut seq = s.serialize_seq(Some(v.len()))?;
                for e in v {
                    seq.serialize_element(e)?;
                }
                seq.end()
            }
            Value::Map(v) => {
                let mut map = s.serialize_map(Some(v.len()))?;
                for (k, e) in v {
                    map.serialize_entry(k, e)?;
                }
                map.end()
            }
        }
    }
}

struct ValueVisitor;

macro_rules! visit {
    ($($m:ident($t:ty) => $v:ident as $u:ty),* $(,)?) => {$(
        fn $m<E: de::Error>(self, v: $t) -> Result<Value, E> {
            Ok(Value::$v(<$u>::from(v)))
        }
    )*};
}

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    visit! {
        visit_bool(bool) => Bool as bool,
        visit_i8(i8) => I64 as i64, visit_i16(i16) => I64 as i64,
        visit_i32(i32) => I64 as i64, visit_i64(i64) => I64 as i64,
        visit_u8(u8) => U64 as u64, visit_u16(u16) => U64 as u64,
        visit_u32(u32) => U64 as u64, visit_u64(u64) => U64 as u64,
        visit_f32(f32) => F32 as f32, visit_f64(f64) => F64 as f64,
        visit_char(char) => Char as char,
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Bytes(v.to_owned()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Unit)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(e) = a.next_element()? {
            v.push(e);
        }
        Ok(Value::Seq(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(e) = a.next_entry()? {
            v.push(e);
        }
        Ok(Value::Map(v))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}
