//! `.npz` archives: numpy's archives read, members written like numpy's,
//! columnar writing, data ranges of stored members, deflate levels.

mod archives;
mod columns;
mod data_range;
mod levels;
mod members;
mod rows;
