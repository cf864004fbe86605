use super::*;

/// The record count stops at u64::MAX with an error instead of
/// wrapping to 0 (debug builds panicked here; release builds would
/// have patched a header of 0 records).
#[test]
fn record_count_does_not_wrap() {
    let mut w = NpyWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
    w.serialize(&1u8).unwrap();
    w.count = u64::MAX - 1;
    w.serialize(&2u8).unwrap();
    assert_eq!(w.count, u64::MAX);
    let err = w.serialize(&3u8).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 18446744073709551615: array size overflows"
    );
    assert_eq!(w.count, u64::MAX);
}
