//! Untrusted input and failing output: the hostile corpus, mutated and
//! truncated files, nesting depth, write faults and stable fuzzing.

mod depth;
mod faults;
mod fuzz;
mod hostile;
mod mutate;
