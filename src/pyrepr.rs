//! Python `repr()` of strings, exactly as CPython 3.11 writes it.
//!
//! numpy writes field names and titles into the header with `repr`, so a
//! byte-identical header needs the same quote choice and the same escapes.
//! Which characters `repr` escapes depends on the Unicode tables of the Python
//! version (`str.isprintable`); we pin Python 3.11, the version our fixtures
//! were made with (see `printable.rs`).

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;

/// Displays a string the way Python's `repr(str)` does.
pub(crate) struct PyStr<'a>(pub &'a str);

impl fmt::Display for PyStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        let s = self.0;
        // CPython: use single quotes unless the text has ' and no ".
        let quote = if s.contains('\'') && !s.contains('"') {
            '"'
        } else {
            '\''
        };
        f.write_char(quote)?;
        for c in s.chars() {
            match c {
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if c == quote => {
                    f.write_char('\\')?;
                    f.write_char(c)?;
                }
                c if (' '..='~').contains(&c) => f.write_char(c)?,
                c if (c as u32) < 0x80 => write!(f, "\\x{:02x}", c as u32)?,
                c if crate::printable::is_printable(c) => f.write_char(c)?,
                c if (c as u32) <= 0xff => write!(f, "\\x{:02x}", c as u32)?,
                c if (c as u32) <= 0xffff => write!(f, "\\u{:04x}", c as u32)?,
                c => write!(f, "\\U{:08x}", c as u32)?,
            }
        }
        f.write_char(quote)
    }
}

#[cfg(test)]
mod tests {
    use super::PyStr;

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
}
