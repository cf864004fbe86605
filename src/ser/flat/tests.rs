use super::*;

#[test]
fn bare_numbers_of_the_one_type() {
    let mut block = [0u8; BLOCK];
    let mut f = Flat::new(&mut block);
    assert!(f.put(&1.5f64).is_err()); // not resumed
    f.resume(Layout::Bare(Plain::F64));
    assert!(f.put(&1.5f64).is_ok());
    assert!(f.put(&Some(2.5f64)).is_ok());
    // another type, a tuple, a string
    assert!(f.put(&3.0f32).is_err());
    assert!(f.put(&(1.0f64,)).is_err());
    assert!(f.put("x").is_err());
    assert!(f.room());
    let (data, n) = f.suspend();
    assert_eq!(n, 2);
    assert_eq!(data, [1.5f64.to_le_bytes(), 2.5f64.to_le_bytes()].concat());
    assert!(f.put(&1.5f64).is_err()); // suspended
    f.resume(Layout::Bare(Plain::Bool));
    assert!(f.put(&true).is_ok());
    assert!(f.put(&1u8).is_err());
    assert_eq!(f.suspend(), (&[1u8][..], 1));
}

#[test]
fn the_block_fills_with_whole_elements() {
    let mut block = [0u8; BLOCK];
    let mut f = Flat::new(&mut block);
    f.resume(Layout::Bare(Plain::U64));
    for i in 0..BLOCK / 8 {
        assert!(f.put(&(i as u64)).is_ok());
    }
    assert!(!f.room());
    assert!(f.put(&0u64).is_err());
    assert_eq!(f.suspend().1, (BLOCK / 8) as u64);
    // 12-byte elements
    f.resume(Layout::tuple(Plain::F32, 3));
    let mut n = 0;
    while f.put(&[1.0f32, 2.0, 3.0]).is_ok() {
        n += 1;
    }
    // (a tuple needs a whole window of room)
    assert_eq!(n, (BLOCK - WINDOW) / 12 + 1);
    assert!(!f.room());
}

#[test]
fn tuples_fill_the_element_exactly() {
    let mut block = [0u8; BLOCK];
    let mut f = Flat::new(&mut block);
    f.resume(Layout::tuple(Plain::F32, 3));
    assert!(f.put(&[1.0f32, 2.0, 3.0]).is_ok());
    assert!(f.put(&[1.0f32, 2.0]).is_err());
    assert!(f.put(&[1.0f32, 2.0, 3.0, 4.0]).is_err());
    assert!(f.put(&[1.0f64, 2.0, 3.0]).is_err());
    assert!(f.put(&1.0f32).is_err());
    assert!(f.put(&[[1.0f32]; 3]).is_err());
    assert!(f.put(&(4.0f32, 5.0f32, 6.0f32)).is_ok());
    let want: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let (data, n) = f.suspend();
    assert_eq!(n, 2);
    assert_eq!(data, want);
}

/// Keys at fixed addresses, as a derived `Serialize` hands them over.
static A: &str = "a";
static B: &str = "b";

/// A record serialized by hand: fields `keys` with `values` (a bare `u8`,
/// then a pair of `i16`s), or some left out.
struct Hand<'k> {
    keys: &'k [&'static str],
    a: Option<u8>,
    b: Option<[i16; 2]>,
}

impl Serialize for Hand<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut r = s.serialize_struct("Hand", self.keys.len())?;
        for &k in self.keys {
            if k == "a" {
                r.serialize_field(k, &self.a)?;
            } else {
                r.serialize_field(k, &self.b)?;
            }
        }
        if self.keys.is_empty() {
            r.skip_field(A)?;
        }
        r.end()
    }
}

fn rec<'k>(keys: &'k [&'static str], a: Option<u8>, b: Option<[i16; 2]>) -> Hand<'k> {
    Hand { keys, a, b }
}

fn hand_layout() -> Layout {
    Layout::record(vec![
        FlatField::new((A.as_ptr().addr(), A.len()), Plain::U8, 0),
        FlatField::new((B.as_ptr().addr(), B.len()), Plain::I16, 2),
    ])
    .unwrap()
}

#[test]
fn records_take_their_fields_in_order_by_key_address() {
    let mut block = [0u8; BLOCK];
    let mut f = Flat::new(&mut block);
    // not resumed: a miss
    assert!(f.put(&rec(&[A, B], Some(1), Some([2, 3]))).is_err());
    f.resume(hand_layout());
    assert_eq!(f.layout.itemsize(), 5);
    assert!(f.put(&rec(&[A, B], Some(1), Some([2, -3]))).is_ok());
    // another order, a field missing, left out or twice, a None, a
    // number of another type: misses (the element encoder decides)
    assert!(f.put(&rec(&[B, A], Some(1), Some([2, 3]))).is_err());
    assert!(f.put(&rec(&[A], Some(1), Some([2, 3]))).is_err());
    assert!(f.put(&rec(&[], Some(1), Some([2, 3]))).is_err());
    assert!(f.put(&rec(&[A, B, B], Some(1), Some([2, 3]))).is_err());
    assert!(f.put(&rec(&[A, B], None, Some([2, 3]))).is_err());
    assert!(f.put(&(1u16, [2i16, 3])).is_err());
    assert!(f.put(&7u8).is_err());
    // the same text at another address: a miss (matched by name there)
    let other = String::from("a").leak();
    assert!(f.put(&rec(&[other, B], Some(1), Some([2, 3]))).is_err());
    assert!(f.put(&rec(&[A, B], Some(4), Some([5, 6]))).is_ok());
    let (data, n) = f.suspend();
    assert_eq!(n, 2);
    let want: Vec<u8> = [1u8]
        .into_iter()
        .chain(2i16.to_le_bytes())
        .chain((-3i16).to_le_bytes())
        .chain([4u8])
        .chain(5i16.to_le_bytes())
        .chain(6i16.to_le_bytes())
        .collect();
    assert_eq!(data, want);
}

#[test]
fn record_layouts_have_fields() {
    let f = FlatField::new((1, 1), Plain::F64, 0);
    assert!(Layout::record(vec![]).is_none());
    assert_eq!(Layout::record(vec![f; 16]).unwrap().itemsize(), 128);
    assert!(matches!(
        Layout::record(vec![f]).unwrap(),
        Layout::Record(..)
    ));
    assert!(!matches!(Layout::tuple(Plain::F64, 2), Layout::Record(..)));
}
