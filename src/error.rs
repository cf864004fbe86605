//! The crate's one error type.
//!
//! Errors are created where the problem is found, without knowing where in the
//! file that is; the position (npz member, record index, field path) is attached
//! while the error travels back up through the serializer or deserializer, the
//! way serde_json attaches line and column late. This keeps the hot path free of
//! bookkeeping: a path costs something only once an error exists.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;

use crate::format::pyrepr::PyStr;

/// `Result<T, npy_serde::Error>`.
///
/// ```
/// fn count(bytes: &[u8]) -> npy_serde::Result<usize> {
///     Ok(npy_serde::from_slice::<Vec<u8>>(bytes)?.len())
/// }
/// assert_eq!(count(&npy_serde::to_vec(&[1u8, 2, 3]).unwrap()).unwrap(), 3);
/// assert!(count(b"garbage").is_err());
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while writing or reading `.npy` and `.npz` data.
///
/// The message says where (npz member, record index, field path such as
/// `record 3, field pos[1]`), what was expected and what was found, using
/// numpy's vocabulary (`'<f8'`, `'|S5'`).
///
/// ```
/// let err = npy_serde::from_slice::<Vec<f64>>(b"not an npy file").unwrap_err();
/// assert!(err.to_string().contains("magic"));
/// ```
pub struct Error(Box<ErrorImpl>);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.0.path.is_empty() {
            write_path(f, self.0.path.iter().rev())?;
            f.write_str(": ")?;
        }
        write!(f, "{}", self.0.kind)
    }
}

/// The source of an I/O error that says which operation on which file
/// failed is the OS error itself.
///
/// ```
/// use std::error::Error as _;
/// let err = npy_serde::from_path::<u8>("/no/such/dir/x.npy").unwrap_err();
/// assert!(err.to_string().starts_with("cannot open /no/such/dir/x.npy: "), "{err}");
/// let os = err.source().unwrap().downcast_ref::<std::io::Error>().unwrap();
/// assert_eq!(os.kind(), std::io::ErrorKind::NotFound);
/// ```
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.0.kind)
    }
}

struct ErrorImpl {
    kind: ErrorKind,
    /// Innermost segment first: segments are pushed while the error unwinds.
    path: Vec<Segment>,
    /// A hint the error waits for from a caller that knows more.
    pending: Pending,
}

/// What an error can still be told by a caller up the stack.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pending {
    None,
    /// A serde `missing field`: what the record or archive has
    /// ([`Error::listing_what_is_there`]).
    MissingField,
    /// A value wider than its `U`/`S` field: how to give wider fields
    /// ([`Error::with_width_hint`]).
    Width,
    /// Empty sequences without an element type: in an npz struct, what to
    /// change in the field's type ([`Error::with_field_type_hint`]).
    NoElementType,
}

/// What kind of error this is. The message of each variant is complete
/// without the position; [`Error`]'s `Display` adds the position in front.
///
/// ```
/// use npy_serde::ErrorKind;
/// let bytes = npy_serde::to_vec(&[1.5f64]).unwrap();
/// let err = npy_serde::from_slice::<Vec<String>>(&bytes).unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::Mismatch(_)));
/// let err = npy_serde::from_reader::<Vec<u8>>(std::io::empty()).unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::Header(_)), "{err}");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The underlying reader or writer failed.
    Io(std::io::Error),
    /// The zip container of an `.npz` archive is damaged or unsupported
    /// (with the `npz` feature, on by default).
    #[cfg(feature = "npz")]
    Zip(zip::result::ZipError),
    /// The magic string, version, header length or header dictionary is wrong.
    Header(String),
    /// The `descr` (dtype description) cannot be understood.
    Descr(String),
    /// The file or value uses something this crate deliberately does not
    /// support (pickled objects, long doubles, `i128`, ...).
    Unsupported(String),
    /// The data section is shorter or longer than the header promises.
    Data(String),
    /// A value does not fit the dtype, or the dtype does not fit the type.
    Mismatch(String),
    /// The values cannot be laid out as one numpy array (ragged lengths,
    /// records of different layout, no dtype for an empty sequence).
    Schema(String),
    /// A configured safety limit was reached; the message names the option
    /// that raises it.
    Limit(String),
    /// A message from serde (a derived `Deserialize` or `Serialize`).
    Message(String),
}

// Written out rather than derived: one proc-macro crate (and its support
// crate) fewer in every user's build.
impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(e) => fmt::Display::fmt(e, f),
            #[cfg(feature = "npz")]
            ErrorKind::Zip(e) => fmt::Display::fmt(e, f),
            ErrorKind::Header(m) => write!(f, "invalid header: {m}"),
            ErrorKind::Descr(m) => write!(f, "invalid descr: {m}"),
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
            ErrorKind::Limit(m) => write!(f, "limit exceeded: {m}"),
            ErrorKind::Data(m)
            | ErrorKind::Mismatch(m)
            | ErrorKind::Schema(m)
            | ErrorKind::Message(m) => f.write_str(m),
        }
    }
}

/// The I/O and zip errors are transparent: their own source is the
/// source.
impl std::error::Error for ErrorKind {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ErrorKind::Io(e) => std::error::Error::source(e),
            #[cfg(feature = "npz")]
            ErrorKind::Zip(e) => std::error::Error::source(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for ErrorKind {
    fn from(e: std::io::Error) -> Self {
        ErrorKind::Io(e)
    }
}

#[cfg(feature = "npz")]
impl From<zip::result::ZipError> for ErrorKind {
    fn from(e: zip::result::ZipError) -> Self {
        ErrorKind::Zip(e)
    }
}

/// One step of the position attached to an error.
///
/// ```
/// use npy_serde::Segment;
/// #[derive(serde::Serialize)]
/// struct P { pos: [f64; 2] }
/// #[derive(serde::Deserialize, Debug)]
/// #[allow(dead_code)]
/// struct Q { pos: [f32; 2] }
/// let bytes = npy_serde::to_vec(&vec![P { pos: [0.5, 0.5] }, P { pos: [0.5, 0.1] }]).unwrap();
/// let err = npy_serde::from_slice::<Vec<Q>>(&bytes).unwrap_err();
/// let path: Vec<&Segment> = err.path().collect();
/// assert_eq!(path, [&Segment::Record(1), &Segment::Field("pos".into()), &Segment::Index(1)]);
/// assert!(err.to_string().starts_with("record 1, field pos[1]: "));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Segment {
    /// An `.npz` member, by key.
    Member(String),
    /// An element of the array's first axis.
    Record(u64),
    /// An index into a subarray or an inner axis.
    Index(u64),
    /// A record field, by name.
    Field(String),
    /// An element of an n-d array of two or more axes, by its index on
    /// each axis in C index order (whatever the order of the file or the
    /// data): `element [3, 17]`, or `record [3, 17]` when the element is a
    /// record. A 1-d array's element is a [`Segment::Record`]; the one
    /// element of a 0-d array has no position.
    ///
    /// ```
    /// use npy_serde::{NdArray, Segment};
    /// let bytes = npy_serde::to_vec(&NdArray::from_shape_vec(vec![2, 3], vec![1i64, 2, 3, 4, 5, 300])?)?;
    /// let err = npy_serde::from_slice::<NdArray<u8>>(&bytes).unwrap_err();
    /// let at = Segment::At { index: vec![1, 2], record: false };
    /// assert_eq!(err.path().collect::<Vec<_>>(), [&at]);
    /// assert!(err.to_string().starts_with("element [1, 2]: "), "{err}");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    At {
        /// The index on each axis, outermost first.
        index: Vec<u64>,
        /// Whether the element is a record (`record [i, j]`, not
        /// `element [i, j]`).
        record: bool,
    },
    /// The file a path function read or wrote (`from_path`, `to_path`,
    /// `npz::from_path`, `memmap::open`, ...), outermost of all: `file
    /// 'runs/a.npy', record 3: ...`. An I/O error names its file in its own
    /// words instead ("cannot open runs/a.npy: ...").
    ///
    /// ```
    /// use npy_serde::Segment;
    /// let dir = std::env::temp_dir().join(format!("npy-doc-segment-file-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("x.npy");
    /// npy_serde::to_path(&path, &[1.5f64, 300.0])?;
    /// let err = npy_serde::from_path::<Vec<u8>>(&path).unwrap_err();
    /// assert_eq!(err.path().next(), Some(&Segment::File(path.clone())));
    /// assert!(err.to_string().starts_with("file '"), "{err}");
    /// assert!(err.to_string().contains("x.npy', record 0: "), "{err}");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    File(std::path::PathBuf),
    /// The object of an object store that [`crate::object_store`] read or
    /// wrote, by its path in the store, outermost of all: `object
    /// 'runs/a.npy', record 3: ...` (feature `object_store`). A request
    /// that failed names its object in its own words instead ("GET bytes
    /// 0..65536 of object 'runs/a.npy': ...").
    Object(String),
}

impl Error {
    /// Creates an error of the given kind with no position yet.
    ///
    /// ```
    /// use npy_serde::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::Unsupported("pickled objects ('O')".into()));
    /// assert_eq!(err.to_string(), "unsupported: pickled objects ('O')");
    /// ```
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(ErrorImpl {
            kind,
            path: Vec::new(),
            pending: Pending::None,
        }))
    }

    /// The kind of error, for matching.
    ///
    /// ```
    /// use npy_serde::ErrorKind;
    /// let err = npy_serde::from_slice::<Vec<f64>>(b"\x93NUMPY\x09\x00").unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::Header(_)));
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The position, outermost first (member, record, fields and indices).
    ///
    /// ```
    /// let err = npy_serde::Error::mismatch("expected '<f8', found string")
    ///     .in_field("x")
    ///     .at_record(3);
    /// assert_eq!(err.to_string(), "record 3, field x: expected '<f8', found string");
    /// assert_eq!(err.path().count(), 2);
    /// ```
    pub fn path(&self) -> impl Iterator<Item = &Segment> {
        self.0.path.iter().rev()
    }

    pub(crate) fn header(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Header(msg.into()))
    }
    pub(crate) fn descr(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Descr(msg.into()))
    }
    pub(crate) fn unsupported(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported(msg.into()))
    }
    pub(crate) fn data(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Data(msg.into()))
    }
    /// A value that does not fit the dtype (or the other way round); used by
    /// the serializer and deserializer, public for custom wrappers and tests.
    ///
    /// ```
    /// let err = npy_serde::Error::mismatch("expected '<f8', found string");
    /// assert!(matches!(err.kind(), npy_serde::ErrorKind::Mismatch(_)));
    /// assert_eq!(err.to_string(), "expected '<f8', found string");
    /// ```
    pub fn mismatch(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Mismatch(msg.into()))
    }
    pub(crate) fn schema(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Schema(msg.into()))
    }
    pub(crate) fn limit(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Limit(msg.into()))
    }

    /// An I/O error that says what failed (`what`: the operation and the
    /// file or member, "reading the header of x.npy"), keeping the OS error
    /// as its source and its [`std::io::ErrorKind`]. Still an
    /// [`ErrorKind::Io`]: its message is `what: <the OS error>`.
    #[cold]
    pub(crate) fn io_at(err: std::io::Error, what: impl Into<String>) -> Self {
        Self::new(ErrorKind::Io(io_at(err, what.into())))
    }

    /// Says what failed (`what`, see [`Error::io_at`]) for an I/O error;
    /// other errors pass unchanged.
    #[cold]
    #[must_use]
    pub(crate) fn io_context(mut self, what: impl FnOnce() -> String) -> Self {
        if let ErrorKind::Io(e) = &mut self.0.kind {
            let what = what();
            let said = e
                .get_ref()
                .and_then(|r| r.downcast_ref::<IoContext>())
                .is_some_and(|c| c.what == what);
            if !said {
                let inner = std::mem::replace(e, std::io::Error::other(""));
                *e = io_at(inner, what);
            }
        }
        self
    }

    /// Attaches a field name (called while unwinding out of that field).
    ///
    /// ```
    /// // called innermost first, while unwinding: field y inside field pos
    /// let err = npy_serde::Error::mismatch("too big").in_field("y").in_field("pos");
    /// assert_eq!(err.to_string(), "field pos.y: too big");
    /// ```
    #[must_use]
    #[cold]
    #[inline(never)]
    pub fn in_field(mut self, name: &str) -> Self {
        self.0.path.push(Segment::Field(name.to_owned()));
        self
    }
    /// Attaches a subarray or inner-axis index.
    ///
    /// ```
    /// let err = npy_serde::Error::mismatch("too big").at_index(2).in_field("pos");
    /// assert_eq!(err.to_string(), "field pos[2]: too big");
    /// ```
    #[must_use]
    #[cold]
    pub fn at_index(mut self, index: u64) -> Self {
        self.0.path.push(Segment::Index(index));
        self
    }
    /// Attaches the record (first-axis) index. Only the first call counts, so
    /// nested helpers may call it without care.
    ///
    /// ```
    /// let err = npy_serde::Error::mismatch("too big").in_field("x").at_record(4).at_record(9);
    /// assert_eq!(err.to_string(), "record 4, field x: too big");
    /// ```
    #[must_use]
    #[cold]
    #[inline(never)]
    pub fn at_record(mut self, index: u64) -> Self {
        if !self.0.path.iter().any(|s| matches!(s, Segment::Record(_))) {
            self.0.path.push(Segment::Record(index));
        }
        self
    }
    /// Takes off the outermost position when it is a record index or an
    /// index (the flat index into an n-d array's data), to be replaced by
    /// its n-d position ([`Error::at_nd`]).
    pub(crate) fn take_flat_index(&mut self) -> Option<u64> {
        let Some(&(Segment::Record(i) | Segment::Index(i))) = self.0.path.last() else {
            return None;
        };
        self.0.path.pop();
        Some(i)
    }

    /// Names the file a path function read or wrote ([`Segment::File`]),
    /// once; an I/O error is left as it is (its message names the file
    /// already, see [`Error::io_context`]).
    #[must_use]
    #[cold]
    pub(crate) fn in_file(self, path: &std::path::Path) -> Self {
        self.outermost(|| Segment::File(path.to_owned()))
    }

    /// Names the object of a store, as [`Error::in_file`] names a file.
    #[cfg(feature = "object_store")]
    #[must_use]
    #[cold]
    pub(crate) fn in_object(self, path: &str) -> Self {
        self.outermost(|| Segment::Object(path.to_owned()))
    }

    /// Adds `place` (a file or an object) as the outermost segment, once,
    /// and not to an I/O error, which names its place in its own words.
    fn outermost(mut self, place: impl FnOnce() -> Segment) -> Self {
        let named = self
            .0
            .path
            .iter()
            .any(|s| matches!(s, Segment::File(_) | Segment::Object(_)));
        if !named && !matches!(self.0.kind, ErrorKind::Io(_)) {
            self.0.path.push(place());
        }
        self
    }

    /// An error of reading the file at `path`: an I/O error says "reading
    /// `path`" ([`Error::io_context`]), any other names the file
    /// ([`Error::in_file`]).
    #[must_use]
    #[cold]
    pub(crate) fn reading_file(self, path: &std::path::Path) -> Self {
        self.io_context(|| format!("reading {}", path.display()))
            .in_file(path)
    }

    /// Attaches the n-d position of an element ([`Segment::At`]).
    #[must_use]
    #[cold]
    pub(crate) fn at_nd(mut self, index: Vec<u64>, record: bool) -> Self {
        let record = record || self.0.path.iter().any(|s| matches!(s, Segment::Field(_)));
        self.0.path.push(Segment::At { index, record });
        self
    }

    /// Attaches an `.npz` member key.
    ///
    /// ```
    /// let err = npy_serde::Error::mismatch("too big").at_record(0).in_member("pos");
    /// assert_eq!(err.to_string(), "member 'pos', record 0: too big");
    /// ```
    #[must_use]
    pub fn in_member(mut self, key: &str) -> Self {
        if !self.0.path.iter().any(|s| matches!(s, Segment::Member(_))) {
            self.0.path.push(Segment::Member(key.to_owned()));
        }
        self
    }
}

/// An I/O error whose message says what failed on which file (`what
/// path: err`; io::Error's own names no file), the OS error its source.
#[cold]
pub(crate) fn with_path(err: std::io::Error, what: &str, path: &std::path::Path) -> Error {
    Error::io_at(err, format!("{what} {}", path.display()))
}

/// An `io::Error` of `err`'s kind whose message is `what: err` and whose
/// source is `err`.
pub(crate) fn io_at(err: std::io::Error, what: String) -> std::io::Error {
    std::io::Error::new(err.kind(), IoContext { what, source: err })
}

/// What failed, around the OS error (the payload of [`io_at`]).
#[derive(Debug)]
struct IoContext {
    what: String,
    source: std::io::Error,
}

impl fmt::Display for IoContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.source)
    }
}

impl std::error::Error for IoContext {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(err))
    }
}

#[cfg(feature = "npz")]
impl From<zip::result::ZipError> for Error {
    /// An I/O error inside the zip crate is reported as the I/O error it is
    /// (the zip crate's own message for it is only "i/o error", without
    /// what failed: "No space left on device").
    fn from(err: zip::result::ZipError) -> Self {
        match err {
            zip::result::ZipError::Io(e) => Error::new(ErrorKind::Io(e)),
            other => Error::new(ErrorKind::Zip(other)),
        }
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}: {self})", self.0.kind)
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(ErrorKind::Message(msg.to_string()))
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(ErrorKind::Message(msg.to_string()))
    }
    fn missing_field(field: &'static str) -> Self {
        Error::new(ErrorKind::Message(format!("missing field `{field}`")))
            .awaiting(Pending::MissingField)
    }
}

impl Error {
    /// Marks the error as waiting for `hint` from a caller up the stack.
    fn awaiting(mut self, hint: Pending) -> Self {
        self.0.pending = hint;
        self
    }

    /// When the error waits for `hint`: it waits no more, and `edit` gives
    /// its message the hint.
    fn given(mut self, hint: Pending, edit: impl FnOnce(&mut String)) -> Self {
        if self.0.pending == hint {
            self.0.pending = Pending::None;
            if let ErrorKind::Message(m) | ErrorKind::Mismatch(m) | ErrorKind::Schema(m) =
                &mut self.0.kind
            {
                edit(m);
            }
        }
        self
    }

    /// A `missing field` error straight from the visitor of `container`
    /// ("the record", "the archive") also lists what it has; other errors,
    /// and one listed already by a nested container, pass unchanged.
    #[cold]
    pub(crate) fn listing_what_is_there(
        self,
        container: &str,
        names: &mut dyn ExactSizeIterator<Item = &str>,
    ) -> Self {
        self.given(Pending::MissingField, |m| match name_list(names) {
            Some(list) => m.push_str(&format!("; {container} has {list}")),
            None => m.push_str(&format!("; {container} is empty")),
        })
    }

    /// Marks a value too wide for its string or bytes field.
    #[cold]
    pub(crate) fn too_wide(self) -> Self {
        self.awaiting(Pending::Width)
    }

    /// A value too wide for its field (see [`Error::too_wide`]) says how
    /// to give wider fields when streaming, where the dtype is fixed by the
    /// first record or the caller.
    #[cold]
    pub(crate) fn with_width_hint(self) -> Self {
        self.given(Pending::Width, |m| {
            m.push_str(
                "; a stream's widths are fixed by its first record: give wider fields \
                 with NpyWriter::with_dtype(w, Dtype::of_records(&first_records)?)",
            )
        })
    }

    /// Marks the error of empty sequences whose element type nothing says
    /// (the message gives the dtype through `WriteOptions`).
    #[cold]
    pub(crate) fn no_element_type(self) -> Self {
        self.awaiting(Pending::NoElementType)
    }

    /// An error of [`Error::no_element_type`] in a member of an npz struct
    /// (which takes no `WriteOptions`) says what to change in the field's
    /// type instead.
    #[cfg(feature = "npz")]
    #[cold]
    pub(crate) fn with_field_type_hint(self) -> Self {
        self.given(Pending::NoElementType, |m| {
            *m = "cannot tell the element type from empty sequences; give the field a type \
                  that says it: Bulk<T> or NdArray<T>, or #[serde(with = \"npy_serde::bulk\")] \
                  on a Vec<T> of numbers"
                .to_owned();
        })
    }

    /// Appends `text` to a type mismatch's message (other errors pass).
    #[cold]
    pub(crate) fn with_mismatch_note(mut self, text: &str) -> Self {
        if let ErrorKind::Mismatch(m) = &mut self.0.kind {
            m.push_str(text);
        }
        self
    }
}

/// `'x', 'y'` (the first five, then the count), `None` for no names: what a
/// record or archive holds, for a message about something it lacks.
pub(crate) fn name_list(names: &mut dyn ExactSizeIterator<Item = &str>) -> Option<String> {
    const SHOWN: usize = 5;
    let n = names.len();
    if n == 0 {
        return None;
    }
    let mut list: Vec<String> = names.take(SHOWN).map(|k| PyStr(k).to_string()).collect();
    if n > SHOWN {
        list.push(format!("... ({n} in all)"));
    }
    Some(list.join(", "))
}

/// Renders `member 'a', record 3[2], field pos[1].x`.
fn write_path<'a>(
    f: &mut fmt::Formatter<'_>,
    segments: impl Iterator<Item = &'a Segment>,
) -> fmt::Result {
    // 0: nothing yet, 1: after member, 2: after record or its indices, 3: in fields
    let mut state = 0;
    for seg in segments {
        let sep = if state == 0 { "" } else { ", " };
        let (text, next) = match seg {
            Segment::File(path) => (format!("file {}", PyStr(&path.to_string_lossy())), 1),
            Segment::Object(path) => (format!("object {}", PyStr(path)), 1),
            Segment::Member(key) => (format!("{sep}member {}", PyStr(key)), 1),
            Segment::Record(i) => (format!("{sep}record {i}"), 2),
            // `{:?}` of the indices: `[1, 2]`
            Segment::At {
                index,
                record: true,
            } => (format!("{sep}record {index:?}"), 2),
            Segment::At { index, .. } => (format!("{sep}element {index:?}"), 2),
            Segment::Index(i) if state < 2 => (format!("{sep}element [{i}]"), 2),
            Segment::Index(i) => (format!("[{i}]"), state),
            Segment::Field(name) if state == 3 => (format!(".{name}"), 3),
            Segment::Field(name) => (format!("{sep}field {name}"), 3),
        };
        f.write_str(&text)?;
        state = next;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_one_pointer() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }

    #[test]
    fn path_renders_outermost_first() {
        let err = Error::mismatch("expected '<f8', found string")
            .at_index(1)
            .in_field("pos")
            .in_field("body")
            .at_record(3)
            .in_member("particles");
        assert_eq!(
            err.to_string(),
            "member 'particles', record 3, field body.pos[1]: expected '<f8', found string"
        );
    }

    #[test]
    fn nd_positions_render() {
        let err = Error::mismatch("x")
            .at_index(1)
            .at_nd(vec![3, 17], false)
            .in_member("img");
        assert_eq!(err.to_string(), "member 'img', element [3, 17][1]: x");
        let err = Error::mismatch("x")
            .in_field("a")
            .at_nd(vec![0, 2, 1], false);
        assert_eq!(err.to_string(), "record [0, 2, 1], field a: x");
        let mut err = Error::mismatch("x").at_index(4).at_record(7);
        assert_eq!(err.take_flat_index(), Some(7));
        assert_eq!(err.take_flat_index(), Some(4));
        assert_eq!(err.take_flat_index(), None);
    }

    #[test]
    fn record_is_attached_once() {
        let err = Error::data("x").at_record(1).at_record(7);
        assert_eq!(err.to_string(), "record 1: x");
    }
}
