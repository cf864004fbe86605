//! The header `to_vec` writes for a sample of every type, snapshotted.

mod common;

use common::*;

macro_rules! header {
    ($($name:ident => $samples:expr,)*) => {$(
        #[test]
        fn $name() {
            let bytes = npy_serde::to_vec(&$samples).unwrap();
            insta::with_settings!({
                snapshot_path => "../../snapshots/derive-tests",
                prepend_module_to_snapshot => false,
            }, {
                insta::assert_snapshot!(concat!("header__", stringify!($name)), header_text(&bytes));
            });
        }
    )*};
}

header! {
    bools => bools(),
    ints => ints(),
    uints => uints(),
    floats => floats(),
    half => halves(),
    complex => complexes(),
    chars => chars(),
    strings => strings(),
    bytes => bytes(),
    nested => nested(),
    newtype => with_newtype(),
    unit_struct_and_unit => with_units(),
    arrays => arrays(),
    vec_field => vec_field(),
    tuple_struct => tuple_struct(),
    mixed_tuple => mixed_tuple(),
    padding => padded(),
    unit_enum => with_enum(),
    datetime => times(),
    rename => renamed(),
    skip => skipped(),
    flatten => flattened(),
    default => defaulted(),
    with => with_module(),
    alias => aliased(),
    transparent => transparent(),
    untagged => with_untagged(),
    internally_tagged => tagged(),
    deny_unknown_fields => strict(),
    option_some => optional(),
    particle => particles(),
    mixed => mixed(),
    single_record => particles()[0].clone(),
    single_scalar => 2.5f64,
    vec_of_arrays => vec![[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]],
}
