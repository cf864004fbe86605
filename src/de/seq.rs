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
use super::scalar::ScalarDe;
use super::{Bytes, fix_error};
use crate::error::{Error, Result};
use crate::format::dtype::Scalar;

/// What a visitor off the hot paths is handed (see the module doc).
pub(crate) enum Elements<'r, 'a, 'de> {
    /// The elements of an array axis, one stride apart.
    Array(ArraySeq<'a, Bytes<'de, 'a>>),
    /// `[re, im]` of a complex number (the parts not yet handed out),
    /// with its type, for messages.
    Pair(std::array::IntoIter<ScalarDe<'a, 'de>, 2>, Scalar),
    /// The `u8`s of `S`/`V` bytes (as serde_json presents bytes to
    /// `deserialize_any`), with their type.
    Bytes(std::slice::Iter<'a, u8>, Scalar),
    /// A record's fields: all of them, or those a proven list reads;
    /// with how many there are.
    Fields(RecordSeq<'r, 'a, 'de, Fields<'a>>, usize),
}

impl<'de> Elements<'_, '_, 'de> {
    /// Hands the sequence to the visitor and checks that it took the
    /// whole: the one generic step of every cold presentation (one copy
    /// per visitor), its checks and messages not generic.
    #[inline(never)]
    pub(crate) fn visit<V: de::Visitor<'de>>(mut self, visitor: V) -> Result<V::Value> {
        match visitor.visit_seq(&mut self) {
            Ok(v) => self.end().map(|()| v),
            Err(e) => Err(self.failed(e)),
        }
    }

    /// Whether the visitor took every element.
    fn end(&self) -> Result<()> {
        match self {
            Elements::Array(s) => s.end(),
            // a complex number whose imaginary part the type did not take
            Elements::Pair(p, _) if p.len() > 0 => Err(Error::mismatch(
                "expected a complex number as [re, im], the type took only the real part",
            )),
            Elements::Pair(..) | Elements::Bytes(..) => Ok(()),
            Elements::Fields(s, total) => s.end(*total),
        }
    }

    /// A visitor's error, with serde's wording fixed where the
    /// presentation has a numpy type to name.
    #[cold]
    #[inline(never)]
    fn failed(&self, e: Error) -> Error {
        match self {
            Elements::Array(s) => s.failed(e),
            Elements::Pair(_, found) | Elements::Bytes(_, found) => {
                fix_error(e, &format_args!("'{found}'"))
            }
            Elements::Fields(s, _) => s.failed(e),
        }
    }
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
            Elements::Pair(p, _) => match p.next() {
                Some(part) => {
                    // the part's index: 0 while the other is left
                    let at = u64::from(p.len() == 0);
                    seed.deserialize(part).map(Some).map_err(|e| e.at_index(at))
                }
                None => Ok(None),
            },
            Elements::Bytes(b, _) => match b.next() {
                Some(&b) => seed
                    .deserialize(de::value::U8Deserializer::<Error>::new(b))
                    .map(Some),
                None => Ok(None),
            },
            Elements::Fields(s, _) => s.next_element_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        match self {
            Elements::Array(s) => s.size_hint(),
            Elements::Pair(p, _) => Some(p.len()),
            Elements::Bytes(b, _) => Some(b.len()),
            Elements::Fields(s, _) => s.size_hint(),
        }
    }
}
