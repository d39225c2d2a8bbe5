//! Memory in use, counted by the binary's allocator.
//!
//! The `grundy` binary installs [`Counting`](crate::memory::Counting) as its global allocator; the
//! evaluator reads [`in_use`](crate::memory::in_use) where it polls for Ctrl-C and before large
//! allocations, and ends a computation that passes `--max-memory` with a
//! diagnostic. Without the allocator (the library used on its own) nothing
//! is counted and the limit does not apply.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);

/// What an allocation of `n` bytes takes from the system, as glibc's
/// malloc lays it out: a header of 8 bytes, chunks of at least 32 bytes in
/// steps of 16, and whole pages for large blocks (mapped on their own).
/// Counting only the bytes asked for would under-count small allocations
/// (a memo of small keys) by half against resident memory.
#[inline]
fn chunk(n: usize) -> usize {
    if n >= 128 << 10 {
        n.saturating_add(4095) & !4095
    } else {
        ((n + 8).max(32) + 15) & !15
    }
}

/// The system allocator, counting the bytes it hands out.
pub struct Counting;

// SAFETY: every call is forwarded to `System` with the same arguments; the
// counter is only arithmetic beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            IN_USE.fetch_add(chunk(layout.size()), Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            IN_USE.fetch_add(chunk(layout.size()), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(chunk(layout.size()), Ordering::Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            IN_USE.fetch_sub(chunk(layout.size()), Ordering::Relaxed);
            IN_USE.fetch_add(chunk(new_size), Ordering::Relaxed);
        }
        p
    }
}

/// Turns counting on: called once by the binary, which installs
/// [`Counting`].
pub fn enable() {
    COUNTING.store(true, Ordering::Relaxed);
}

/// Bytes in use, when the counting allocator is installed.
pub fn in_use() -> Option<usize> {
    COUNTING
        .load(Ordering::Relaxed)
        .then(|| IN_USE.load(Ordering::Relaxed))
}

/// Whether `more` bytes fit under `limit` (0: no limit).
pub fn fits(more: usize, limit: usize) -> bool {
    match in_use() {
        Some(used) if limit > 0 => used.saturating_add(more) <= limit,
        _ => true,
    }
}

/// A byte count for people: `1.5 GB`, `300 MB`.
pub fn show(bytes: usize) -> String {
    let mb = bytes as f64 / (1 << 20) as f64;
    if mb >= 1024.0 {
        format!("{:.1} GB", mb / 1024.0)
    } else {
        format!("{mb:.0} MB")
    }
}
