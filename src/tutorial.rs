//! A tutorial: from derived structs to numpy and back.
//!
//! Every example here is a doctest and runs with `cargo test`.
//!
//! # 1. Write records
//!
//! A `Vec` of structs becomes a record array of shape `(N,)`. Field order is
//! declaration order; nested structs become nested records; fixed arrays
//! become subarray fields.
//!
//! ```
//! use serde::Serialize;
//!
//! #[derive(Serialize)]
//! struct Body { mass: f32, charge: i8 }
//!
//! #[derive(Serialize)]
//! struct Particle { id: u64, pos: [f64; 3], body: Body }
//!
//! let ps = vec![
//!     Particle { id: 1, pos: [0.0, 1.0, 2.0], body: Body { mass: 1.0, charge: -1 } },
//!     Particle { id: 2, pos: [3.0, 4.0, 5.0], body: Body { mass: 2.0, charge: 1 } },
//! ];
//! let bytes = npy_serde::to_vec(&ps)?;
//! let (header, _data_offset) = npy_serde::Header::from_bytes(&bytes, &Default::default())?;
//! assert_eq!(
//!     header.to_string(),
//!     "{'descr': [('id', '<u8'), ('pos', '<f8', (3,)), ('body', [('mass', '<f4'), ('charge', '|i1')])], \
//!      'fortran_order': False, 'shape': (2,), }"
//! );
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! In Python, `np.load("particles.npy")["body"]["mass"]` is then the column
//! of masses. Use [`to_writer`](crate::to_writer) for any `io::Write`.
//!
//! # 2. Read numpy's files, whatever their field order
//!
//! Reading matches record fields **by name**: the file may have its fields in
//! another order, extra fields, padding, titles, another byte order, or
//! narrower integers than the struct. What cannot be read exactly is an
//! error naming the record and field. When the struct's fields appear in
//! the file in the struct's order (with or without other fields between
//! them: files this crate wrote from the same struct, or numpy's with
//! extra columns), the names are matched on the first record and the
//! other records are read by position, which is faster; a field list with
//! an `alias` in it is always read by name.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! // What some other program wrote: big-endian, extra column, other order.
//! let dtype: npy_serde::Dtype = "[('extra', '|u1'), ('y', '>f8'), ('id', '>i4')]".parse()?;
//! #[derive(Serialize)]
//! struct Written { extra: u8, y: f64, id: i32 }
//! let bytes = npy_serde::WriteOptions::new()
//!     .dtype(dtype)
//!     .to_vec(&vec![Written { extra: 9, y: 0.5, id: 7 }])?;
//!
//! #[derive(Deserialize, Debug, PartialEq)]
//! struct Mine { id: i64, y: f64 }
//! let back: Vec<Mine> = npy_serde::from_slice(&bytes)?;
//! assert_eq!(back, vec![Mine { id: 7, y: 0.5 }]);
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! A file whose layout you do not know reads into any self-describing
//! type, for example `serde_json::Value`:
//!
//! ```
//! let bytes = npy_serde::to_vec(&vec![[1u8, 2], [3, 4]])?;
//! let v: serde_json::Value = npy_serde::from_slice(&bytes)?;
//! assert_eq!(v.to_string(), "[[1,2],[3,4]]");
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! # 3. Stream big files
//!
//! [`NpyWriter`](crate::NpyWriter) writes one record at a time (memory bounded
//! by one record) and patches the length into the header when it finishes;
//! [`NpyReader`](crate::NpyReader) reads the header first and then hands out
//! records one at a time.
//!
//! ```
//! use std::io::Cursor;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Sample { t: f64, v: i16 }
//!
//! let mut w = npy_serde::NpyWriter::new(Cursor::new(Vec::new()))?;
//! for i in 0..1000 {
//!     w.serialize(&Sample { t: f64::from(i) * 0.1, v: i as i16 })?;
//! }
//! let file = w.finish()?.into_inner();
//!
//! let mut r = npy_serde::NpyReader::new(&file[..])?;
//! assert_eq!(r.shape(), &[1000]);
//! let mut sum = 0i64;
//! for rec in r.deserialize::<Sample>() {
//!     sum += i64::from(rec?.v);
//! }
//! assert_eq!(sum, 499_500);
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! # 4. Archives: struct of arrays, and columns
//!
//! An `.npz` is a zip of `.npy` members. [`npz::to_writer`](crate::npz::to_writer)
//! writes one member per field of a struct (`np.load(f)["positions"]`), and a
//! `Vec` of records as one member per column, the way pandas-minded code
//! stores tables; a tuple of arrays as `arr_0`, `arr_1`, ... as
//! `np.savez(f, a, b)` does. [`npz::from_reader`](crate::npz::from_reader)
//! is the mirror.
//!
//! ```
//! use std::io::Cursor;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Snapshot { time: f64, ids: Vec<u32>, positions: Vec<[f64; 3]> }
//!
//! let snap = Snapshot { time: 0.5, ids: vec![1, 2], positions: vec![[0.0; 3], [1.0; 3]] };
//! let mut file = Cursor::new(Vec::new());
//! npy_serde::npz::to_writer(&mut file, &snap)?;
//! file.set_position(0);
//! let back: Snapshot = npy_serde::npz::from_reader(&mut file)?;
//! assert_eq!(back, snap);
//!
//! // Columns: one member per field, each of shape (N,) plus the field's shape.
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Row { id: u32, pos: [f64; 3] }
//! let rows = vec![Row { id: 1, pos: [0.0; 3] }, Row { id: 2, pos: [1.0; 3] }];
//! let mut file = Cursor::new(Vec::new());
//! npy_serde::npz::to_writer(&mut file, &rows)?;
//! let mut archive = npy_serde::npz::NpzReader::new(Cursor::new(file.into_inner()))?;
//! assert_eq!(archive.names(), ["id", "pos"]);
//! assert_eq!(archive.reader("pos")?.shape(), &[2, 3]);
//! let ids: Vec<u32> = archive.by_name("id")?;
//! assert_eq!(ids, [1, 2]);
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! [`NpzWriter`](crate::npz::NpzWriter) adds members one by one (also
//! compressed like `np.savez_compressed`, or streamed record by record), and
//! [`NpzReader`](crate::npz::NpzReader) opens members by name.
//!
//! # 5. Explicit dtypes and byte order
//!
//! [`WriteOptions::dtype`](crate::WriteOptions::dtype) fixes the layout:
//! fields are matched by name, padding is filled with zeros, and each value is
//! converted exactly into the dtype's type (or refused, naming record and
//! field). [`Dtype`](crate::Dtype) parses the text numpy writes and the short
//! forms people type.
//!
//! ```
//! use serde::Serialize;
//! #[derive(Serialize)]
//! struct Reading { ival: i32, dval: f64 }
//!
//! let dtype: npy_serde::Dtype = "[('ival', '>i4'), ('', '|V4'), ('dval', '>f8')]".parse()?;
//! let bytes = npy_serde::WriteOptions::new()
//!     .dtype(dtype)
//!     .to_vec(&vec![Reading { ival: 1, dval: 2.0 }])?;
//! let (_, data) = npy_serde::Header::from_bytes(&bytes, &Default::default())?;
//! assert_eq!(&bytes[data..data + 4], &[0, 0, 0, 1]); // big-endian 1
//!
//! // A value that does not fit is an error, nothing is written:
//! let err = npy_serde::WriteOptions::new()
//!     .dtype("[('ival', '|i1'), ('dval', '<f8')]".parse()?)
//!     .to_vec(&vec![Reading { ival: 1000, dval: 2.0 }])
//!     .unwrap_err();
//! assert!(err.to_string().starts_with("record 0, field ival"));
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! # 6. C layout: `align`
//!
//! [`WriteOptions::align`](crate::WriteOptions::align) lays records out like
//! numpy's `align=True` (and a C compiler on x86-64): each field at a multiple
//! of its alignment, padding written as `('', '|Vn')`.
//!
//! ```
//! #[derive(serde::Serialize)]
//! struct S { a: i8, b: i32, c: i8 }
//! let bytes = npy_serde::WriteOptions::new().align(true).to_vec(&vec![S { a: 1, b: 2, c: 3 }])?;
//! let (h, _) = npy_serde::Header::from_bytes(&bytes, &Default::default())?;
//! assert_eq!(h.descr.to_string(), "[('a', '|i1'), ('', '|V3'), ('b', '<i4'), ('c', '|i1'), ('', '|V3')]");
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! # 7. Complex numbers, datetimes, half floats, strings, bytes, padding
//!
//! serde has no complex, datetime or padding types; this crate provides them
//! (they serialize as plain values in other formats):
//!
//! ```
//! use npy_serde::{Datetime64, Padding, unit};
//! use num_complex::Complex;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Event {
//!     #[serde(with = "npy_serde::complex")]
//!     z: Complex<f64>,                  // '<c16'
//!     at: Datetime64<unit::ns>,         // '<M8[ns]'
//!     name: String,                     // '<Un', n = longest name
//!     #[serde(with = "serde_bytes")]
//!     tag: Vec<u8>,                     // '|Sn', n = longest tag
//!     _pad: Padding<4>,                 // ('', '|V4')
//! }
//!
//! let ev = vec![Event {
//!     z: Complex::new(1.0, -1.0),
//!     at: Datetime64::new(1_700_000_000_000_000_000),
//!     name: "pulse".into(),
//!     tag: b"ab".to_vec(),
//!     _pad: Padding,
//! }];
//! let bytes = npy_serde::to_vec(&ev)?;
//! let (h, _) = npy_serde::Header::from_bytes(&bytes, &Default::default())?;
//! assert_eq!(
//!     h.descr.to_string(),
//!     "[('z', '<c16'), ('at', '<M8[ns]'), ('name', '<U5'), ('tag', '|S2'), ('', '|V4')]"
//! );
//! let back: Vec<Event> = npy_serde::from_slice(&bytes)?;
//! assert_eq!(back, ev);
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! `half::f16` (feature `half`) maps to `'<f2'` bit for bit. numpy strips
//! trailing NULs from `S` and `U` values when it reads them, so a value
//! ending in NUL is refused on write (use a `V` dtype for raw bytes).
//!
//! # 8. Plain arrays: images, matrices, point clouds, Fortran order
//!
//! A plain numeric array reads into [`NdArray<T>`](crate::NdArray) with its
//! shape and its order as stored: an image, a matrix, an `(N, 3)` point
//! cloud (`NdArray<[f32; 3]>` takes the last axis), a Fortran-order matrix
//! (kept column-major until [`into_c_order`](crate::NdArray::into_c_order)).
//!
//! ```
//! use npy_serde::{NdArray, Order};
//!
//! // a 3 x 2 matrix saved in Fortran order (np.asfortranarray)
//! let m = vec![vec![1.0f64, 2.0], vec![3.0, 4.0], vec![5.0, 6.0]];
//! let file = npy_serde::WriteOptions::new().fortran_order(true).to_vec(&m)?;
//! let a: NdArray<f64> = npy_serde::from_slice(&file)?;
//! assert_eq!((a.shape(), a.order()), (&[3, 2][..], Order::Fortran));
//! assert_eq!(a.data(), &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]); // column by column
//! assert_eq!(a.into_c_order().into_vec(), m.concat());
//!
//! // an (N, 3) point cloud: one [f32; 3] per point
//! let cloud = npy_serde::to_vec(&vec![[0.0f32, 1.0, 2.0]; 4])?;
//! let pts: NdArray<[f32; 3]> = npy_serde::from_slice(&cloud)?;
//! assert_eq!(pts.shape(), &[4]);
//!
//! // a flat Vec says what the file holds
//! let err = npy_serde::from_slice::<Vec<f64>>(&file).unwrap_err();
//! assert!(err.to_string().contains("2-d array of shape (3, 2)"), "{err}");
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! serde's arrays stop at 32 elements (`[f32; 640]` does not implement
//! `Deserialize`): wide rows are `NdArray<f32>` or `Vec<Vec<f32>>`.
//!
//! Writing an `NdArray` (or an [`NdView`](crate::NdView) of borrowed
//! data) keeps its shape and its own order; [`WriteOptions::fortran_order`](crate::WriteOptions::fortran_order)
//! set explicitly converts the layout, [`WriteOptions::dtype`](crate::WriteOptions::dtype)
//! the values. In a record it is a subarray field:
//!
//! ```
//! use npy_serde::NdArray;
//!
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Frame { t: f64, depth: NdArray<u16> }
//!
//! let frames = vec![
//!     Frame { t: 0.0, depth: NdArray::from_shape_vec(vec![2, 2], vec![1, 2, 3, 4])? },
//!     Frame { t: 0.5, depth: NdArray::from_shape_vec(vec![2, 2], vec![5, 6, 7, 8])? },
//! ];
//! let bytes = npy_serde::to_vec(&frames)?;
//! assert!(String::from_utf8_lossy(&bytes).contains("('depth', '<u2', (2, 2))"));
//! assert_eq!(npy_serde::from_slice::<Vec<Frame>>(&bytes)?, frames);
//!
//! // big-endian, column-major: what a Fortran program reads
//! let m = NdArray::from_shape_vec(vec![2, 3], vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0])?;
//! let be = npy_serde::WriteOptions::new()
//!     .dtype(">f8".parse()?)
//!     .fortran_order(true)
//!     .to_vec(&m)?;
//! assert!(String::from_utf8_lossy(&be).contains("'descr': '>f8', 'fortran_order': True"));
//! assert_eq!(npy_serde::from_slice::<NdArray<f64>>(&be)?, m);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! With the feature `ndarray`, `into_ndarray::<D>()` makes an `NdArray` an
//! ndarray `Array<T, D>` (a Fortran file keeps Fortran strides, no copy) and
//! `NdArray::from(array)` goes back; the module `npy_serde::ndarray` has the
//! details and the functions for `Array` fields of `.npz` structs. ndarray's
//! own serde impl (its feature `serde`) does not write or read numpy's
//! arrays with this format: convert through `NdArray` instead.
//!
//! # 9. Errors
//!
//! Every error says where (npz member, record, field path), what was
//! expected and what was found, in numpy's vocabulary:
//!
//! ```
//! #[derive(serde::Serialize)]
//! struct W { x: f64 }
//! #[derive(serde::Deserialize, Debug)]
//! struct R { x: u8 }
//! let bytes = npy_serde::to_vec(&vec![W { x: 1.0 }, W { x: 2.5 }])?;
//! let err = npy_serde::from_slice::<Vec<R>>(&bytes).unwrap_err();
//! assert!(err.to_string().starts_with("record 0, field x: "), "{err}");
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! # 10. Memory maps: `memmap::create`, `open`, `open_mut`
//!
//! With the feature `memmap`, one call does what numpy's `open_memmap`
//! does: [`memmap::create`](crate::array::memmap::create) makes a file of zeros of
//! any size (numpy's header, then sparse zeros: a file larger than memory
//! costs nothing yet) and maps it to be filled in place;
//! [`memmap::open`](crate::array::memmap::open) maps a file to read it without
//! copying, [`memmap::open_mut`](crate::array::memmap::open_mut) to write it in
//! place. The views have the file's shape and order, in constant time
//! whatever the size. The element type must be the file's dtype exactly:
//! nothing is converted. A map is only sound while nothing else truncates
//! or writes the file (memmap2's caveat, documented on each function).
//!
#![cfg_attr(feature = "memmap", doc = "```")]
#![cfg_attr(not(feature = "memmap"), doc = "```ignore")]
//! use npy_serde::{Order, memmap};
//!
//! # let dir = std::env::temp_dir().join(format!("npy-tutorial-memmap-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! let path = dir.join("frames.npy");
//! // np.lib.format.open_memmap(path, mode='w+', dtype='<f4', shape=(100, 480, 640))
//! let mut frames = memmap::create::<f32>(&path, &[100, 480, 640])?;
//! let frame = 480 * 640;
//! frames.view_mut().data_mut()[7 * frame..8 * frame].fill(1.0); // frame 7, in place
//! frames.flush()?;
//! drop(frames);
//!
//! // np.load(path, mmap_mode='r')
//! let frames = memmap::open::<f32>(&path)?;
//! assert_eq!((frames.shape(), frames.order()), (&[100, 480, 640][..], Order::C));
//! assert_eq!(frames.view().data()[7 * frame], 1.0);
//!
//! // nothing is converted: another type or byte order is an error
//! let err = memmap::open::<f64>(&path).unwrap_err();
//! assert!(err.to_string().contains(": cannot view '<f4' data of shape (100, 480, 640) as f64"));
//! # drop(frames);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Underneath (feature `view` alone, with a map of your own):
//! [`write_zeroed`](crate::write_zeroed) makes the file,
//! [`view_mut`](crate::view_mut) and [`view`](crate::view()) borrow the
//! bytes of any map (or any aligned buffer) as an
//! [`NdViewMut`](crate::NdViewMut) / [`NdView`](crate::NdView); the map is
//! then your `unsafe`. (This example runs as a doctest of the repository's
//! `tests` package, which has memmap2.)
//!
//! ```ignore
//! use memmap2::MmapMut;
//!
//! # let dir = std::env::temp_dir().join(format!("npy-tutorial-map-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! let path = dir.join("frames.npy");
//! let file = std::fs::OpenOptions::new()
//!     .read(true).write(true).create(true).truncate(true).open(&path)?;
//! npy_serde::write_zeroed(&file, &"<f4".parse()?, &[100, 480, 640])?;
//! // SAFETY: this process alone uses the file while it is mapped.
//! let mut map = unsafe { MmapMut::map_mut(&file)? };
//! npy_serde::view_mut::<f32>(&mut map)?.data_mut()[5] = 1.0;
//! assert_eq!(npy_serde::view::<f32>(&map)?.data()[5], 1.0);
//! # drop(map);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A view is refused, never wrong: big-endian data (`'>f8'`), another type,
//! data not aligned for the type in memory (a `Vec<u8>` is only 1-byte
//! aligned; a map is page aligned and every `.npy` file's data starts at a
//! multiple of 64), and a data section shorter or longer than the header
//! says. [`from_slice`](crate::from_slice) reads (and converts) all of them.
//! `bool` is viewed too, after a check that every byte is 0 or 1.
//!
//! `.npz` archives: [`NpzReader::data_range`](crate::npz::NpzReader::data_range)
//! gives where a stored member's array data lies in the archive; a map of
//! the whole archive then views it with
//! [`DataRange::view`](crate::npz::DataRange::view). Archives written by
//! [`NpzWriter`](crate::npz::NpzWriter) align that data to 64 bytes;
//! numpy's `np.savez` does not, so viewing its members is refused as
//! misaligned for types wider than a byte, and deflated members have no
//! range at all.
//!
//! # 11. Every core: feature `rayon`
//!
//! With the `rayon` feature, a large slice of records is read and written
//! on every core of rayon's pool (`RAYON_NUM_THREADS`, or a pool of the
//! caller's own entered with `install`): `par_to_vec`
//! (and `par_to_writer`, `par_to_path`, the same on `WriteOptions`) encodes
//! chunks of the slice at once and writes exactly the bytes of `to_vec`,
//! string widths taken over all the records; `par_from_slice` and
//! `par_from_path` decode chunks of the first axis into a `Vec`, each row
//! straight into its place. Plain numbers read in one block (`Bulk`,
//! `NdArray`) split across the cores by themselves once they pass 512 KiB,
//! through every read call. Values, bytes and errors (the failing record's
//! index included) are those of the sequential calls; small inputs simply
//! take them.
//!
#![cfg_attr(feature = "rayon", doc = "```")]
#![cfg_attr(not(feature = "rayon"), doc = "```ignore")]
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Star {
//!     name: String,
//!     pos: [f64; 3],
//!     mag: f32,
//! }
//! let stars: Vec<Star> = (0..50_000)
//!     .map(|i| Star { name: format!("HD {i}"), pos: [i as f64; 3], mag: 4.5 })
//!     .collect();
//! let bytes = npy_serde::par_to_vec(&stars)?;
//! assert_eq!(bytes, npy_serde::to_vec(&stars)?); // '<U8' for "HD 49999"
//!
//! let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! let back: Vec<Star> = pool.install(|| npy_serde::par_from_slice(&bytes))?;
//! assert_eq!(back, stars);
//! # Ok::<(), npy_serde::Error>(())
//! ```
