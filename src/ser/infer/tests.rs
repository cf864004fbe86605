use super::*;

fn infer<T: Serialize + ?Sized>(v: &T) -> Result<Node> {
    let mut slot = None;
    v.serialize(Infer::new(&mut slot, true))?;
    Ok(slot.unwrap())
}

fn descr<T: Serialize + ?Sized>(v: &T) -> String {
    let node = infer(v).unwrap();
    let (shape, elem) = split_shape(&node).unwrap();
    format!("{} {:?}", node_to_dtype(elem, false).unwrap(), shape)
}

#[test]
fn aligned_nested_padding_is_kept() {
    #[derive(serde::Serialize)]
    struct In {
        a: u8,
        _p: crate::Padding<2>,
        b: u16,
    }
    #[derive(serde::Serialize)]
    struct Out {
        x: u8,
        i: In,
    }
    let node = infer(&Out {
        x: 1,
        i: In {
            a: 1,
            _p: crate::Padding,
            b: 2,
        },
    })
    .unwrap();
    assert_eq!(
        node_to_dtype(&node, true).unwrap().to_string(),
        "[('x', '|u1'), ('', '|V1'), ('i', [('a', '|u1'), ('', '|V3'), ('b', '<u2')])]"
    );
    assert_eq!(
        node_to_dtype(&node, false).unwrap().to_string(),
        "[('x', '|u1'), ('i', [('a', '|u1'), ('', '|V2'), ('b', '<u2')])]"
    );
}

#[test]
fn string_widths_grow() {
    assert_eq!(descr(&["a", "abc", "ab"]), "'<U3' [3]");
    assert_eq!(descr(&[""]), "'<U1' [1]");
}

#[test]
fn tuples_homogeneous_or_not() {
    assert_eq!(descr(&[(1.0f64, 2.0f64)]), "'<f8' [1, 2]");
    assert_eq!(
        descr(&[(1.0f64, 2i32)]),
        "[('f0', '<f8'), ('f1', '<i4')] [1]"
    );
    assert_eq!(descr(&[("a", "bcd")]), "'<U3' [1, 2]");
}

#[test]
fn nested_arrays_merge_dims() {
    assert_eq!(descr(&[[[1u8; 4]; 3]; 2]), "'|u1' [2, 3, 4]");
    assert_eq!(descr(&1u16), "'<u2' []");
}

#[test]
fn mismatch_is_found() {
    let err = infer(&vec![vec![1.0f64, 2.0], vec![1.0f64]]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("record 1: sequence of length 1"),
        "{err}"
    );
    // tuples of different layouts per record: the first record decides
    let err = infer(&vec![(1.0f64, 2.0f64), (1.0f64, 2.0f64)]).map(|_| ());
    assert!(err.is_ok());
}
