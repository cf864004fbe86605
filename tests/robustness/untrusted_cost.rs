//! The cost model of `ReadOptions::max_elements` (see its docs): the
//! 33 KB archive whose one deflated member holds 33,554,433 bytes of
//! `'|u1'` (into `serde_json::Value`, 32 bytes per element, it would take
//! 1 GiB and more while the `Vec` doubles) is refused under the documented
//! service settings, before anything is allocated for its data, with an
//! error naming the member and the limit.

use std::io::{Cursor, Write};

const N: u64 = 33_554_433;

/// The archive: member `big.npy`, deflated, really holding `N` zero bytes
/// of data after its header.
fn bomb() -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(9))
        .large_file(false);
    zip.start_file("big.npy", opts).unwrap();
    zip.write_all(&tests::npy_header_1d("|u1", N)).unwrap();
    let block = vec![0u8; 1 << 20];
    let mut left = N;
    while left > 0 {
        let n = left.min(block.len() as u64) as usize;
        zip.write_all(&block[..n]).unwrap();
        left -= n as u64;
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn the_deflate_bomb_is_refused_under_the_service_settings() {
    let archive = bomb();
    assert!(
        archive.len() < 40_000,
        "the archive is {} bytes",
        archive.len()
    );
    // the settings the docs of ReadOptions::max_elements recommend for a
    // service with 512 MiB per read into serde_json::Value
    let opts = npy_serde::ReadOptions::new().max_elements(1 << 24);
    let mut z = npy_serde::npz::NpzReader::with_options(Cursor::new(&archive[..]), opts).unwrap();
    let err = z.by_name::<serde_json::Value>("big").unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("big") && msg.contains("16777216"), "{msg}");
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("untrusted_deflate_bomb_refused", msg);
    });
    // the whole archive into a map of values: the same refusal
    let opts = npy_serde::ReadOptions::new().max_elements(1 << 24);
    let mut z = npy_serde::npz::NpzReader::with_options(Cursor::new(&archive[..]), opts).unwrap();
    assert_eq!(
        z.by_name::<Vec<u8>>("big.npy").unwrap_err().to_string(),
        msg
    );
    // the raw bytes are bounded by the same limit
    let opts = npy_serde::ReadOptions::new().max_elements(1 << 24);
    let mut z = npy_serde::npz::NpzReader::with_options(Cursor::new(&archive[..]), opts).unwrap();
    let raw = z.raw("big").unwrap_err().to_string();
    assert!(raw.contains("big") && raw.contains("16777216"), "{raw}");
}
