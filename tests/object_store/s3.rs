//! The live S3 check: reads and writes through object_store's `AmazonS3`
//! against a real S3 wire protocol (a moto server that `.ci/run` starts).
//!
//! Without `NPY_SERDE_S3_ENDPOINT` the test says it is skipped and passes.
//! With it (`http://127.0.0.1:PORT`), `NPY_SERDE_S3_BUCKET` names the bucket
//! and `NPY_SERDE_S3_OUT` the prefix to write under:
//!
//! 1. `tests/interop/s3_moto.py upload ENDPOINT BUCKET` has put the
//!    numpy-written fixtures of `tests/data/object_store` under `numpy/`;
//!    this test reads them through S3 (header, whole arrays, row ranges,
//!    npz members, a whole archive) and compares them with the file API's
//!    reads of the local fixtures and with make.py's formulas;
//! 2. it writes under the prefix with `put`, `put_records` (multipart) and
//!    `NpzObject::put`/`put_with`, and reads each object back through S3;
//! 3. `tests/interop/s3_moto.py check ENDPOINT BUCKET PREFIX` then has numpy
//!    download them and rebuild every array by the formulas of [`written`]
//!    (keep the two in sync): each `.npy` and each npz member must be
//!    `np.save`'s bytes, and the archives pass `numpy_checks.py`'s checks.
//!
//! By hand: `moto_server -p 5000 &`, then
//! `python tests/interop/s3_moto.py upload http://127.0.0.1:5000 npy-serde`,
//! `NPY_SERDE_S3_ENDPOINT=http://127.0.0.1:5000 NPY_SERDE_S3_BUCKET=npy-serde
//! NPY_SERDE_S3_OUT=rust cargo test -p tests --features object_store --test
//! object_store -- s3:: --nocapture`, and
//! `python tests/interop/s3_moto.py check http://127.0.0.1:5000 npy-serde rust`.

use std::sync::Arc;

use npy_serde::npz::{NpzOptions, NpzReader};
use npy_serde::object_store::{NpyObject, NpzObject};
use npy_serde::{NdArray, NpyReader, Order};
use object_store::ObjectStore;
use object_store::aws::AmazonS3Builder;
use serde::{Deserialize, Serialize};

use crate::{Archive, Rec, fixture, rec};

/// Where `s3_moto.py upload` puts the fixtures.
const FIXTURES: &str = "numpy";

/// The records this test writes: `[('id', '<u4'), ('x', '<f8'),
/// ('flag', '|b1'), ('tag', '<U12')]`, 61 bytes each, no padding.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
struct Hit {
    id: u32,
    x: f64,
    flag: bool,
    tag: String,
}

/// The number of records of `OUT/records.npy`: 18.3 MB, over the 16 MiB of
/// one PUT, so `put_records` uploads it in three parts.
const HITS: u32 = 300_000;

/// Record `i` of `n`; the last one's tag is the longest (12 characters), so
/// the width `put_records` finds in its first pass shows only in the last
/// part. s3_moto.py's `hits(n)` rebuilds them.
fn hit(i: u32, n: u32) -> Hit {
    Hit {
        id: i,
        x: f64::from(i) * 0.25,
        flag: i % 3 == 0,
        tag: if i + 1 == n {
            "the last one".to_owned()
        } else {
            format!("t{}", i % 1000)
        },
    }
}

fn hits(n: u32) -> Vec<Hit> {
    (0..n).map(|i| hit(i, n)).collect()
}

/// `OUT/stored.npz` (np.savez) and `OUT/deflated.npz`
/// (np.savez_compressed): the members in this order.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Bundle {
    records: Vec<Hit>,
    grid: NdArray<f64>,
    counts: Vec<i64>,
    scale: f64,
}

/// Every object this test writes under the prefix, with how s3_moto.py's
/// `check` rebuilds it:
///
/// | name | how | numpy |
/// |---|---|---|
/// | `records.npy` | `put_records`, multipart | `hits(300_000)` |
/// | `ramp.npy` | `put`, multipart (18 MB) | `np.arange(4_500_000, dtype='<u4') * 3` |
/// | `grid.npy` | `put` | `np.arange(60, dtype='<f8').reshape(3, 4, 5) * 1.5 - 7` |
/// | `fortran.npy` | `put` | `np.asfortranarray(np.arange(24, dtype='<i4').reshape(4, 3, 2) - 5)` |
/// | `stored.npz` | `NpzObject::put` | `np.savez(records=hits(5000), grid=…, counts=np.arange(100) ** 2 - 50, scale=np.float64(2.5))` |
/// | `deflated.npz` | `NpzObject::put_with`, compressed | `np.savez_compressed` of the same |
struct Written {
    records: Vec<Hit>,
    ramp: Vec<u32>,
    grid: NdArray<f64>,
    fortran: NdArray<i32>,
    bundle: Bundle,
}

fn written() -> Written {
    let grid = || {
        NdArray::from_shape_vec(
            vec![3, 4, 5],
            (0..60).map(|i| f64::from(i) * 1.5 - 7.0).collect(),
        )
        .unwrap()
    };
    // C-order values i - 5 of shape (4, 3, 2), laid out column-major
    let mut fortran = Vec::with_capacity(24);
    for k in 0..2 {
        for j in 0..3 {
            for i in 0..4 {
                fortran.push((i * 6 + j * 2 + k) - 5);
            }
        }
    }
    Written {
        records: hits(HITS),
        ramp: (0..4_500_000).map(|i| i * 3).collect(),
        grid: grid(),
        fortran: NdArray::from_shape_vec_fortran(vec![4, 3, 2], fortran).unwrap(),
        bundle: Bundle {
            records: hits(5000),
            grid: grid(),
            counts: (0..100).map(|i: i64| i * i - 50).collect(),
            scale: 2.5,
        },
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("NPY_SERDE_S3_ENDPOINT is set but {name} is not"))
}

#[tokio::test]
async fn live_s3() {
    let Ok(endpoint) = std::env::var("NPY_SERDE_S3_ENDPOINT") else {
        println!("skipped: NPY_SERDE_S3_ENDPOINT not set");
        return;
    };
    let bucket = env("NPY_SERDE_S3_BUCKET");
    let out = env("NPY_SERDE_S3_OUT").trim_matches('/').to_owned();
    assert!(
        !out.is_empty() && out != FIXTURES,
        "NPY_SERDE_S3_OUT: {out:?}"
    );
    let store: Arc<dyn ObjectStore> = Arc::new(
        AmazonS3Builder::new()
            .with_endpoint(&endpoint)
            .with_allow_http(true)
            .with_bucket_name(&bucket)
            .with_region("us-east-1")
            .with_access_key_id("testing")
            .with_secret_access_key("testing")
            .build()
            .unwrap(),
    );
    println!("live s3: {endpoint}, bucket {bucket}");

    read_npy_fixtures(&store).await;
    for name in ["stored.npz", "deflated.npz"] {
        read_npz_fixture(&store, name).await;
    }
    write_and_read_back(&store, &out).await;
    println!("live s3: done");
}

/// Opens `numpy/NAME` and checks its header against the local fixture's.
async fn open_npy(store: &Arc<dyn ObjectStore>, name: &str, order: Order) -> NpyObject {
    let path = format!("{FIXTURES}/{name}");
    let obj = NpyObject::open(store.clone(), path.as_str())
        .await
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let file = NpyReader::new(std::fs::File::open(fixture(name)).unwrap()).unwrap();
    assert_eq!(obj.header(), file.header(), "{path}");
    assert_eq!(obj.dtype().to_string(), file.dtype().to_string(), "{path}");
    assert_eq!(obj.shape(), file.shape(), "{path}");
    assert_eq!(obj.len(), file.len(), "{path}");
    assert_eq!(obj.order(), order, "{path}");
    assert_eq!(
        obj.size(),
        std::fs::metadata(fixture(name)).unwrap().len(),
        "{path}"
    );
    obj
}

async fn read_npy_fixtures(store: &Arc<dyn ObjectStore>) {
    // records: past the first 64 KiB, rows from both sides of it
    let obj = open_npy(store, "records.npy", Order::C).await;
    let whole: Vec<Rec> = obj.read().await.unwrap();
    assert_eq!(
        whole,
        npy_serde::from_path::<Vec<Rec>>(fixture("records.npy")).unwrap()
    );
    assert_eq!(whole, (0..3000).map(rec).collect::<Vec<_>>());
    for range in [0..3, 2040..2060, 2500..2510, 2999..3000, 1000..1000] {
        let rows: Vec<Rec> = obj.rows(range.clone()).await.unwrap();
        let (a, b) = (range.start as usize, range.end as usize);
        assert_eq!(rows, whole[a..b], "records.npy rows {range:?}");
    }
    println!(
        "live s3: {FIXTURES}/records.npy: {} records, {} bytes",
        obj.len(),
        obj.size()
    );

    let obj = open_npy(store, "grid.npy", Order::C).await;
    assert_eq!(
        (obj.shape(), obj.dtype().to_string()),
        (&[3000, 8][..], "'<f4'".to_owned())
    );
    let grid: NdArray<f32> = obj.read().await.unwrap();
    assert_eq!(
        grid,
        npy_serde::from_path::<NdArray<f32>>(fixture("grid.npy")).unwrap()
    );
    assert!(grid.data().iter().enumerate().all(|(k, &v)| v == k as f32));
    let rows: Vec<[f32; 8]> = obj.rows(2990..3000).await.unwrap();
    assert_eq!(rows.concat(), grid.data()[2990 * 8..]);
    println!("live s3: {FIXTURES}/grid.npy: shape {:?}", obj.shape());

    let obj = open_npy(store, "fortran.npy", Order::Fortran).await;
    let f: NdArray<i16> = obj.read().await.unwrap();
    assert_eq!(
        f,
        npy_serde::from_path::<NdArray<i16>>(fixture("fortran.npy")).unwrap()
    );
    let c = f.clone().into_c_order();
    assert_eq!(
        c.data(),
        (0..4)
            .flat_map(|i| (0..3).map(move |j| 10 * i + j))
            .collect::<Vec<i16>>()
    );
    let err = obj
        .rows::<Vec<[i16; 3]>>(0..1)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("rows 0..1 of a Fortran-order array"), "{err}");
    println!(
        "live s3: {FIXTURES}/fortran.npy: shape {:?}, Fortran order",
        obj.shape()
    );

    let obj = open_npy(store, "small.npy", Order::C).await;
    let small: Vec<u8> = obj.read().await.unwrap();
    assert_eq!(
        small,
        npy_serde::from_path::<Vec<u8>>(fixture("small.npy")).unwrap()
    );
    assert_eq!(small, (0..10).collect::<Vec<u8>>());
    assert_eq!(obj.rows::<Vec<u8>>(7..10).await.unwrap(), [7, 8, 9]);
    println!("live s3: {FIXTURES}/small.npy: {} bytes", obj.size());
}

async fn read_npz_fixture(store: &Arc<dyn ObjectStore>, name: &str) {
    let path = format!("{FIXTURES}/{name}");
    let z = NpzObject::open(store.clone(), path.as_str())
        .await
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut file = NpzReader::new(std::fs::File::open(fixture(name)).unwrap()).unwrap();
    assert_eq!(z.names(), file.names(), "{path}");
    assert_eq!(z.names(), ["records", "grid", "small"], "{path}");
    assert_eq!(
        z.size(),
        std::fs::metadata(fixture(name)).unwrap().len(),
        "{path}"
    );

    let records: Vec<Rec> = z.by_name("records").await.unwrap();
    assert_eq!(
        records,
        file.by_name::<Vec<Rec>>("records").unwrap(),
        "{path}"
    );
    assert_eq!(records, (0..3000).map(rec).collect::<Vec<_>>(), "{path}");
    let grid: NdArray<f32> = z.by_name("grid.npy").await.unwrap();
    assert_eq!(
        grid,
        file.by_name::<NdArray<f32>>("grid").unwrap(),
        "{path}"
    );
    let small: Vec<u8> = z.by_name("small").await.unwrap();
    assert_eq!(small, file.by_name::<Vec<u8>>("small").unwrap(), "{path}");

    // rows within a member's first 64 KiB, past them, and at its end
    for range in [1..3, 2000..2004, 2995..3000] {
        let rows: Vec<Rec> = z.rows("records", range.clone()).await.unwrap();
        assert_eq!(
            rows,
            file.rows::<Vec<Rec>>("records", range.clone()).unwrap(),
            "{path} {range:?}"
        );
        let rows: Vec<[f32; 8]> = z.rows("grid", range.clone()).await.unwrap();
        let (a, b) = (range.start as usize * 8, range.end as usize * 8);
        assert_eq!(rows.concat(), grid.data()[a..b], "{path} grid {range:?}");
    }
    assert_eq!(z.rows::<Vec<u8>>("small", 0..2).await.unwrap(), [0, 1]);

    let all: Archive = z.read().await.unwrap();
    assert_eq!(
        all,
        npy_serde::npz::from_path::<Archive>(fixture(name)).unwrap(),
        "{path}"
    );
    println!(
        "live s3: {path}: members {:?}, {} bytes",
        z.names(),
        z.size()
    );
}

async fn write_and_read_back(store: &Arc<dyn ObjectStore>, out: &str) {
    let w = written();
    let at = |name: &str| format!("{out}/{name}");

    // put_records: 18.3 MB, a multipart upload of three parts
    let file_bytes = npy_serde::to_vec(&w.records).unwrap();
    assert!(file_bytes.len() > 16 << 20, "{}", file_bytes.len());
    NpyObject::put_records(&**store, at("records.npy").as_str(), &w.records)
        .await
        .unwrap();
    let obj = NpyObject::open(store.clone(), at("records.npy").as_str())
        .await
        .unwrap();
    assert_eq!(obj.size(), file_bytes.len() as u64);
    assert_eq!(
        obj.dtype().to_string(),
        "[('id', '<u4'), ('x', '<f8'), ('flag', '|b1'), ('tag', '<U12')]"
    );
    assert_eq!(obj.shape(), [u64::from(HITS)]);
    assert_eq!(obj.read::<Vec<Hit>>().await.unwrap(), w.records);
    // rows across the first part's end (8 MiB)
    let first = (8 << 20) / 61 - 50;
    let rows: Vec<Hit> = obj.rows(first as u64..first as u64 + 100).await.unwrap();
    assert_eq!(rows, w.records[first..first + 100]);
    let last: Vec<Hit> = obj
        .rows(u64::from(HITS) - 1..u64::from(HITS))
        .await
        .unwrap();
    assert_eq!(last[0].tag, "the last one");
    println!(
        "live s3: {}: {} records by put_records, {} bytes",
        at("records.npy"),
        HITS,
        obj.size()
    );

    // put: 18 MB, multipart too
    NpyObject::put(&**store, at("ramp.npy").as_str(), &w.ramp)
        .await
        .unwrap();
    let obj = NpyObject::open(store.clone(), at("ramp.npy").as_str())
        .await
        .unwrap();
    assert!(obj.size() > 16 << 20, "{}", obj.size());
    assert_eq!(obj.read::<Vec<u32>>().await.unwrap(), w.ramp);
    assert_eq!(
        obj.rows::<Vec<u32>>(4_499_998..4_500_000).await.unwrap(),
        [13_499_994, 13_499_997]
    );
    println!("live s3: {}: {} bytes by put", at("ramp.npy"), obj.size());

    // put: small n-d arrays, one PUT each
    NpyObject::put(&**store, at("grid.npy").as_str(), &w.grid)
        .await
        .unwrap();
    let obj = NpyObject::open(store.clone(), at("grid.npy").as_str())
        .await
        .unwrap();
    assert_eq!((obj.shape(), obj.order()), (&[3, 4, 5][..], Order::C));
    assert_eq!(obj.read::<NdArray<f64>>().await.unwrap(), w.grid);
    assert_eq!(
        obj.rows::<Vec<[[f64; 5]; 4]>>(2..3).await.unwrap()[0][3][4],
        59.0 * 1.5 - 7.0
    );
    NpyObject::put(&**store, at("fortran.npy").as_str(), &w.fortran)
        .await
        .unwrap();
    let obj = NpyObject::open(store.clone(), at("fortran.npy").as_str())
        .await
        .unwrap();
    assert_eq!((obj.shape(), obj.order()), (&[4, 3, 2][..], Order::Fortran));
    assert_eq!(obj.read::<NdArray<i32>>().await.unwrap(), w.fortran);
    println!(
        "live s3: {} and {}: by put",
        at("grid.npy"),
        at("fortran.npy")
    );

    // npz, stored and deflated
    for (name, options) in [
        ("stored.npz", NpzOptions::new()),
        ("deflated.npz", NpzOptions::new().compressed(true)),
    ] {
        if name == "stored.npz" {
            NpzObject::put(&**store, at(name).as_str(), &w.bundle)
                .await
                .unwrap();
        } else {
            NpzObject::put_with(&**store, at(name).as_str(), &options, &w.bundle)
                .await
                .unwrap();
        }
        let mut expected = std::io::Cursor::new(Vec::new());
        options.to_writer(&mut expected, &w.bundle).unwrap();
        let z = NpzObject::open(store.clone(), at(name).as_str())
            .await
            .unwrap();
        assert_eq!(z.size(), expected.get_ref().len() as u64, "{name}");
        assert_eq!(z.names(), ["records", "grid", "counts", "scale"], "{name}");
        assert_eq!(z.read::<Bundle>().await.unwrap(), w.bundle, "{name}");
        assert_eq!(
            z.by_name::<Vec<i64>>("counts").await.unwrap(),
            w.bundle.counts,
            "{name}"
        );
        assert_eq!(z.by_name::<f64>("scale").await.unwrap(), 2.5, "{name}");
        // rows past the first 64 KiB of the member, the last one's tag the longest
        let rows: Vec<Hit> = z.rows("records", 4990..5000).await.unwrap();
        assert_eq!(rows, w.bundle.records[4990..], "{name}");
        assert_eq!(rows[9].tag, "the last one", "{name}");
        println!(
            "live s3: {}: members {:?}, {} bytes",
            at(name),
            z.names(),
            z.size()
        );
    }
}
