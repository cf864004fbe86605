//! Cookbook: rows of a big `.npy` in S3 (or MinIO, R2, any S3-compatible
//! store), read with two requests and without downloading the rest
//! (feature `object_store` of npy_serde, object_store's `aws` backend and a
//! tokio runtime in your own dependencies).
//!
//! ```sh
//! cargo run -p tests --features object_store --example s3_rows -- \
//!     http://127.0.0.1:9000 my-bucket runs/particles.npy 1000..1005
//! ```
//!
//! It prints the array's header, then the rows as JSON. Credentials here are
//! the dummy ones of a local test server; on AWS use
//! `AmazonS3Builder::from_env()` instead.

use std::sync::Arc;

use npy_serde::object_store::NpyObject;
use object_store::aws::AmazonS3Builder;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [endpoint, bucket, key, rows] = &args[..] else {
        return Err("usage: s3_rows ENDPOINT BUCKET KEY START..END".into());
    };
    let (start, end) = rows.split_once("..").ok_or("rows as START..END")?;

    let store = AmazonS3Builder::new()
        .with_endpoint(endpoint)
        .with_allow_http(true)
        .with_bucket_name(bucket)
        .with_region("us-east-1")
        .with_access_key_id("testing")
        .with_secret_access_key("testing")
        .build()?;

    // one GET: the header (the object's size comes with it)
    let array = NpyObject::open(Arc::new(store), key.as_str()).await?;
    println!("{key}: {}, {} rows", array.header(), array.len());

    // one GET of exactly these rows' bytes, read as any serde type
    let rows: Vec<serde_json::Value> = array.rows(start.parse()?..end.parse()?).await?;
    for row in rows {
        println!("{row}");
    }
    Ok(())
}
