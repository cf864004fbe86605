//! A file's 1-d array of big-endian plain numbers (`'>f8'`) read as a
//! serde sequence (`Vec<f64>`) at the little-endian speed: the data is
//! byte-swapped a block at a time into a buffer of the numbers' own
//! little-endian bytes (one loop per block, which the compiler turns into
//! vector shuffles), and each element's numeric method of exactly the
//! file's type is one load from that buffer, as the little-endian fast
//! path ([`super::plan::Fast`]) is. Every other method (another type, a
//! conversion, `deserialize_any`) is the ordinary element over the file's
//! own bytes, so values and messages are exactly those of the
//! element-by-element path.

use std::num::NonZeroUsize;

use serde::de::{self, Visitor};

use super::array::{at_position, run_error, run_too_few};
use super::element::ElementDe;
use super::plan::{Kind, Plan};
use super::{Cfg, Copied, SIZE_HINT_BYTES, Src, at_least_one};
use crate::dtype::{ByteOrder, Plain, Scalar};
use crate::error::{Error, Result};

/// Bytes swapped per block: whole elements, small enough to stay in the
/// first-level cache between the swap and the loads.
const BLOCK: usize = 16 * 1024;

/// The fast tag of a big-endian plain scalar's little-endian twin (`'>f8'`:
/// `F64`), when `plan` is one; `None` for everything else.
#[inline]
pub(crate) fn swapped_tag(plan: &Plan) -> Option<Plain> {
    match &plan.kind {
        Kind::Scalar(s) if s.order() == ByteOrder::Big => {
            Scalar::new(s.ty(), ByteOrder::Little).plain()
        }
        _ => None,
    }
}

/// Visits the scalars of `base` (big-endian, plain as `tag`, nonzero size)
/// laid out back to back in exactly `bytes`, as `run_seq` does for
/// little-endian ones: the same positions and messages.
pub(crate) fn swapped_run<'de, B: Src<'de>, V: Visitor<'de>>(
    base: &Plan,
    tag: Plain,
    bytes: B,
    cfg: Cfg,
    top: bool,
    visitor: V,
) -> Result<V::Value> {
    let size = at_least_one(base.size);
    let mut seq = SwappedSeq {
        base,
        tag,
        size,
        rest: bytes,
        block: bytes.range(0, 0)?,
        swapped: Vec::new(),
        at: 0,
        next: 0,
        cfg,
        top,
    };
    match visitor.visit_seq(&mut seq) {
        Ok(v) if seq.rest.len() == 0 && seq.block.len() == 0 => Ok(v),
        Ok(_) => Err(run_too_few(
            base,
            top,
            bytes.len(),
            seq.rest.len().saturating_add(seq.block.len()),
        )),
        Err(e) => Err(run_error(e, base, top, bytes.len())),
    }
}

struct SwappedSeq<'a, B> {
    base: &'a Plan,
    tag: Plain,
    size: NonZeroUsize,
    /// The file's bytes not yet swapped.
    rest: B,
    /// The file's bytes of the current block not yet handed out.
    block: B,
    /// The current block swapped, and the offset of its next element.
    swapped: Vec<u8>,
    at: usize,
    /// The index of the next element, for messages.
    next: usize,
    cfg: Cfg,
    top: bool,
}

impl<'de, B: Src<'de>> SwappedSeq<'_, B> {
    /// Swaps the next block into `swapped`; `false` when none is left.
    /// Out of line: once per block, so the element loop stays small.
    #[inline(never)]
    fn refill(&mut self) -> Result<bool> {
        let take = self
            .rest
            .len()
            .min((BLOCK / self.size).saturating_mul(self.size.get()));
        if take == 0 {
            return Ok(false);
        }
        let (block, rest) = self.rest.split(take)?;
        (self.block, self.rest) = (block, rest);
        self.swapped.clear();
        self.swapped.extend_from_slice(block.slice());
        match self.size.get() {
            2 => reverse_each::<2>(&mut self.swapped),
            4 => reverse_each::<4>(&mut self.swapped),
            8 => reverse_each::<8>(&mut self.swapped),
            n => self.swapped.chunks_exact_mut(n).for_each(<[u8]>::reverse),
        }
        self.at = 0;
        Ok(true)
    }
}

/// Reverses the bytes of each `N`-byte element in place.
#[inline]
fn reverse_each<const N: usize>(bytes: &mut [u8]) {
    bytes.chunks_exact_mut(N).for_each(<[u8]>::reverse);
}

impl<'de, B: Src<'de>> de::SeqAccess<'de> for SwappedSeq<'_, B> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let (own, block) = match self.block.split_checked(self.size.get()) {
            Some(parts) => parts,
            None => {
                // the block holds whole elements: it is used up
                if !self.refill()? {
                    return Ok(None);
                }
                self.block.split(self.size.get())?
            }
        };
        self.block = block;
        let at = self.at;
        self.at = at.saturating_add(self.size.get());
        let i = self.next;
        self.next = i.saturating_add(1);
        let de = Swapped {
            native: self.swapped.get(at..).unwrap_or(&[]),
            tag: self.tag,
            plan: self.base,
            cfg: self.cfg,
            elem: ElementDe::with_fast(self.base, None, own, self.cfg),
        };
        seed.deserialize(de)
            .map(Some)
            .map_err(|e| at_position(e, self.top, i))
    }

    fn size_hint(&self) -> Option<usize> {
        let left = self.rest.len().saturating_add(self.block.len()) / self.size;
        Some(left.min(SIZE_HINT_BYTES / self.size))
    }
}

/// One element: the file type's own numeric method is the little-endian
/// fast path over the swapped bytes (with the file's plan, for messages);
/// every other method is the ordinary element over the file's bytes.
struct Swapped<'a, B> {
    /// The element's little-endian bytes first.
    native: &'a [u8],
    tag: Plain,
    plan: &'a Plan,
    cfg: Cfg,
    elem: ElementDe<'a, B>,
}

macro_rules! native {
    ($($m:ident $tag:ident;)*) => {$(
        #[inline]
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if self.tag == Plain::$tag {
                // the tag matches, so the fast path takes it (the bytes
                // hold a whole element)
                return ElementDe::with_fast(self.plan, Some(self.tag), Copied(self.native), self.cfg)
                    .$m(visitor);
            }
            self.elem.$m(visitor)
        }
    )*};
}

impl<'de, B: Src<'de>> de::Deserializer<'de> for Swapped<'_, B> {
    type Error = Error;

    native! {
        deserialize_i16 I16;
        deserialize_i32 I32;
        deserialize_i64 I64;
        deserialize_u16 U16;
        deserialize_u32 U32;
        deserialize_u64 U64;
        deserialize_f32 F32;
        deserialize_f64 F64;
    }

    de_methods!(forward(elem)
        deserialize_any deserialize_bool deserialize_i8 deserialize_u8 deserialize_i128
        deserialize_u128 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_option deserialize_unit
        deserialize_unit_struct deserialize_newtype_struct deserialize_seq deserialize_tuple
        deserialize_tuple_struct deserialize_map deserialize_struct deserialize_enum
        deserialize_identifier deserialize_ignored_any);
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;

    use super::BLOCK;
    use crate::dtype::{ByteOrder, Dtype, Scalar, ScalarType};

    /// `Ok(values)` or `Err(message)`.
    fn outcome<T: std::fmt::Debug>(r: crate::Result<T>) -> String {
        match r {
            Ok(v) => format!("Ok({v:?})"),
            Err(e) => format!("Err({e})"),
        }
    }

    /// A 1-d file of `n` elements of `s`, element `i` holding pattern
    /// bits `i * 0x0101_0101_0101_0101 + 3` (truncated to the width).
    fn file(s: Scalar, n: usize) -> Vec<u8> {
        let header = crate::Header::new(Dtype::Scalar(s), false, vec![n as u64]);
        let (mut file, _) = header.encode(None).unwrap();
        let size = s.itemsize();
        for i in 0..n as u64 {
            let le = i
                .wrapping_mul(0x0101_0101_0101_0101)
                .wrapping_add(3)
                .to_le_bytes();
            let mut v = le[..size].to_vec();
            if s.order() == ByteOrder::Big {
                v.reverse();
            }
            file.extend_from_slice(&v);
        }
        file
    }

    /// `from_slice` (the swapped blocks for a big-endian file) against
    /// `from_reader` and `NpyReader` (element by element).
    fn agree<T: DeserializeOwned + std::fmt::Debug>(file: &[u8]) -> String {
        let sliced = outcome(crate::from_slice::<Vec<T>>(file));
        let streamed = outcome(crate::from_reader::<Vec<T>>(file));
        let mut reader = crate::NpyReader::new(file).unwrap();
        let rows = outcome(reader.deserialize::<T>().collect::<crate::Result<Vec<T>>>());
        assert_eq!(sliced, streamed, "{}", std::any::type_name::<T>());
        assert_eq!(sliced, rows, "{}", std::any::type_name::<T>());
        sliced
    }

    macro_rules! targets {
        ($file:expr; $($t:ty),*) => {$( agree::<$t>($file); )*};
    }

    #[test]
    fn swapped_blocks_read_as_elements_do() {
        let types = [
            ScalarType::Int(2),
            ScalarType::Int(4),
            ScalarType::Int(8),
            ScalarType::UInt(2),
            ScalarType::UInt(4),
            ScalarType::UInt(8),
            ScalarType::Float(4),
            ScalarType::Float(8),
        ];
        for ty in types {
            let size = ty.itemsize().unwrap();
            let per_block = BLOCK / size;
            for n in [
                0,
                1,
                5,
                per_block - 1,
                per_block,
                per_block + 1,
                2 * per_block + 7,
            ] {
                let be = file(Scalar::new(ty, ByteOrder::Big), n);
                let le = file(Scalar::new(ty, ByteOrder::Little), n);
                // the values of the little-endian file, for the file's own type
                macro_rules! same_values {
                    ($($t:ty),*) => {$(
                        if let (Ok(a), Ok(b)) = (
                            crate::from_slice::<Vec<$t>>(&be),
                            crate::from_slice::<Vec<$t>>(&le),
                        ) {
                            let bits = |v: &Vec<$t>| format!("{:?}", v.iter().map(|x| x.to_le_bytes()).collect::<Vec<_>>());
                            assert_eq!(bits(&a), bits(&b), "{ty:?} n={n}");
                        }
                    )*};
                }
                same_values!(i16, i32, i64, u16, u32, u64, f32, f64);
                // every target, exactly as the element-by-element paths
                targets!(&be; i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, i128, bool,
                    String, serde_json::Value, Option<f64>, (u16, i16));
            }
        }
    }

    #[test]
    fn positions_and_lengths_past_the_first_block() {
        let s = Scalar::new(ScalarType::Int(8), ByteOrder::Big);
        let n = 3 * BLOCK / 8 + 2;
        let mut values: Vec<i64> = (0..n as i64).map(|i| i % 100).collect();
        values[BLOCK / 8 + 1] = 1000;
        let be = crate::WriteOptions::new()
            .dtype(Dtype::Scalar(s))
            .to_vec(&values)
            .unwrap();
        assert_eq!(crate::from_slice::<Vec<i64>>(&be).unwrap(), values);
        let err = agree::<u8>(&be);
        assert_eq!(
            err,
            format!(
                "Err(record {}: expected u8, found integer `1000` in '>i8')",
                BLOCK / 8 + 1
            )
        );
        // a type that takes fewer or more elements than the file holds:
        // the messages of the little-endian file, with its dtype
        let be3 = crate::WriteOptions::new()
            .dtype(">i4".parse().unwrap())
            .to_vec(&[1i32, 2, 3])
            .unwrap();
        agree::<[i32; 2]>(&be3);
        assert_eq!(
            outcome(crate::from_slice::<[i32; 2]>(&be3)),
            outcome(crate::from_slice::<[i32; 2]>(
                &crate::to_vec(&[1i32, 2, 3]).unwrap()
            ))
            .replace("'<i4'", "'>i4'")
        );
        assert_eq!(
            outcome(crate::from_slice::<[i32; 4]>(&be3)),
            outcome(crate::from_slice::<[i32; 4]>(
                &crate::to_vec(&[1i32, 2, 3]).unwrap()
            ))
        );
        assert_eq!(crate::from_slice::<[i32; 3]>(&be3).unwrap(), [1, 2, 3]);
    }
}
