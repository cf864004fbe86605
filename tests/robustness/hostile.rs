//! The hostile corpus (`tests/data/hostile/`, made by its `make.py`): one test
//! per file. Each file is read five ways — `from_slice` and `from_reader`,
//! each into `serde_json::Value` and into a derived struct, and through the
//! `NpyReader` iterator — and the outcomes are snapshotted together, so a
//! changed message or a new panic shows up as a snapshot diff.
//!
//! Tests run on the test harness's threads (2 MiB stacks), so a stack
//! overflow would abort the binary.
//!
//! `.npz` archives (truncated, bad CRC, encrypted, bzip2/lzma members,
//! deflate bombs, lying sizes, duplicate names) belong in the same corpus:
//! add them to `make.py` as `npz_*.npz` with a test here reading them
//! through the npz API (and to `tests/memory/reading.rs`, `tests/robustness/mutate.rs`).

use std::path::Path;
use std::time::{Duration, Instant};

use npy_serde::{NpyReader, ReadOptions};
use serde::Deserialize;

/// The derived target: matches the record files of the corpus by name; any
/// other file must fail with a clean error.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Rec {
    #[serde(default)]
    id: u32,
    #[serde(default)]
    x: f64,
    #[serde(default)]
    ok: bool,
}

fn load(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/hostile")
        .join(format!("{name}.npy"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A value, shortened for the snapshot.
fn show<T: std::fmt::Debug>(r: npy_serde::Result<T>) -> String {
    match r {
        Ok(v) => {
            let s = format!("{v:?}");
            let mut short: String = s.chars().take(160).collect();
            if short.len() < s.len() {
                short.push_str("...");
            }
            format!("ok: {short}")
        }
        Err(e) => format!("error: {e}"),
    }
}

fn show_json(r: npy_serde::Result<serde_json::Value>) -> String {
    show(r.map(|v| v.to_string()))
}

/// Every way of reading `bytes`, one line each; lines equal to the first
/// are written as `(same)`.
pub fn outcomes(bytes: &[u8], opts: &ReadOptions) -> String {
    let start = Instant::now();
    let lines = [
        ("from_slice Value", show_json(opts.from_slice(bytes))),
        ("from_reader Value", show_json(opts.from_reader(bytes))),
        (
            "from_slice Vec<Rec>",
            show(opts.from_slice::<Vec<Rec>>(bytes)),
        ),
        (
            "from_reader Vec<Rec>",
            show(opts.from_reader::<Vec<Rec>>(bytes)),
        ),
        (
            "NpyReader Value",
            reader_outcome::<serde_json::Value>(bytes, opts),
        ),
        ("NpyReader Rec", reader_outcome::<Rec>(bytes, opts)),
    ];
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "reading took {took:?} (a hang in the making)"
    );
    let first = lines[0].1.clone();
    let mut out = String::new();
    for (i, (what, line)) in lines.iter().enumerate() {
        let line = if i > 0 && *line == first {
            "(same)"
        } else {
            line
        };
        out.push_str(&format!("{what}: {line}\n"));
    }
    out
}

/// The iterator: the header error, or each element's outcome (at most 4
/// shown, then the count of the rest).
fn reader_outcome<T: serde::de::DeserializeOwned + std::fmt::Debug>(
    bytes: &[u8],
    opts: &ReadOptions,
) -> String {
    let mut r = match NpyReader::with_options(bytes, opts.clone()) {
        Ok(r) => r,
        Err(e) => return format!("error: {e}"),
    };
    let mut parts = Vec::new();
    let mut n = 0usize;
    for item in r.deserialize::<T>() {
        if n < 4 {
            parts.push(show(item));
        }
        n += 1;
        assert!(n <= 1 << 20, "the iterator does not end");
    }
    if n > 4 {
        parts.push(format!("... {} more", n - 4));
    }
    format!("{} elements [{}]", n, parts.join("; "))
}

fn check(name: &str) {
    check_with(name, name, &ReadOptions::new());
}

fn check_with(file: &str, snapshot: &str, opts: &ReadOptions) {
    let bytes = load(file);
    let text = outcomes(&bytes, opts);
    insta::with_settings!({
        snapshot_path => "../../snapshots/npy_serde",
        prepend_module_to_snapshot => false,
        description => format!("tests/data/hostile/{file}.npy ({} bytes)", bytes.len()),
    }, {
        insta::assert_snapshot!(format!("hostile_{snapshot}"), text);
    });
}

macro_rules! hostile {
    ($($name:ident),* $(,)?) => {
        $(#[test] fn $name() { check(stringify!($name)); })*

        /// Every file of the folder has its test (a new file needs one).
        #[test]
        fn every_file_is_tested() {
            let tested = [$(stringify!($name)),*];
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hostile");
            let mut missing = Vec::new();
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "npy") {
                    let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
                    if !tested.contains(&stem.as_str()) {
                        missing.push(stem);
                    }
                }
            }
            assert!(missing.is_empty(), "no test for {missing:?}");
        }
    };
}

hostile!(
    // magic and version
    magic_empty,
    magic_wrong,
    magic_zip,
    magic_pickle,
    magic_text,
    magic_truncated,
    version_missing,
    version_1_1,
    version_4_0,
    version_0_0,
    // header length
    hlen_missing,
    hlen_past_eof_v1,
    hlen_past_eof_v2,
    hlen_4gib_v2,
    hlen_4gib_v3,
    hlen_zero,
    hlen_short_cuts_dict,
    header_too_long_v1,
    header_too_long_v2,
    // not a dict, syntax, non-literals
    not_dict_list,
    not_dict_int,
    not_dict_str,
    not_dict_set,
    empty_header_text,
    syntax_unbalanced,
    syntax_unclosed_string,
    syntax_binary_junk,
    syntax_nul_byte,
    syntax_missing_colon,
    syntax_trailing_garbage,
    expr_import,
    expr_call_dtype,
    expr_arith_shape,
    expr_power_shape,
    expr_float_shape,
    expr_name,
    expr_lambda,
    expr_fstring,
    expr_bytes_descr,
    expr_set_comprehension,
    dict_unknown_key,
    dict_missing_shape,
    dict_int_key,
    dict_duplicate_keys_last_wins,
    fortran_not_bool,
    fortran_none,
    // huge or deeply nested literals
    literal_huge_int,
    literal_deep_parens,
    literal_deep_lists,
    literal_deep_unclosed,
    literal_many_items,
    literal_long_string,
    // encodings
    utf8_invalid_v3,
    utf8_overlong_v3,
    utf8_surrogate_v3,
    latin1_high_bytes_outside_string,
    latin1_field_name_ok,
    // descr
    descr_unknown_code,
    descr_unknown_letter,
    descr_empty_string,
    descr_bad_byteorder,
    descr_bad_int_size,
    descr_negative_size,
    descr_negative_void,
    descr_huge_size,
    descr_huge_unicode,
    descr_void_2gib,
    descr_not_str_or_list,
    descr_dict_form,
    descr_duplicate_names,
    descr_overlapping_offsets,
    descr_title_clash,
    descr_field_not_tuple,
    descr_field_name_int,
    descr_field_too_many_items,
    descr_subarray_negative,
    descr_subarray_huge_dim,
    descr_subarray_product_overflow,
    descr_subarray_zero_size_huge,
    descr_subarray_not_int,
    descr_record_itemsize_overflow,
    descr_object,
    descr_object_field,
    descr_longdouble,
    descr_nested_65,
    descr_nested_1000,
    descr_nested_3000_v2,
    descr_subarray_nested_deep,
    // shape
    shape_negative,
    shape_negative_pair,
    shape_string,
    shape_bool,
    shape_none,
    shape_int_not_tuple,
    shape_list,
    shape_nested_tuple,
    shape_dim_2_64,
    shape_dim_2_63,
    shape_product_overflow_u64,
    shape_wrap_2_32_2_32_2,
    shape_wrap_to_5,
    shape_bytes_overflow,
    shape_zero_times_huge,
    shape_1gib_declared,
    shape_1gib_declared_fortran,
    shape_1gib_declared_0d,
    shape_8pib_declared,
    shape_billions_zero_size,
    shape_4e9_zero_size,
    shape_zero_size_past_cap,
    shape_empty_rows_past_cap,
    shape_many_dims,
    shape_3000_dims_with_data,
    shape_65_dims,
    descr_subarray_3000_dims,
    shape_max_elements,
    // data
    data_truncated,
    data_header_only,
    data_trailing_bytes,
    data_truncated_record,
    data_truncated_fortran,
    data_ucs4_too_large,
    data_ucs4_surrogate,
    data_ucs4_be_ffffffff,
    data_bool_bytes,
    data_bool_field_7,
    data_s_not_utf8,
);

/// Appending to a hostile file: a clean error (or a writer), never a panic.
#[test]
fn append_to_every_hostile_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hostile");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "npy") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let r = std::panic::catch_unwind(|| {
            if let Ok(mut w) = npy_serde::NpyWriter::append(std::io::Cursor::new(bytes.clone())) {
                let _ = w.serialize(&1u8);
                let _ = w.finish();
            }
        });
        assert!(r.is_ok(), "append panicked on {}", path.display());
    }
}

/// Files refused by a default limit, read again with the limit raised: the
/// next guard (depth, size, truncation) must still hold.
#[test]
fn raised_limits() {
    let big_header = ReadOptions::new().max_header_size(1 << 20);
    check_with(
        "header_too_long_v2",
        "raised_header_too_long_v2",
        &big_header,
    );
    check_with(
        "descr_nested_3000_v2",
        "raised_descr_nested_3000_v2",
        &big_header,
    );
    let deep = ReadOptions::new().max_depth(200).max_header_size(1 << 20);
    check_with("descr_nested_1000", "raised_descr_nested_1000", &deep);
    let many = ReadOptions::new().max_elements(u64::MAX);
    check_with("shape_max_elements", "raised_shape_max_elements", &many);
    check_with(
        "shape_billions_zero_size",
        "raised_shape_billions_zero_size",
        &ReadOptions::new().max_elements(1 << 12),
    );
}

/// Every way of reading an archive: opening it, the whole archive into a
/// map of values, and each member (the names the directory lists, or `b`)
/// by value, streamed and raw; one line each.
fn npz_outcomes(bytes: &[u8]) -> String {
    use std::collections::BTreeMap;
    use std::io::Cursor;
    let mut out = String::new();
    let open = npy_serde::npz::NpzReader::new(Cursor::new(bytes));
    let names = match &open {
        Ok(z) => z.names().to_vec(),
        Err(_) => vec!["b".to_owned()],
    };
    out.push_str(&format!(
        "open: {}\n",
        show(open.map(|z| z.names().to_vec()))
    ));
    let all =
        npy_serde::npz::from_reader::<BTreeMap<String, serde_json::Value>>(Cursor::new(bytes));
    out.push_str(&format!(
        "from_reader map: {}\n",
        show(all.map(|m| m.len()))
    ));
    let Ok(mut z) = npy_serde::npz::NpzReader::new(Cursor::new(bytes)) else {
        return out;
    };
    for name in names {
        let value = z
            .by_name::<serde_json::Value>(&name)
            .map(|v| v.to_string().len());
        out.push_str(&format!("{name} by_name Value: {}\n", show(value)));
        let streamed = match z.reader(&name) {
            Ok(mut r) => r
                .deserialize::<serde_json::Value>()
                .collect::<npy_serde::Result<Vec<_>>>()
                .map(|v| v.len()),
            Err(e) => Err(e),
        };
        out.push_str(&format!("{name} reader: {}\n", show(streamed)));
        out.push_str(&format!(
            "{name} raw: {}\n",
            show(z.raw(&name).map(|v| v.len()))
        ));
    }
    out
}

/// Truncated and lying archives (`npz_*` in `make.py`): every error names
/// the member where there is one, the offset, and what the directory
/// promises against what the file holds.
#[test]
fn truncated_archives() {
    for name in [
        "npz_cut_in_end_record",
        "npz_cut_in_directory",
        "npz_cut_in_directory_entry",
        "npz_member_data_past_end",
        "npz_member_data_cut",
        "npz_local_header_cut",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/hostile")
            .join(format!("{name}.npz"));
        let bytes = std::fs::read(&path).unwrap();
        let text = npz_outcomes(&bytes);
        assert!(!text.contains("fill whole buffer"), "{name}: {text}");
        insta::with_settings!({
            snapshot_path => "../../snapshots/npy_serde",
            prepend_module_to_snapshot => false,
            description => format!("tests/data/hostile/{name}.npz ({} bytes)", bytes.len()),
        }, {
            insta::assert_snapshot!(format!("hostile_{name}"), text);
        });
    }
}
