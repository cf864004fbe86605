//! Cookbook: an array bigger than you want in memory, in one call each way
//! (feature `memmap`): `memmap::create` makes the file (numpy's header,
//! then sparse zeros: no time, no disk space yet) and maps it, the map is
//! filled in place and flushed, and `memmap::open` maps it again to read it
//! without copying. numpy opens the file as any other.
//!
//! ```sh
//! cargo run --features memmap --example memory_map -- OUTDIR   # default: a fresh temp dir
//! python3 -c "import numpy as np; print(np.load('OUTDIR/grid.npy', mmap_mode='r')[-1])"
//! ```
//!
//! A map is only sound while nothing else changes or truncates the file:
//! memmap2's caveat, which `npy_serde::memmap` documents and takes on.

use std::path::PathBuf;

use npy_serde::memmap;

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

    // numpy: np.lib.format.open_memmap(path, mode='w+', dtype='<f8', shape=(ROWS, COLS))
    let mut grid = memmap::create::<f64>(&path, &[ROWS, COLS])?;
    println!(
        "grid.npy: {} bytes of '<f8' zeros",
        std::fs::metadata(&path)?.len()
    );
    let mut view = grid.view_mut();
    println!(
        "view_mut: shape {:?}, {:?} order",
        view.shape(),
        view.order()
    );
    for (i, row) in view.data_mut().chunks_exact_mut(COLS).enumerate() {
        let t = i as f64;
        row.copy_from_slice(&[t, t * 0.5, -t]);
    }
    grid.flush()?;
    drop(grid);

    // numpy: np.load(path, mmap_mode='r')
    let grid = memmap::open::<f64>(&path)?;
    let data = grid.view().data();
    let sum: f64 = data.iter().skip(1).step_by(COLS).sum();
    println!(
        "view: shape {:?}, last row {:?}, sum of column 1 = {sum}",
        grid.shape(),
        &data[data.len() - COLS..]
    );

    // a map never converts: another type is an error naming the file's
    let err = memmap::open::<f32>(&path).unwrap_err();
    println!("open::<f32>: {err}");
    Ok(())
}
