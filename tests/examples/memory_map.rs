//! Cookbook: an array bigger than you want in memory. `write_zeroed` makes
//! the file (sparse: no time, no disk space yet), a writable memory map and
//! `view_mut` fill it in place, a read-only map and `view` read it back
//! without copying. numpy opens the file as any other.
//!
//! ```sh
//! cargo run -p tests --example memory_map -- OUTDIR   # default: a fresh temp dir
//! python3 -c "import numpy as np; print(np.load('OUTDIR/grid.npy', mmap_mode='r')[-1])"
//! ```
//!
//! The maps are this example's `unsafe`, not the crate's: a map is only
//! sound while no one else changes or truncates the file.

use std::fs::OpenOptions;
use std::path::PathBuf;

use memmap2::{Mmap, MmapMut};
use npy_serde::Dtype;

const ROWS: usize = 1_000_000;
const COLS: usize = 3;

fn out_dir() -> std::io::Result<PathBuf> {
    let dir = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => std::env::temp_dir().join(format!("npy_serde_mmap_{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = out_dir()?.join("grid.npy");
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)?;
    let f8: Dtype = "<f8".parse()?;
    npy_serde::write_zeroed(&file, &f8, &[ROWS, COLS])?;
    println!("grid.npy: {} bytes of '<f8' zeros", file.metadata()?.len());

    // SAFETY: the file is this process's alone while it is mapped: nothing
    // else writes, truncates or removes it.
    let mut map = unsafe { MmapMut::map_mut(&file)? };
    let mut grid = npy_serde::view_mut::<f64>(&mut map)?;
    println!(
        "view_mut: shape {:?}, {:?} order",
        grid.shape(),
        grid.order()
    );
    for (i, row) in grid.data_mut().chunks_exact_mut(COLS).enumerate() {
        let t = i as f64;
        row.copy_from_slice(&[t, t * 0.5, -t]);
    }
    map.flush()?;
    drop(map);

    // SAFETY: as above.
    let map = unsafe { Mmap::map(&file)? };
    let grid = npy_serde::view::<f64>(&map)?;
    let data = grid.data();
    let sum: f64 = data.iter().skip(1).step_by(COLS).sum();
    println!(
        "view: shape {:?}, last row {:?}, sum of column 1 = {sum}",
        grid.shape(),
        &data[data.len() - COLS..]
    );

    // a view never converts: another type is an error naming the file's
    let err = npy_serde::view::<f32>(&map).unwrap_err();
    println!("view::<f32>: {err}");
    Ok(())
}
