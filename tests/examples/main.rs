//! The cookbook examples whose output is pinned here.

mod inspect;
