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
