use super::*;
use crate::dtype::{DatetimeUnit, TimeUnit};

#[test]
fn integers_into_datetime_and_bytes_into_void() {
    let dt = Dtype::scalar(ScalarType::Datetime(DatetimeUnit::new(TimeUnit::Seconds)));
    let mut buf = [0u8; 8];
    7i32.serialize(Enc::new(&dt, &mut buf)).unwrap();
    assert_eq!(buf, 7i64.to_le_bytes());
    let v = Dtype::scalar(ScalarType::Void(4));
    let mut buf = [9u8; 4];
    serde_bytes::Bytes::new(&[1, 0])
        .serialize(Enc::new(&v, &mut buf))
        .unwrap();
    assert_eq!(buf, [1, 0, 0, 0]);
    // strict mode takes no conversion
    assert!(7i32.serialize(Enc::strict(&dt, &mut [0u8; 8])).is_err());
    let f4 = Dtype::scalar(ScalarType::Float(4));
    assert!(1.0f64.serialize(Enc::strict(&f4, &mut [0u8; 4])).is_err());
    assert!(1.0f32.serialize(Enc::strict(&f4, &mut [0u8; 4])).is_ok());
}
