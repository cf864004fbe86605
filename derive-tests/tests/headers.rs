//! The header `to_vec` writes for a sample of every type, snapshotted.

mod common;

use common::header_text;

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
    bools => common::bools(),
    ints => common::ints(),
    uints => common::uints(),
    floats => common::floats(),
    half => common::halves(),
    complex => common::complexes(),
    chars => common::chars(),
    strings => common::strings(),
    bytes => common::bytes(),
    nested => common::nested(),
    newtype => common::with_newtype(),
    unit_struct_and_unit => common::with_units(),
    arrays => common::arrays(),
    vec_field => common::vec_field(),
    tuple_struct => common::tuple_struct(),
    mixed_tuple => common::mixed_tuple(),
    padding => common::padded(),
    unit_enum => common::with_enum(),
    datetime => common::times(),
    rename => common::renamed(),
    skip => common::skipped(),
    flatten => common::flattened(),
    default => common::defaulted(),
    with => common::with_module(),
    alias => common::aliased(),
    transparent => common::transparent(),
    untagged => common::with_untagged(),
    internally_tagged => common::tagged(),
    deny_unknown_fields => common::strict(),
    option_some => common::optional(),
    particle => common::particles(),
    mixed => common::mixed(),
    single_record => common::particles()[0].clone(),
    single_scalar => 2.5f64,
    vec_of_arrays => vec![[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]],
}
