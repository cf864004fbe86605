//! `.npz` archives: numpy's archives read, members written like numpy's,
//! columnar writing.

mod archives;
mod columns;
mod members;
