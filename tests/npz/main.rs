//! `.npz` archives: numpy's archives read, members written like numpy's,
//! columnar writing, data ranges of stored members.

mod archives;
mod columns;
mod data_range;
mod members;
mod rows;
