//! Nesting depth at the documented limit and one past it, through the
//! whole reader (`from_slice` into `serde_json::Value`, `from_reader`, the
//! iterator) and through the writer, each on a thread with a 2 MiB stack:
//! at the limit the value reads, past it a limit error — never a stack
//! overflow (which would abort this test binary).
//!
//! Documented limits (`ReadOptions::max_depth`, default 64): at most 64
//! nested brackets in the header (a record level uses two: `[('a', ...)]`),
//! and at most 64 levels in the presented value (shape dims + subarray dims
//! + record levels).

use npy_serde::ReadOptions;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

const STACK: usize = 2 << 20;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
    let hlen = dict.len() + 1;
    let total = hlen + (64 - (10 + hlen) % 64) % 64;
    let mut v = b"\x93NUMPY\x01\x00".to_vec();
    v.extend_from_slice(&u16::try_from(total).unwrap().to_le_bytes());
    v.extend(format!("{dict:<width$}\n", width = total - 1).bytes());
    v.extend_from_slice(data);
    v
}

fn nested_record(levels: usize) -> String {
    "[('a', ".repeat(levels) + "'<i4'" + &")]".repeat(levels)
}

/// Reads `file` every way on a 2 MiB stack; the `from_slice` outcome.
fn read_everywhere(file: Vec<u8>, opts: ReadOptions) -> Result<serde_json::Value, String> {
    on_small_stack(move || {
        let a = opts.from_slice::<serde_json::Value>(&file);
        let b = opts.from_reader::<serde_json::Value>(&file[..]);
        assert_eq!(
            a.as_ref().map_err(ToString::to_string),
            b.as_ref().map_err(ToString::to_string)
        );
        if let Ok(mut r) = npy_serde::NpyReader::with_options(&file[..], opts.clone()) {
            for item in r.deserialize::<serde_json::Value>() {
                item.unwrap();
            }
        }
        a.map_err(|e| e.to_string())
    })
}

#[test]
fn nested_records_at_and_past_the_limit() {
    // 32 records deep = 64 brackets: the default limit
    let v = read_everywhere(
        npy(&nested_record(32), "(1,)", &7i32.to_le_bytes()),
        ReadOptions::new(),
    )
    .unwrap();
    let mut inner = &v[0];
    for _ in 0..32 {
        inner = &inner["a"];
    }
    assert_eq!(inner, 7);
    let e =
        read_everywhere(npy(&nested_record(33), "(1,)", &[0; 4]), ReadOptions::new()).unwrap_err();
    assert!(e.contains("nested deeper than max_depth 64"), "{e}");
}

#[test]
fn dimensions_at_and_past_the_limit() {
    let shape = |n: usize| format!("({})", "1, ".repeat(n));
    // 64 dims of a scalar: 64 levels of sequences
    let v = read_everywhere(
        npy("'<i4'", &shape(64), &5i32.to_le_bytes()),
        ReadOptions::new(),
    )
    .unwrap();
    let mut inner = &v;
    for _ in 0..64 {
        inner = &inner[0];
    }
    assert_eq!(inner, 5);
    let e = read_everywhere(npy("'<i4'", &shape(65), &[0; 4]), ReadOptions::new()).unwrap_err();
    assert!(e.contains("nested 65 deep"), "{e}");
    // subarray dims count too: 63 shape dims + a (1,) subarray in a record = 65
    let e = read_everywhere(
        npy("[('a', '<i4', (1,))]", &shape(63), &[0; 4]),
        ReadOptions::new(),
    )
    .unwrap_err();
    assert!(e.contains("nested 65 deep"), "{e}");
}

/// numpy reads at most 99 nested records; with `max_depth(200)` that many
/// still read on a 2 MiB stack.
#[test]
fn numpy_maximum_with_a_raised_limit() {
    let opts = ReadOptions::new().max_depth(200);
    let v = read_everywhere(
        npy(&nested_record(99), "(1,)", &3i32.to_le_bytes()),
        opts.clone(),
    )
    .unwrap();
    let mut inner = &v[0];
    for _ in 0..99 {
        inner = &inner["a"];
    }
    assert_eq!(inner, 3);
    let e = read_everywhere(npy(&nested_record(101), "(1,)", &[0; 4]), opts).unwrap_err();
    assert!(e.contains("max_depth 200"), "{e}");
}

/// Serializes as sequences (or maps) nested `0` deep around a number,
/// without building a tree (so nothing deep has to be dropped).
struct Deep(usize, bool);

impl Serialize for Deep {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 == 0 {
            return s.serialize_f64(1.0);
        }
        if self.1 {
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry("a", &Deep(self.0 - 1, true))?;
            m.end()
        } else {
            let mut q = s.serialize_seq(Some(1))?;
            q.serialize_element(&Deep(self.0 - 1, false))?;
            q.end()
        }
    }
}

#[test]
fn deep_values_are_refused_when_written() {
    for maps in [false, true] {
        for depth in [100_000, 5_000, 200] {
            let result = on_small_stack(move || {
                let v = vec![Deep(depth, maps)];
                let a = npy_serde::to_vec(&v).map(|_| ()).map_err(|e| e.to_string());
                let mut out = Vec::new();
                let b = npy_serde::to_writer(&mut out, &v).map_err(|e| e.to_string());
                assert_eq!(a, b);
                let mut w = npy_serde::NpyWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
                let c = w.serialize(&Deep(depth, maps)).map_err(|e| e.to_string());
                assert!(c.is_err(), "{c:?}");
                // with a given dtype the shape is measured instead
                let f8 = npy_serde::Dtype::scalar(npy_serde::ScalarType::Float(8));
                let d = npy_serde::WriteOptions::new().dtype(f8).to_vec(&v);
                assert!(d.is_err(), "given dtype");
                a
            });
            let e = result.unwrap_err();
            assert!(
                e.contains("deep") || e.contains("depth"),
                "maps {maps}, depth {depth}: {e}"
            );
        }
    }
}

#[test]
fn deep_json_value_is_refused_when_written() {
    // built and dropped on a large stack (serde_json's Drop recurses),
    // serialized on a 2 MiB one
    let e = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut v = serde_json::json!(1.0);
            for _ in 0..20_000 {
                v = serde_json::Value::Array(vec![v]);
            }
            let v = std::sync::Arc::new(v);
            let v2 = v.clone();
            let e = on_small_stack(move || {
                npy_serde::to_vec(&*v2)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            });
            drop(v);
            e
        })
        .unwrap()
        .join()
        .unwrap()
        .unwrap_err();
    assert!(e.contains("deep") || e.contains("depth"), "{e}");
}
