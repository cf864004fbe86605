//! `#[serde(with = "npy_serde::complex")]` for `num_complex::Complex<f32/f64>`.
//!
//! num_complex serializes a complex number as a 2-tuple, which this crate
//! would write as a `(2,)` subarray of floats. With this module the field is
//! written as numpy's `'<c8'` / `'<c16'` instead. Other serde formats still
//! see the pair `[re, im]`.
//!
//! ```
//! use num_complex::Complex;
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Rec {
//!     #[serde(with = "npy_serde::complex")]
//!     z: Complex<f64>,
//! }
//! let bytes = npy_serde::to_vec(&vec![Rec { z: Complex::new(1.0, -2.0) }]).unwrap();
//! assert!(String::from_utf8_lossy(&bytes).contains("[('z', '<c16')]"));
//! assert_eq!(serde_json::to_string(&Rec { z: Complex::new(1.0, -2.0) }).unwrap(), r#"{"z":[1.0,-2.0]}"#);
//! ```

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;
use std::marker::PhantomData;

use num_complex::Complex;
use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;

use crate::kinds::special::COMPLEX;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The float types a complex number can be made of here: `f32` (`c8`) and
/// `f64` (`c16`).
///
/// ```
/// use num_complex::Complex;
/// #[derive(serde::Serialize)]
/// struct Rec {
///     #[serde(with = "npy_serde::complex")]
///     single: Complex<f32>,
///     #[serde(with = "npy_serde::complex")]
///     double: Complex<f64>,
/// }
/// let bytes = npy_serde::to_vec(&[Rec { single: Complex::new(1.0, 2.0), double: Complex::new(3.0, 4.0) }])?;
/// let (header, _) = npy_serde::Header::from_bytes(&bytes, &Default::default())?;
/// assert_eq!(header.descr.to_string(), "[('single', '<c8'), ('double', '<c16')]");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub trait ComplexPart:
    sealed::Sealed + Copy + serde::Serialize + for<'de> Deserialize<'de>
{
}
impl ComplexPart for f32 {}
impl ComplexPart for f64 {}

/// Serializes `value` as numpy's complex type (see the module docs).
///
/// ```
/// use num_complex::Complex;
/// let z = Complex::new(0.5f64, -1.0);
/// // usually called by `#[serde(with = ...)]` (see the module docs); other
/// // formats see the pair [re, im]
/// let json = npy_serde::complex::serialize(&z, serde_json::value::Serializer).unwrap();
/// assert_eq!(json, serde_json::json!([0.5, -1.0]));
/// ```
pub fn serialize<T: ComplexPart, S: Serializer>(
    value: &Complex<T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_newtype_struct(COMPLEX, &(value.re, value.im))
}

/// Deserializes a complex number from numpy's complex type, or from a
/// 2-element sequence `[re, im]` in other formats.
///
/// ```
/// use num_complex::Complex;
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Rec {
///     #[serde(deserialize_with = "npy_serde::complex::deserialize")]
///     z: Complex<f64>,
/// }
/// // a '<c8' column (what numpy writes for complex64) reads into Complex<f64> exactly
/// #[derive(serde::Serialize)]
/// struct Out {
///     #[serde(with = "npy_serde::complex")]
///     z: Complex<f32>,
/// }
/// let bytes = npy_serde::to_vec(&[Out { z: Complex::new(1.5, -2.0) }])?;
/// let back: Vec<Rec> = npy_serde::from_slice(&bytes)?;
/// assert_eq!(back, [Rec { z: Complex::new(1.5, -2.0) }]);
/// // in JSON the same field is a pair
/// let rec: Rec = serde_json::from_str(r#"{"z": [1.5, -2.0]}"#).unwrap();
/// assert_eq!(rec.z, Complex::new(1.5, -2.0));
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn deserialize<'de, T: ComplexPart, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Complex<T>, D::Error> {
    deserializer.deserialize_newtype_struct(COMPLEX, ComplexVisitor(PhantomData))
}

struct ComplexVisitor<T>(PhantomData<T>);

impl<'de, T: ComplexPart> Visitor<'de> for ComplexVisitor<T> {
    type Value = Complex<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a complex number [re, im]")
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let (re, im) = <(T, T)>::deserialize(d)?;
        Ok(Complex::new(re, im))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error;
        let re = seq
            .next_element()?
            .ok_or_else(|| A::Error::invalid_length(0, &self))?;
        let im = seq
            .next_element()?
            .ok_or_else(|| A::Error::invalid_length(1, &self))?;
        Ok(Complex::new(re, im))
    }
}
