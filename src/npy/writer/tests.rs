use super::*;

/// C order into Fortran order, as the exact path's Fortran writes
/// reorder their data: element `i` (C order) lands at its column-major
/// position.
#[test]
fn fortran_positions() {
    let positions = |shape: &[u64]| -> Vec<u64> {
        let n = shape.iter().product::<u64>() as u8;
        let c_order: Vec<u8> = (0..n).collect();
        let mut f_order = vec![0; c_order.len()];
        reorder(&c_order, &mut f_order, shape, 1, false);
        let mut got = vec![0; c_order.len()];
        for (pos, &i) in f_order.iter().enumerate() {
            got[usize::from(i)] = pos as u64;
        }
        got
    };
    // (2, 3): C index i*3+j -> F position i + 2*j
    assert_eq!(positions(&[2, 3]), [0, 2, 4, 1, 3, 5]);
    let got = positions(&[2, 3, 4]);
    let mut sorted = got.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..24).collect::<Vec<_>>());
    assert_eq!(got[1], 6); // (0,0,1)
}
