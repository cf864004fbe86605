//! The `read_npz` fuzz target's oracle (`fuzz/fuzz_targets/check_npz.rs`:
//! an archive opened and every member read every way, no panic, the
//! streaming reader agreeing with `by_name`) on stable: the committed
//! corpus of minimized inputs from the coverage-guided campaigns
//! (`fuzz/seeds/read_npz`) and the npz test files.

#[path = "../../fuzz/fuzz_targets/check_npz.rs"]
mod check_npz;

use std::path::Path;

fn files(dir: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let path = e.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            (path.display().to_string(), bytes)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn corpus_replays() {
    let corpus = files("../fuzz/seeds/read_npz");
    assert!(corpus.len() >= 50, "the committed corpus is missing");
    let read: usize = corpus.iter().map(|(_, b)| check_npz::check(b)).sum();
    // the corpus reaches real members, not only refusals
    assert!(
        read >= 20,
        "only {read} members of the corpus read into a value"
    );
}

#[test]
fn npz_test_files() {
    let mut read = 0;
    for (name, bytes) in files("data/npz") {
        if name.ends_with(".npz") {
            read += check_npz::check(&bytes);
        }
    }
    assert!(read >= 20, "only {read} members read");
}
