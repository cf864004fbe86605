//! Reads through object stores equal the file API's reads of the same
//! numpy-written files, with the requests the module docs promise.

use std::sync::Arc;

use npy_serde::npz::NpzReader;
use npy_serde::object_store::{NpyObject, NpzObject};
use npy_serde::{NdArray, NpyReader, Order};
use object_store::ObjectStore;
use object_store::local::LocalFileSystem;

use crate::counting::Counting;
use crate::{Archive, Rec, fixture, fixture_bytes, rec, store_with, store_with_fixtures};

/// The fixtures' folder as a `LocalFileSystem` store.
fn local() -> Arc<dyn ObjectStore> {
    Arc::new(LocalFileSystem::new_with_prefix(fixture("")).unwrap())
}

async fn stores() -> Vec<(&'static str, Arc<dyn ObjectStore>)> {
    let names = [
        "records.npy",
        "grid.npy",
        "fortran.npy",
        "small.npy",
        "stored.npz",
        "deflated.npz",
    ];
    vec![
        ("in memory", store_with_fixtures(&names).await),
        ("local files", local()),
    ]
}

#[tokio::test]
async fn npy_header_whole_and_rows_equal_the_file_api_in_two_requests() {
    for (kind, inner) in stores().await {
        let store = Counting::new(inner);
        let obj = NpyObject::open(store.clone(), "records.npy").await.unwrap();
        let file = NpyReader::new(std::fs::File::open(fixture("records.npy")).unwrap()).unwrap();
        assert_eq!(obj.header(), file.header(), "{kind}");
        assert_eq!((obj.len(), obj.size()), (3000, 96192), "{kind}");
        assert_eq!(obj.order(), Order::C);
        assert_eq!(store.take(), ["GET 0..65536"], "{kind}: open is one GET");

        // rows past the first 64 KiB: one GET of exactly their bytes
        let rows: Vec<Rec> = obj.rows(2500..2510).await.unwrap();
        assert_eq!(rows, (2500..2510).map(rec).collect::<Vec<_>>(), "{kind}");
        let at = 192 + 2500 * 32; // the header is 192 bytes
        assert_eq!(store.take(), [format!("GET {at}..{}", at + 320)], "{kind}");
        // rows within the first bytes: none
        let rows: Vec<Rec> = obj.rows(0..3).await.unwrap();
        assert_eq!(rows, (0..3).map(rec).collect::<Vec<_>>());
        assert!(store.take().is_empty(), "{kind}");

        let whole: Vec<Rec> = obj.read().await.unwrap();
        assert_eq!(
            whole,
            npy_serde::from_path::<Vec<Rec>>(fixture("records.npy")).unwrap()
        );
        assert_eq!(whole, (0..3000).map(rec).collect::<Vec<_>>());
        assert_eq!(
            store.take(),
            ["GET 192..96192"],
            "{kind}: the data, one GET"
        );
    }
}

#[tokio::test]
async fn npy_plain_fortran_and_small_arrays() {
    for (kind, inner) in stores().await {
        let store = Counting::new(inner);
        let grid = NpyObject::open(store.clone(), "grid.npy").await.unwrap();
        assert_eq!(
            (grid.shape(), grid.dtype().to_string()),
            (&[3000, 8][..], "'<f4'".into())
        );
        let nd: NdArray<f32> = grid.read().await.unwrap();
        assert_eq!(
            nd,
            npy_serde::from_path::<NdArray<f32>>(fixture("grid.npy")).unwrap()
        );
        let rows: Vec<[f32; 8]> = grid.rows(2999..3000).await.unwrap();
        let last: Vec<f32> = (0..8).map(|j| (2999 * 8 + j) as f32).collect();
        assert_eq!(rows[0].to_vec(), last, "{kind}");
        let some: NdArray<f32> = grid.rows(10..12).await.unwrap();
        assert_eq!((some.shape(), some.data()[0]), (&[2, 8][..], 80.0));
        // rows 10..12 lie in the first 64 KiB, which open read
        assert_eq!(store.take().len(), 3, "{kind}: open, read, one row range");

        let f = NpyObject::open(store.clone(), "fortran.npy").await.unwrap();
        assert_eq!(f.order(), Order::Fortran);
        let nd: NdArray<i16> = f.read().await.unwrap();
        assert_eq!(
            nd,
            npy_serde::from_path::<NdArray<i16>>(fixture("fortran.npy")).unwrap()
        );
        let err = f.rows::<Vec<[i16; 3]>>(0..1).await.unwrap_err().to_string();
        assert!(
            err.starts_with(
                "object 'fortran.npy': unsupported: rows 0..1 of a Fortran-order array"
            ),
            "{err}"
        );
        // the object is under 64 KiB: open read it all
        assert_eq!(store.take(), ["GET 0..152"], "{kind}");

        let small = NpyObject::open(store.clone(), "small.npy").await.unwrap();
        assert_eq!(
            small.read::<Vec<u8>>().await.unwrap(),
            (0..10).collect::<Vec<u8>>()
        );
        assert_eq!(small.rows::<Vec<u8>>(8..10).await.unwrap(), [8, 9]);
        assert_eq!(store.take(), ["GET 0..138"], "{kind}");
    }
}

#[tokio::test]
async fn npz_members_equal_the_file_api_in_the_documented_requests() {
    for name in ["stored.npz", "deflated.npz"] {
        for (kind, inner) in stores().await {
            let store = Counting::new(inner);
            let z = NpzObject::open(store.clone(), name).await.unwrap();
            let size = fixture_bytes(name).len() as u64;
            assert_eq!(z.size(), size);
            let tail = size.saturating_sub(65557);
            assert_eq!(
                store.take(),
                [format!("GET {tail}..{size}")],
                "{kind} {name}: the tail"
            );
            assert_eq!(z.names(), ["records", "grid", "small"]);

            let mut file = NpzReader::new(std::fs::File::open(fixture(name)).unwrap()).unwrap();
            let records: Vec<Rec> = z.by_name("records").await.unwrap();
            assert_eq!(records, file.by_name::<Vec<Rec>>("records").unwrap());
            assert_eq!(records, (0..3000).map(rec).collect::<Vec<_>>());
            // deflated.npz is under 64 KiB: open read all of it
            let whole = size <= 65557;
            let log = store.take();
            assert_eq!(
                log.len(),
                usize::from(!whole),
                "{kind} {name}: a whole member is one GET: {log:?}"
            );
            let grid: NdArray<f32> = z.by_name("grid.npy").await.unwrap();
            assert_eq!(grid, file.by_name::<NdArray<f32>>("grid").unwrap());
            assert!(store.take().len() <= 1, "{kind} {name}");

            // rows of the first member, past its first 64 KiB and before the tail
            let rows: Vec<Rec> = z.rows("records", 2500..2504).await.unwrap();
            assert_eq!(rows, file.rows::<Vec<Rec>>("records", 2500..2504).unwrap());
            assert_eq!(rows, (2500..2504).map(rec).collect::<Vec<_>>());
            let log = store.take();
            if name == "stored.npz" {
                // the member's first 64 KiB (headers), then exactly the rows
                assert_eq!(log.len(), 2, "{kind}: {log:?}");
                let (a, b) = log[1]
                    .strip_prefix("GET ")
                    .unwrap()
                    .split_once("..")
                    .unwrap();
                let len = b.parse::<u64>().unwrap() - a.parse::<u64>().unwrap();
                assert_eq!(len, 4 * 32, "{kind}: the rows' bytes: {log:?}");
            } else {
                assert!(whole && log.is_empty(), "{kind}: {log:?}");
            }
            // rows of the last member lie in the tail open read
            let rows: Vec<[f32; 8]> = z.rows("grid", 2900..2902).await.unwrap();
            assert_eq!(
                rows,
                file.rows::<Vec<[f32; 8]>>("grid", 2900..2902).unwrap()
            );
            if name == "stored.npz" {
                assert_eq!(store.take().len(), 1, "{kind}: the member's headers");
            } else {
                store.take();
            }
            // rows in the member's first 64 KiB: its headers and the rows in one GET
            let rows: Vec<Rec> = z.rows("records", 1..3).await.unwrap();
            assert_eq!(rows, [rec(1), rec(2)]);
            assert_eq!(store.take().len(), usize::from(!whole), "{kind} {name}");

            let all: Archive = z.read().await.unwrap();
            assert_eq!(
                all,
                npy_serde::npz::from_path::<Archive>(fixture(name)).unwrap()
            );
            let rest = if whole {
                vec![]
            } else {
                vec![format!("GET 0..{tail}")]
            };
            assert_eq!(store.take(), rest, "{kind} {name}: the rest");
        }
    }
}

#[tokio::test]
async fn a_directory_past_the_tail_costs_one_request_more() {
    // 1500 members with long names: a central directory over 64 KiB
    let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    for i in 0..1500u32 {
        w.add(
            &format!("member_with_a_rather_long_name_to_fill_the_directory_{i:05}"),
            &i,
        )
        .unwrap();
    }
    let bytes = w.finish().unwrap().into_inner();
    let store = Counting::new(store_with(&[("many.npz", bytes)]).await);
    let z = NpzObject::open(store.clone(), "many.npz").await.unwrap();
    assert_eq!(z.len(), 1500);
    assert_eq!(store.take().len(), 2, "the tail, then the directory");
    let v: u32 = z
        .by_name("member_with_a_rather_long_name_to_fill_the_directory_00007")
        .await
        .unwrap();
    assert_eq!(v, 7);
    assert_eq!(store.take().len(), 1);
}

#[tokio::test]
async fn a_store_without_suffix_ranges_asks_the_size_first() {
    let inner = store_with_fixtures(&["stored.npz"]).await;
    let store = Counting::without_suffix_ranges(inner);
    let z = NpzObject::open(store.clone(), "stored.npz").await.unwrap();
    let size = fixture_bytes("stored.npz").len() as u64;
    assert_eq!(
        store.take(),
        ["HEAD".to_owned(), format!("GET {}..{size}", size - 65557)]
    );
    assert_eq!(
        z.by_name::<Vec<u8>>("small").await.unwrap(),
        (0..10).collect::<Vec<u8>>()
    );
}

/// The object API's result: the value as JSON, or the message without its
/// `object 'x', ` or `object 'x': ` prefix.
fn strip(
    name: &str,
    r: Result<serde_json::Value, npy_serde::Error>,
) -> Result<serde_json::Value, String> {
    r.map_err(|e| {
        let msg = e.to_string();
        let with_member = format!("object '{name}', ");
        let alone = format!("object '{name}': ");
        msg.strip_prefix(&with_member)
            .or_else(|| msg.strip_prefix(&alone))
            .map(str::to_owned)
            .unwrap_or(msg)
    })
}

/// Files an object refuses otherwise than `from_slice`, and why.
const KNOWN: &[(&str, &str)] = &[
    (
        "magic_empty.npy",
        "an empty object has no bytes 0..65536: the store refuses the GET",
    ),
    (
        "shape_8pib_declared.npy",
        "open refuses a shape the object's bytes do not hold, before the element limit of a whole read",
    ),
    (
        "shape_max_elements.npy",
        "open refuses a shape the object's bytes do not hold, before the element limit of a whole read",
    ),
];

#[tokio::test]
async fn every_npy_of_the_read_and_hostile_corpora_reads_as_from_slice_reads_it() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut checked = 0;
    let mut differ = Vec::new();
    for dir in ["read", "hostile"] {
        let mut names: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".npy"))
            .collect();
        names.sort();
        for name in names {
            let bytes = std::fs::read(format!("{root}/{dir}/{name}")).unwrap();
            let file =
                npy_serde::from_slice::<serde_json::Value>(&bytes).map_err(|e| e.to_string());
            let store = store_with(&[(name.as_str(), bytes.clone())]).await;
            let obj = match NpyObject::open(store, name.as_str()).await {
                Ok(obj) => obj.read::<serde_json::Value>().await,
                Err(e) => Err(e),
            };
            let obj = strip(&name, obj);
            if obj != file && !KNOWN.iter().any(|(n, _)| *n == name) {
                differ.push(format!(
                    "{dir}/{name}:\n  file:   {file:?}\n  object: {obj:?}"
                ));
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[tokio::test]
async fn every_npz_of_the_corpus_opens_and_reads_as_the_file_api_reads_it() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/data/npz");
    let mut names: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".npz"))
        .collect();
    names.sort();
    let mut differ = Vec::new();
    for name in &names {
        let bytes = std::fs::read(format!("{root}/{name}")).unwrap();
        let store = store_with(&[(name.as_str(), bytes.clone())]).await;
        let file = NpzReader::new(std::io::Cursor::new(&bytes));
        let obj = NpzObject::open(store, name.as_str()).await;
        let (mut file, obj) = match (file, obj) {
            (Ok(f), Ok(o)) => (f, o),
            (f, o) => {
                let f = f
                    .map(|_| serde_json::Value::Null)
                    .map_err(|e| e.to_string());
                let o = strip(name, o.map(|_| serde_json::Value::Null));
                if f != o {
                    differ.push(format!("{name} (open):\n  file:   {f:?}\n  object: {o:?}"));
                }
                continue;
            }
        };
        assert_eq!(obj.names(), file.names(), "{name}");
        for key in obj.names().to_vec() {
            let f = file
                .by_name::<serde_json::Value>(&key)
                .map_err(|e| e.to_string());
            let o = strip(name, obj.by_name::<serde_json::Value>(&key).await);
            if f != o {
                differ.push(format!(
                    "{name} member {key}:\n  file:   {f:?}\n  object: {o:?}"
                ));
            }
        }
    }
    assert!(names.len() > 15, "{}", names.len());
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
