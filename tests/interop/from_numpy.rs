//! Live interop, numpy -> Rust.
//!
//! `tests/interop/numpy_writes.py` writes a fresh set of `.npy` files with
//! random values and shuffled field orders, each with a JSON sidecar holding
//! the values as numpy reads them (format described in that script). This test
//! reads every file three ways and compares with the sidecar:
//!
//! 1. into a self-describing tree (`deserialize_any` all the way down, bytes
//!    and float bits kept exactly) and compares with the sidecar tagged values,
//!    with `from_slice` and with `from_reader` over the file;
//! 2. into `serde_json::Value` (`S` values arrive as arrays of u8 when the
//!    deserializer presents them as a sequence; when it presents them as
//!    bytes, which serde_json::Value cannot hold, a clean error is required);
//! 3. into a derived struct whose field order differs from the file's
//!    (fields are matched by name), and plain and record arrays of any
//!    shape into `NdArray<T>` (shape, order as stored, values in C order;
//!    with the feature `ndarray` also through `into_ndarray`).
//!
//! Without `NPY_SERDE_INTEROP_DIR` the test is skipped; `.ci/run` sets it.
//! By hand:
//! ```text
//! python tests/interop/numpy_writes.py /tmp/interop
//! NPY_SERDE_INTEROP_DIR=/tmp/interop cargo test -p tests --all-features --test interop from_numpy:: -- --nocapture
//! ```

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use npy_serde::{Datetime64, NdArray, TimeUnitMarker, Timedelta64, unit};
use num_complex::Complex;
use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_bytes::ByteBuf;
use serde_json::{Map, Value, json};

// ---------------------------------------------------------------------------
// Comparison of typed values with the sidecar's tagged JSON.

/// A value that can be checked against its tagged sidecar JSON; panics with
/// the path of the first difference.
trait Check {
    fn check(&self, expected: &Value, path: &str);
}

fn tag_bits(expected: &Value, tag: &str, path: &str) -> u64 {
    let text = expected
        .get(tag)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{path}: sidecar has {expected}, expected a {tag} tag"));
    u64::from_str_radix(text.trim_start_matches("0x"), 16).unwrap()
}

impl Check for f32 {
    fn check(&self, expected: &Value, path: &str) {
        let bits = tag_bits(expected, "f32", path);
        assert_eq!(
            u64::from(self.to_bits()),
            bits,
            "{path}: got {self:?} (0x{:08x}), numpy has 0x{bits:08x}",
            self.to_bits()
        );
    }
}

impl Check for f64 {
    fn check(&self, expected: &Value, path: &str) {
        let bits = tag_bits(expected, "f64", path);
        assert_eq!(
            self.to_bits(),
            bits,
            "{path}: got {self:?} (0x{:016x}), numpy has 0x{bits:016x}",
            self.to_bits()
        );
    }
}

macro_rules! check_as_json {
    ($($t:ty),*) => {$(
        impl Check for $t {
            fn check(&self, expected: &Value, path: &str) {
                assert_eq!(&json!(self), expected, "{path}");
            }
        }
    )*};
}
check_as_json!(bool, i8, i16, i32, i64, u8, u16, u32, u64, String);

impl Check for ByteBuf {
    fn check(&self, expected: &Value, path: &str) {
        assert_eq!(&json!({ "bytes": hex(self) }), expected, "{path}");
    }
}

impl<T: Check> Check for Complex<T> {
    fn check(&self, expected: &Value, path: &str) {
        let parts = expected
            .as_array()
            .unwrap_or_else(|| panic!("{path}: sidecar has {expected}"));
        assert_eq!(parts.len(), 2, "{path}");
        self.re.check(&parts[0], &format!("{path}.re"));
        self.im.check(&parts[1], &format!("{path}.im"));
    }
}

fn check_items<T: Check>(items: &[T], expected: &Value, path: &str) {
    let exp = expected
        .as_array()
        .unwrap_or_else(|| panic!("{path}: sidecar has {expected}"));
    assert_eq!(items.len(), exp.len(), "{path}: length");
    for (i, (item, e)) in items.iter().zip(exp).enumerate() {
        item.check(e, &format!("{path}[{i}]"));
    }
}

impl<T: Check, const N: usize> Check for [T; N] {
    fn check(&self, expected: &Value, path: &str) {
        check_items(self, expected, path);
    }
}

impl<T: Check> Check for Vec<T> {
    fn check(&self, expected: &Value, path: &str) {
        check_items(self, expected, path);
    }
}

/// The sidecar value of field `name` of a `{"$record": [[name, value], ...]}`.
fn field<'a>(expected: &'a Value, name: &str, path: &str) -> &'a Value {
    expected
        .get("$record")
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{path}: sidecar has {expected}, expected a record"))
        .iter()
        .find(|pair| pair[0] == name)
        .map(|pair| &pair[1])
        .unwrap_or_else(|| panic!("{path}: sidecar record has no field {name:?}"))
}

/// Declares a `Deserialize` struct and its [`Check`] against a sidecar record.
/// `field as "numpy name": Type` renames.
macro_rules! record {
    ($(
        struct $name:ident {
            $( $(#[$attr:meta])* $f:ident $(as $rename:literal)? : $t:ty ),* $(,)?
        }
    )*) => {$(
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct $name {
            $( $(#[$attr])* $(#[serde(rename = $rename)])? $f: $t, )*
        }

        impl Check for $name {
            fn check(&self, expected: &Value, path: &str) {
                $(
                    let key = record!(@name $f $($rename)?);
                    self.$f.check(field(expected, key, path), &format!("{path}.{key}"));
                )*
            }
        }
    )*};
    (@name $f:ident) => { stringify!($f) };
    (@name $f:ident $rename:literal) => { $rename };
}

/// `Complex<f64>` in a subarray: `with` cannot reach inside `[_; N]`, a
/// transparent newtype can.
#[derive(Debug, Deserialize)]
struct C64(#[serde(with = "npy_serde::complex")] Complex<f64>);

impl Check for C64 {
    fn check(&self, expected: &Value, path: &str) {
        self.0.check(expected, path);
    }
}

impl<U: TimeUnitMarker> Check for Datetime64<U> {
    fn check(&self, expected: &Value, path: &str) {
        self.count().check(expected, path);
    }
}

impl<U: TimeUnitMarker> Check for Timedelta64<U> {
    fn check(&self, expected: &Value, path: &str) {
        self.count().check(expected, path);
    }
}

// Fields are declared in the order the script lists them; the script shuffles
// the file's order, so every typed read below matches by name.
record! {
    struct Scalars {
        b: bool,
        i1: i8,
        i2: i16,
        i4: i32,
        i8: i64,
        u1: u8,
        u2: u16,
        u4: u32,
        u8: u64,
        f2: f32,
        f4: f32,
        f8: f64,
        #[serde(with = "npy_serde::complex")]
        c8: Complex<f32>,
        #[serde(with = "npy_serde::complex")]
        c16: Complex<f64>,
        s: ByteBuf,
        u: String,
        t: Datetime64<unit::ns>,
        d: Timedelta64<unit::s>,
    }

    // A subset: the other fields of the file are ignored. A datetime read
    // as a plain i64 gives its count.
    struct ScalarsSubset {
        u: String,
        f8: f64,
        i2: i16,
        t: i64,
    }

    struct Subarrays {
        pos: [f64; 3],
        grid: [[i32; 3]; 2],
        flags: Vec<bool>,
        tags: [String; 2],
        one: [u16; 1],
        z: Vec<C64>,
        when: [Datetime64<unit::ns>; 2],
    }

    struct Nested {
        id: u32,
        inner: Inner,
        pair: [Pair; 2],
    }

    struct Inner {
        a: f32,
        deep: Deep,
        v: [i64; 2],
    }

    struct Deep {
        x: i16,
        y: f64,
    }

    struct Pair {
        p: f64,
        q: u8,
    }

    struct Aligned {
        a: i8,
        b: i32,
        c: i8,
        d: f64,
        e: u16,
        sub: AlignedSub,
    }

    struct AlignedSub {
        x: u8,
        y: f64,
        z: bool,
    }

    struct Small {
        a: i32,
        b: f64,
        c: String,
    }

    struct XyName {
        x: f64,
        y: i16,
        name: String,
    }

    struct UnicodeNames {
        temp as "温度": f64,
        cafe as "café": i32,
        plain: u8,
    }

    struct Latin1Names {
        cafe as "café": i32,
        naive as "naïve": f32,
        plain: u8,
    }
}

fn typed<T: DeserializeOwned + Check>(bytes: &[u8], expected: &Value, what: &str) {
    let value: T =
        npy_serde::from_slice(bytes).unwrap_or_else(|e| panic!("{what}: typed read failed: {e}"));
    value.check(expected, what);
}

/// `f2` into `half::f16` (raw bits through the crate's newtype protocol).
#[cfg(feature = "half")]
#[derive(Debug, Deserialize)]
struct Halves {
    f2: half::f16,
}

#[cfg(feature = "half")]
impl Check for Halves {
    fn check(&self, expected: &Value, path: &str) {
        self.f2.to_f32().check(
            field(expected, "f2", path),
            &format!("{path}.f2 (half::f16)"),
        );
    }
}

/// The sidecar's nested values as the flat list of the array's elements in
/// C order (`depth` axes unnested; 0: the bare element of a 0-d array).
fn flatten(values: &Value, depth: usize, out: &mut Vec<Value>) {
    match (depth, values) {
        (0, v) => out.push(v.clone()),
        (d, Value::Array(items)) => items.iter().for_each(|v| flatten(v, d - 1, out)),
        (_, other) => panic!("sidecar has {other} where an axis was expected"),
    }
}

/// The file read as `NdArray<T>` (from a slice and from a reader), whose
/// element absorbs the last `absorbed` axes: numpy's shape and layout, and
/// the values in C order equal to the sidecar's. With the feature
/// `ndarray`, the same through `into_ndarray`.
fn nd<T: DeserializeOwned + Check + 'static>(
    bytes: &[u8],
    sidecar: &Value,
    absorbed: usize,
    what: &str,
) {
    let what = format!("{what} as NdArray<{}>", std::any::type_name::<T>());
    let shape: Vec<usize> = serde_json::from_value(sidecar["shape"].clone()).unwrap();
    let lead = &shape[..shape.len() - absorbed];
    let fortran = sidecar["fortran_order"].as_bool().unwrap()
        && absorbed == 0
        && shape.iter().filter(|&&n| n > 1).count() > 1;
    let mut flat = Vec::new();
    flatten(&sidecar["values"], lead.len(), &mut flat);
    let flat = Value::Array(flat);
    for (how, read) in [
        ("from_slice", npy_serde::from_slice::<NdArray<T>>(bytes)),
        ("from_reader", npy_serde::from_reader::<NdArray<T>>(bytes)),
    ] {
        let a = read.unwrap_or_else(|e| panic!("{what}: {how} failed: {e}"));
        assert_eq!(a.shape(), lead, "{what}: {how} shape");
        assert_eq!(a.order().is_fortran(), fortran, "{what}: {how} order");
        check_items(a.into_c_order().data(), &flat, &format!("{what} ({how})"));
    }
    #[cfg(feature = "ndarray")]
    {
        let a: NdArray<T> = npy_serde::from_slice(bytes).unwrap();
        let arr: ndarray::ArrayD<T> = a.into_ndarray().unwrap();
        assert_eq!(arr.shape(), lead, "{what}: into_ndarray shape");
        // ndarray iterates in logical (C) order whatever the strides
        let items: Vec<&T> = arr.iter().collect();
        for (i, (item, e)) in items.iter().zip(flat.as_array().unwrap()).enumerate() {
            item.check(e, &format!("{what} (into_ndarray)[{i}]"));
        }
    }
}

/// The n-d cases of numpy_writes.py: `nd_<kind><size><le|be>_<k>d_<C|F>`.
fn check_nd(case: &str, bytes: &[u8], sidecar: &Value) {
    let what = format!("{case} (typed)");
    let kind = case.split('_').nth(1).unwrap();
    let ty = kind.trim_end_matches("le").trim_end_matches("be");
    match ty {
        "f8" => nd::<f64>(bytes, sidecar, 0, &what),
        "f4" => nd::<f32>(bytes, sidecar, 0, &what),
        "i2" => nd::<i16>(bytes, sidecar, 0, &what),
        "i4" => nd::<i32>(bytes, sidecar, 0, &what),
        "u8" => nd::<u64>(bytes, sidecar, 0, &what),
        "u1" => nd::<u8>(bytes, sidecar, 0, &what),
        "b1" => nd::<bool>(bytes, sidecar, 0, &what),
        "c16" => nd::<Complex<f64>>(bytes, sidecar, 0, &what),
        "c8" => nd::<Complex<f32>>(bytes, sidecar, 0, &what),
        "U12" => nd::<String>(bytes, sidecar, 0, &what),
        "M8" => nd::<Datetime64<unit::us>>(bytes, sidecar, 0, &what),
        other => panic!("unknown n-d case {case:?} ({other}): add it to check_nd"),
    }
}

/// The typed reads for one case; the names are the contract with numpy_writes.py.
fn check_typed(case: &str, bytes: &[u8], sidecar: &Value) {
    let expected = &sidecar["values"];
    let what = format!("{case} (typed)");
    let what = what.as_str();
    if case.starts_with("nd_") {
        return check_nd(case, bytes, sidecar);
    }
    match case {
        "scalars_le" | "scalars_be" => {
            typed::<Vec<Scalars>>(bytes, expected, what);
            typed::<Vec<ScalarsSubset>>(bytes, expected, what);
            #[cfg(feature = "half")]
            typed::<Vec<Halves>>(bytes, expected, what);
        }
        "subarrays" => typed::<Vec<Subarrays>>(bytes, expected, what),
        "nested" => typed::<Vec<Nested>>(bytes, expected, what),
        "aligned" => typed::<Vec<Aligned>>(bytes, expected, what),
        "plain_n3" => {
            typed::<Vec<[f64; 3]>>(bytes, expected, what);
            nd::<[f64; 3]>(bytes, sidecar, 1, what);
            nd::<f64>(bytes, sidecar, 0, what);
        }
        "plain_n3_i4_be" => {
            typed::<Vec<Vec<i32>>>(bytes, expected, what);
            nd::<[i32; 3]>(bytes, sidecar, 1, what);
            nd::<i32>(bytes, sidecar, 0, what);
        }
        "fortran_2d" => {
            typed::<Vec<Vec<f64>>>(bytes, expected, what);
            nd::<f64>(bytes, sidecar, 0, what);
        }
        "fortran_2d_i8_be" => {
            typed::<Vec<Vec<i64>>>(bytes, expected, what);
            nd::<i64>(bytes, sidecar, 0, what);
        }
        "fortran_records" => {
            typed::<Vec<Vec<Small>>>(bytes, expected, what);
            nd::<Small>(bytes, sidecar, 0, what);
        }
        "scalar_0d" => {
            typed::<f64>(bytes, expected, what);
            nd::<f64>(bytes, sidecar, 0, what);
        }
        "record_0d" => {
            typed::<XyName>(bytes, expected, what);
            nd::<XyName>(bytes, sidecar, 0, what);
        }
        "unicode_names" => typed::<Vec<UnicodeNames>>(bytes, expected, what),
        "latin1_names" => typed::<Vec<Latin1Names>>(bytes, expected, what),
        "empty" => {
            typed::<Vec<XyName>>(bytes, expected, what);
            nd::<XyName>(bytes, sidecar, 0, what);
        }
        other => {
            panic!("unknown case {other:?}: add it to check_typed in tests/interop/from_numpy.rs")
        }
    }
}

// ---------------------------------------------------------------------------
// Self-describing reads.

/// What `deserialize_any` hands out, as the sidecar's tagged JSON: records
/// keep their file order, floats their exact bits, bytes become hex.
struct Tagged(Value);

impl<'de> Deserialize<'de> for Tagged {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TaggedVisitor).map(Tagged)
    }
}

struct TaggedVisitor;

impl<'de> Visitor<'de> for TaggedVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("anything")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(json!(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(json!(v))
    }
    fn visit_f32<E>(self, v: f32) -> Result<Value, E> {
        Ok(json!({ "f32": format!("0x{:08x}", v.to_bits()) }))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(json!({ "f64": format!("0x{:016x}", v.to_bits()) }))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(json!({ "bytes": hex(v) }))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Tagged::deserialize(d).map(|t| t.0)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Tagged::deserialize(d).map(|t| t.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Tagged(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut pairs = Vec::new();
        while let Some((k, Tagged(v))) = map.next_entry::<String, Tagged>()? {
            pairs.push(json!([k, v]));
        }
        Ok(json!({ "$record": pairs }))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The sidecar's tagged values as `serde_json::Value` would hold them: records
/// as objects, floats as numbers (`null` when not finite, as serde_json does).
fn plain(tagged: &Value) -> Value {
    match tagged {
        Value::Array(items) => Value::Array(items.iter().map(plain).collect()),
        Value::Object(obj) => {
            if let Some(pairs) = obj.get("$record").and_then(Value::as_array) {
                let map: Map<String, Value> = pairs
                    .iter()
                    .map(|p| (p[0].as_str().unwrap().to_owned(), plain(&p[1])))
                    .collect();
                Value::Object(map)
            } else if obj.contains_key("f32") {
                let bits = tag_bits(tagged, "f32", "sidecar") as u32;
                json!(f64::from(f32::from_bits(bits)))
            } else if obj.contains_key("f64") {
                json!(f64::from_bits(tag_bits(tagged, "f64", "sidecar")))
            } else if obj.contains_key("bytes") {
                bytes_as_seq(tagged)
            } else {
                panic!("no serde_json::Value form for {tagged}")
            }
        }
        other => other.clone(),
    }
}

/// `{"bytes": hex}` as an array of u8 numbers: `deserialize_any` may hand an
/// `S` value to the visitor as bytes or as a sequence of u8 (serde_json's
/// choice, which lets `serde_json::Value` hold it); both are accepted.
fn bytes_as_seq(tagged: &Value) -> Value {
    match tagged {
        Value::Array(items) => Value::Array(items.iter().map(bytes_as_seq).collect()),
        Value::Object(obj) => match obj.get("bytes").and_then(Value::as_str) {
            Some(hex) => (0..hex.len())
                .step_by(2)
                .map(|i| json!(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()))
                .collect(),
            None => Value::Object(
                obj.iter()
                    .map(|(k, v)| (k.clone(), bytes_as_seq(v)))
                    .collect(),
            ),
        },
        other => other.clone(),
    }
}

/// Path of the first difference between two JSON trees.
fn first_diff(got: &Value, want: &Value, path: &str) -> Option<String> {
    match (got, want) {
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| first_diff(x, y, &format!("{path}[{i}]"))),
        (Value::Object(a), Value::Object(b)) if a.len() == b.len() => {
            a.iter().find_map(|(k, x)| match b.get(k) {
                Some(y) => first_diff(x, y, &format!("{path}.{k}")),
                None => Some(format!("{path}: unexpected key {k:?}")),
            })
        }
        _ if got == want => None,
        _ => Some(format!("{path}: got {got}, numpy has {want}")),
    }
}

fn check_file(npy: &Path) {
    let bytes = std::fs::read(npy).unwrap();
    let sidecar: Value =
        serde_json::from_slice(&std::fs::read(npy.with_extension("json")).unwrap()).unwrap();
    let case = sidecar["case"].as_str().unwrap();
    let expected = &sidecar["values"];

    // 1. deserialize_any, exact.
    let Tagged(got) = npy_serde::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{case}: self-describing read failed: {e}"));
    if let Some(diff) = first_diff(&bytes_as_seq(&got), &bytes_as_seq(expected), case) {
        panic!("self-describing read differs: {diff}");
    }
    // The streaming reader must agree with the slice reader.
    let file = std::fs::File::open(npy).unwrap();
    let Tagged(streamed) = npy_serde::from_reader(std::io::BufReader::new(file))
        .unwrap_or_else(|e| panic!("{case}: from_reader failed: {e}"));
    assert_eq!(streamed, got, "{case}: from_reader and from_slice differ");

    // 2. serde_json::Value.
    match npy_serde::from_slice::<Value>(&bytes) {
        Ok(got) => {
            if let Some(diff) = first_diff(&got, &plain(expected), case) {
                panic!("serde_json::Value read differs: {diff}");
            }
        }
        // serde_json::Value has no bytes: if `S` comes as bytes, it must refuse cleanly.
        Err(e) if sidecar["has_bytes"].as_bool().unwrap() => {
            println!("      {case}: serde_json::Value refuses S given as bytes: {e}");
        }
        Err(e) => panic!("{case}: serde_json::Value read failed: {e}"),
    }

    // 3. derived structs, by name, and n-d arrays (NdArray).
    check_typed(case, &bytes, &sidecar);
}

#[test]
fn numpy_written_files_read_back() {
    let Some(dir) = std::env::var_os("NPY_SERDE_INTEROP_DIR") else {
        println!("skipped: NPY_SERDE_INTEROP_DIR not set");
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("NPY_SERDE_INTEROP_DIR={dir:?}: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "npy"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .npy files in {dir:?}: run tests/interop/numpy_writes.py first"
    );

    let mut failed = Vec::new();
    for npy in &files {
        let name = npy.file_name().unwrap().to_string_lossy().into_owned();
        match catch_unwind(AssertUnwindSafe(|| check_file(npy))) {
            Ok(()) => println!("ok    {name}"),
            Err(_) => {
                println!("FAIL  {name}");
                failed.push(name);
            }
        }
    }
    let seed = std::fs::read(files[0].with_extension("json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .map(|v| v["seed"].to_string())
        .unwrap_or_default();
    println!(
        "{} passed, {} failed (seed {seed})",
        files.len() - failed.len(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "failed: {failed:?}; reproduce with NPY_SERDE_INTEROP_SEED={seed} python tests/interop/numpy_writes.py DIR"
    );
}

/// numpy's `open_memmap(mode='w+')` file (numpy_writes.py `write_memmap`,
/// in `memmap/` beside the cases) opened with `memmap::open_mut` (feature
/// `memmap`, issue 35): numpy's values seen in place, then `2 * x + 1`
/// written over each; `numpy_writes.py --check-memmap DIR` (the next step
/// of `.ci/run`) checks what numpy reads.
#[cfg(feature = "memmap")]
#[test]
fn numpy_open_memmap_written_in_place() {
    let Some(dir) = std::env::var_os("NPY_SERDE_INTEROP_DIR") else {
        println!("skipped: NPY_SERDE_INTEROP_DIR not set");
        return;
    };
    let dir = Path::new(&dir).join("memmap");
    let original: NdArray<f64> = npy_serde::from_path(dir.join("original.npy")).unwrap();
    let mut m = npy_serde::memmap::open_mut::<f64>(dir.join("open_memmap.npy")).unwrap();
    assert_eq!((m.shape(), m.order()), (original.shape(), original.order()));
    assert!(
        m.view().data() == original.data(),
        "open_memmap.npy does not hold numpy's values (written already? run numpy_writes.py again)"
    );
    for x in m.view_mut().data_mut() {
        *x = *x * 2.0 + 1.0;
    }
    m.flush().unwrap();
    println!(
        "ok    memmap/open_memmap.npy {:?}: 2 * x + 1 written in place",
        m.shape()
    );
}
