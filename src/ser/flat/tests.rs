use super::*;

#[test]
fn bare_numbers_of_the_one_type() {
    let mut block = [0u8; BLOCK];
    let mut f = Flat::new(&mut block);
    assert!(f.put(&1.5f64).is_err()); // not resumed
    f.resume(Layout::bare(Plain::F64));
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
    f.resume(Layout::bare(Plain::Bool));
    assert!(f.put(&true).is_ok());
    assert!(f.put(&1u8).is_err());
    assert_eq!(f.suspend(), (&[1u8][..], 1));
}

#[test]
fn the_block_fills_with_whole_elements() {
    let mut block = [0u8; BLOCK];
    let mut f = Flat::new(&mut block);
    f.resume(Layout::bare(Plain::U64));
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
