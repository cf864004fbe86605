//! A parser for the Python literals found in `.npy` headers.
//!
//! numpy reads the header with `ast.literal_eval`; we accept the same subset
//! of Python that appears in real headers: strings (with `u`/`r` prefixes,
//! escapes and implicit concatenation), decimal ints, `True`/`False`/`None`,
//! tuples, lists and dicts, with any whitespace, comments and trailing
//! commas. Anything else (names, calls, operators, floats, bytes) is refused.
//!
//! The parser is iterative (an explicit stack instead of recursion) and never
//! backtracks, so its running time is linear in the input and its stack use
//! constant. Nesting is limited *while* parsing: each open bracket counts one
//! level, and the error names the limit and `ReadOptions::max_depth`.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use crate::error::{Error, Result};
use crate::format::pyrepr::PyStr;

/// A parsed Python literal.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Str(String),
    /// A Python int; values outside `i128` are refused while parsing.
    Int(i128),
    Bool(bool),
    None,
    Tuple(Vec<Value>),
    List(Vec<Value>),
    Dict(Vec<(Value, Value)>),
}

impl Value {
    /// The Python type name, for messages (`expected a tuple, found list`).
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "str",
            Value::Int(_) => "int",
            Value::Bool(_) => "bool",
            Value::None => "None",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::Dict(_) => "dict",
        }
    }
}

/// How to parse: the depth limit, the Python-2 compatibility switch, and
/// the error a syntax error becomes (too deep a nesting is `Error::limit`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Config {
    /// Deepest bracket nesting allowed (the value of `ReadOptions::max_depth`).
    pub max_depth: usize,
    /// Outer bracket levels not counted against `max_depth` (1 for the
    /// header dict, so that the limit applies to the descr inside it).
    pub free_levels: usize,
    /// Accept the Python-2 long suffix `3L` (headers of version 1.0 and 2.0,
    /// as numpy's `_filter_header` does).
    pub allow_long_suffix: bool,
    /// Makes the error of a syntax error's message (`Error::descr` unless set).
    pub syntax: fn(String) -> Error,
}

impl Config {
    /// A config with the given depth limit, no free levels, no `L` suffix,
    /// syntax errors as `Error::descr`.
    pub(crate) fn new(max_depth: usize) -> Self {
        Config {
            max_depth,
            free_levels: 0,
            allow_long_suffix: false,
            syntax: Error::descr,
        }
    }
}

/// Parses one literal (the whole input; surrounding whitespace allowed).
pub(crate) fn parse(text: &str, config: Config) -> Result<Value> {
    let parser = Parser {
        text,
        pos: 0,
        config,
        in_brackets: false,
        seen_token: false,
    };
    match text.find('\0') {
        // CPython refuses source text with NUL characters, even inside strings.
        Some(i) => Err(parser.fail("null character", i, ": Python literals cannot contain NUL")),
        None => parser.run(),
    }
}

/// An open bracket waiting for its items, or the top level, which the end
/// of the input closes (there `1, 2` is a tuple, as in Python).
struct Frame {
    /// `)`, `]` or `}`; `None` for the top level.
    close: Option<u8>,
    /// The items so far; in a dict, keys and values alternate.
    items: Vec<Value>,
    /// Whether a comma followed an item: `(3)` and a lone `3` are just 3.
    comma: bool,
}

impl Frame {
    fn new(close: Option<u8>) -> Self {
        Frame {
            close,
            items: Vec::new(),
            comma: false,
        }
    }

    /// Whether the next item is a dict key (followed by `:`).
    fn wants_key(&self) -> bool {
        self.close == Some(b'}') && self.items.len() % 2 == 0
    }

    /// Whether the frame may end where a value may come: after its opening
    /// bracket or a comma, not after a dict key's `:` (nor before the first
    /// value at the top level).
    fn may_close(&self) -> bool {
        (self.close.is_some() || self.comma)
            && (self.close != Some(b'}') || self.items.len() % 2 == 0)
    }

    /// What may follow an item: a comma or the end of the frame.
    fn expected(&self) -> String {
        match self.close {
            Some(b) => format!("',' or '{}'", char::from(b)),
            None if self.comma => "',' or end of input".to_owned(),
            None => "end of input".to_owned(),
        }
    }

    fn into_value(mut self) -> Value {
        match self.close {
            Some(b']') => Value::List(self.items),
            Some(b'}') => {
                let mut items = self.items.into_iter();
                let pairs = std::iter::from_fn(|| Some((items.next()?, items.next()?)));
                Value::Dict(pairs.collect())
            }
            _ if !self.comma && self.items.len() == 1 => self.items.pop().unwrap_or(Value::None),
            _ => Value::Tuple(self.items),
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    /// Byte position; always on a char boundary.
    pos: usize,
    config: Config,
    /// Whether a bracket is open (outside brackets a newline ends the literal).
    in_brackets: bool,
    /// Whether the first token has been seen (blank lines before it are fine).
    seen_token: bool,
}

impl<'a> Parser<'a> {
    fn run(mut self) -> Result<Value> {
        let mut top = Frame::new(None);
        let mut stack: Vec<Frame> = Vec::new();
        // a completed value, to hand to the innermost frame
        let mut done = None;
        loop {
            self.in_brackets = !stack.is_empty();
            self.skip_ws()?;
            let c = self.peek();
            let frame = stack.last_mut().unwrap_or(&mut top);
            if let Some(value) = done.take() {
                let key = frame.wants_key();
                frame.items.push(value);
                if c == Some(if key { b':' } else { b',' }) {
                    frame.comma = true;
                    self.advance(1);
                    continue;
                }
                if key {
                    return Err(self.unexpected("':'"));
                }
                if c != frame.close {
                    return Err(self.unexpected(&frame.expected()));
                }
            } else if c != frame.close || !frame.may_close() {
                done = self.value_or_open(c, &mut stack)?;
                continue;
            }
            let Some(inner) = stack.pop() else {
                return Ok(top.into_value());
            };
            self.advance(1);
            done = Some(inner.into_value());
        }
    }

    /// Parses a scalar value at `c`, or opens a container (pushing a frame
    /// and returning `None`).
    fn value_or_open(&mut self, c: Option<u8>, stack: &mut Vec<Frame>) -> Result<Option<Value>> {
        self.seen_token = true;
        let close = match c {
            Some(b'(') => b')',
            Some(b'[') => b']',
            Some(b'{') => b'}',
            Some(b'\'' | b'"') => return self.strings().map(Some),
            Some(b'0'..=b'9' | b'-' | b'+') => return self.int().map(Some),
            Some(c) if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 => {
                return self.word().map(Some);
            }
            _ => return Err(self.unexpected("a value")),
        };
        self.check_depth(stack.len().saturating_add(1))?;
        self.advance(1);
        stack.push(Frame::new(Some(close)));
        Ok(None)
    }

    /// `True`, `False`, `None`, a prefixed string, or a refusal.
    fn word(&mut self) -> Result<Value> {
        let start = self.pos;
        let rest = self.text.get(start..).unwrap_or("");
        let len = rest
            .find(|ch: char| !(ch == '_' || ch.is_alphanumeric()))
            .unwrap_or(rest.len());
        let word = rest.get(..len).unwrap_or("");
        let next = rest.as_bytes().get(len).copied();
        if matches!(next, Some(b'\'' | b'"')) && len <= 2 {
            let lower = word.to_ascii_lowercase();
            if lower.contains('b') {
                return Err(self.bytes_literal(start));
            }
            if matches!(lower.as_str(), "u" | "r") {
                return self.strings();
            }
        }
        if len == 0 {
            return Err(self.unexpected("a value"));
        }
        self.advance(len);
        match word {
            "True" => Ok(Value::Bool(true)),
            "False" => Ok(Value::Bool(false)),
            "None" => Ok(Value::None),
            _ => {
                let call = self.rest().iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'(');
                let what = if call { "a function call" } else { "a name" };
                let why = format!(": {what} ({}) is not a Python literal", PyStr(word));
                Err(self.fail("malformed node or string", start, &why))
            }
        }
    }

    /// One or more adjacent string literals (Python concatenates them).
    fn strings(&mut self) -> Result<Value> {
        let mut out = String::new();
        loop {
            self.string(&mut out)?;
            self.skip_ws()?;
            let is_string = match self.rest() {
                [b'\'' | b'"', ..] => true,
                [p, b'\'' | b'"', ..] => b"uUrRbB".contains(p),
                [p, q, b'\'' | b'"', ..] => {
                    b"rRbB".contains(p) && b"rRbB".contains(q) && !p.eq_ignore_ascii_case(q)
                }
                _ => false,
            };
            if !is_string {
                return Ok(Value::Str(out));
            }
        }
    }

    /// One string literal, appended to `out`. Callers have seen its prefix
    /// (if any) and its opening quote.
    fn string(&mut self, out: &mut String) -> Result<()> {
        let start = self.pos;
        let rest = self.rest();
        let n = rest.iter().take_while(|c| b"uUrRbB".contains(c)).count();
        let prefix = rest.get(..n).unwrap_or(&[]);
        if prefix.iter().any(|c| c.eq_ignore_ascii_case(&b'b')) {
            return Err(self.bytes_literal(start));
        }
        let raw = prefix.iter().any(|c| c.eq_ignore_ascii_case(&b'r'));
        self.advance(n);
        let quote = self.peek().unwrap_or(b'\'');
        if self.rest().starts_with(&[quote; 3]) {
            return Err(self.fail("triple-quoted strings are not supported", self.pos, ""));
        }
        self.advance(1);
        loop {
            let rest = self.text.get(self.pos..).unwrap_or("");
            // Copy the run of ordinary characters in one go.
            let run = rest
                .bytes()
                .position(|b| b == quote || b == b'\\' || b == b'\n' || b == b'\r')
                .unwrap_or(rest.len());
            out.push_str(rest.get(..run).unwrap_or(""));
            self.advance(run);
            match self.peek() {
                None | Some(b'\n' | b'\r') => {
                    return Err(self.fail("unterminated string literal starting", start, ""));
                }
                // Raw strings keep the backslash; it still protects the
                // following character (a backslash-newline is kept as both).
                Some(b'\\') if raw => {
                    out.push('\\');
                    self.advance(1);
                    out.extend(self.next_char());
                }
                Some(b'\\') => self.escape(out)?,
                Some(_) => {
                    self.advance(1);
                    return Ok(());
                }
            }
        }
    }

    /// One escape sequence after a backslash (at `self.pos`).
    fn escape(&mut self, out: &mut String) -> Result<()> {
        let start = self.pos;
        self.advance(1);
        let Some(c) = self.next_char() else {
            return Err(self.fail("unterminated string literal", start, ""));
        };
        let code = match c {
            // a backslash before a line break (`\r\n` too) joins the lines
            '\n' | '\r' => {
                self.advance(usize::from(c == '\r' && self.peek() == Some(b'\n')));
                return Ok(());
            }
            '\\' | '\'' | '"' => u32::from(c),
            'a' => 0x07,
            'b' => 0x08,
            'f' => 0x0c,
            'n' => 0x0a,
            'r' => 0x0d,
            't' => 0x09,
            'v' => 0x0b,
            '0'..='7' => {
                // one to three octal digits, `c` the first of them
                self.pos = start.saturating_add(1);
                self.code_digits(8, 1, 3, start)?
            }
            'x' => self.code_digits(16, 2, 2, start)?,
            'u' => self.code_digits(16, 4, 4, start)?,
            'U' => self.code_digits(16, 8, 8, start)?,
            'N' => {
                let what = "named unicode escapes (\\N{...}) are not supported";
                return Err(self.fail(what, start, ""));
            }
            other => {
                // Python keeps unknown escapes as they are (with a warning).
                out.push('\\');
                out.push(other);
                return Ok(());
            }
        };
        let ch = char::from_u32(code).ok_or_else(|| {
            let why = format!(
                " is not a unicode scalar value (U+{code:04X}); surrogates and values past \
                 U+10FFFF cannot be represented"
            );
            self.fail("escape", start, &why)
        })?;
        out.push(ch);
        Ok(())
    }

    /// `min` to `max` digits of base `radix` (8 or 16), the code point of the
    /// escape at `start`; fewer than `min` is a truncated (hex) escape.
    fn code_digits(&mut self, radix: u32, min: usize, max: usize, start: usize) -> Result<u32> {
        let mut v = 0u32;
        for n in 0..max {
            match self.peek().and_then(|b| char::from(b).to_digit(radix)) {
                Some(d) => v = (v << radix.trailing_zeros()) | d,
                None if n >= min => break,
                None => {
                    let why = format!(": expected {max} hex digits");
                    return Err(self.fail("truncated escape", start, &why));
                }
            }
            self.advance(1);
        }
        Ok(v)
    }

    /// A decimal int with optional sign, underscores between digits and,
    /// when allowed, the Python-2 `L` suffix.
    fn int(&mut self) -> Result<Value> {
        let start = self.pos;
        let sign = self.peek().filter(|c| matches!(c, b'-' | b'+'));
        // Python allows parentheses around the number after a sign: `-(3)`.
        let outer_brackets = self.in_brackets;
        let mut parens = 0usize;
        if sign.is_some() {
            self.advance(1);
            self.skip_ws()?;
            while self.peek() == Some(b'(') {
                parens = parens.saturating_add(1);
                self.check_depth(parens)?;
                self.advance(1);
                self.in_brackets = true;
                self.skip_ws()?;
            }
        }
        let digits_start = self.pos;
        let mut digits = String::from(if sign == Some(b'-') { "-" } else { "" });
        loop {
            match self.rest() {
                [d @ b'0'..=b'9', ..] => digits.push(char::from(*d)),
                [b'_', b'0'..=b'9', ..] if self.pos > digits_start => {}
                _ => break,
            }
            self.advance(1);
        }
        let body = digits.trim_start_matches('-');
        if body.is_empty() {
            // (int() is only called at a digit or a sign)
            let why = ": a sign must be followed by a number";
            return Err(self.fail("malformed node or string", start, why));
        }
        if body.starts_with('0') && body.bytes().any(|d| d != b'0') {
            let what = "leading zeros in decimal integer literals are not permitted";
            return Err(self.fail(what, digits_start, ""));
        }
        let value: i128 = digits
            .parse()
            .map_err(|_| self.fail("integer too large", start, ""))?;
        if matches!(self.peek(), Some(b'.' | b'e' | b'E' | b'j' | b'J')) {
            return Err(self.fail("float and complex literals are not supported", start, ""));
        }
        if body == "0" && matches!(self.peek(), Some(b'x' | b'X' | b'o' | b'O' | b'b' | b'B')) {
            return Err(self.fail("only decimal integers are supported", start, ""));
        }
        // numpy's _filter_header drops a NAME token `L` right after a number.
        let allowed = self.config.allow_long_suffix;
        let mut p = self.pos;
        while allowed && matches!(self.text.as_bytes().get(p), Some(b' ' | b'\t' | b'\x0c')) {
            p = p.saturating_add(1);
        }
        if self.text.as_bytes().get(p) == Some(&b'L') {
            if !allowed {
                let why = " is only accepted in format versions 1.0 and 2.0";
                return Err(self.fail("the Python-2 long suffix 'L'", p, why));
            }
            let past_l = p.saturating_add(1);
            let after = self.text.get(past_l..).and_then(|s| s.chars().next());
            if !after.is_some_and(|ch| ch == '_' || ch.is_alphanumeric()) {
                self.pos = past_l;
            }
        }
        for still_open in (0..parens).rev() {
            self.skip_ws()?;
            if self.peek() != Some(b')') {
                return Err(self.unexpected("')'"));
            }
            self.advance(1);
            self.in_brackets = outer_brackets || still_open > 0;
        }
        Ok(Value::Int(value))
    }

    /// Skips whitespace, comments and line continuations. Outside brackets
    /// a line break after the first token ends the literal, as in Python.
    fn skip_ws(&mut self) -> Result<()> {
        let mut ended = false;
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\x0c') => self.advance(1),
                Some(b'\n' | b'\r') => {
                    ended |= self.seen_token && !self.in_brackets;
                    self.advance(1);
                }
                Some(b'#') => {
                    while !matches!(self.peek(), None | Some(b'\n' | b'\r')) {
                        self.advance(1);
                    }
                }
                Some(b'\\') if matches!(self.rest().get(1), Some(b'\n' | b'\r')) => {
                    self.advance(2);
                }
                Some(_) if ended => {
                    let why = " (outside brackets a line break ends the literal)";
                    return Err(self.fail("unexpected text after a line break", self.pos, why));
                }
                _ => return Ok(()),
            }
        }
    }

    /// The bytes from the current one on.
    fn rest(&self) -> &'a [u8] {
        self.text.as_bytes().get(self.pos..).unwrap_or(&[])
    }

    fn peek(&self) -> Option<u8> {
        self.rest().first().copied()
    }

    /// Moves `n` bytes on. Callers move only past bytes they have seen, so
    /// `pos` stays within the text and the saturation never triggers.
    fn advance(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n);
    }

    fn next_char(&mut self) -> Option<char> {
        let ch = self.text.get(self.pos..)?.chars().next()?;
        self.advance(ch.len_utf8());
        Some(ch)
    }

    /// Refuses `depth` bracket levels (at the current position) when they
    /// are more than `max_depth` allows.
    fn check_depth(&self, depth: usize) -> Result<()> {
        let max_depth = self.config.max_depth;
        if depth > max_depth.saturating_add(self.config.free_levels) {
            return Err(Error::limit(format!(
                "brackets nested deeper than max_depth {max_depth} at character {}; raise the \
                 limit with ReadOptions::max_depth",
                self.char_offset(self.pos)
            )));
        }
        Ok(())
    }

    /// Refuses a bytes literal (prefix `b`) that starts at `start`.
    fn bytes_literal(&self, start: usize) -> Error {
        let why = ": field names and type strings must be str";
        self.fail("bytes literals are not supported", start, why)
    }

    /// Character (not byte) offset of a byte position, for messages.
    fn char_offset(&self, pos: usize) -> usize {
        self.text.get(..pos).map_or(pos, |s| s.chars().count())
    }

    /// A syntax error, `{what} at character N{why}`, N the character offset of
    /// byte position `at`.
    fn fail(&self, what: &str, at: usize, why: &str) -> Error {
        (self.config.syntax)(format!("{what} at character {}{why}", self.char_offset(at)))
    }

    /// `expected X at character N, found 'c'`.
    fn unexpected(&self, expected: &str) -> Error {
        let next = self.text.get(self.pos..).and_then(|s| s.chars().next());
        let found = match next {
            None => "end of input".to_owned(),
            Some(c) if "+-*/%@&|^~<>=!.".contains(c) => {
                format!("'{c}' (operators and attribute access are not Python literals)")
            }
            Some(c) => PyStr(c.encode_utf8(&mut [0; 4])).to_string(),
        };
        let why = format!(", found {found}");
        self.fail(&format!("expected {expected}"), self.pos, &why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use Value::*;
    use std::fmt;

    fn p(text: &str) -> Value {
        parse(text, Config::new(64)).unwrap()
    }
    fn e(text: &str) -> String {
        match parse(text, Config::new(64)).unwrap_err().kind() {
            ErrorKind::Descr(m) | ErrorKind::Limit(m) => m.clone(),
            other => panic!("{other:?}"),
        }
    }
    fn s(x: &str) -> Value {
        Str(x.to_owned())
    }

    impl fmt::Display for Value {
        /// Python's `repr` of the value (`(3,)`, `{'a': [True]}`), to compare
        /// with `ast.literal_eval`.
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            fn seq(f: &mut fmt::Formatter<'_>, items: &[Value]) -> fmt::Result {
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                Ok(())
            }
            match self {
                Value::Str(s) => write!(f, "{}", PyStr(s)),
                Value::Int(n) => write!(f, "{n}"),
                Value::Bool(true) => f.write_str("True"),
                Value::Bool(false) => f.write_str("False"),
                Value::None => f.write_str("None"),
                Value::Tuple(items) => {
                    f.write_str("(")?;
                    seq(f, items)?;
                    if items.len() == 1 {
                        f.write_str(",")?;
                    }
                    f.write_str(")")
                }
                Value::List(items) => {
                    f.write_str("[")?;
                    seq(f, items)?;
                    f.write_str("]")
                }
                Value::Dict(items) => {
                    f.write_str("{")?;
                    for (i, (k, v)) in items.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{k}: {v}")?;
                    }
                    f.write_str("}")
                }
            }
        }
    }

    #[test]
    fn scalars() {
        assert_eq!(p("'abc'"), s("abc"));
        assert_eq!(p("\"it's\""), s("it's"));
        assert_eq!(p("u'x' U\"y\""), s("xy"));
        assert_eq!(p("r'\\q\\''"), s("\\q\\'"));
        assert_eq!(p(" 42 "), Int(42));
        assert_eq!(p("-7"), Int(-7));
        assert_eq!(p("- 7"), Int(-7));
        assert_eq!(p("-((7\n))"), Int(-7));
        assert!(e("-((7,))").contains("expected ')'"));
        assert_eq!(p("+1_000"), Int(1000));
        assert_eq!(p("00"), Int(0));
        assert_eq!(p("True"), Bool(true));
        assert_eq!(p("False"), Bool(false));
        assert_eq!(p("None"), None);
    }

    #[test]
    fn escapes() {
        assert_eq!(
            p(r#"'\\ \' \" \n \r \t \a \b \f \v \0 \101 \777 \x41 \u00e9 \U0001F600 \q'"#),
            s("\\ ' \" \n \r \t \u{7} \u{8} \u{c} \u{b} \0 A \u{1ff} A é 😀 \\q")
        );
        assert_eq!(p("'a\\\nb'"), s("ab"));
        // octal escapes stop after three digits or at the first non-octal digit
        assert_eq!(p(r"'\18 \0777 \8'"), s("\u{1}8 ?7 \\8"));
        assert_eq!(p("'整形'"), s("整形"));
    }

    #[test]
    fn containers() {
        assert_eq!(p("()"), Tuple(vec![]));
        assert_eq!(p("(3,)"), Tuple(vec![Int(3)]));
        assert_eq!(p("(3)"), Int(3));
        assert_eq!(p("(1, 2)"), Tuple(vec![Int(1), Int(2)]));
        assert_eq!(p("(1, 2,)"), Tuple(vec![Int(1), Int(2)]));
        assert_eq!(p("1, 2"), Tuple(vec![Int(1), Int(2)]));
        assert_eq!(p("[1],"), Tuple(vec![List(vec![Int(1)])]));
        assert_eq!(p("[]"), List(vec![]));
        assert_eq!(p("[1,\n 2,\n]"), List(vec![Int(1), Int(2)]));
        assert_eq!(p("{}"), Dict(vec![]));
        assert_eq!(
            p("{'a': (1,), 'b': [True] # comment\n}"),
            Dict(vec![
                (s("a"), Tuple(vec![Int(1)])),
                (s("b"), List(vec![Bool(true)]))
            ])
        );
    }

    #[test]
    fn long_suffix_only_when_allowed() {
        let cfg = Config {
            allow_long_suffix: true,
            ..Config::new(64)
        };
        assert_eq!(
            parse("(3L, 4 L)", cfg).unwrap(),
            Tuple(vec![Int(3), Int(4)])
        );
        assert!(parse("(3L,)", Config::new(64)).is_err());
        assert!(parse("(3Lx,)", cfg).is_err());
    }

    #[test]
    fn errors_name_the_position() {
        assert_eq!(
            e("(1, 2 x)"),
            "expected ',' or ')' at character 6, found 'x'"
        );
        assert_eq!(
            e("[1"),
            "expected ',' or ']' at character 2, found end of input"
        );
        assert_eq!(e("{'a' 1}"), "expected ':' at character 5, found '1'");
        assert_eq!(e("1 2"), "expected end of input at character 2, found '2'");
        assert_eq!(
            e("1, 2 3"),
            "expected ',' or end of input at character 5, found '3'"
        );
        assert!(e("b'x'").contains("bytes literals are not supported"));
        assert!(e("__import__('os')").contains("a function call"));
        assert!(e("foo").contains("not a Python literal"));
        assert!(e("1.5").contains("float"));
        assert!(e("0x10").contains("decimal"));
        assert!(e("01").contains("leading zeros"));
        assert!(e("'abc").contains("unterminated"));
        assert!(e("'a\nb'").contains("unterminated"));
        assert!(e("'\\ud800'").contains("surrogates"));
        assert!(e("'\\x4'").contains("hex digits"));
        assert_eq!(
            e("1+2"),
            "expected end of input at character 1, found '+' (operators and attribute access \
             are not Python literals)"
        );
        assert!(e("np.int32").contains("a name ('np')"));
        assert_eq!(
            e("99999999999999999999999999999999999999999"),
            "integer too large at character 0"
        );
        assert_eq!(e(""), "expected a value at character 0, found end of input");
        // offsets count characters, not bytes
        assert_eq!(
            e("('é' x)"),
            "expected ',' or ')' at character 5, found 'x'"
        );
    }

    #[test]
    fn depth_is_limited_while_parsing() {
        let ok = "[".repeat(64) + &"]".repeat(64);
        assert!(parse(&ok, Config::new(64)).is_ok());
        let deep = "[".repeat(65) + &"]".repeat(65);
        let err = parse(&deep, Config::new(64)).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Limit(_)));
        assert!(err.to_string().contains("max_depth 64"));
        assert!(err.to_string().contains("ReadOptions::max_depth"));
        let free = Config {
            free_levels: 1,
            ..Config::new(64)
        };
        assert!(parse(&deep, free).is_ok());
    }

    /// Differential test against CPython 3.11's `ast.literal_eval`
    /// (tests/fixtures/literals.txt, generated by tools/gen_literal_fixtures.py).
    #[test]
    fn agrees_with_python_literal_eval() {
        let cases = include_str!("../../tests/fixtures/literals.txt");
        let mut n = 0;
        for line in cases.lines() {
            let (text, expected): (String, Option<String>) = serde_json::from_str(line).unwrap();
            let got = parse(&text, Config::new(64));
            match (&got, &expected) {
                (Ok(v), Some(repr)) => assert_eq!(&v.to_string(), repr, "{text:?}"),
                (Err(_), Option::None) => {}
                _ => panic!("{text:?}: python {expected:?}, we {got:?}"),
            }
            n += 1;
        }
        assert!(n >= 1000);
    }

    #[test]
    fn huge_nesting_fails_fast() {
        let text = "[".repeat(100_000);
        let t = std::time::Instant::now();
        assert!(parse(&text, Config::new(64)).is_err());
        // even an unlimited depth cannot overflow the stack: the parser is iterative
        let err = parse(&text, Config::new(usize::MAX)).unwrap_err();
        assert!(err.to_string().contains("end of input"));
        assert!(t.elapsed() < std::time::Duration::from_secs(5));
    }
}
