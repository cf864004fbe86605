//! Memory-mapped `.npy` files in one call, as numpy's
//! `np.lib.format.open_memmap`: [`create`] makes a file of zeros of any
//! size and maps it to be filled in place, [`open`] maps a file to read it
//! without copying, [`open_mut`] to write it in place.
//!
//! | numpy | npy_serde |
//! |---|---|
//! | `open_memmap(p, mode='w+', dtype='<f8', shape=(n, 3))` | `memmap::create::<f64>(p, &[n, 3])` |
//! | `open_memmap(p, mode='r')` / `np.load(p, mmap_mode='r')` | `memmap::open::<f64>(p)` |
//! | `open_memmap(p, mode='r+')` / `np.load(p, mmap_mode='r+')` | `memmap::open_mut::<f64>(p)` |
//!
//! The element type `T` is a [`ViewElement`] and must be exactly the
//! file's dtype in this machine's byte order (`'<f8'` for `f64` on
//! little-endian machines): nothing is converted, anything else is an error
//! saying what the file holds, as for [`view`](crate::view()). The data of
//! every `.npy` file starts at a multiple of 64 bytes and a map is page
//! aligned, so alignment never fails here.
//!
//! # The caveat of every map
//!
//! A map shows the file's bytes as they are, while they are mapped: if
//! another process (or another part of this one, through another handle)
//! truncates the file, the next access to the lost pages kills the process
//! with `SIGBUS`; if it writes the file, the values seen through the map
//! change under Rust's borrow rules, which is undefined behaviour. This is
//! memmap2's caveat, which this module takes on itself (the crate's second
//! audited `unsafe`, the map call): use these functions only on files that
//! nothing else changes while the map lives. Other readers, numpy's
//! `mmap_mode='r'` included, are fine.
//!
//! Feature `memmap` (off by default; it turns on `view`), the only user of
//! the memmap2 dependency.
//!
//! ```
//! use npy_serde::{Order, memmap};
//!
//! # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-mod-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! let path = dir.join("grid.npy");
//! // np.lib.format.open_memmap(path, mode='w+', dtype='<f8', shape=(1000, 3))
//! let mut grid = memmap::create::<f64>(&path, &[1000, 3])?;
//! for (i, row) in grid.view_mut().data_mut().chunks_exact_mut(3).enumerate() {
//!     row.copy_from_slice(&[i as f64, 0.5, -1.0]);
//! }
//! grid.flush()?;
//! drop(grid);
//!
//! // an ordinary .npy file: np.load reads it, and so does from_path
//! let rows: Vec<[f64; 3]> = npy_serde::from_path(&path)?;
//! assert_eq!(rows[999], [999.0, 0.5, -1.0]);
//!
//! // read in place, without copying
//! let grid = memmap::open::<f64>(&path)?;
//! assert_eq!((grid.shape(), grid.order()), (&[1000, 3][..], Order::C));
//! assert_eq!(grid.view().data()[3 * 999], 999.0);
//!
//! // nothing is converted: another type is an error naming the file and its dtype
//! let err = memmap::open::<f32>(&path).unwrap_err();
//! assert!(err.to_string().starts_with("file '"));
//! assert!(err.to_string().contains("grid.npy': cannot view '<f8' data of shape (1000, 3) as f32"));
//! # drop(grid);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::fs::{File, OpenOptions};
use std::marker::PhantomData;
use std::path::Path;

use memmap2::{Mmap, MmapMut};

use crate::array::nd::{NdView, NdViewMut, Order};
use crate::array::view::{ViewElement, native, view_data, view_data_mut, view_options};
use crate::array::zeroed::write_zeroed;
use crate::error::{Error, Result, with_path};
use crate::format::dtype::Dtype;
use crate::format::header::Header;
use crate::format::header_read::parse_header;

/// A read-only memory map of an `.npy` file of `T`s, from [`open`]: its
/// shape and order, and its data as an [`NdView`] in place. The file stays
/// mapped until this is dropped.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-struct-ro-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("m.npy");
/// npy_serde::to_path(&path, &[[1.5f32, 2.5], [3.5, 4.5]])?;
/// let m: npy_serde::memmap::MmapArray<f32> = npy_serde::memmap::open(&path)?;
/// let sum: f32 = m.view().data().iter().sum();
/// assert_eq!(sum, 12.0);
/// assert_eq!(
///     format!("{m:?}"),
///     "MmapArray { descr: \"'<f4'\", shape: [2, 2], order: C, .. }"
/// );
/// # drop(m);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MmapArray<T> {
    map: Mmap,
    layout: Layout,
    element: PhantomData<T>,
}

/// A writable memory map of an `.npy` file of `T`s, from [`create`] or
/// [`open_mut`]: its shape and order, and its data as an [`NdViewMut`] to
/// be written in place. Written values reach the file (the page cache, seen
/// by every reader of it) as they are written; [`flush`](Self::flush) waits
/// until they are on disk. The file stays mapped until this is dropped.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-struct-rw-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("m.npy");
/// let mut m: npy_serde::memmap::MmapArrayMut<u8> = npy_serde::memmap::create(&path, &[2, 3])?;
/// let mut v = m.view_mut();
/// v.data_mut().copy_from_slice(&[1, 2, 3, 4, 5, 6]);
/// assert_eq!(v.shape(), &[2, 3]);
/// drop(m); // unmapped; the values are in the file
/// assert_eq!(npy_serde::from_path::<Vec<[u8; 3]>>(&path)?, [[1, 2, 3], [4, 5, 6]]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MmapArrayMut<T> {
    map: MmapMut,
    layout: Layout,
    element: PhantomData<T>,
}

/// What the header says, read once when the file is mapped: the header
/// bytes are never written through a map, so they stay true.
#[derive(Clone, Debug)]
struct Layout {
    header: Header,
    /// The first data byte in the file (and the map).
    data_offset: usize,
    shape: Vec<usize>,
    order: Order,
}

/// Makes `path` an `.npy` file of zeros of `T` (C order) and `shape`, and
/// maps it to be filled in place: numpy's
/// `np.lib.format.open_memmap(path, mode='w+', dtype=..., shape=...)`, the
/// same header bytes (numpy's padding included) and zeroed data.
///
/// The file is created, or replaced when it exists (as numpy's `'w+'`).
/// The data is [`write_zeroed`]'s: the file extended
/// with `set_len`, so it takes no time and, where the file system allows,
/// no disk space until written. An error, with the file left as it was,
/// when the data size overflows; an I/O error naming `path` when it cannot
/// be created or mapped.
///
/// Nothing else may truncate or write the file while it is mapped: see
/// [the caveat](mod@self#the-caveat-of-every-map).
///
/// ```
/// use npy_serde::memmap;
///
/// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-create-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("frames.npy");
/// let mut frames = memmap::create::<u16>(&path, &[10, 480, 640])?;
/// let frame = 480 * 640;
/// frames.view_mut().data_mut()[7 * frame..8 * frame].fill(4095); // frame 7, in place
/// frames.flush()?;
/// assert_eq!(std::fs::metadata(&path)?.len(), 128 + 2 * 10 * frame as u64);
///
/// // sizes that do not fit are refused
/// assert!(memmap::create::<f64>(dir.join("huge.npy"), &[usize::MAX, 2]).is_err());
/// # drop(frames);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn create<T: ViewElement>(path: impl AsRef<Path>, shape: &[usize]) -> Result<MmapArrayMut<T>> {
    let path = path.as_ref();
    // not truncated here: write_zeroed checks the size before it truncates
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| with_path(e, "cannot create", path))?;
    write_zeroed(&file, &Dtype::Scalar(native::<T>()), shape).map_err(|e| {
        e.io_context(|| format!("writing the zeroed {}", path.display()))
            .in_file(path)
    })?;
    map_mut(&file, path)
}

/// Maps the `.npy` file at `path` to read its `T`s in place: numpy's
/// `np.load(path, mmap_mode='r')`, without copying anything.
///
/// The header is read with the checks of [`view`](crate::view()): the
/// file's dtype must be exactly `T` in this machine's byte order, and the
/// data exactly as long as the header says; any C- or Fortran-order array.
/// An I/O error naming `path` when it cannot be opened or mapped.
///
/// Nothing may truncate or write the file while it is mapped: see
/// [the caveat](mod@self#the-caveat-of-every-map).
///
/// ```
/// use npy_serde::memmap;
///
/// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-open-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("xs.npy");
/// npy_serde::to_path(&path, &[[1i32, 2, 3], [4, 5, 6]])?; // np.save
/// let xs = memmap::open::<i32>(&path)?;
/// assert_eq!((xs.shape(), xs.view().data()), (&[2, 3][..], &[1, 2, 3, 4, 5, 6][..]));
///
/// // the file's type, never a conversion
/// let err = memmap::open::<i64>(&path).unwrap_err();
/// assert!(err.to_string().contains("xs.npy': cannot view '<i4' data of shape (2, 3) as i64"));
/// let err = memmap::open::<i32>(dir.join("missing.npy")).unwrap_err();
/// assert!(err.to_string().starts_with("cannot open "));
/// # drop(xs);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open<T: ViewElement>(path: impl AsRef<Path>) -> Result<MmapArray<T>> {
    let path = path.as_ref();
    let file = File::open(path).map_err(|e| with_path(e, "cannot open", path))?;
    let map = map(&file, path)?;
    let layout = Layout::of::<T>(&map).map_err(|e| e.in_file(path))?;
    Ok(MmapArray {
        map,
        layout,
        element: PhantomData,
    })
}

/// Maps the `.npy` file at `path` to read and write its `T`s in place:
/// numpy's `np.load(path, mmap_mode='r+')`. The file must be writable;
/// the checks are [`open`]'s. Only the data is ever written through the
/// map, never the header.
///
/// Nothing else may truncate or write the file while it is mapped: see
/// [the caveat](mod@self#the-caveat-of-every-map).
///
/// ```
/// use npy_serde::memmap;
///
/// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-open-mut-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("counts.npy");
/// npy_serde::to_path(&path, &[0u64; 4])?;
/// let mut counts = memmap::open_mut::<u64>(&path)?;
/// counts.view_mut().data_mut()[2] += 5;
/// counts.flush()?;
/// drop(counts);
/// assert_eq!(npy_serde::from_path::<Vec<u64>>(&path)?, [0, 0, 5, 0]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open_mut<T: ViewElement>(path: impl AsRef<Path>) -> Result<MmapArrayMut<T>> {
    let path = path.as_ref();
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| with_path(e, "cannot open for writing", path))?;
    map_mut(&file, path)
}

fn map_mut<T: ViewElement>(file: &File, path: &Path) -> Result<MmapArrayMut<T>> {
    // SAFETY: the caller of `create` / `open_mut` is told (in their docs)
    // that nothing else may truncate or write the file while it is mapped;
    // under that contract the mapped bytes change only through this map,
    // whose `&mut self` methods hand out the only mutable view. This map
    // is `MAP_SHARED`: its writes reach the file. Mapping itself creates no
    // reference that could alias. (issue 35: memory maps in one call)
    #[allow(unsafe_code)]
    let map = unsafe { MmapMut::map_mut(file) };
    let map = map.map_err(|e| with_path(e, "cannot map", path))?;
    let layout = Layout::of::<T>(&map).map_err(|e| e.in_file(path))?;
    Ok(MmapArrayMut {
        map,
        layout,
        element: PhantomData,
    })
}

fn map(file: &File, path: &Path) -> Result<Mmap> {
    // SAFETY: the caller of `open` is told (in its docs) that nothing may
    // truncate or write the file while it is mapped; under that contract
    // the mapped bytes never change while `&[u8]`s borrowed from the map
    // live, and no page is lost. The map is read-only. (issue 35: memory
    // maps in one call)
    #[allow(unsafe_code)]
    let map = unsafe { Mmap::map(file) };
    map.map_err(|e| with_path(e, "cannot map", path))
}

impl Layout {
    /// Reads the header at the start of `bytes` and checks the data with
    /// the rules of a view of `T`.
    fn of<T: ViewElement>(bytes: &[u8]) -> Result<Layout> {
        let parsed = parse_header(bytes, &view_options())?;
        let data = bytes.get(parsed.data_offset..).unwrap_or(&[]);
        let view = view_data::<T>(&parsed.header, data, parsed.data_offset as u64)?;
        Ok(Layout {
            shape: view.shape().to_vec(),
            order: view.order(),
            header: parsed.header,
            data_offset: parsed.data_offset,
        })
    }

    fn data<'a>(&self, bytes: &'a [u8]) -> &'a [u8] {
        bytes.get(self.data_offset..).unwrap_or(&[])
    }

    fn view<'a, T: ViewElement>(&self, bytes: &'a [u8]) -> NdView<'a, T> {
        // The same bytes passed the same checks when they were mapped, and
        // since then only values of `T` were written to them (through
        // `view_mut`): the checks cannot fail unless something outside
        // broke the caveat of the map, whose consequences are undefined.
        #[allow(clippy::expect_used)]
        let view = view_data(&self.header, self.data(bytes), self.data_offset as u64)
            .expect("the mapped file changed under its map");
        view
    }

    fn view_mut<'a, T: ViewElement>(&self, bytes: &'a mut [u8]) -> NdViewMut<'a, T> {
        let data = bytes.get_mut(self.data_offset..).unwrap_or(&mut []);
        // as in `view`
        #[allow(clippy::expect_used)]
        let view = view_data_mut(&self.header, data, self.data_offset as u64)
            .expect("the mapped file changed under its map");
        view
    }
}

// The accessors of both maps; each example checks `open` and `open_mut`.
macro_rules! accessors {
    ($ty:ident) => {
        impl<T: ViewElement> $ty<T> {
            /// The size of each axis; `[]` for a 0-d array.
            ///
            /// ```
            /// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-shape-{}-{:?}", std::process::id(), std::thread::current().id()));
            /// # std::fs::create_dir_all(&dir)?;
            /// # let path = dir.join("a.npy");
            /// npy_serde::to_path(&path, &7.5f32)?;
            /// let a = npy_serde::memmap::open::<f32>(&path)?;
            /// assert_eq!((a.shape(), a.len()), (&[][..], 1));
            /// # drop(a);
            /// # let a = npy_serde::memmap::open_mut::<f32>(&path)?;
            /// # assert_eq!((a.shape(), a.len()), (&[][..], 1));
            /// # drop(a);
            /// # std::fs::remove_dir_all(&dir)?;
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn shape(&self) -> &[usize] {
                &self.layout.shape
            }

            /// How the data is laid out: the file's `fortran_order`.
            ///
            /// ```
            /// use npy_serde::Order;
            /// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-order-{}-{:?}", std::process::id(), std::thread::current().id()));
            /// # std::fs::create_dir_all(&dir)?;
            /// # let path = dir.join("a.npy");
            /// npy_serde::WriteOptions::new().fortran_order(true).to_path(&path, &[[1u8, 2], [3, 4]])?;
            /// let a = npy_serde::memmap::open::<u8>(&path)?;
            /// assert_eq!((a.order(), a.view().data()), (Order::Fortran, &[1, 3, 2, 4][..]));
            /// # drop(a);
            /// # let a = npy_serde::memmap::open_mut::<u8>(&path)?;
            /// # assert_eq!((a.order(), a.view().data()), (Order::Fortran, &[1, 3, 2, 4][..]));
            /// # drop(a);
            /// # std::fs::remove_dir_all(&dir)?;
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn order(&self) -> Order {
                self.layout.order
            }

            /// The file's header: dtype, order and shape as numpy wrote them.
            ///
            /// ```
            /// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-header-{}-{:?}", std::process::id(), std::thread::current().id()));
            /// # std::fs::create_dir_all(&dir)?;
            /// # let path = dir.join("a.npy");
            /// npy_serde::to_path(&path, &[0i16; 5])?;
            /// let a = npy_serde::memmap::open::<i16>(&path)?;
            /// assert_eq!(a.header().descr.to_string(), "'<i2'");
            /// assert_eq!(a.header().shape, [5]);
            /// # drop(a);
            /// # let a = npy_serde::memmap::open_mut::<i16>(&path)?;
            /// # assert_eq!(a.header().descr.to_string(), "'<i2'");
            /// # assert_eq!(a.header().shape, [5]);
            /// # drop(a);
            /// # std::fs::remove_dir_all(&dir)?;
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn header(&self) -> &Header {
                &self.layout.header
            }

            /// The number of elements (the product of the shape).
            ///
            /// ```
            /// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-len-{}-{:?}", std::process::id(), std::thread::current().id()));
            /// # std::fs::create_dir_all(&dir)?;
            /// # let path = dir.join("a.npy");
            /// npy_serde::to_path(&path, &[[0u32; 4]; 3])?;
            /// let a = npy_serde::memmap::open::<u32>(&path)?;
            /// assert_eq!((a.len(), a.is_empty()), (12, false));
            /// # drop(a);
            /// # let a = npy_serde::memmap::open_mut::<u32>(&path)?;
            /// # assert_eq!((a.len(), a.is_empty()), (12, false));
            /// # drop(a);
            /// # std::fs::remove_dir_all(&dir)?;
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn len(&self) -> usize {
                self.layout.shape.iter().product()
            }

            /// Whether an axis is 0 long (no data is mapped then).
            ///
            /// ```
            /// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-empty-{}-{:?}", std::process::id(), std::thread::current().id()));
            /// # std::fs::create_dir_all(&dir)?;
            /// # let path = dir.join("a.npy");
            /// drop(npy_serde::memmap::create::<f64>(&path, &[0, 3])?);
            /// let a = npy_serde::memmap::open::<f64>(&path)?;
            /// assert!(a.is_empty());
            /// assert_eq!(a.shape(), &[0, 3]);
            /// # drop(a);
            /// # let a = npy_serde::memmap::open_mut::<f64>(&path)?;
            /// # assert!(a.is_empty());
            /// # assert_eq!(a.shape(), &[0, 3]);
            /// # drop(a);
            /// # std::fs::remove_dir_all(&dir)?;
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// The data in place, as an n-d view with the file's shape and
            /// order. Constant time (for `bool`, a pass that checks every
            /// byte is 0 or 1).
            ///
            /// ```
            /// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-view-{}-{:?}", std::process::id(), std::thread::current().id()));
            /// # std::fs::create_dir_all(&dir)?;
            /// # let path = dir.join("a.npy");
            /// npy_serde::to_path(&path, &[true, false, true])?;
            /// let a = npy_serde::memmap::open::<bool>(&path)?;
            /// assert_eq!(a.view().data(), &[true, false, true]);
            /// # drop(a);
            /// let a = npy_serde::memmap::create::<i8>(dir.join("b.npy"), &[2, 2])?;
            /// assert_eq!(a.view().data(), &[0; 4]);
            /// # drop(a);
            /// # std::fs::remove_dir_all(&dir)?;
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn view(&self) -> NdView<'_, T> {
                self.layout.view(&self.map)
            }
        }

        impl<T: ViewElement> fmt::Debug for $ty<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($ty))
                    .field("descr", &self.layout.header.descr.to_string())
                    .field("shape", &self.layout.shape)
                    .field("order", &self.layout.order)
                    .finish_non_exhaustive()
            }
        }
    };
}

accessors!(MmapArray);
accessors!(MmapArrayMut);

impl<T: ViewElement> MmapArrayMut<T> {
    /// The data in place, to write, as an n-d view with the file's shape
    /// and order. Each value written is in the file's page cache at once
    /// (other readers of the file see it); [`flush`](Self::flush) makes it
    /// durable.
    ///
    /// ```
    /// use num_complex::Complex;
    /// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-view-mut-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let path = dir.join("z.npy");
    /// let mut z = npy_serde::memmap::create::<Complex<f64>>(&path, &[3])?;
    /// z.view_mut().data_mut()[1] = Complex::new(1.0, -2.0);
    /// drop(z);
    /// let z = npy_serde::memmap::open::<Complex<f64>>(&path)?;
    /// assert_eq!(z.view().data()[1], Complex::new(1.0, -2.0));
    /// # drop(z);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn view_mut(&mut self) -> NdViewMut<'_, T> {
        self.layout.view_mut(&mut self.map)
    }

    /// Writes the changed pages to disk and waits until they are there
    /// (`msync`); numpy's `memmap.flush()`. An I/O error when the system
    /// reports one. Dropping the map does not wait: what was written stays
    /// in the page cache, to be written back by the system.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("npy-memmap-doc-flush-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let path = dir.join("a.npy");
    /// let mut a = npy_serde::memmap::create::<f32>(&path, &[8])?;
    /// a.view_mut().data_mut().fill(0.25);
    /// a.flush()?;
    /// assert_eq!(npy_serde::from_path::<Vec<f32>>(&path)?, [0.25; 8]);
    /// # drop(a);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flush(&self) -> Result<()> {
        self.map
            .flush()
            .map_err(|e| Error::io_at(e, "flushing the memory map"))
    }
}

/// The map calls, the crate's second `unsafe` site (issue 35: memory maps
/// in one call): a map shows the file's bytes, writes through it reach the
/// file, and the file is the one numpy's `np.save` writes for the values.
#[cfg(test)]
mod tests {
    use super::*;

    /// A test's own scratch folder (tests run at the same time), removed
    /// with what it holds when the test ends, a failed one too.
    struct Scratch(std::path::PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("npy-memmap-unit-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    #[test]
    fn maps_read_and_write_the_file_numpy_saves() {
        let dir = scratch("site");
        let path = dir.0.join("site.npy");
        let mut a = create::<i32>(&path, &[50, 7]).unwrap();
        assert_eq!(a.view().data(), &[0; 350]);
        for (i, x) in a.view_mut().data_mut().iter_mut().enumerate() {
            *x = i as i32 - 100;
        }
        a.flush().unwrap();
        // visible through another handle at once, before the map goes
        let want: Vec<Vec<i32>> = (0..50)
            .map(|r| (0..7).map(|c| r * 7 + c - 100).collect())
            .collect();
        assert_eq!(std::fs::read(&path).unwrap(), crate::to_vec(&want).unwrap());
        drop(a);

        let b = open::<i32>(&path).unwrap();
        assert_eq!(
            (b.shape(), b.order(), b.len()),
            (&[50, 7][..], Order::C, 350)
        );
        assert_eq!(b.view().data()[349], 249);
        // one map at a time: a writable map next to a live read-only one
        // is what the caveat forbids
        drop(b);
        let mut c = open_mut::<i32>(&path).unwrap();
        assert_eq!(c.view().data()[349], 249);
        c.view_mut().data_mut()[0] = 42;
        drop(c);
        assert_eq!(crate::from_path::<Vec<Vec<i32>>>(&path).unwrap()[0][0], 42);
    }

    #[test]
    fn zero_elements_and_bool() {
        let dir = scratch("zero");
        let path = dir.0.join("empty.npy");
        let a = create::<f64>(&path, &[0, 3]).unwrap();
        assert!(a.is_empty() && a.view().data().is_empty());
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), 128);
        assert_eq!(crate::view::<f64>(&bytes).unwrap().shape(), &[0, 3]);
        drop(a);
        let path = dir.0.join("bool.npy");
        let mut a = create::<bool>(&path, &[3]).unwrap();
        a.view_mut().data_mut()[1] = true;
        drop(a);
        assert_eq!(
            crate::from_path::<Vec<bool>>(&path).unwrap(),
            [false, true, false]
        );
        // a byte numpy reads as True but that is no Rust bool: refused
        let mut bytes = std::fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() = 2;
        std::fs::write(&path, &bytes).unwrap();
        assert!(open::<bool>(&path).is_err());
    }

    #[test]
    fn a_refused_create_leaves_the_file() {
        let dir = scratch("kept");
        let path = dir.0.join("kept.npy");
        std::fs::write(&path, b"kept").unwrap();
        assert!(create::<u8>(&path, &[usize::MAX, 2]).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"kept");
        // and a file that is no .npy cannot be opened as one
        assert!(open::<u8>(&path).is_err());
        assert!(open_mut::<u8>(&path).is_err());
    }
}
