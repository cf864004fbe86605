//! `.npy` and `.npz` files in object storage (feature `object_store`):
//! numpy-written fixtures (`tests/data/object_store`, with the script that
//! made them) read through object_store's `InMemory` and `LocalFileSystem`
//! stores, compared with the file API's reads of the same files; request
//! counts as the module docs promise them, counted by a wrapper store;
//! writes byte-identical to the file API's; hostile objects refused; and
//! the live S3 check that `.ci/run` runs against a moto server.

mod counting;
mod hostile;
mod reads;
mod s3;
mod writes;

use std::sync::Arc;

use object_store::ObjectStore;
use object_store::memory::InMemory;
use object_store::{ObjectStoreExt, PutPayload};

/// `records.npy` of the fixtures (tests/data/object_store/make.py).
#[derive(Debug, serde::Deserialize, PartialEq)]
pub struct Rec {
    pub id: u32,
    pub pos: [f64; 3],
    pub tag: serde_bytes::ByteBuf,
}

/// `records.npy` row `i`, by make.py's formula.
pub fn rec(i: u32) -> Rec {
    let x = f64::from(i);
    Rec {
        id: i,
        pos: [x, x + 0.5, -x],
        tag: serde_bytes::ByteBuf::from(format!("r{:03}", i % 1000)),
    }
}

/// `stored.npz` and `deflated.npz` of the fixtures, read whole.
#[derive(Debug, serde::Deserialize, PartialEq)]
pub struct Archive {
    pub records: Vec<Rec>,
    pub grid: npy_serde::NdArray<f32>,
    pub small: Vec<u8>,
}

/// The path of a fixture made by `tests/data/object_store/make.py`.
pub fn fixture(name: &str) -> String {
    format!("{}/data/object_store/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The bytes of a fixture.
pub fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// An in-memory store holding `objects` (path, bytes).
pub async fn store_with(objects: &[(&str, Vec<u8>)]) -> Arc<InMemory> {
    let store = Arc::new(InMemory::new());
    for (path, bytes) in objects {
        store
            .put(&(*path).into(), PutPayload::from(bytes.clone()))
            .await
            .unwrap();
    }
    store
}

/// An in-memory store holding the named fixtures under their names.
pub async fn store_with_fixtures(names: &[&str]) -> Arc<InMemory> {
    let objects: Vec<(&str, Vec<u8>)> = names.iter().map(|n| (*n, fixture_bytes(n))).collect();
    store_with(&objects).await
}

/// The bytes of the object at `path`.
pub async fn object_bytes(store: &dyn ObjectStore, path: &str) -> Vec<u8> {
    store
        .get(&path.into())
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap()
        .to_vec()
}
