use super::*;
use crate::dtype::Scalar;

fn enc<T: Serialize>(dt: &Dtype, v: &T) -> Result<Vec<u8>> {
    let mut buf = vec![0xAA; dt.itemsize()];
    v.serialize(Enc::new(dt, &mut buf))?;
    Ok(buf)
}

#[test]
fn byte_orders() {
    let be = Dtype::Scalar(Scalar::new(ScalarType::UInt(4), ByteOrder::Big));
    assert_eq!(enc(&be, &0x01020304u32).unwrap(), [1, 2, 3, 4]);
    let le = Dtype::scalar(ScalarType::Int(2));
    assert_eq!(enc(&le, &-2i64).unwrap(), [0xfe, 0xff]);
    let u = Dtype::Scalar(Scalar::new(ScalarType::Unicode(2), ByteOrder::Big));
    assert_eq!(enc(&u, &"é").unwrap(), [0, 0, 0, 0xe9, 0, 0, 0, 0]);
}

#[test]
fn record_fields_by_name_in_any_order() {
    #[derive(serde::Serialize)]
    struct R {
        b: u8,
        a: u8,
    }
    let dt = Dtype::record()
        .field("a", Dtype::scalar(ScalarType::UInt(1)))
        .padding(1)
        .field("b", Dtype::scalar(ScalarType::UInt(1)))
        .build()
        .unwrap();
    let mut buf = vec![0; 3];
    R { b: 2, a: 1 }.serialize(Enc::new(&dt, &mut buf)).unwrap();
    assert_eq!(buf, [1, 0, 2]);
}

#[test]
fn many_fields_use_the_big_bitset() {
    let mut b = Dtype::record();
    for i in 0..200 {
        b = b.field(format!("f{i}"), Dtype::scalar(ScalarType::UInt(1)));
    }
    let dt = b.build().unwrap();
    let mut m = std::collections::BTreeMap::new();
    for i in 0..199 {
        m.insert(format!("f{i}"), 1u8);
    }
    let err = enc(&dt, &m).unwrap_err();
    assert_eq!(
        err.to_string(),
        "field f199: missing from the value (the dtype has this field)"
    );
    m.insert("f199".into(), 1u8);
    assert_eq!(enc(&dt, &m).unwrap(), vec![1u8; 200]);
}
