//! `str.isprintable()` of Python 3.11 for non-ASCII characters.
//!
//! PLACEHOLDER: a small hand-written approximation. To be replaced by a table
//! generated from Python 3.11's `unicodedata` by `tools/gen_printable.py`.

/// Whether Python 3.11's `repr` leaves `c` unescaped (non-ASCII only).
pub(crate) fn is_printable(c: char) -> bool {
    let u = c as u32;
    !matches!(u,
        0x80..=0xa0 | 0xad | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x206f
        | 0x3000 | 0xd800..=0xf8ff | 0xfeff | 0xfff0..=0xfffb | 0xe0000..=0x10ffff)
}
