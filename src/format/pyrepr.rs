//! Python `repr()` of strings and bytes, exactly as CPython writes it.
//!
//! numpy writes field names and titles into the header with `repr`, so a
//! byte-identical header needs the same quote choice and the same escapes;
//! numpy prints `S` values as `repr(bytes)`.
//! Which non-ASCII characters `repr` escapes is `str.isprintable`: the general
//! categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs. Rust's `escape_debug` escapes
//! exactly those too (`core/src/unicode/printable.py`), so the table is std's
//! ([`is_printable`]). Both follow their own Unicode version, and numpy's
//! header bytes differ with it: a character assigned in Unicode 15 (U+1FAE8)
//! is escaped by Python 3.11 (Unicode 14), written as itself by Python 3.12 and
//! later and by this crate (`char::UNICODE_VERSION`: 16.0 on Rust 1.85).

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt::{self, Write};

/// Displays a string the way Python's `repr(str)` does (as numpy writes
/// field names into a header and prints `U` values).
///
/// ```
/// use npy_serde::PyStr;
/// assert_eq!(PyStr("it's").to_string(), r#""it's""#);
/// assert_eq!(PyStr("a\tb\u{7}é").to_string(), r"'a\tb\x07é'");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PyStr<'a>(pub &'a str);

/// Displays bytes the way Python's `repr(bytes)` does (as numpy prints `S`
/// values): `b'..'`, printable ASCII as itself, `\t \n \r \\` and the
/// quote escaped, anything else `\xNN`.
///
/// ```
/// use npy_serde::PyBytes;
/// assert_eq!(PyBytes(b"ab\x00\xff").to_string(), r"b'ab\x00\xff'");
/// assert_eq!(PyBytes(b"it's").to_string(), r#"b"it's""#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PyBytes<'a>(pub &'a [u8]);

impl fmt::Display for PyBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        repr(f, "b", self.0.iter().map(|&b| char::from(b)), false)
    }
}

impl fmt::Display for PyStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        repr(f, "", self.0.chars(), true)
    }
}

/// CPython's repr of the characters of a str (`unicode`) or of bytes (as
/// latin-1 chars): single quotes unless the text has `'` and no `"`;
/// printable ASCII (and for a str, printable non-ASCII) as itself.
fn repr(
    f: &mut fmt::Formatter<'_>,
    prefix: &str,
    text: impl Iterator<Item = char> + Clone,
    unicode: bool,
) -> fmt::Result {
    let has = |q| text.clone().any(|c| c == q);
    let quote = if has('\'') && !has('"') { '"' } else { '\'' };
    write!(f, "{prefix}{quote}")?;
    for c in text {
        match c {
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c == quote || c == '\\' => write!(f, "\\{c}")?,
            ' '..='~' => f.write_char(c)?,
            c if unicode && c > '\u{7f}' && is_printable(c) => f.write_char(c)?,
            c if c <= '\u{ff}' => write!(f, "\\x{:02x}", u32::from(c))?,
            c if c <= '\u{ffff}' => write!(f, "\\u{:04x}", u32::from(c))?,
            c => write!(f, "\\U{:08x}", u32::from(c))?,
        }
    }
    f.write_char(quote)
}

/// Whether Python's `str.isprintable` holds for a non-ASCII `c`: whether
/// `escape_debug` leaves it as it is. After a first character, so that a
/// combining mark (printable for Python) is not escaped as a string's start.
fn is_printable(c: char) -> bool {
    ['a', c].iter().collect::<String>().escape_debug().nth(1) == Some(c)
}

#[cfg(test)]
mod tests {
    use super::{PyBytes, PyStr, is_printable};

    #[test]
    fn printable_like_python() {
        // str.isprintable() of CPython 3.11; U+1FAE8, assigned in Unicode
        // 15, is printable from Python 3.12 on
        assert!(!is_printable('\u{80}'));
        assert!(!is_printable('\u{9f}'));
        assert!(!is_printable('\u{a0}'));
        assert!(is_printable('\u{a1}'));
        assert!(!is_printable('\u{ad}'));
        assert!(is_printable('\u{e9}'));
        assert!(is_printable('\u{301}'));
        assert!(!is_printable('\u{378}'));
        assert!(is_printable('\u{37e}'));
        assert!(!is_printable('\u{61c}'));
        assert!(!is_printable('\u{2000}'));
        assert!(!is_printable('\u{200b}'));
        assert!(!is_printable('\u{2028}'));
        assert!(!is_printable('\u{3000}'));
        assert!(is_printable('\u{4e00}'));
        assert!(!is_printable('\u{e000}'));
        assert!(!is_printable('\u{feff}'));
        assert!(is_printable('\u{fffd}'));
        assert!(is_printable('\u{1f600}'));
        assert!(is_printable('\u{1fae8}'));
        assert!(!is_printable('\u{e0001}'));
        assert!(!is_printable('\u{10ffff}'));
    }

    #[test]
    fn quotes_like_python() {
        assert_eq!(PyStr("a").to_string(), "'a'");
        assert_eq!(PyStr("it's").to_string(), "\"it's\"");
        assert_eq!(PyStr("both'\"q").to_string(), "'both\\'\"q'");
        assert_eq!(PyStr("a\\b\n\t").to_string(), "'a\\\\b\\n\\t'");
        assert_eq!(PyStr("\u{7}").to_string(), "'\\x07'");
        assert_eq!(PyStr("é").to_string(), "'é'");
        assert_eq!(PyStr("\u{a0}").to_string(), "'\\xa0'");
        assert_eq!(PyStr("\u{200b}").to_string(), "'\\u200b'");
        assert_eq!(PyStr("整形").to_string(), "'整形'");
    }

    #[test]
    fn bytes_like_python() {
        // repr() of these bytes in CPython 3.11
        assert_eq!(PyBytes(b"").to_string(), "b''");
        assert_eq!(PyBytes(b"a\xff\"'\\\n").to_string(), r#"b'a\xff"\'\\\n'"#);
        assert_eq!(PyBytes(b"it's").to_string(), r#"b"it's""#);
        assert_eq!(
            PyBytes(b"\x00\x7f\x80\t\r").to_string(),
            r"b'\x00\x7f\x80\t\r'"
        );
    }
}
