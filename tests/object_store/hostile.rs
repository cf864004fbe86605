//! Hostile objects: sizes claimed by a header or a zip directory are
//! checked against the object's size before anything is fetched or
//! allocated; the errors name the object.

use npy_serde::object_store::{NpyObject, NpzObject};

use crate::counting::Counting;
use crate::store_with;

/// An `.npy` file of `descr` and `shape` followed by `data`.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    v.extend(format!("{dict:<117}\n").bytes());
    v.extend_from_slice(data);
    v
}

#[tokio::test]
async fn a_header_claiming_more_than_the_object_holds_is_refused_at_open() {
    // 2^40 doubles claimed, 16 bytes present
    let store =
        Counting::new(store_with(&[("claim.npy", npy("<f8", "(1099511627776,)", &[0; 16]))]).await);
    let err = NpyObject::open(store.clone(), "claim.npy")
        .await
        .unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("object 'claim.npy': "), "{msg}");
    assert!(msg.contains("16"), "says what is there: {msg}");
    assert_eq!(store.take(), ["GET 0..144"], "nothing more is fetched");

    // a truncated object
    let mut cut = npy_serde::to_vec(&vec![1.0f64; 10_000]).unwrap();
    cut.truncate(70_000);
    let store = Counting::new(store_with(&[("cut.npy", cut)]).await);
    let err = NpyObject::open(store.clone(), "cut.npy").await.unwrap_err();
    assert!(err.to_string().starts_with("object 'cut.npy': "), "{err}");
    assert_eq!(store.take().len(), 1);

    // a header longer than the first 64 KiB that claims 4 GiB: refused by
    // the header limit from its first bytes, no second GET
    let mut long = b"\x93NUMPY\x02\x00\xff\xff\xff\xff".to_vec();
    long.resize(70_000, b' ');
    let store = Counting::new(store_with(&[("long.npy", long)]).await);
    let err = NpyObject::open(store.clone(), "long.npy")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("max_header_size"), "{err}");
    assert_eq!(store.take().len(), 1);
}

#[tokio::test]
async fn a_long_header_within_the_limit_costs_a_second_get() {
    // a version 2.0 header of 100 000 bytes (padding), within a raised limit
    let dict = "{'descr': '<u1', 'fortran_order': False, 'shape': (3,), }";
    let mut text = dict.as_bytes().to_vec();
    text.resize(99_999, b' ');
    text.push(b'\n');
    let len = text.len() as u32;
    let mut file = b"\x93NUMPY\x02\x00".to_vec();
    file.extend(len.to_le_bytes());
    file.append(&mut text);
    file.extend([7, 8, 9]);
    let store = Counting::new(store_with(&[("long.npy", file)]).await);
    let opts = npy_serde::ReadOptions::new().max_header_size(200_000);
    let obj = NpyObject::open_with(store.clone(), "long.npy", opts)
        .await
        .unwrap();
    assert_eq!(store.take(), ["GET 0..65536", "GET 0..100012"]);
    assert_eq!(obj.read::<Vec<u8>>().await.unwrap(), [7, 8, 9]);
    assert_eq!(store.take(), ["GET 100012..100015"]);
}

/// A stored archive of one member `x` holding 1000 u32.
fn archive() -> Vec<u8> {
    let mut file = std::io::Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut file, &[("x", (0..1000u32).collect::<Vec<_>>())]).unwrap();
    file.into_inner()
}

#[tokio::test]
async fn an_npz_whose_directory_points_outside_the_object_is_refused() {
    let mut bytes = archive();
    // the central directory entry's local header offset (byte 42 of the
    // entry), pointed 1 GB away
    let cd = bytes.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
    bytes[cd + 42..cd + 46].copy_from_slice(&1_000_000_000u32.to_le_bytes());
    let store = Counting::new(store_with(&[("far.npz", bytes)]).await);
    let z = NpzObject::open(store.clone(), "far.npz").await.unwrap();
    store.take();
    let err = z.by_name::<Vec<u32>>("x").await.unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("object 'far.npz', member 'x': "), "{msg}");
    assert!(
        store.take().is_empty(),
        "nothing is fetched past the object's end"
    );

    // a directory that claims more bytes than come before its end record
    let mut bytes = archive();
    let eocd = bytes.windows(4).rposition(|w| w == b"PK\x05\x06").unwrap();
    bytes[eocd + 12..eocd + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    let store = store_with(&[("big_dir.npz", bytes)]).await;
    let err = NpzObject::open(store, "big_dir.npz").await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("object 'big_dir.npz': not a readable .npz (zip) archive"),
        "{err}"
    );
}

#[tokio::test]
async fn a_truncated_npz_object_is_refused() {
    let bytes = archive();
    for keep in [10, 100, bytes.len() - 40, bytes.len() - 1] {
        let store = store_with(&[("cut.npz", bytes[..keep].to_vec())]).await;
        let file = npy_serde::npz::NpzReader::new(std::io::Cursor::new(&bytes[..keep]))
            .map(|_| ())
            .unwrap_err();
        let err = NpzObject::open(store, "cut.npz")
            .await
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("object 'cut.npz': {file}"),
            "kept {keep}"
        );
    }
    let store = store_with(&[("empty.npz", Vec::new())]).await;
    let err = NpzObject::open(store, "empty.npz")
        .await
        .map(|_| ())
        .unwrap_err();
    assert!(err.to_string().contains("'empty.npz'"), "{err}");
}

/// Every byte of an archive's zip structures and npy headers changed, one
/// at a time: every read either works or is refused with the file API's
/// message, and never reads a byte it did not fetch first (the reader over
/// the fetched bytes would say "was not fetched").
#[tokio::test]
async fn damaged_archives_never_read_what_was_not_fetched() {
    let mut file = std::io::Cursor::new(Vec::new());
    let a: Vec<u32> = (0..30_000).collect();
    npy_serde::npz::to_writer(&mut file, &[("a", a.clone()), ("b", vec![1, 2, 3])]).unwrap();
    let bytes = file.into_inner();
    let b_header = bytes.windows(4).rposition(|w| w == b"PK\x03\x04").unwrap();
    let positions: Vec<usize> = (0..300)
        .chain(b_header.saturating_sub(50)..b_header + 250)
        .chain(bytes.len() - 300..bytes.len())
        .collect();
    let mut tried = 0;
    for pos in positions {
        for m in [!bytes[pos], bytes[pos].wrapping_add(1)] {
            let mut damaged = bytes.clone();
            damaged[pos] = m;
            let store = store_with(&[("d.npz", damaged)]).await;
            let Ok(z) = NpzObject::open(store, "d.npz").await else {
                continue;
            };
            let results = [
                z.by_name::<Vec<u32>>("a").await.map(|_| ()),
                z.by_name::<Vec<u32>>("b").await.map(|_| ()),
                z.rows::<Vec<u32>>("a", 29_000..29_010).await.map(|_| ()),
                z.rows::<Vec<u32>>("b", 1..2).await.map(|_| ()),
            ];
            for r in results {
                if let Err(e) = r {
                    assert!(
                        !e.to_string().contains("not fetched"),
                        "byte {pos} = {m:#04x}: {e}"
                    );
                }
            }
            tried += 1;
        }
    }
    assert!(tried > 500, "{tried}");
}
