//! The wasm32 kernels, exported for bench/peak.mjs (plain exports, no bindings).
use core::arch::wasm32::*;

use crate::ACCUMULATORS;

fn sum(acc: [v128; ACCUMULATORS]) -> f32 {
    let total = acc.iter().fold(f32x4_splat(0.0), |s, &a| f32x4_add(s, a));
    (0..4).map(|lane| lane_of(total, lane)).sum()
}

fn lane_of(v: v128, lane: usize) -> f32 {
    match lane {
        0 => f32x4_extract_lane::<0>(v),
        1 => f32x4_extract_lane::<1>(v),
        2 => f32x4_extract_lane::<2>(v),
        _ => f32x4_extract_lane::<3>(v),
    }
}

/// `acc = step(x, y, acc)` for every accumulator, `iterations` times; `seed` keeps the inputs unknown to
/// the compiler.
#[inline(always)]
fn run(iterations: u32, seed: f32, step: impl Fn(v128, v128, v128) -> v128) -> f32 {
    let x = f32x4_splat(seed);
    let y = f32x4_splat(1.0 - seed * 1e-9);
    let mut acc = [f32x4_splat(seed); ACCUMULATORS];
    for _ in 0..iterations {
        for a in acc.iter_mut() {
            *a = step(x, y, *a);
        }
    }
    sum(acc)
}

/// `acc = acc + x * y` on 4 lanes: a multiply, then an add.
#[no_mangle]
pub extern "C" fn mul_add_f32x4(iterations: u32, seed: f32) -> f32 {
    run(iterations, seed, |x, y, a| f32x4_add(a, f32x4_mul(x, y)))
}

/// `acc = x * y + acc` with `f32x4.relaxed_madd`.
#[cfg(feature = "relaxed")]
#[no_mangle]
pub extern "C" fn relaxed_madd_f32x4(iterations: u32, seed: f32) -> f32 {
    run(iterations, seed, |x, y, a| f32x4_relaxed_madd(x, y, a))
}
