//! Writes through object stores: the bytes the file API writes, one PUT
//! up to 16 MiB, a multipart upload in 8 MiB parts above it.

use std::sync::atomic::{AtomicUsize, Ordering};

use npy_serde::npz::NpzOptions;
use npy_serde::object_store::{NpyObject, NpzObject};
use object_store::ObjectStoreExt;
use object_store::memory::InMemory;
use serde::{Serialize, Serializer};

use crate::counting::Counting;
use crate::object_bytes;

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
struct Hit {
    id: u64,
    x: f64,
    name: String,
}

fn hits(n: u64) -> Vec<Hit> {
    (0..n)
        .map(|i| Hit {
            id: i,
            x: i as f64 * 0.25,
            name: "n".repeat((i % 7) as usize),
        })
        .collect()
}

fn npz_bytes(options: &NpzOptions, value: &impl Serialize) -> Vec<u8> {
    let mut file = std::io::Cursor::new(Vec::new());
    options.to_writer(&mut file, value).unwrap();
    file.into_inner()
}

#[tokio::test]
async fn small_objects_are_one_put_of_the_file_apis_bytes() {
    let store = Counting::new(std::sync::Arc::new(InMemory::new()));
    let value = hits(100);
    NpyObject::put(&*store, "a.npy", &value).await.unwrap();
    let expected = npy_serde::to_vec(&value).unwrap();
    assert_eq!(store.take(), [format!("PUT {}", expected.len())]);
    assert_eq!(object_bytes(&*store, "a.npy").await, expected);
    store.take();

    NpyObject::put_records(&*store, "b.npy", &value)
        .await
        .unwrap();
    assert_eq!(store.take(), [format!("PUT {}", expected.len())]);
    assert_eq!(
        object_bytes(&*store, "b.npy").await,
        expected,
        "widths over all records"
    );
    store.take();

    let columns = (vec![1.5f64; 1000], vec![7u8; 3], 2.5f32);
    NpzObject::put(&*store, "c.npz", &columns).await.unwrap();
    assert_eq!(
        object_bytes(&*store, "c.npz").await,
        npz_bytes(&NpzOptions::new(), &columns)
    );
    let deflated = NpzOptions::new().compressed(true);
    NpzObject::put_with(&*store, "d.npz", &deflated, &columns)
        .await
        .unwrap();
    assert_eq!(
        object_bytes(&*store, "d.npz").await,
        npz_bytes(&deflated, &columns)
    );
    let log = store.take();
    assert_eq!(
        log.iter().filter(|l| l.starts_with("PUT ")).count(),
        2,
        "{log:?}"
    );

    // records that are arrays, and an empty slice
    let rows = vec![[1u16, 2, 3]; 5];
    NpyObject::put_records(&*store, "e.npy", &rows)
        .await
        .unwrap();
    assert_eq!(
        object_bytes(&*store, "e.npy").await,
        npy_serde::to_vec(&rows).unwrap()
    );
    // an empty slice has no element to take the dtype from, as in to_vec
    let none: Vec<[u16; 3]> = Vec::new();
    let err = NpyObject::put_records(&*store, "f.npy", &none)
        .await
        .unwrap_err();
    let file = npy_serde::to_vec(&none).unwrap_err();
    assert_eq!(err.to_string(), format!("object 'f.npy': {file}"));
}

#[tokio::test]
async fn large_objects_go_up_in_8_mib_parts() {
    let store = Counting::new(std::sync::Arc::new(InMemory::new()));
    // 1.5M records of 8 + 8 + 6*4 bytes: about 60 MB
    let value = hits(1_500_000);
    let expected = npy_serde::to_vec(&value).unwrap();
    assert!(expected.len() > 16 << 20);
    NpyObject::put_records(&*store, "big.npy", &value)
        .await
        .unwrap();
    let log = store.take();
    assert_eq!(log.first().map(String::as_str), Some("MULTIPART"));
    assert_eq!(log.last().map(String::as_str), Some("COMPLETE"));
    let parts: Vec<u64> = log
        .iter()
        .filter_map(|l| l.strip_prefix("PART "))
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(parts.iter().sum::<u64>(), expected.len() as u64);
    let (last, full) = parts.split_last().unwrap();
    // parts are cut as records fill them: each just over 8 MiB, within a record
    assert!(
        full.iter().all(|&p| (8 << 20..(8 << 20) + 40).contains(&p)),
        "{parts:?}"
    );
    assert!(*last <= (8 << 20) + 40);
    assert_eq!(object_bytes(&*store, "big.npy").await, expected);

    // the whole file encoded first: parts of exactly 8 MiB
    NpyObject::put(&*store, "big2.npy", &value).await.unwrap();
    let log = store.take();
    let parts: Vec<&str> = log.iter().filter_map(|l| l.strip_prefix("PART ")).collect();
    assert_eq!(parts.len(), expected.len().div_ceil(8 << 20));
    assert!(
        parts[..parts.len() - 1]
            .iter()
            .all(|p| *p == (8 << 20).to_string())
    );
    assert_eq!(object_bytes(&*store, "big2.npy").await, expected);

    let back = NpyObject::open(store.clone(), "big.npy").await.unwrap();
    assert_eq!(
        back.rows::<Vec<Hit>>(1_234_567..1_234_569).await.unwrap(),
        value[1_234_567..1_234_569]
    );
}

/// A record that fails to serialize once `FAIL_AFTER` records were
/// serialized in all (the first pass over the slice succeeds).
struct Flaky(u64);

static SERIALIZED: AtomicUsize = AtomicUsize::new(0);
const FAIL_AFTER: usize = 3_000_000;

impl Serialize for Flaky {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if SERIALIZED.fetch_add(1, Ordering::Relaxed) >= FAIL_AFTER {
            return Err(serde::ser::Error::custom("the sensor went away"));
        }
        s.serialize_u64(self.0)
    }
}

#[tokio::test]
async fn a_record_that_fails_midway_aborts_the_upload() {
    let store = Counting::new(std::sync::Arc::new(InMemory::new()));
    let records: Vec<Flaky> = (0..2_500_000).map(Flaky).collect();
    let err = NpyObject::put_records(&*store, "runs/flaky.npy", &records)
        .await
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("object 'runs/flaky.npy', record 500000: "),
        "{msg}"
    );
    assert!(msg.contains("the sensor went away"), "{msg}");
    let log = store.take();
    assert_eq!(log.first().map(String::as_str), Some("MULTIPART"));
    assert_eq!(log.last().map(String::as_str), Some("ABORT"), "{log:?}");
    assert!(!log.contains(&"COMPLETE".to_owned()));
    let gone = store.head(&"runs/flaky.npy".into()).await;
    assert!(gone.is_err(), "nothing was written");
}

#[tokio::test]
async fn a_value_that_cannot_be_written_is_refused_before_any_request() {
    let store = Counting::new(std::sync::Arc::new(InMemory::new()));
    let ragged = vec![vec![1u8, 2], vec![3]];
    let err = NpyObject::put(&*store, "r.npy", &ragged).await.unwrap_err();
    assert!(err.to_string().starts_with("object 'r.npy'"), "{err}");
    let err = NpyObject::put_records(&*store, "r.npy", &ragged)
        .await
        .unwrap_err();
    assert!(err.to_string().starts_with("object 'r.npy'"), "{err}");
    let err = NpzObject::put(&*store, "r.npz", &(ragged,))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("object 'r.npz', member 'arr_0'"),
        "{err}"
    );
    assert!(store.take().is_empty());
}
