//! Live interop with numpy (`.ci/run` drives it: `from_numpy` reads what
//! `interop/numpy_writes.py` wrote, `to_numpy` writes what
//! `interop/numpy_checks.py` checks), and files for a manual check.

mod from_numpy;
mod manual_check;
mod to_numpy;
