//! Readers and writers move between threads with their inner reader or
//! writer, and one file is read from many threads at once (the crate keeps
//! no global mutable state a read depends on).

use std::io::{Cursor, Read, Seek, Write};

use npy_serde::npz::{NpzReader, NpzWriter};
use npy_serde::{NpyReader, NpyWriter};

fn send<T: Send>() {}

/// Compile-time: for every inner type that is `Send`, the wrapper is too.
#[allow(dead_code)]
fn wrappers_are_send<R: Read + Seek + Send, W: Write + Seek + Send>() {
    send::<NpyReader<R>>();
    send::<NpyWriter<W>>();
    send::<NpzReader<R>>();
    send::<NpzWriter<W>>();
}

#[test]
fn wrappers_of_files_and_buffers_are_send() {
    wrappers_are_send::<std::fs::File, std::fs::File>();
    wrappers_are_send::<Cursor<Vec<u8>>, Cursor<Vec<u8>>>();
    wrappers_are_send::<Cursor<&[u8]>, std::io::BufWriter<std::fs::File>>();
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
struct P {
    id: u32,
    name: String,
    pos: [f64; 3],
}

fn records(n: u32) -> Vec<P> {
    (0..n)
        .map(|i| P {
            id: i,
            name: format!("p{}", i % 97),
            pos: [f64::from(i), 0.5, -1.0],
        })
        .collect()
}

#[test]
fn one_file_read_from_many_threads() {
    let ps = records(5000);
    let dir = std::env::temp_dir().join(format!("npy_serde_threads_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let npy = dir.join("p.npy");
    npy_serde::to_path(&npy, &ps).unwrap();
    let mut npz = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut npz, &ps).unwrap();
    let npz = npz.into_inner();
    let bytes = std::fs::read(&npy).unwrap();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..8u32)
            .map(|t| {
                let (ps, npy, npz, bytes) = (&ps, &npy, &npz, &bytes);
                s.spawn(move || {
                    for round in 0..4u32 {
                        // whole reads: from the path, from shared bytes
                        assert_eq!(&npy_serde::from_path::<Vec<P>>(npy).unwrap(), ps);
                        assert_eq!(&npy_serde::from_slice::<Vec<P>>(bytes).unwrap(), ps);
                        // random access through an own file handle
                        let file = std::fs::File::open(npy).unwrap();
                        let mut r = NpyReader::new(std::io::BufReader::new(file)).unwrap();
                        let at = u64::from((t * 613 + round * 97) % 5000);
                        r.seek_record(at).unwrap();
                        let p: P = r.deserialize().next().unwrap().unwrap();
                        assert_eq!(p, ps[at as usize]);
                        // an archive shared by all threads
                        let mut z = NpzReader::new(Cursor::new(&npz[..])).unwrap();
                        assert_eq!(z.by_name::<Vec<u32>>("id").unwrap().len(), 5000);
                        let back: Vec<P> =
                            npy_serde::npz::from_reader(Cursor::new(&npz[..])).unwrap();
                        assert_eq!(&back, ps);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    });
    std::fs::remove_dir_all(&dir).unwrap();
}
