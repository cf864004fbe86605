//! The one sequence type of every presentation off the hot paths: an
//! array's elements one stride apart, a scalar's parts, a record's fields
//! picked or met by a sequence request. A visitor's `visit_seq` is
//! instantiated once per sequence type it can be handed, per derived
//! type of the user's; the hot paths keep their own types (a run, a
//! record read in order), every other presentation hands this one, so a
//! type pays for one more `visit_seq`, not for one per presentation.

use serde::de;

use super::array::ArraySeq;
use super::element::{Fields, RecordSeq};
use super::scalar::Parts;
use crate::error::{Error, Result};

/// What a visitor off the hot paths is handed (see the module doc).
pub(crate) enum Elements<'r, 'a, 'de> {
    /// The elements of an array axis, one stride apart.
    Array(ArraySeq<'a, 'de>),
    /// `[re, im]` of a complex number, or the `u8`s of bytes.
    Parts(Parts<'a, 'de>),
    /// A record's fields: all of them, or those a proven list reads.
    Fields(RecordSeq<'r, 'a, 'de, Fields<'a>>),
}

impl<'de> de::SeqAccess<'de> for Elements<'_, '_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        match self {
            Elements::Array(s) => s.next_element_seed(seed),
            Elements::Parts(s) => s.next_element_seed(seed),
            Elements::Fields(s) => s.next_element_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        match self {
            Elements::Array(s) => s.size_hint(),
            Elements::Parts(s) => s.size_hint(),
            Elements::Fields(s) => s.size_hint(),
        }
    }
}
