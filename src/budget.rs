//! [`ReadOptions::max_bytes`](crate::ReadOptions::max_bytes): what one read
//! call may read, inflate and allocate.
//!
//! A read is charged before the bytes are read: the data its header
//! describes (the target holds about that much), the raw bytes of a member
//! that is not `.npy`, and, where a generic target (`deserialize_any`, such
//! as `serde_json::Value`) takes a whole array or member, a per-value
//! overhead ([`ANY_VALUE_COST`]). Charges add up over one call (all the
//! members of one `npz::from_reader`).

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::format::header::Header;
use crate::format::header_read::{outer_values, tally};

/// Bytes a generic target is charged per value it builds (each number,
/// string and sequence of the array, and each record field's key and
/// value): a `serde_json::Value` is 32 bytes, and the `Vec` holding it may
/// hold twice that while it doubles; a record's field also costs its
/// `String` key and map entry.
pub(crate) const ANY_VALUE_COST: u64 = 64;

/// The bytes one call has spent of `max_bytes`.
#[derive(Debug)]
pub(crate) struct Budget {
    max: u64,
    spent: AtomicU64,
}

impl Budget {
    pub(crate) fn new(max: u64) -> Self {
        Budget {
            max,
            spent: AtomicU64::new(0),
        }
    }

    /// Starts a new call.
    #[cfg(any(feature = "npz", test))]
    pub(crate) fn reset(&self) {
        self.spent.store(0, Ordering::Relaxed);
    }

    /// What is left.
    #[cfg(any(feature = "npz", test))]
    pub(crate) fn left(&self) -> u64 {
        self.max.saturating_sub(self.spent.load(Ordering::Relaxed))
    }

    /// Charges `n` bytes for `what` ("the array's data"), or refuses them.
    pub(crate) fn charge(&self, n: u64, what: &dyn Fn() -> String) -> Result<()> {
        if self.max == u64::MAX {
            return Ok(());
        }
        self.spent
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |spent| {
                let total = spent.saturating_add(n);
                (total <= self.max).then_some(total)
            })
            .map(|_| ())
            .map_err(|spent| self.refusal(n, spent, &what()))
    }

    #[cold]
    fn refusal(&self, n: u64, spent: u64, what: &str) -> Error {
        let total = spent.saturating_add(n);
        Error::limit(format!(
            "{what} takes {n} bytes{}, more than max_bytes {}; raise it with \
             ReadOptions::max_bytes({total})",
            already_read(spent),
            self.max
        ))
    }

    /// The refusal of `what`, known only to be more than what is left.
    #[cfg(feature = "npz")]
    #[cold]
    pub(crate) fn more_than_left(&self, what: &str) -> Error {
        let spent = self.max.saturating_sub(self.left());
        Error::limit(format!(
            "{what} take more than the {} bytes left{} of max_bytes {}; raise it with \
             ReadOptions::max_bytes",
            self.left(),
            already_read(spent),
            self.max
        ))
    }

    /// Charges the data an array's header describes (what a target holds
    /// of it), before it is read.
    pub(crate) fn charge_data(&self, header: &Header) -> Result<()> {
        self.charge(header.data_len()?, &|| "the array's data".to_owned())
    }

    /// Charges a generic target's values for the whole array of `header`.
    pub(crate) fn charge_any(&self, header: &Header) -> Result<()> {
        let per = tally(&header.descr).2;
        let count = header.element_count().unwrap_or(u64::MAX);
        let n = count
            .saturating_mul(per)
            .saturating_mul(ANY_VALUE_COST)
            .saturating_add(outer_values(&header.shape).saturating_mul(ANY_VALUE_COST));
        self.charge(n, &|| {
            format!(
                "reading the array's {count} elements into a generic value (deserialize_any, \
                 such as serde_json::Value: {ANY_VALUE_COST} bytes a value)"
            )
        })
    }
}

/// What a refusal says of the bytes charged before it in the same call.
fn already_read(spent: u64) -> String {
    if spent == 0 {
        String::new()
    } else {
        format!(" (with the {spent} bytes this call has already read)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dtype::Dtype;

    fn any_values(dt: &Dtype) -> u64 {
        tally(dt).2
    }

    #[test]
    fn values_of_a_generic_target() {
        assert_eq!(outer_values(&[]), 0);
        assert_eq!(outer_values(&[5]), 1);
        assert_eq!(outer_values(&[2, 3]), 3);
        assert_eq!(outer_values(&[2, 3, 4]), 9);
        let d: Dtype = "[('a', '<f8'), ('b', '<i4', (3,))]".parse().unwrap();
        // map + (key + a) + (key + [3 numbers] + the sequence)
        assert_eq!(any_values(&d), 1 + 2 + 1 + 3 + 1);
    }

    #[test]
    fn charges_add_up_and_name_the_limit() {
        let b = Budget::new(100);
        b.charge(60, &|| "x".into()).unwrap();
        let err = b.charge(50, &|| "the array's data".into()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "limit exceeded: the array's data takes 50 bytes (with the 60 bytes this call has \
             already read), more than max_bytes 100; raise it with ReadOptions::max_bytes(110)"
        );
        assert_eq!(b.left(), 40);
        b.reset();
        assert_eq!(b.left(), 100);
    }
}
