//! Large output buffers backed by huge pages where the platform allows.
//!
//! A fresh buffer costs a page fault per 4 KiB page written; for a 50 MB
//! output that is about 12,000 faults, each a trap into the kernel and a
//! zeroed page. Linux's transparent huge pages cut that 512-fold, but
//! where they are enabled "on madvise" (the common default) a program must
//! ask for them, as numpy does for its arrays of 4 MiB or more. This module
//! asks for them for the spare capacity of a `Vec` the crate is about to
//! fill, once per buffer, before the first byte is written.
//!
//! It holds the crate's one `unsafe` block: `madvise(MADV_HUGEPAGE)` over
//! whole pages inside the vector's own allocation. See [`advise`].

/// Buffers smaller than this are left alone (numpy's own threshold).
const AT_LEAST: usize = 4 << 20;

/// Asks the kernel to back `region` with huge pages, when it spans at
/// least [`AT_LEAST`] bytes: the spare capacity of a `Vec` about to be
/// filled (`v.spare_capacity_mut()`), or a zeroed buffer not yet touched.
/// Advice only: the contents of `region` do not change, and a refusal
/// (another platform, huge pages disabled, an old kernel) changes nothing.
pub(crate) fn advise<T>(region: &mut [T]) {
    let bytes = std::mem::size_of_val(region);
    if bytes < AT_LEAST {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = region.as_mut_ptr() as usize;
        // whole pages inside the region
        let first = start.next_multiple_of(PAGE);
        let end = (start + bytes) & !(PAGE - 1);
        if end > first {
            let addr = region.as_mut_ptr().cast::<u8>().wrapping_add(first - start);
            // SAFETY: [addr, addr + (end - first)) lies within `region`,
            // memory that the caller's allocation owns and that nothing else
            // refers to while `region` borrows it mutably. MADV_HUGEPAGE is
            // advice: it changes neither the contents of the memory nor the
            // mapping's permissions, so no value or reference can observe
            // it, only how the kernel backs the pages (when first touched,
            // or later by merging them). An error is ignored.
            #[allow(unsafe_code)]
            let _ = unsafe {
                rustix::mm::madvise(addr.cast(), end - first, rustix::mm::Advice::LinuxHugepage)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_changes_no_byte_and_the_vector_stays_usable() {
        // a filled region (the zeroed buffer case) keeps its contents
        let mut filled: Vec<u8> = (0..(8usize << 20)).map(|i| (i % 251) as u8).collect();
        advise(&mut filled[..]);
        assert!(
            filled
                .iter()
                .enumerate()
                .all(|(i, &b)| b == (i % 251) as u8)
        );
        // spare capacity, at an odd offset: filled after the advice
        let mut v: Vec<u64> = Vec::with_capacity(3 << 20);
        v.extend([7, 8, 9]);
        advise(v.spare_capacity_mut());
        v.extend(0..(3u64 << 20) - 3);
        assert_eq!(v[..4], [7, 8, 9, 0]);
        assert_eq!(v.last(), Some(&((3u64 << 20) - 4)));
        // below the threshold, and empty or zero-sized regions: nothing to do
        advise(&mut [0u8; 16][..]);
        advise(&mut [(); 1 << 30][..]);
        advise(Vec::<u8>::new().spare_capacity_mut());
    }

    /// The advice reaches the kernel: the mapping holding an advised buffer
    /// is eligible for huge pages (`THPeligible: 1` in /proc/self/smaps),
    /// where the system allows them at all.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_kernel_takes_the_advice() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if !mode.is_ok_and(|m| m.contains("[madvise]") || m.contains("[always]")) {
            return; // huge pages are off here: nothing can be asked
        }
        let mut v: Vec<u8> = Vec::with_capacity(64 << 20);
        advise(v.spare_capacity_mut());
        let addr = v.spare_capacity_mut().as_ptr() as usize + (32 << 20);
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        let mut eligible = None;
        for line in smaps.lines() {
            let range = line.split(' ').next().and_then(|r| r.split_once('-'));
            // a mapping's first line starts with its address range
            if let Some((lo, hi)) = range {
                if let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
                {
                    inside = (lo..hi).contains(&addr);
                    continue;
                }
            }
            if inside {
                if let Some(flag) = line.strip_prefix("THPeligible:") {
                    eligible = Some(flag.trim().to_string());
                }
            }
        }
        assert_eq!(
            eligible.as_deref(),
            Some("1"),
            "the buffer's mapping is not eligible"
        );
        drop(v);
    }
}
