//! Zero-copy views (`npy_serde::view` / `view_mut`) of the files numpy
//! wrote in tests/data/view (see its make.py): every viewable type, Fortran
//! order, 0-d, (0, 5), format 2.0 and 3.0; and the refusals, with their
//! messages (snapshot `view_refusals`).

use std::fmt::Debug;
use std::path::Path;

use npy_serde::view::ViewElement;
use npy_serde::{Order, view, view_mut};
use num_complex::Complex;
use tests::Aligned;

fn file(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/view")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn aligned(name: &str) -> Aligned {
    Aligned::new(&file(name), 0)
}

/// t_<code>.npy is np.arange(6) as `code`, shape (2, 3): viewed as `T`.
fn check_type<T: ViewElement + PartialEq + Debug>(code: &str, value: impl Fn(u8) -> T) {
    let buf = aligned(&format!("t_{code}.npy"));
    let v = view::<T>(buf.bytes()).unwrap_or_else(|e| panic!("{code}: {e}"));
    assert_eq!(v.shape(), &[2, 3], "{code}");
    assert_eq!(v.order(), Order::C, "{code}");
    let want: Vec<T> = (0..6).map(value).collect();
    assert_eq!(v.data(), &want[..], "{code}");
    // in place: the data is the file's own bytes
    let offset = v.data().as_ptr() as usize - buf.bytes().as_ptr() as usize;
    assert_eq!(offset + 6 * size_of::<T>(), buf.bytes().len(), "{code}");
}

#[test]
fn every_viewable_type() {
    check_type("i1", |i| i as i8);
    check_type("i2", i16::from);
    check_type("i4", i32::from);
    check_type("i8", i64::from);
    check_type("u1", |i| i);
    check_type("u2", u16::from);
    check_type("u4", u32::from);
    check_type("u8", u64::from);
    check_type("f4", f32::from);
    check_type("f8", f64::from);
    check_type("c8", |i| Complex::new(f32::from(i), 0.0));
    check_type("c16", |i| Complex::new(f64::from(i), 0.0));
    #[cfg(feature = "half")]
    check_type("f2", |i| half::f16::from_f32(f32::from(i)));
}

#[test]
fn bool_fortran_0d_empty_and_header_versions() {
    let buf = aligned("bool.npy");
    let v = view::<bool>(buf.bytes()).unwrap();
    assert_eq!(v.data(), &[true, false, true, true]);

    let buf = aligned("fortran.npy");
    let v = view::<f64>(buf.bytes()).unwrap();
    assert_eq!((v.shape(), v.order()), (&[3, 4][..], Order::Fortran));
    // the first axis varies fastest: element (i, j) is at i + 3 j
    for i in 0..3 {
        for j in 0..4 {
            assert_eq!(v.data()[i + 3 * j], (4 * i + j) as f64);
        }
    }

    let buf = aligned("zero_d.npy");
    let v = view::<i32>(buf.bytes()).unwrap();
    assert_eq!((v.shape(), v.data()), (&[][..], &[7][..]));

    let buf = aligned("empty_0x5.npy");
    let v = view::<f32>(buf.bytes()).unwrap();
    assert_eq!((v.shape(), v.len()), (&[0, 5][..], 0));

    for name in ["v2.npy", "v3.npy"] {
        let buf = aligned(name);
        let v = view::<f64>(buf.bytes()).unwrap();
        assert_eq!(v.shape(), &[2, 3], "{name}");
        assert_eq!(v.data(), &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "{name}");
    }
}

#[test]
fn view_mut_fills_in_place() {
    let mut buf = aligned("fortran.npy");
    let mut v = view_mut::<f64>(buf.bytes_mut()).unwrap();
    assert_eq!(v.order(), Order::Fortran);
    for x in v.data_mut() {
        *x = -*x;
    }
    let back: Vec<Vec<f64>> = npy_serde::from_slice(buf.bytes()).unwrap();
    let want: Vec<Vec<f64>> = (0..3)
        .map(|i| (0..4).map(|j| -((4 * i + j) as f64)).collect())
        .collect();
    assert_eq!(back, want);
    // the same refusals as view
    let mut be = aligned("big_endian.npy");
    assert_eq!(
        view_mut::<f64>(be.bytes_mut()).unwrap_err().to_string(),
        view::<f64>(be.bytes()).unwrap_err().to_string()
    );
}

#[test]
fn refusals_say_what_the_file_has() {
    let mut text = String::new();
    let mut line = |what: &str, err: npy_serde::Error| {
        text += &format!("{what}: {err}\n");
    };
    let be = aligned("big_endian.npy");
    line("'>f8' as f64", view::<f64>(be.bytes()).unwrap_err());
    let f8 = aligned("t_f8.npy");
    line("'<f8' as f32", view::<f32>(f8.bytes()).unwrap_err());
    line("'<f8' as i64", view::<i64>(f8.bytes()).unwrap_err());
    line("'<f8' as u8", view::<u8>(f8.bytes()).unwrap_err());
    let c16 = aligned("t_c16.npy");
    line("'<c16' as f64", view::<f64>(c16.bytes()).unwrap_err());
    let off = Aligned::new(&file("t_f8.npy"), 1);
    line("misaligned by 1", view::<f64>(off.bytes()).unwrap_err());
    let off = Aligned::new(&file("t_c8.npy"), 2);
    line(
        "misaligned by 2",
        view::<Complex<f32>>(off.bytes()).unwrap_err(),
    );
    let bytes = file("t_f8.npy");
    let short = Aligned::new(&bytes[..bytes.len() - 1], 0);
    line("truncated", view::<f64>(short.bytes()).unwrap_err());
    let mut long = bytes.clone();
    long.extend_from_slice(&[0; 8]);
    let long = Aligned::new(&long, 0);
    line("oversized", view::<f64>(long.bytes()).unwrap_err());
    line("header only", view::<f64>(&bytes[..128]).unwrap_err());
    let mut bools = file("bool.npy");
    *bools.last_mut().unwrap() = 2;
    line("bool byte 2", view::<bool>(&bools).unwrap_err());
    let records = file("../read/particles.npy");
    line(
        "records",
        view::<f64>(Aligned::new(&records, 0).bytes()).unwrap_err(),
    );
    let strings = file("../read/strings.npy");
    line("strings", view::<u8>(&strings).unwrap_err());
    line("not npy", view::<u8>(b"PK\x03\x04 a zip").unwrap_err());
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("view_refusals", text);
    });
}
