//! The fast paths (`Fast` tags: `Scalar::plain`, the datetime token shortcut, `String`
//! straight from `U`) against the general path they bypass: for every
//! scalar type of the file, every byte order, a spread of bit patterns and
//! every Rust target, `ElementDe` (fast where the tag allows) must give
//! exactly what `ScalarDe` (the general path, always taken before) gives —
//! the same value or the same error message.

use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::element::ElementDe;
use super::plan::{Kind, PField, Plan};
use super::scalar::ScalarDe;
use super::{Bytes, Cfg};
use crate::format::dtype::Plain;
use crate::format::dtype::{ByteOrder, DatetimeUnit, Dtype, Scalar, ScalarType, TimeUnit};
use crate::{Datetime64, Timedelta64, unit};

/// `from_slice` and `from_reader` of `file` into `T` both fail with `message`.
#[track_caller]
fn assert_both_readers_refuse<T: DeserializeOwned + std::fmt::Debug>(file: &[u8], message: &str) {
    assert_eq!(
        crate::from_slice::<T>(file).unwrap_err().to_string(),
        message
    );
    assert_eq!(
        crate::from_reader::<T>(file).unwrap_err().to_string(),
        message
    );
}

pub(super) fn types() -> Vec<ScalarType> {
    let ns = DatetimeUnit::new(TimeUnit::Nanoseconds);
    let us = DatetimeUnit::new(TimeUnit::Microseconds);
    vec![
        ScalarType::Bool,
        ScalarType::Int(1),
        ScalarType::Int(2),
        ScalarType::Int(4),
        ScalarType::Int(8),
        ScalarType::UInt(1),
        ScalarType::UInt(2),
        ScalarType::UInt(4),
        ScalarType::UInt(8),
        ScalarType::Float(2),
        ScalarType::Float(4),
        ScalarType::Float(8),
        ScalarType::Datetime(ns),
        ScalarType::Datetime(us),
        ScalarType::Timedelta(ns),
        ScalarType::Unicode(2),
        ScalarType::Bytes(2),
    ]
}

/// Bit patterns: small, negative, fractions, NaN, beyond 2^53, non-ASCII.
pub(super) const PATTERNS: [u64; 9] = [
    0,
    1,
    300,
    u64::MAX,
    0x3fb9_9999_9999_999a, // 0.1f64
    0x3fe0_0000_0000_0000, // 0.5f64
    0x7ff8_0000_0000_0001, // NaN with payload
    (1 << 53) + 1,
    0x0000_00e9_0000_0041, // 'A', 'é' as UCS-4 little-endian
];

pub(super) fn bytes_of(pattern: u64, size: usize) -> Vec<u8> {
    pattern
        .to_le_bytes()
        .iter()
        .copied()
        .cycle()
        .take(size)
        .collect()
}

/// `Ok(value)` or `Err(message)`, comparable across both paths.
fn outcome<T: std::fmt::Debug>(r: crate::Result<T>) -> String {
    match r {
        Ok(v) => format!("Ok({v:?})"),
        Err(e) => format!("Err({e})"),
    }
}

/// The outcome of reading `file` as `Vec<T>` through `from_slice`,
/// `from_reader` and `NpyReader`, in that order.
fn every_reader<T: DeserializeOwned + std::fmt::Debug>(file: &[u8]) -> [String; 3] {
    let mut reader = crate::NpyReader::new(file).unwrap();
    let rows: crate::Result<Vec<T>> = reader.deserialize().collect();
    [
        outcome(crate::from_slice::<Vec<T>>(file)),
        outcome(crate::from_reader::<Vec<T>>(file)),
        outcome(rows),
    ]
}

fn both<T: DeserializeOwned + std::fmt::Debug>(
    s: Scalar,
    data: &[u8],
    cfg: Cfg,
) -> (String, String) {
    let plan = Plan::new(&Dtype::Scalar(s));
    let fast = outcome(T::deserialize(ElementDe::new(
        &plan,
        Bytes::Borrowed(data),
        cfg,
    )));
    let general = outcome(T::deserialize(ScalarDe::new(s, Bytes::Borrowed(data), cfg)));
    (fast, general)
}

macro_rules! check_targets {
    ($s:expr, $data:expr, $cfg:expr; $($t:ty),*) => {$({
        let (fast, general) = both::<$t>($s, $data, $cfg);
        assert_eq!(
            fast, general,
            "'{}' bytes {:02x?} into {} (lossy {})",
            $s, $data, stringify!($t), $cfg.lossy
        );
    })*};
}

#[test]
fn fast_paths_match_the_general_path() {
    for ty in types() {
        for order in [ByteOrder::Little, ByteOrder::Big] {
            let s = Scalar::new(ty, order);
            for pattern in PATTERNS {
                let data = bytes_of(pattern, s.itemsize());
                for lossy in [false, true] {
                    let cfg = Cfg {
                        lossy,
                        ..Cfg::default()
                    };
                    check_targets!(s, &data, cfg;
                        bool, i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, f32, f64,
                        char, String, serde_bytes::ByteBuf, serde_json::Value,
                        Datetime64<unit::ns>, Datetime64<unit::us>, Datetime64<unit::s>,
                        Timedelta64<unit::ns>, Option<f64>);
                }
            }
        }
    }
}

#[test]
fn tags_are_only_for_exact_types() {
    let tag = |s: Scalar| Plan::new(&Dtype::Scalar(s)).fast;
    assert_eq!(tag(Scalar::le(ScalarType::Float(8))), Some(Plain::F64));
    assert_eq!(tag(Scalar::le(ScalarType::Float(4))), Some(Plain::F32));
    assert_eq!(tag(Scalar::le(ScalarType::Float(2))), None);
    assert_eq!(tag(Scalar::new(ScalarType::Float(8), ByteOrder::Big)), None);
    let swapped = |s: Scalar| Plan::new(&Dtype::Scalar(s)).swapped;
    let big = |ty| Scalar::new(ty, ByteOrder::Big);
    assert_eq!(swapped(big(ScalarType::Float(8))), Some(Plain::F64));
    assert_eq!(swapped(big(ScalarType::UInt(2))), Some(Plain::U16));
    assert_eq!(swapped(big(ScalarType::Float(2))), None);
    assert_eq!(swapped(big(ScalarType::Int(1))), None);
    assert_eq!(swapped(Scalar::le(ScalarType::Float(8))), None);
    let ns = DatetimeUnit::new(TimeUnit::Nanoseconds);
    assert_eq!(swapped(big(ScalarType::Datetime(ns))), None);
    assert_eq!(
        tag(Scalar::new(ScalarType::Int(1), ByteOrder::Big)),
        Some(Plain::I8)
    );
    assert_eq!(tag(Scalar::le(ScalarType::Bool)), Some(Plain::Bool));
    assert_eq!(tag(Scalar::le(ScalarType::Datetime(ns))), None);
    let plan = Plan::new(&Dtype::Scalar(Scalar::le(ScalarType::Datetime(ns))));
    assert_eq!(plan.token.as_deref(), Some("$npy_serde::M8[ns]"));
    let big = Plan::new(&Dtype::Scalar(Scalar::new(
        ScalarType::Datetime(ns),
        ByteOrder::Big,
    )));
    assert_eq!(big.token, None);
    let m25 = DatetimeUnit {
        unit: TimeUnit::Seconds,
        multiplier: 25,
    };
    let plan = Plan::new(&Dtype::Scalar(Scalar::le(ScalarType::Timedelta(m25))));
    assert_eq!(plan.token.as_deref(), Some("$npy_serde::m8[25s]"));
}

/// The fast paths of a record read in order find a field by its offset in
/// 32 bits (`PField::near`): a field past 4 GiB into its record has no
/// fast tags (the general path reads it at its full offset), one before
/// keeps them.
#[cfg(target_pointer_width = "64")]
#[test]
fn fields_past_four_gib_have_no_fast_tags() {
    let big = |ty| Scalar::new(ty, ByteOrder::Big);
    let far = 1usize << 32;
    let fields = vec![
        crate::Field::new("a", Dtype::Scalar(Scalar::le(ScalarType::Float(8))), 0),
        crate::Field::new("b", Dtype::Scalar(Scalar::le(ScalarType::Float(8))), far),
        crate::Field::new("c", Dtype::Scalar(big(ScalarType::UInt(2))), far + 8),
    ];
    let record = crate::Record::new(fields, far + 10).unwrap();
    let plan = Plan::new(&Dtype::Record(record));
    let Kind::Record(r) = &plan.kind else {
        panic!("a record's plan");
    };
    let tags = |f: &PField| (f.plan.fast, f.plan.swapped, f.offset);
    assert_eq!(tags(&r[0]), (Some(Plain::F64), None, 0));
    assert_eq!(r[0].near, 0);
    assert_eq!(tags(&r[1]), (None, None, far));
    assert_eq!(tags(&r[2]), (None, None, far + 8));
    // the same scalars nearer the front keep their tags
    let near = Plan::new(&Dtype::Scalar(big(ScalarType::UInt(2))));
    assert_eq!(near.swapped, Some(Plain::U16));
}

/// The cases named in the issue, through the whole reader: a mismatching
/// target still takes the general path with its value or message.
#[test]
fn mismatching_targets_keep_their_results() {
    let f8 = crate::to_vec(&[1.5f64, 0.1]).unwrap();
    let err = crate::from_slice::<Vec<i32>>(&f8).unwrap_err();
    assert_eq!(err.to_string(), "record 0: expected i32, found '<f8'");
    let err = crate::from_slice::<Vec<f32>>(&f8).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 1: '<f8' value 0.1 is not exactly representable as f32 \
         (ReadOptions::lossy(true) allows rounding)"
    );
    let big = crate::WriteOptions::new()
        .dtype(">f8".parse().unwrap())
        .to_vec(&[1.5f64, -0.25])
        .unwrap();
    assert_eq!(crate::from_slice::<Vec<f64>>(&big).unwrap(), [1.5, -0.25]);
    let f4 = crate::to_vec(&[0.1f32]).unwrap();
    assert_eq!(
        crate::from_slice::<Vec<f64>>(&f4).unwrap(),
        [f64::from(0.1f32)]
    );
    #[derive(Deserialize, Debug, PartialEq)]
    struct P {
        x: f64,
        n: i16,
    }
    #[derive(serde::Serialize)]
    struct W {
        x: f32,
        n: i64,
    }
    let file = crate::to_vec(&[W { x: 0.5, n: 7 }, W { x: 1.0, n: 1 << 20 }]).unwrap();
    assert_both_readers_refuse::<Vec<P>>(
        &file,
        "record 1, field n: expected i16, found integer `1048576` in '<i8'",
    );
}

/// Records with subarray runs and fields whose tags do or do not match the
/// Rust type, through every reader: the same values (or the same message).
#[test]
fn records_and_runs_agree_across_readers() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct R {
        pos: [f64; 3],
        vel: [f32; 2],
        id: u64,
        ok: bool,
    }
    let dtype: Dtype = "[('id', '>u4'), ('pos', '>f8', (3,)), ('vel', '<f4', (2,)), ('ok', '|b1')]"
        .parse()
        .unwrap();
    let mut data = Vec::new();
    for i in 0..3u32 {
        data.extend_from_slice(&(i + 7).to_be_bytes());
        for k in 0..3 {
            data.extend_from_slice(&(f64::from(i) + 0.25 * f64::from(k)).to_be_bytes());
        }
        data.extend_from_slice(&0.5f32.to_le_bytes());
        data.extend_from_slice(&(-1.5f32).to_le_bytes());
        data.push(u8::from(i != 1) * 3);
    }
    let header = crate::Header::new(dtype.clone(), false, vec![3]);
    let (mut file, _) = header.encode(None).unwrap();
    file.extend_from_slice(&data);
    let want: Vec<R> = (0..3u32)
        .map(|i| R {
            pos: [f64::from(i), f64::from(i) + 0.25, f64::from(i) + 0.5],
            vel: [0.5, -1.5],
            id: u64::from(i + 7),
            ok: i != 1,
        })
        .collect();
    assert_eq!(crate::from_slice::<Vec<R>>(&file).unwrap(), want);
    assert_eq!(crate::from_reader::<Vec<R>>(&file[..]).unwrap(), want);
    let mut reader = crate::NpyReader::new(&file[..]).unwrap();
    let rows: Vec<R> = reader.deserialize().collect::<crate::Result<_>>().unwrap();
    assert_eq!(rows, want);

    // '<f4' run into [f64; 2] widens exactly; '>f8' run into [f32; 3] is
    // exact only where the value is
    #[derive(Deserialize, Debug, PartialEq)]
    struct W {
        vel: [f64; 2],
        pos: [f32; 3],
    }
    let got = crate::from_slice::<Vec<W>>(&file).unwrap();
    assert_eq!(got[2].vel, [0.5, -1.5]);
    assert_eq!(got[2].pos, [2.0, 2.25, 2.5]);
    // a run into the wrong type names record, field and index
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Bad {
        pos: [i32; 3],
    }
    assert_both_readers_refuse::<Vec<Bad>>(
        &file,
        "record 0, field pos[0]: expected i32, found '>f8'",
    );
}

/// A run read in place (`[T; N]`, `Vec<T>`, tuples of a one-axis subarray
/// field) gives the messages and positions of the general sequence: the
/// element that fails, a type that takes fewer or more elements, nested
/// and non-scalar subarrays beside it.
#[test]
fn runs_keep_positions_and_messages() {
    let dtype: Dtype = "[('a', '<i4', (3,)), ('m', '<u2', (2, 2)), ('s', '|S2', (2,))]"
        .parse()
        .unwrap();
    let mut data = Vec::new();
    for i in 0..2i32 {
        for k in [1, 300 * i, 2] {
            data.extend_from_slice(&k.to_le_bytes());
        }
        for k in 0..4u16 {
            data.extend_from_slice(&k.to_le_bytes());
        }
        data.extend_from_slice(b"xyz\0");
    }
    let header = crate::Header::new(dtype, false, vec![2]);
    let (mut file, _) = header.encode(None).unwrap();
    file.extend_from_slice(&data);
    macro_rules! rec {
        ($name:ident { $($f:ident: $t:ty),* }) => {
            #[derive(Deserialize, Debug)]
            #[allow(dead_code)]
            struct $name { $($f: $t),* }
        };
    }
    rec!(Ok1 {
        a: [i32; 3],
        m: [[u16; 2]; 2],
        s: [serde_bytes::ByteBuf; 2]
    });
    rec!(Ok2 { a: Vec<i64>, m: Vec<Vec<u8>>, s: (String, String) });
    rec!(Ok3 {
        a: (f64, i32, u16),
        m: serde_json::Value
    });
    rec!(Narrow { a: [u8; 3] });
    rec!(Short { a: [i32; 2] });
    rec!(Long { a: [i32; 4] });
    rec!(Strs { a: [String; 3] });
    rec!(ShortM { m: [[u16; 2]; 1] });
    rec!(Tuple2 { a: (i32, i32) });
    let cases = [
        every_reader::<Ok1>(&file),
        every_reader::<Ok2>(&file),
        every_reader::<Ok3>(&file),
        every_reader::<Narrow>(&file),
        every_reader::<Short>(&file),
        every_reader::<Long>(&file),
        every_reader::<Strs>(&file),
        every_reader::<ShortM>(&file),
        every_reader::<Tuple2>(&file),
    ];
    let want = [
        "Ok([Ok1 { a: [1, 0, 2], m: [[0, 1], [2, 3]], s: [[120, 121], [122]] }, \
         Ok1 { a: [1, 300, 2], m: [[0, 1], [2, 3]], s: [[120, 121], [122]] }])",
        "Ok([Ok2 { a: [1, 0, 2], m: [[0, 1], [2, 3]], s: (\"xy\", \"z\") }, \
         Ok2 { a: [1, 300, 2], m: [[0, 1], [2, 3]], s: (\"xy\", \"z\") }])",
        "Ok([Ok3 { a: (1.0, 0, 2), m: Array [Array [Number(0), Number(1)], \
         Array [Number(2), Number(3)]] }, Ok3 { a: (1.0, 300, 2), m: Array [Array \
         [Number(0), Number(1)], Array [Number(2), Number(3)]] }])",
        "Err(record 1, field a[1]: expected u8, found integer `300` in '<i4')",
        "Err(record 0, field a: expected 2 elements, found subarray of shape (3,) of '<i4')",
        "Err(record 0, field a: invalid length 3, expected an array of length 4)",
        "Err(record 0, field a[0]: expected a string, found '<i4')",
        "Err(record 0, field m: expected 1 elements, found subarray of shape (2, 2) of '<u2')",
        "Err(record 0, field a: expected 2 elements, found subarray of shape (3,) of '<i4')",
    ];
    for (got, want) in cases.iter().zip(want) {
        for g in got {
            assert_eq!(g, want);
        }
    }
}

/// Rows of a 2-D array and the elements of a 1-D one read as runs: the
/// same positions and messages as the general sequence.
#[test]
fn row_runs_keep_positions_and_messages() {
    let values: Vec<[i32; 3]> = vec![[1, 2, 3], [4, 5, 300]];
    let file = crate::to_vec(&values).unwrap();
    let flat = crate::to_vec(&[1i32, 2, 300]).unwrap();
    let cases = [
        (
            every_reader::<[i64; 3]>(&file),
            "Ok([[1, 2, 3], [4, 5, 300]])",
        ),
        (
            every_reader::<Vec<f64>>(&file),
            "Ok([[1.0, 2.0, 3.0], [4.0, 5.0, 300.0]])",
        ),
        (
            every_reader::<[u8; 3]>(&file),
            "Err(record 1[2]: expected u8, found integer `300` in '<i4')",
        ),
        (
            every_reader::<(i32, i32)>(&file),
            "Err(record 0: expected 2 elements, found subarray of shape (3,) of '<i4')",
        ),
        (
            every_reader::<[String; 3]>(&file),
            "Err(record 0[0]: expected a string, found '<i4')",
        ),
        (every_reader::<i16>(&flat), "Ok([1, 2, 300])"),
        (
            every_reader::<u8>(&flat),
            "Err(record 2: expected u8, found integer `300` in '<i4')",
        ),
    ];
    for (got, want) in cases {
        for g in got {
            assert_eq!(g, want);
        }
    }
    let err = crate::from_slice::<(i32, i32)>(&flat).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected 2 elements, found array of shape (3,) of '<i4'"
    );
}

/// The plain numbers of a big-endian file read into `Vec<T>` (the
/// top-level run, its byte-swapping load) as the same values stored
/// little-endian, through every reader; a value that does not fit names
/// its record with the same message, only the byte order in the dtype
/// differs.
#[test]
fn big_endian_runs_read_as_little_endian() {
    fn same<T>(order: ByteOrder, values: &[T]) -> [String; 3]
    where
        T: serde::Serialize + DeserializeOwned + std::fmt::Debug + PartialEq,
    {
        let plain = crate::to_vec(values).unwrap();
        let s = crate::NpyReader::new(&plain[..]).unwrap().dtype().clone();
        let s = s.as_scalar().unwrap();
        let file = crate::WriteOptions::new()
            .dtype(Dtype::Scalar(Scalar::new(s.ty(), order)))
            .to_vec(values)
            .unwrap();
        every_reader::<T>(&file)
    }
    macro_rules! agree {
        ($($v:expr),*) => {$({
            let values = $v;
            let want = outcome::<Vec<_>>(Ok(values.to_vec()));
            let want = [want.clone(), want.clone(), want];
            assert_eq!(same(ByteOrder::Little, &values), want);
            assert_eq!(same(ByteOrder::Big, &values), want, "{values:?}");
        })*};
    }
    agree!(
        [1.5f64, -0.25, f64::MAX, 0.1],
        [-2i32, 1 << 30, i32::MIN],
        [7u16, 0x1234, u16::MAX],
        [0.1f32, -3.0e38, f32::MIN_POSITIVE],
        [i16::MIN, 2],
        [i64::MIN, 1 << 40],
        [u32::MAX, 3],
        [u64::MAX, 1 << 60],
        [true, false],
        [-1i8, 5],
        [255u8, 0]
    );
    // a value error in the run: the same record and message
    let wide = [1i64, 2, 300];
    let le = crate::to_vec(&wide).unwrap();
    let be = crate::WriteOptions::new()
        .dtype(">i8".parse().unwrap())
        .to_vec(&wide)
        .unwrap();
    let err = crate::from_slice::<Vec<i8>>(&le).unwrap_err().to_string();
    assert_eq!(
        err, "record 2: expected i8, found integer `300` in '<i8'",
        "the little-endian message"
    );
    for got in [
        crate::from_slice::<Vec<i8>>(&be).unwrap_err(),
        crate::from_reader::<Vec<i8>>(&be[..]).unwrap_err(),
    ] {
        assert_eq!(got.to_string(), err.replace("'<i8'", "'>i8'"));
    }
}
