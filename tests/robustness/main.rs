//! Untrusted input and failing output: the hostile corpus, mutated and
//! truncated files, nesting depth, write faults and stable fuzzing.

mod concurrency;
mod depth;
mod faults;
mod fuzz;
mod fuzz_npz;
mod fuzz_write;
mod hostile;
mod kill_append;
mod mutate;
mod untrusted_cost;
