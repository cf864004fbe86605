//! Live interop, Rust -> numpy.
//!
//! Writes one `.npy` per row of the type-mapping table with the crate, plus a
//! JSON sidecar holding what numpy must see: the descr (Python literal text,
//! compared with `np.lib.format.dtype_to_descr`), the shape, the order and the
//! values (tagged like `tests/interop/numpy_writes.py` exports them: records
//! `{"$record": [[name, value], ...]}`, floats `{"f32"|"f64": bits}`, bytes
//! `{"bytes": hex}`, datetimes as the i64 count). `tests/interop/numpy_checks.py`
//! then loads every file with numpy, checks dtype, shape and values, and checks
//! that `np.save` of the loaded array gives the very same bytes.
//!
//! Without `NPY_SERDE_OUT_DIR` the files are built in memory only (every
//! write must still succeed and the header must carry the expected descr text).
//! By hand:
//! ```text
//! NPY_SERDE_OUT_DIR=/tmp/rust-out cargo test -p tests --all-features --test interop to_numpy::
//! python tests/interop/numpy_checks.py /tmp/rust-out
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use npy_serde::{Datetime64, TimeUnitMarker, Timedelta64, unit};
use num_complex::Complex;
use serde::Serialize;
use serde_bytes::ByteBuf;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// What numpy must read back, in the sidecar's tagged JSON.

/// The value as numpy's side of the interop exports it.
trait Tag {
    fn tag(&self) -> Value;
    /// Padding is a gap, not a field: numpy does not show it.
    fn is_padding(&self) -> bool {
        false
    }
}

impl Tag for f32 {
    fn tag(&self) -> Value {
        json!({ "f32": format!("0x{:08x}", self.to_bits()) })
    }
}

impl Tag for f64 {
    fn tag(&self) -> Value {
        json!({ "f64": format!("0x{:016x}", self.to_bits()) })
    }
}

macro_rules! tag_as_json {
    ($($t:ty),*) => {$(
        impl Tag for $t {
            fn tag(&self) -> Value {
                json!(self)
            }
        }
    )*};
}
tag_as_json!(bool, i8, i16, i32, i64, u8, u16, u32, u64, char, String);

impl Tag for ByteBuf {
    fn tag(&self) -> Value {
        json!({ "bytes": self.iter().map(|b| format!("{b:02x}")).collect::<String>() })
    }
}

/// Complex numbers: `c8`/`c16` with `npy_serde::complex`, a `(2,)` subarray
/// without; numpy shows both as `[re, im]` in the sidecar.
impl<T: Tag> Tag for Complex<T> {
    fn tag(&self) -> Value {
        json!([self.re.tag(), self.im.tag()])
    }
}

impl<T: Tag, const N: usize> Tag for [T; N] {
    fn tag(&self) -> Value {
        Value::Array(self.iter().map(Tag::tag).collect())
    }
}

impl<T: Tag> Tag for Vec<T> {
    fn tag(&self) -> Value {
        Value::Array(self.iter().map(Tag::tag).collect())
    }
}

impl<T: Tag> Tag for BTreeMap<String, T> {
    fn tag(&self) -> Value {
        json!({ "$record": self.iter().map(|(k, v)| json!([k, v.tag()])).collect::<Vec<_>>() })
    }
}

impl<const N: usize> Tag for npy_serde::Padding<N> {
    fn tag(&self) -> Value {
        Value::Null
    }
    fn is_padding(&self) -> bool {
        true
    }
}

fn record_tag(fields: Vec<(&str, &dyn Tag)>) -> Value {
    let pairs: Vec<Value> = fields
        .into_iter()
        .filter(|(_, v)| !v.is_padding())
        .map(|(k, v)| json!([k, v.tag()]))
        .collect();
    json!({ "$record": pairs })
}

/// Declares a `Serialize` struct and its [`Tag`]. `field as "numpy name": Type`
/// renames.
macro_rules! record {
    ($(
        struct $name:ident {
            $( $(#[$attr:meta])* $f:ident $(as $rename:literal)? : $t:ty ),* $(,)?
        }
    )*) => {$(
        #[derive(Debug, Clone, Serialize)]
        struct $name {
            $( $(#[$attr])* $(#[serde(rename = $rename)])? $f: $t, )*
        }

        impl Tag for $name {
            fn tag(&self) -> Value {
                record_tag(vec![$( (record!(@name $f $($rename)?), &self.$f as &dyn Tag) ),*])
            }
        }
    )*};
    (@name $f:ident) => { stringify!($f) };
    (@name $f:ident $rename:literal) => { $rename };
}

// ---------------------------------------------------------------------------
// One type per row of the mapping table.

/// Unit-only enum: `<Un` holding the variant name.
#[derive(Debug, Clone, Copy, Serialize)]
enum Kind {
    Star,
    Planet,
    #[serde(rename = "black hole")]
    BlackHole,
}

impl Tag for Kind {
    fn tag(&self) -> Value {
        json!(match self {
            Kind::Star => "Star",
            Kind::Planet => "Planet",
            Kind::BlackHole => "black hole",
        })
    }
}

/// `Complex<f64>` inside an array: `with` cannot reach into `[_; N]`, a
/// transparent newtype can.
#[derive(Debug, Clone, Copy, Serialize)]
struct C64(#[serde(with = "npy_serde::complex")] Complex<f64>);

impl Tag for C64 {
    fn tag(&self) -> Value {
        self.0.tag()
    }
}

/// Tuple struct: a record with fields `f0`, `f1`.
#[derive(Debug, Clone, Serialize)]
struct Pt(f32, i16);

impl Tag for Pt {
    fn tag(&self) -> Value {
        record_tag(vec![("f0", &self.0), ("f1", &self.1)])
    }
}

/// Unit struct: a zero-field record.
#[derive(Debug, Clone, Serialize)]
struct Marker;

impl Tag for Marker {
    fn tag(&self) -> Value {
        json!({ "$record": [] })
    }
}

/// A newtype struct is transparent.
#[derive(Debug, Clone, Copy, Serialize)]
struct Meters(f64);

impl Tag for Meters {
    fn tag(&self) -> Value {
        self.0.tag()
    }
}

record! {
    struct Particle {
        id: u32,
        pos: [f64; 3],
        vel: [f32; 3],
        mass: Meters,
        alive: bool,
        name: String,
        raw: ByteBuf,
        kind: Kind,
        initial: char,
    }

    struct Numbers {
        b: bool,
        i1: i8,
        i2: i16,
        i4: i32,
        i8: i64,
        u1: u8,
        u2: u16,
        u4: u32,
        u8: u64,
        f4: f32,
        f8: f64,
    }

    struct Outer {
        id: u16,
        inner: Inner,
        pairs: [Pair; 2],
        grid: [[f64; 4]; 3],
        ragged_free: Vec<i32>,
    }

    struct Inner {
        label: String,
        deep: Pair,
    }

    struct Pair {
        p: f64,
        q: u8,
    }

    struct Complexes {
        #[serde(with = "npy_serde::complex")]
        z8: Complex<f32>,
        #[serde(with = "npy_serde::complex")]
        z16: Complex<f64>,
        zs: [C64; 2],
        tuple_form: Complex<f64>,
    }

    struct Padded {
        a: u8,
        gap: npy_serde::Padding<3>,
        b: i32,
        tail: npy_serde::Padding<8>,
    }

    struct AlignMe {
        a: i8,
        b: f64,
        c: i16,
        sub: AlignSub,
        d: u8,
    }

    struct AlignSub {
        x: u8,
        y: i32,
    }

    struct Names {
        temp as "温度": f64,
        cafe as "café": i32,
        plain: u8,
    }

    struct Latin1 {
        cafe as "café": i32,
        naive as "naïve": f32,
    }

    struct Tuples {
        pt: Pt,
        mixed: (u8, f64, String),
        same: (i32, i32, i32),
        marker: Marker,
        unit: (),
    }

    struct Times {
        t: Datetime64<unit::ns>,
        d: Timedelta64<unit::s>,
        day: Datetime64<unit::D>,
        nat: Datetime64<unit::ms>,
    }

    struct Be {
        x: f64,
        y: i32,
        s: String,
    }
}

impl<U: TimeUnitMarker> Tag for Datetime64<U> {
    fn tag(&self) -> Value {
        json!(self.count())
    }
}

impl<U: TimeUnitMarker> Tag for Timedelta64<U> {
    fn tag(&self) -> Value {
        json!(self.count())
    }
}

impl Tag for (u8, f64, String) {
    fn tag(&self) -> Value {
        record_tag(vec![("f0", &self.0), ("f1", &self.1), ("f2", &self.2)])
    }
}

impl Tag for (i32, i32, i32) {
    fn tag(&self) -> Value {
        json!([self.0, self.1, self.2])
    }
}

impl Tag for () {
    fn tag(&self) -> Value {
        json!({ "$record": [] })
    }
}

// ---------------------------------------------------------------------------
// Writing the cases.

/// One file to write: the bytes (or the write error) and what numpy must see.
struct Case {
    name: &'static str,
    bytes: Result<Vec<u8>, String>,
    descr: String,
    shape: Vec<u64>,
    fortran_order: bool,
    values: Value,
}

fn case(
    name: &'static str,
    bytes: npy_serde::Result<Vec<u8>>,
    descr: impl Into<String>,
    shape: &[u64],
    values: Value,
) -> Case {
    Case {
        name,
        bytes: bytes.map_err(|e| format!("write failed: {e}")),
        descr: descr.into(),
        shape: shape.to_vec(),
        fortran_order: false,
        values,
    }
}

fn fortran(mut c: Case) -> Case {
    c.fortran_order = true;
    c
}

fn tags<T: Tag>(items: &[T]) -> Value {
    Value::Array(items.iter().map(Tag::tag).collect())
}

fn particles() -> Vec<Particle> {
    vec![
        Particle {
            id: 1,
            pos: [0.1, -2.5, 1e300],
            vel: [f32::MIN_POSITIVE, -0.0, 3.25],
            mass: Meters(1.989e30),
            alive: true,
            name: "Sol".into(),
            raw: ByteBuf::from(b"\x00\x01ab".to_vec()),
            kind: Kind::Star,
            initial: 'S',
        },
        Particle {
            id: u32::MAX,
            pos: [f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE / 4.0],
            vel: [1.0, 2.0, f32::MAX],
            mass: Meters(5.97e24),
            alive: false,
            name: "Terra, ünïcødé 漢字 😀".into(),
            raw: ByteBuf::from(b"x".to_vec()),
            kind: Kind::Planet,
            initial: 'é',
        },
        Particle {
            id: 0,
            pos: [0.0, 0.0, 0.0],
            vel: [0.0, 0.0, 0.0],
            mass: Meters(8.2e36),
            alive: true,
            name: "Sgr A*".into(),
            raw: ByteBuf::from(b"\xff\xfe\x00\x7f\x80".to_vec()),
            kind: Kind::BlackHole,
            initial: '😀',
        },
    ]
}

fn numbers() -> Vec<Numbers> {
    vec![
        Numbers {
            b: false,
            i1: i8::MIN,
            i2: i16::MIN,
            i4: i32::MIN,
            i8: i64::MIN,
            u1: 0,
            u2: 0,
            u4: 0,
            u8: 0,
            f4: f32::NAN,
            f8: f64::NAN,
        },
        Numbers {
            b: true,
            i1: i8::MAX,
            i2: i16::MAX,
            i4: i32::MAX,
            i8: i64::MAX,
            u1: u8::MAX,
            u2: u16::MAX,
            u4: u32::MAX,
            u8: u64::MAX,
            f4: -0.0,
            f8: -0.0,
        },
        Numbers {
            b: true,
            i1: -1,
            i2: -300,
            i4: 70_000,
            i8: -(1 << 53) - 1,
            u1: 200,
            u2: 40_000,
            u4: 3_000_000_000,
            u8: (1 << 63) + 12345,
            f4: f32::from_bits(1),
            f8: f64::from_bits(1),
        },
    ]
}

fn outers() -> Vec<Outer> {
    let grid = |k: f64| {
        let mut g = [[0.0; 4]; 3];
        for (i, row) in g.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = k * 100.0 + (i * 4 + j) as f64 + 0.5;
            }
        }
        g
    };
    vec![
        Outer {
            id: 7,
            inner: Inner {
                label: "ab".into(),
                deep: Pair { p: 1.5, q: 9 },
            },
            pairs: [Pair { p: -1.0, q: 1 }, Pair { p: 2.0, q: 2 }],
            grid: grid(1.0),
            ragged_free: vec![1, 2],
        },
        Outer {
            id: 8,
            inner: Inner {
                label: "abcdef".into(),
                deep: Pair {
                    p: f64::MAX,
                    q: 255,
                },
            },
            pairs: [Pair { p: 0.1, q: 3 }, Pair { p: 0.2, q: 4 }],
            grid: grid(2.0),
            ragged_free: vec![-3, 4],
        },
    ]
}

fn complexes() -> Vec<Complexes> {
    vec![
        Complexes {
            z8: Complex::new(1.5, -2.25),
            z16: Complex::new(0.1, f64::INFINITY),
            zs: [C64(Complex::new(1.0, 2.0)), C64(Complex::new(-0.0, 1e-310))],
            tuple_form: Complex::new(3.0, 4.0),
        },
        Complexes {
            z8: Complex::new(f32::MAX, f32::MIN_POSITIVE),
            z16: Complex::new(-1e300, 7.0),
            zs: [C64(Complex::new(5.0, 6.0)), C64(Complex::new(7.0, 8.0))],
            tuple_form: Complex::new(-3.0, -4.0),
        },
    ]
}

fn padded() -> Vec<Padded> {
    [(1u8, -1i32), (255, i32::MAX)]
        .into_iter()
        .map(|(a, b)| Padded {
            a,
            gap: npy_serde::Padding,
            b,
            tail: npy_serde::Padding,
        })
        .collect()
}

fn aligned() -> Vec<AlignMe> {
    vec![
        AlignMe {
            a: -1,
            b: 0.5,
            c: -2,
            sub: AlignSub { x: 3, y: -4 },
            d: 5,
        },
        AlignMe {
            a: 1,
            b: -0.5,
            c: 2,
            sub: AlignSub { x: 30, y: 40 },
            d: 50,
        },
    ]
}

fn tuples() -> Vec<Tuples> {
    vec![
        Tuples {
            pt: Pt(1.5, -2),
            mixed: (1, 2.5, "x".into()),
            same: (1, 2, 3),
            marker: Marker,
            unit: (),
        },
        Tuples {
            pt: Pt(-1.5, 2),
            mixed: (255, -2.5, "xyz".into()),
            same: (-1, -2, -3),
            marker: Marker,
            unit: (),
        },
    ]
}

const PARTICLES_DESCR: &str = "[('id', '<u4'), ('pos', '<f8', (3,)), ('vel', '<f4', (3,)), ('mass', '<f8'), \
             ('alive', '|b1'), ('name', '<U19'), ('raw', '|S5'), ('kind', '<U10'), ('initial', '<U1')]";

const NUMBERS_DESCR: &str = "[('b', '|b1'), ('i1', '|i1'), ('i2', '<i2'), ('i4', '<i4'), ('i8', '<i8'), \
     ('u1', '|u1'), ('u2', '<u2'), ('u4', '<u4'), ('u8', '<u8'), ('f4', '<f4'), ('f8', '<f8')]";

fn cases() -> Vec<Case> {
    use npy_serde::{WriteOptions, to_vec};

    let particles = particles();
    let numbers = numbers();
    let outers = outers();
    let complexes = complexes();
    let padded = padded();
    let aligned = aligned();
    let tuples = tuples();
    let names = vec![
        Names {
            temp: 21.5,
            cafe: 3,
            plain: 1,
        },
        Names {
            temp: -40.0,
            cafe: -3,
            plain: 2,
        },
    ];
    let latin1 = vec![Latin1 {
        cafe: 1,
        naive: 0.5,
    }];
    let rows: Vec<[f64; 3]> = vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.5], [-0.0, f64::MAX, 1e-300]];
    let matrix: Vec<Vec<i32>> = (0..3)
        .map(|i| (0..4).map(|j| i * 10 + j).collect())
        .collect();
    let flat: Vec<f64> = vec![0.5, 1.5, -2.0, 1e10];
    let maps: Vec<BTreeMap<String, f64>> = (0..3)
        .map(|i| {
            [
                ("alpha".to_string(), f64::from(i)),
                ("beta".to_string(), -f64::from(i)),
            ]
            .into()
        })
        .collect();
    let be = vec![
        Be {
            x: 1.0,
            y: -2,
            s: "hi".into(),
        },
        Be {
            x: -0.5,
            y: 1 << 20,
            s: "".into(),
        },
    ];
    let be_dtype: npy_serde::Dtype = "[('x', '>f8'), ('y', '>i4'), ('s', '>U3')]"
        .parse()
        .unwrap();

    let mut out = vec![
        case(
            "particles",
            to_vec(&particles),
            PARTICLES_DESCR,
            &[3],
            tags(&particles),
        ),
        case(
            "numbers",
            to_vec(&numbers),
            NUMBERS_DESCR,
            &[3],
            tags(&numbers),
        ),
        case(
            "nested",
            to_vec(&outers),
            "[('id', '<u2'), ('inner', [('label', '<U6'), ('deep', [('p', '<f8'), ('q', '|u1')])]), \
             ('pairs', [('p', '<f8'), ('q', '|u1')], (2,)), ('grid', '<f8', (3, 4)), ('ragged_free', '<i4', (2,))]",
            &[2],
            tags(&outers),
        ),
        case(
            "complex",
            to_vec(&complexes),
            "[('z8', '<c8'), ('z16', '<c16'), ('zs', '<c16', (2,)), ('tuple_form', '<f8', (2,))]",
            &[2],
            tags(&complexes),
        ),
        case(
            "padding",
            to_vec(&padded),
            "[('a', '|u1'), ('', '|V3'), ('b', '<i4'), ('', '|V8')]",
            &[2],
            tags(&padded),
        ),
        case(
            "aligned",
            WriteOptions::new().align(true).to_vec(&aligned),
            "[('a', '|i1'), ('', '|V7'), ('b', '<f8'), ('c', '<i2'), ('', '|V2'), \
             ('sub', [('x', '|u1'), ('', '|V3'), ('y', '<i4')]), ('d', '|u1'), ('', '|V3')]",
            &[2],
            tags(&aligned),
        ),
        case(
            "unicode_names",
            to_vec(&names),
            "[('温度', '<f8'), ('café', '<i4'), ('plain', '|u1')]",
            &[2],
            tags(&names),
        ),
        case(
            "latin1_names",
            to_vec(&latin1),
            "[('café', '<i4'), ('naïve', '<f4')]",
            &[1],
            tags(&latin1),
        ),
        case("plain_n3", to_vec(&rows), "'<f8'", &[3, 3], tags(&rows)),
        case("plain_1d", to_vec(&flat), "'<f8'", &[4], tags(&flat)),
        fortran(case(
            "fortran_n3",
            WriteOptions::new().fortran_order(true).to_vec(&rows),
            "'<f8'",
            &[3, 3],
            tags(&rows),
        )),
        fortran(case(
            "fortran_vecvec",
            WriteOptions::new().fortran_order(true).to_vec(&matrix),
            "'<i4'",
            &[3, 4],
            tags(&matrix),
        )),
        case("scalar_0d", to_vec(&2.5f64), "'<f8'", &[], 2.5f64.tag()),
        case(
            "record_0d",
            to_vec(&outers[0]),
            "[('id', '<u2'), ('inner', [('label', '<U2'), ('deep', [('p', '<f8'), ('q', '|u1')])]), \
             ('pairs', [('p', '<f8'), ('q', '|u1')], (2,)), ('grid', '<f8', (3, 4)), ('ragged_free', '<i4', (2,))]",
            &[],
            outers[0].tag(),
        ),
        case(
            "tuples",
            to_vec(&tuples),
            "[('pt', [('f0', '<f4'), ('f1', '<i2')]), ('mixed', [('f0', '|u1'), ('f1', '<f8'), ('f2', '<U3')]), \
             ('same', '<i4', (3,)), ('marker', []), ('unit', [])]",
            &[2],
            tags(&tuples),
        ),
        case(
            "maps",
            to_vec(&maps),
            "[('alpha', '<f8'), ('beta', '<f8')]",
            &[3],
            tags(&maps),
        ),
        case(
            "dtype_big_endian",
            WriteOptions::new().dtype(be_dtype).to_vec(&be),
            "[('x', '>f8'), ('y', '>i4'), ('s', '>U3')]",
            &[2],
            tags(&be),
        ),
        case(
            "dtype_f4",
            WriteOptions::new()
                .dtype("<f4".parse().unwrap())
                .to_vec(&flat),
            "'<f4'",
            &[4],
            Value::Array(flat.iter().map(|x| (*x as f32).tag()).collect()),
        ),
        // No samples: the dtype is traced from the type (string widths would be 1).
        case(
            "empty",
            // No samples to learn the dtype from: it is given.
            WriteOptions::new()
                .dtype(NUMBERS_DESCR.parse().unwrap())
                .to_vec(&Vec::<Numbers>::new()),
            NUMBERS_DESCR,
            &[0],
            json!([]),
        ),
    ];

    // to_writer must give the same bytes as to_vec.
    let mut written = Vec::new();
    let via_writer = npy_serde::to_writer(&mut written, &particles).map(|()| written);
    out.push(case(
        "particles_to_writer",
        via_writer,
        PARTICLES_DESCR,
        &[3],
        tags(&particles),
    ));

    out.extend(extra_cases());
    out
}

/// Rows whose Rust types need an optional feature.
fn extra_cases() -> Vec<Case> {
    #[allow(unused_mut)]
    let mut out = Vec::new();
    #[cfg(feature = "half")]
    {
        let halves: Vec<half::f16> = [1.0f32, -0.5, 65504.0, 6.0e-8, f32::INFINITY]
            .into_iter()
            .map(half::f16::from_f32)
            .collect();
        let expected = Value::Array(halves.iter().map(|h| h.to_f32().tag()).collect());
        out.push(case(
            "half",
            npy_serde::to_vec(&halves),
            "'<f2'",
            &[5],
            expected,
        ));
    }
    out.extend(datetime_cases());
    out.push(random_case());
    out.extend(nd_cases());
    out
}

/// `values` (C order) nested as numpy's `tolist` of an array of `shape`.
fn nested(shape: &[usize], values: &[Value]) -> Value {
    let Some((&n, rest)) = shape.split_first() else {
        return values[0].clone();
    };
    let inner: usize = rest.iter().product();
    Value::Array(
        (0..n)
            .map(|i| nested(rest, &values[i * inner..(i + 1) * inner]))
            .collect(),
    )
}

/// An n-d array written by `to_vec` (`via_writer`: by `to_writer`), with
/// what numpy must see: its shape, its own layout (`fortran_order` only
/// where numpy's header says so), its values in C order.
fn nd_case<T: Tag + Serialize + Clone + 'static>(
    name: &'static str,
    a: &npy_serde::NdArray<T>,
    descr: &str,
    via_writer: bool,
) -> Case {
    let bytes = if via_writer {
        let mut out = Vec::new();
        npy_serde::to_writer(&mut out, a).map(|()| out)
    } else {
        npy_serde::to_vec(a)
    };
    let c_order = a.clone().into_c_order();
    let flat: Vec<Value> = c_order.data().iter().map(Tag::tag).collect();
    let shape: Vec<u64> = a.shape().iter().map(|&d| d as u64).collect();
    let mut c = case(name, bytes, descr, &shape, nested(a.shape(), &flat));
    c.fortran_order = a.order() == npy_serde::Order::Fortran
        && a.shape().iter().filter(|&&d| d > 1).count() >= 2
        && !a.shape().contains(&0);
    c
}

/// `NdArray` writes: plain numbers of each kind, C and Fortran, 0-d and
/// empty, elements with axes of their own, strings, complex, a given
/// big-endian dtype, and random shapes and values (the run's seed).
fn nd_cases() -> Vec<Case> {
    use npy_serde::NdArray;
    let seed = std::env::var("NPY_SERDE_INTEROP_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(7);
    let mut rng = Rng(seed.rotate_left(17) | 1);
    let f64s: Vec<f64> = (0..24).map(|_| rng.f64()).collect();
    let c = NdArray::from_shape_vec(vec![2, 3, 4], f64s.clone()).unwrap();
    let f = NdArray::from_shape_vec_fortran(vec![2, 3, 4], f64s).unwrap();
    let i16s =
        NdArray::from_shape_vec_fortran(vec![3, 4], (0..12).map(|_| rng.next() as i16).collect())
            .unwrap();
    let bools = NdArray::from_shape_vec(
        vec![2, 2, 2, 2],
        (0..16).map(|_| rng.below(2) == 1).collect(),
    )
    .unwrap();
    let scalar = NdArray::from_shape_vec(vec![], vec![rng.next() as u8]).unwrap();
    let empty = NdArray::<f32>::from_shape_vec(vec![0, 5], vec![]).unwrap();
    let points = NdArray::from_shape_vec(
        vec![2, 2],
        (0..4)
            .map(|_| [rng.f32(), rng.f32(), rng.f32()])
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let words = NdArray::from_shape_vec_fortran(
        vec![2, 3],
        ["a", "bc", "", "漢字", "xyz", "q"]
            .map(String::from)
            .to_vec(),
    )
    .unwrap();
    let z = NdArray::from_shape_vec_fortran(
        vec![2, 2],
        (0..4).map(|_| Complex::new(rng.f64(), rng.f64())).collect(),
    )
    .unwrap();
    let be = npy_serde::WriteOptions::new()
        .dtype(">f8".parse().unwrap())
        .to_vec(&c);
    let mut out = vec![
        nd_case("nd_f8_c", &c, "'<f8'", false),
        nd_case("nd_f8_f", &f, "'<f8'", false),
        nd_case("nd_f8_f_to_writer", &f, "'<f8'", true),
        nd_case("nd_i2_f", &i16s, "'<i2'", true),
        nd_case("nd_b1_4d", &bools, "'|b1'", true),
        nd_case("nd_u1_0d", &scalar, "'|u1'", true),
        nd_case("nd_f4_empty", &empty, "'<f4'", true),
        nd_case("nd_words_f", &words, "'<U3'", false),
        nd_case("nd_c16_f", &z, "'<c16'", true),
    ];
    // an element with an axis of its own: the array's shape, then its own
    let mut p = nd_case("nd_points", &points, "'<f4'", true);
    p.shape.push(3);
    out.push(p);
    let mut b = nd_case("nd_f8_as_be", &c, "'>f8'", false);
    b.bytes = be.map_err(|e| format!("write failed: {e}"));
    out.push(b);
    // random shape (up to 4 axes of 0 to 5), order and values
    let dims: Vec<usize> = (0..rng.below(5)).map(|_| rng.below(6) as usize).collect();
    let n: usize = dims.iter().product();
    let data: Vec<f64> = (0..n).map(|_| rng.f64()).collect();
    let random = if rng.below(2) == 0 {
        NdArray::from_shape_vec(dims, data)
    } else {
        NdArray::from_shape_vec_fortran(dims, data)
    };
    println!(
        "nd_random: shape {:?}",
        random.as_ref().map(|a| a.shape().to_vec())
    );
    out.push(nd_case("nd_random", &random.unwrap(), "'<f8'", true));
    out
}

/// xorshift64*: enough randomness for test values, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Any bit pattern except NaN (NaN payloads are not what this checks).
    fn f64(&mut self) -> f64 {
        let x = f64::from_bits(self.next());
        if x.is_nan() { f64::NAN } else { x }
    }
    fn f32(&mut self) -> f32 {
        let x = f32::from_bits(self.next() as u32);
        if x.is_nan() { f32::NAN } else { x }
    }
}

record! {
    struct Random {
        flag: bool,
        x: f64,
        y: f32,
        n: i64,
        k: u16,
        #[serde(with = "npy_serde::complex")]
        z: Complex<f64>,
        text: String,
        raw: ByteBuf,
        v: [i32; 3],
    }
}

/// Random values, a fresh seed each run (NPY_SERDE_INTEROP_SEED to repeat):
/// bit patterns a hand-written case would not think of, and string widths
/// that change from run to run.
fn random_case() -> Case {
    let seed = std::env::var("NPY_SERDE_INTEROP_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(1, |d| d.as_nanos() as u64)
        });
    println!("random: seed {seed} (reproduce with NPY_SERDE_INTEROP_SEED={seed})");
    let mut rng = Rng(seed | 1);
    const CHARS: &[char] = &[
        'a', 'Z', '0', ' ', '\'', '"', '\\', '\n', 'é', 'ß', 'Ω', '漢', '😀', '\u{200b}',
    ];
    let records: Vec<Random> = (0..1 + rng.below(8))
        .map(|_| Random {
            flag: rng.below(2) == 1,
            x: rng.f64(),
            y: rng.f32(),
            n: rng.next() as i64,
            k: rng.next() as u16,
            z: Complex::new(rng.f64(), rng.f64()),
            text: (0..rng.below(7))
                .map(|_| CHARS[rng.below(CHARS.len() as u64) as usize])
                .collect(),
            // S values may not end in NUL (numpy would strip it).
            raw: ByteBuf::from(
                (0..rng.below(6))
                    .map(|_| rng.next() as u8)
                    .map(|b| b.max(1))
                    .collect::<Vec<u8>>(),
            ),
            v: [rng.next() as i32, rng.next() as i32, rng.next() as i32],
        })
        .collect();
    let width = |f: fn(&Random) -> usize| records.iter().map(f).max().unwrap_or(0).max(1);
    let text_width = width(|r| r.text.chars().count());
    let raw_width = width(|r| r.raw.len());
    let descr = format!(
        "[('flag', '|b1'), ('x', '<f8'), ('y', '<f4'), ('n', '<i8'), ('k', '<u2'), ('z', '<c16'), \
         ('text', '<U{text_width}'), ('raw', '|S{raw_width}'), ('v', '<i4', (3,))]"
    );
    let shape = [records.len() as u64];
    case(
        "random",
        npy_serde::to_vec(&records),
        descr,
        &shape,
        tags(&records),
    )
}

/// `Datetime64<U>` / `Timedelta64<U>`: `<M8[unit]` / `<m8[unit]` with the
/// i64 count, NaT = i64::MIN.
fn datetime_cases() -> Vec<Case> {
    let times = vec![
        Times {
            t: Datetime64::new(1_700_000_000_123_456_789),
            d: Timedelta64::new(-90),
            day: Datetime64::new(19_000),
            nat: Datetime64::NAT,
        },
        Times {
            t: Datetime64::NAT,
            d: Timedelta64::NAT,
            day: Datetime64::new(-1),
            nat: Datetime64::new(0),
        },
    ];
    vec![case(
        "datetime",
        npy_serde::to_vec(&times),
        "[('t', '<M8[ns]'), ('d', '<m8[s]'), ('day', '<M8[D]'), ('nat', '<M8[ms]')]",
        &[2],
        tags(&times),
    )]
}

/// Checks what can be checked without numpy; the reason when a case fails.
fn check_case(c: &Case) -> Result<&[u8], String> {
    let bytes = c.bytes.as_deref().map_err(Clone::clone)?;
    // The header carries the descr numpy must see (latin1 in v1/v2, UTF-8 in v3).
    let head = &bytes[..bytes.len().min(4096)];
    let utf8 = String::from_utf8_lossy(head);
    let latin1: String = head.iter().map(|&b| char::from(b)).collect();
    let descr = format!("'descr': {}, ", c.descr);
    if utf8.contains(&descr) || latin1.contains(&descr) {
        Ok(bytes)
    } else {
        Err(format!("header does not contain {descr}: {utf8:?}"))
    }
}

#[test]
fn rust_written_files_for_numpy() {
    let cases = cases();
    let dir = std::env::var_os("NPY_SERDE_OUT_DIR").map(PathBuf::from);
    if let Some(dir) = &dir {
        std::fs::create_dir_all(dir).unwrap();
    }
    let mut failed = Vec::new();
    for c in &cases {
        let bytes = match check_case(c) {
            Ok(bytes) => bytes,
            Err(reason) => {
                println!("FAIL  {}: {reason}", c.name);
                failed.push(c.name);
                continue;
            }
        };
        println!("ok    {}", c.name);
        let Some(dir) = &dir else { continue };
        std::fs::write(dir.join(format!("{}.npy", c.name)), bytes).unwrap();
        let sidecar = json!({
            "case": c.name,
            "descr": c.descr,
            "shape": c.shape,
            "fortran_order": c.fortran_order,
            "values": c.values,
        });
        std::fs::write(
            dir.join(format!("{}.json", c.name)),
            serde_json::to_vec(&sidecar).unwrap(),
        )
        .unwrap();
    }
    match &dir {
        Some(dir) => println!(
            "wrote {} files to {} for tests/interop/numpy_checks.py",
            cases.len() - failed.len(),
            dir.display()
        ),
        None => {
            println!("NPY_SERDE_OUT_DIR not set: files built in memory only, numpy checks skipped")
        }
    }
    assert!(failed.is_empty(), "failed: {failed:?}");
}

// ---------------------------------------------------------------------------
// .npz archives: the sidecar lists the members numpy must see, in order,
// each with its descr, shape and values; numpy_checks.py `check_npz` checks
// each member like an .npy and compares the member bytes and local headers
// with np.savez of the loaded arrays.

/// One archive and its sidecar.
struct NpzCase {
    name: &'static str,
    bytes: Vec<u8>,
    compressed: bool,
    members: Vec<Value>,
}

/// The sidecar entry of member `key` of `bytes`, with `values`.
fn npz_member(bytes: &[u8], key: &str, values: Value) -> Value {
    let mut z = npy_serde::npz::NpzReader::new(std::io::Cursor::new(bytes)).unwrap();
    let r = z.reader(key).unwrap();
    json!({
        "key": key,
        "descr": r.dtype().to_string(),
        "shape": r.shape(),
        "fortran_order": r.fortran_order(),
        "values": values,
    })
}

/// Column `key` of records tagged `{"$record": [[name, value], ...]}`.
fn column_tags(records: &Value, key: &str) -> Value {
    let rows = records.as_array().unwrap();
    Value::Array(
        rows.iter()
            .map(|r| {
                r["$record"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|pair| pair[0] == key)
                    .map(|pair| pair[1].clone())
                    .unwrap()
            })
            .collect(),
    )
}

fn npz_cases() -> Vec<NpzCase> {
    use npy_serde::npz::{self, NpzWriter};
    use std::io::Cursor;
    let mut out = Vec::new();

    // struct of arrays through npz::to_writer (stored)
    #[derive(Serialize)]
    struct Snapshot {
        particles: Vec<Particle>,
        numbers: Vec<Numbers>,
        step: u64,
        pos: Vec<[f64; 3]>,
        empty: Option<Vec<u8>>,
    }
    let snap = Snapshot {
        particles: particles(),
        numbers: numbers(),
        step: 7,
        pos: particles().iter().map(|p| p.pos).collect(),
        empty: None,
    };
    let mut file = Cursor::new(Vec::new());
    npz::to_writer(&mut file, &snap).unwrap();
    let bytes = file.into_inner();
    let members = vec![
        npz_member(&bytes, "particles", tags(&snap.particles)),
        npz_member(&bytes, "numbers", tags(&snap.numbers)),
        npz_member(&bytes, "step", snap.step.tag()),
        npz_member(
            &bytes,
            "pos",
            Value::Array(snap.pos.iter().map(Tag::tag).collect()),
        ),
    ];
    out.push(NpzCase {
        name: "npz_struct",
        bytes,
        compressed: false,
        members,
    });

    // members added one by one and streamed, deflated
    let mut file = Cursor::new(Vec::new());
    let mut w = NpzWriter::new(&mut file).compressed(true);
    w.add("outers", &outers()).unwrap();
    w.add("complexes", &complexes()).unwrap();
    let one = npy_serde::to_vec(&tuples()).unwrap();
    let dtype = npy_serde::NpyReader::new(&one[..]).unwrap().dtype().clone();
    let mut m = w.start("tuples", dtype, tuples().len() as u64).unwrap();
    for t in tuples() {
        m.serialize(&t).unwrap();
    }
    m.finish().unwrap();
    w.finish().unwrap();
    let bytes = file.into_inner();
    let members = vec![
        npz_member(&bytes, "outers", tags(&outers())),
        npz_member(&bytes, "complexes", tags(&complexes())),
        npz_member(&bytes, "tuples", tags(&tuples())),
    ];
    out.push(NpzCase {
        name: "npz_compressed",
        bytes,
        compressed: true,
        members,
    });

    // a deflated member of many pieces (deflate.rs cuts every 256 KiB):
    // numpy's zipfile inflates the concatenated stream
    let big: Vec<u16> = (0..700_000u32).map(|i| (i / 40 + i % 7) as u16).collect();
    let mut file = Cursor::new(Vec::new());
    let mut w = NpzWriter::new(&mut file).compressed(true);
    w.add("big", &big).unwrap();
    w.finish().unwrap();
    let bytes = file.into_inner();
    let members = vec![npz_member(
        &bytes,
        "big",
        Value::Array(big.iter().map(Tag::tag).collect()),
    )];
    out.push(NpzCase {
        name: "npz_deflate_pieces",
        bytes,
        compressed: true,
        members,
    });

    // the other deflate levels (6 is above), each member over several
    // 256 KiB pieces; zipfile's headers are the same at every level, so
    // they are compared with np.savez_compressed's as for level 6
    let level_case = |name: &'static str, bytes: Vec<u8>| {
        let members = vec![
            npz_member(
                &bytes,
                "big",
                Value::Array(big.iter().map(Tag::tag).collect()),
            ),
            npz_member(&bytes, "outers", tags(&outers())),
        ];
        NpzCase {
            name,
            bytes,
            compressed: true,
            members,
        }
    };
    // 0 (stored blocks), the archive's level through npz::NpzOptions
    #[derive(Serialize)]
    struct Levelled<'a> {
        big: &'a [u16],
        outers: Vec<Outer>,
    }
    let mut file = Cursor::new(Vec::new());
    let value = Levelled {
        big: &big,
        outers: outers(),
    };
    npz::NpzOptions::new()
        .compression_level(0)
        .to_writer(&mut file, &value)
        .unwrap();
    out.push(level_case("npz_level_0", file.into_inner()));
    // 1, the archive's level through NpzWriter
    let mut w = NpzWriter::new(Cursor::new(Vec::new()))
        .compression_level(1)
        .unwrap();
    w.add("big", &big).unwrap();
    w.add("outers", &outers()).unwrap();
    out.push(level_case("npz_level_1", w.finish().unwrap().into_inner()));
    // 9, each member's own level in an archive that stores
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    w.level_for_next(9).unwrap().add("big", &big).unwrap();
    w.level_for_next(9)
        .unwrap()
        .add("outers", &outers())
        .unwrap();
    out.push(level_case("npz_level_9", w.finish().unwrap().into_inner()));

    // a member that failed after 2 MB reached the archive, then a short
    // one: the central directory follows the dropped bytes (no stale tail)
    let mut file = Cursor::new(Vec::new());
    let mut w = NpzWriter::new(&mut file);
    let mut names: Vec<String> = (0..100_000).map(|i| format!("name{i:016}")).collect();
    names.push("bad\0".into());
    assert!(w.add("names", &names).is_err());
    w.add("after", &outers()).unwrap();
    w.finish().unwrap();
    let bytes = file.into_inner();
    let members = vec![npz_member(&bytes, "after", tags(&outers()))];
    out.push(NpzCase {
        name: "npz_after_a_failed_member",
        bytes,
        compressed: false,
        members,
    });

    // columnar: one member per Particle field
    let ps = particles();
    let mut file = Cursor::new(Vec::new());
    npz::to_writer(&mut file, &ps).unwrap();
    let bytes = file.into_inner();
    let records = tags(&ps);
    let keys = [
        "id", "pos", "vel", "mass", "alive", "name", "raw", "kind", "initial",
    ];
    let members = keys
        .iter()
        .map(|k| npz_member(&bytes, k, column_tags(&records, k)))
        .collect();
    out.push(NpzCase {
        name: "npz_columnar",
        bytes,
        compressed: false,
        members,
    });
    out
}

#[test]
fn rust_written_npz_for_numpy() {
    let dir = std::env::var_os("NPY_SERDE_OUT_DIR").map(PathBuf::from);
    for c in npz_cases() {
        println!("ok    {} ({} members)", c.name, c.members.len());
        let Some(dir) = &dir else { continue };
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(format!("{}.npz", c.name)), &c.bytes).unwrap();
        let sidecar = json!({
            "case": c.name,
            "compressed": c.compressed,
            "members": c.members,
        });
        std::fs::write(
            dir.join(format!("{}.json", c.name)),
            serde_json::to_vec(&sidecar).unwrap(),
        )
        .unwrap();
    }
}

// ---------------------------------------------------------------------------
// A memory map made in one call (feature `memmap`, issue 35).

/// `memmap::create` makes the file in place (in `NPY_SERDE_OUT_DIR`, else a
/// scratch directory), fills it through the map, flushes it and drops the
/// map; numpy_checks.py then loads it like every other file (values, and
/// `np.save` of them giving the same bytes: numpy's header).
#[cfg(feature = "memmap")]
#[test]
fn memmap_created_file_for_numpy() {
    let dir = std::env::var_os("NPY_SERDE_OUT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join(format!("npy_serde_to_numpy_{}", std::process::id()))
        });
    std::fs::create_dir_all(&dir).unwrap();
    let shape = [40usize, 3, 5];
    let mut a = npy_serde::memmap::create::<f64>(dir.join("memmap_created.npy"), &shape).unwrap();
    for (i, x) in a.view_mut().data_mut().iter_mut().enumerate() {
        *x = if i == 7 {
            f64::NAN
        } else {
            i as f64 * 0.5 - 7.0
        };
    }
    a.flush().unwrap();
    let flat: Vec<Value> = a.view().data().iter().map(Tag::tag).collect();
    drop(a);
    let sidecar = json!({
        "case": "memmap_created",
        "descr": "'<f8'",
        "shape": shape,
        "fortran_order": false,
        "values": nested(&shape, &flat),
    });
    std::fs::write(
        dir.join("memmap_created.json"),
        serde_json::to_vec(&sidecar).unwrap(),
    )
    .unwrap();
    println!("ok    memmap_created (written in place through memmap::create)");
}
