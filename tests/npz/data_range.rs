//! `NpzReader::data_range`: where a stored member's array data lies, viewed
//! in place in archives NpzWriter wrote (aligned) and refused as misaligned
//! in numpy's (tests/data/view/numpy.npz: np.savez does not align); deflated
//! members refused. Messages in snapshot `npz_data_range_refusals`.

use std::io::Cursor;

use npy_serde::Order;
use npy_serde::npz::{NpzReader, NpzWriter};
use tests::Aligned;

fn ours(compressed: bool) -> Vec<u8> {
    let mut w = NpzWriter::new(Cursor::new(Vec::new())).compressed(compressed);
    w.add("t", &[0.5f64, 1.5, 2.5]).unwrap();
    w.add("name", "abc").unwrap();
    w.add("pos", &[[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]])
        .unwrap();
    w.add("n", &7u16).unwrap();
    w.finish().unwrap().into_inner()
}

#[test]
fn our_stored_members_view_in_place() {
    let bytes = ours(false);
    let archive = Aligned::new(&bytes, 0);
    let mut z = NpzReader::new(Cursor::new(archive.bytes())).unwrap();
    for key in ["t", "name", "pos", "n"] {
        let r = z.data_range(key).unwrap();
        assert_eq!(r.range().start % 64, 0, "{key}: {:?}", r.range());
        // the range holds exactly the member's data: its npy bytes past the header
        let member = z.raw(key).unwrap();
        let data = &archive.bytes()[r.range().start as usize..r.range().end as usize];
        assert!(
            member.ends_with(data) && member.len() - data.len() == 128,
            "{key}"
        );
    }
    let t = z.data_range("t").unwrap();
    assert_eq!((t.shape(), t.order()), (&[3][..], Order::C));
    assert_eq!(t.dtype().to_string(), "'<f8'");
    assert_eq!(
        t.view::<f64>(archive.bytes()).unwrap().data(),
        &[0.5, 1.5, 2.5]
    );
    let pos = z.data_range("pos.npy").unwrap();
    let v = pos.view::<f32>(archive.bytes()).unwrap();
    assert_eq!(v.shape(), &[2, 3]);
    assert_eq!(v.data(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let n = z.data_range("n").unwrap();
    let v = n.view::<u16>(archive.bytes()).unwrap();
    assert_eq!((v.shape(), v.data()), (&[][..], &[7u16][..]));
}

#[test]
fn numpy_archives_have_ranges_but_are_not_aligned() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/view/numpy.npz");
    let archive = Aligned::new(&std::fs::read(path).unwrap(), 0);
    let mut z = NpzReader::new(Cursor::new(archive.bytes())).unwrap();
    let a = z.data_range("a").unwrap();
    assert_eq!(a.shape(), &[2, 3]);
    let data = &archive.bytes()[a.range().start as usize..a.range().end as usize];
    let values: Vec<f64> = data
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(values, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let f = z.data_range("f").unwrap();
    assert_eq!((f.shape(), f.order()), (&[3, 4][..], Order::Fortran));
    // np.savez does not align: a view is refused, not made wrong
    let bytes = a.view::<f64>(archive.bytes()).unwrap_err();
    assert!(
        bytes.to_string().contains("past a multiple of 8"),
        "{bytes}"
    );
}

#[test]
fn refusals() {
    let mut text = String::new();
    let mut line = |what: &str, err: npy_serde::Error| text += &format!("{what}: {err}\n");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/view/numpy.npz");
    let archive = Aligned::new(&std::fs::read(path).unwrap(), 0);
    let mut z = NpzReader::new(Cursor::new(archive.bytes())).unwrap();
    let a = z.data_range("a").unwrap();
    line(
        "numpy's member as f64",
        a.view::<f64>(archive.bytes()).unwrap_err(),
    );
    line("as f32", a.view::<f32>(archive.bytes()).unwrap_err());
    line(
        "archive cut",
        a.view::<f64>(&archive.bytes()[..200]).unwrap_err(),
    );
    line("no such member", z.data_range("b").unwrap_err());
    let compressed = ours(true);
    let mut z = NpzReader::new(Cursor::new(&compressed)).unwrap();
    line("deflated", z.data_range("t").unwrap_err());
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("npz_data_range_refusals", text);
    });
}
