//! Parallel paths (feature `rayon`): their values, bytes and errors are
//! the sequential paths', at one thread and at several.

mod npz;
mod read;
mod write;
