//! The module's allocator: the dlmalloc that std uses on wasm, asking the host for memory in large steps.
//! std's grows the memory 64 KiB at a time, and a `memory.grow` costs V8 about a millisecond (more as the
//! memory gets larger): opening 100,000 memories spent 1.4 s growing it. Here each step is at least an
//! eighth of the memory so far (and 1 MiB), so a module reaches its size in a few dozen steps. Pages grown
//! but not yet touched cost the host no physical memory.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32::{memory_grow, memory_size};
use core::ptr;

use dlmalloc::{Allocator, Dlmalloc};

/// WebAssembly's page size.
const PAGE: usize = 64 * 1024;
/// The smallest step.
const MIN_STEP: usize = 1 << 20;

#[global_allocator]
static HEAP: Heap = Heap;

/// The allocator; wasm here is single-threaded, so calls never overlap.
struct Heap;

static mut DLMALLOC: Dlmalloc<Steps> = Dlmalloc::new_with_allocator(Steps);

// SAFETY: each method hands `layout` to the one `DLMALLOC`, which wasm's single thread never enters twice
// at once (no allocation happens inside dlmalloc's own calls).
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        (*ptr::addr_of_mut!(DLMALLOC)).malloc(layout.size(), layout.align())
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        (*ptr::addr_of_mut!(DLMALLOC)).free(pointer, layout.size(), layout.align())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        (*ptr::addr_of_mut!(DLMALLOC)).calloc(layout.size(), layout.align())
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        (*ptr::addr_of_mut!(DLMALLOC)).realloc(pointer, layout.size(), layout.align(), new_size)
    }
}

/// Grows the memory for dlmalloc in steps of at least an eighth of its size.
struct Steps;

/// `pages` more pages: the start of the new region and its size, or `None` when the host refuses.
fn grow(pages: usize) -> Option<(*mut u8, usize)> {
    let previous = memory_grow(0, pages);
    (previous != usize::MAX).then(|| ((previous * PAGE) as *mut u8, pages * PAGE))
}

// SAFETY: `alloc` returns regions that `memory.grow` just added, which nothing else uses; nothing is
// ever given back (wasm memory cannot shrink).
unsafe impl Allocator for Steps {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let step = size.max(memory_size(0) / 8 * PAGE).max(MIN_STEP);
        // A host that refuses the large step may still grant exactly what was asked.
        match grow(step.div_ceil(PAGE)).or_else(|| grow(size.div_ceil(PAGE))) {
            Some((base, size)) => (base, size, 0),
            None => (ptr::null_mut(), 0, 0),
        }
    }

    fn remap(&self, _: *mut u8, _: usize, _: usize, _: bool) -> *mut u8 {
        ptr::null_mut()
    }

    fn free_part(&self, _: *mut u8, _: usize, _: usize) -> bool {
        false
    }

    fn free(&self, _: *mut u8, _: usize) -> bool {
        false
    }

    fn can_release_part(&self, _: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        true
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}
