//! `write_zeroed`: the bytes of numpy's `np.save(np.zeros(...))`
//! (tests/data/view/zeros_*.npy), sparse for big files, refusals before
//! anything is written, and a file filled in place through `view_mut` that
//! numpy loads (with `NPY_SERDE_PYTHON`, or `python3` when it has numpy).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use npy_serde::{Dtype, ScalarType, write_zeroed};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/view")
            .join(name),
    )
    .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("npy_serde_zeroed_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn zeroed(name: &str, dtype: &Dtype, shape: &[usize]) -> Vec<u8> {
    let path = scratch(name);
    let file = std::fs::File::create(&path).unwrap();
    write_zeroed(&file, dtype, shape).unwrap();
    std::fs::read(&path).unwrap()
}

#[test]
fn the_bytes_numpy_saves_for_zeros() {
    let f8: Dtype = "<f8".parse().unwrap();
    assert_eq!(zeroed("a.npy", &f8, &[1000, 3]), fixture("zeros_f8.npy"));
    // a subarray dtype joins the shape, as numpy folds it
    let sub = Dtype::subarray(f8, vec![3]).unwrap();
    assert_eq!(zeroed("b.npy", &sub, &[1000]), fixture("zeros_f8.npy"));
    let rec: Dtype = "[('id', '<u4'), ('pos', '<f8', (3,)), ('name', '<U5')]"
        .parse()
        .unwrap();
    assert_eq!(zeroed("c.npy", &rec, &[4]), fixture("zeros_record.npy"));
    let f4: Dtype = "<f4".parse().unwrap();
    assert_eq!(zeroed("d.npy", &f4, &[0, 5]), fixture("empty_0x5.npy"));
    // and the header is to_vec's
    let zeros = vec![[0.0f64; 3]; 1000];
    assert_eq!(
        zeroed("e.npy", &"<f8".parse().unwrap(), &[1000, 3]),
        npy_serde::to_vec(&zeros).unwrap()
    );
}

#[test]
fn old_contents_are_gone() {
    let path = scratch("old.npy");
    std::fs::write(&path, vec![0xAB; 4096]).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    write_zeroed(&file, &"<u2".parse().unwrap(), &[10]).unwrap();
    let back: Vec<u16> = npy_serde::from_path(&path).unwrap();
    assert_eq!(back, vec![0; 10]);
}

#[test]
fn refused_before_anything_is_written() {
    let path = scratch("refused.npy");
    std::fs::write(&path, b"untouched").unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let f8: Dtype = "<f8".parse().unwrap();
    let err = write_zeroed(&file, &f8, &[usize::MAX, 2]).unwrap_err();
    assert!(err.to_string().contains("is too big"), "{err}");
    let err = write_zeroed(&file, &f8, &[1 << 31, 1 << 31, 4]).unwrap_err();
    assert!(err.to_string().contains("is too big"), "{err}");
    let err = write_zeroed(&file, &Dtype::scalar(ScalarType::Object), &[3]).unwrap_err();
    assert!(err.to_string().contains("'|O'"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"untouched");
}

/// 1 GiB of zeros takes no disk space (where the file system allows it:
/// every Linux file system CI runs on does).
#[cfg(target_os = "linux")]
#[test]
fn big_files_are_sparse() {
    use std::os::unix::fs::MetadataExt;
    let path = scratch("big.npy");
    let file = std::fs::File::create(&path).unwrap();
    write_zeroed(&file, &"<f8".parse().unwrap(), &[1 << 27]).unwrap();
    let meta = file.metadata().unwrap();
    assert_eq!(meta.len(), 128 + (8 << 27));
    assert!(meta.blocks() * 512 < 1 << 20, "{} blocks", meta.blocks());
    drop(file);
    std::fs::remove_file(&path).unwrap();
}

fn python() -> Option<String> {
    let py = std::env::var("NPY_SERDE_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let ok = Command::new(&py)
        .args(["-c", "import numpy"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(py)
}

#[test]
fn filled_through_view_mut_then_numpy_loads_it() {
    let path = scratch("filled.npy");
    let file = std::fs::File::create(&path).unwrap();
    write_zeroed(&file, &"<f8".parse().unwrap(), &[300, 4]).unwrap();
    drop(file);
    // what a writable map gives: the file's bytes, filled in place
    let mut buf = tests::Aligned::new(&std::fs::read(&path).unwrap(), 0);
    let mut v = npy_serde::view_mut::<f64>(buf.bytes_mut()).unwrap();
    assert_eq!(v.shape(), &[300, 4]);
    for (i, x) in v.data_mut().iter_mut().enumerate() {
        *x = i as f64 * 0.5;
    }
    std::fs::write(&path, buf.bytes()).unwrap();
    let back: Vec<[f64; 4]> = npy_serde::from_path(&path).unwrap();
    assert_eq!(back[299], [598.0, 598.5, 599.0, 599.5]);
    let Some(py) = python() else {
        eprintln!("no python with numpy: checked with npy_serde only");
        return;
    };
    let check = "import sys, numpy as np; a = np.load(sys.argv[1]); \
                 assert a.dtype == '<f8' and a.shape == (300, 4), (a.dtype, a.shape); \
                 assert (a.ravel() == np.arange(1200) * 0.5).all(); print('numpy ok')";
    let out = Command::new(&py)
        .args(["-c", check])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "numpy: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
