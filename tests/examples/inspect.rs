//! `cargo run --example inspect` on numpy-written files: its output is pinned
//! by insta snapshots (the example's code is included here, not copied).

#[path = "../../examples/inspect.rs"]
mod example;

fn report(path: &str, limit: usize) -> String {
    let mut out = Vec::new();
    example::inspect(path, limit, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn inspect_nested_records() {
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("example_inspect__inspect_nested_records", report("data/read/nested.npy", 2));
    });
}

#[test]
fn inspect_titles_and_offsets() {
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("example_inspect__inspect_titles_and_offsets", report("data/read/offsets.npy", 3));
        insta::assert_snapshot!("example_inspect__inspect_titles_and_offsets-2", report("data/read/titles.npy", 3));
    });
}

#[test]
fn inspect_npz_archive() {
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("example_inspect__inspect_npz_archive", report("data/npz/columnar.npz", 2));
        insta::assert_snapshot!("example_inspect__inspect_npz_archive-2", report("data/npz/with_readme.npz", 2));
    });
}
