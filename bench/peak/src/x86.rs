//! The x86-64 kernels: SSE's 4-lane multiply then add (what SIMD128 becomes), 4-lane FMA (what relaxed
//! SIMD can become) and AVX2's 8-lane FMA (what gemm uses natively).
use core::arch::x86_64::*;

use crate::ACCUMULATORS;

/// A kernel: `(iterations, seed) → checksum`, and the lanes it works on.
pub struct Kernel {
    pub name: &'static str,
    pub lanes: usize,
    pub run: fn(u32, f32) -> f32,
}

/// The kernels this CPU can run (the `unsafe` calls are each behind the check of their features).
pub fn kernels() -> Vec<Kernel> {
    let mut all = vec![Kernel { name: "native SSE: 4 lanes, multiply then add", lanes: 4, run: sse_mul_add }];
    if is_x86_feature_detected!("fma") {
        all.push(Kernel { name: "native FMA: 4 lanes, fused", lanes: 4, run: |n, s| unsafe { fma_128(n, s) } });
    }
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        all.push(Kernel {
            name: "native AVX2+FMA: 8 lanes, fused (gemm's kernel)",
            lanes: 8,
            run: |n, s| unsafe { fma_256(n, s) },
        });
    }
    all
}

/// `acc = step(x, y, acc)` for every accumulator, `iterations` times, over `splat`ted inputs; inlined
/// into each kernel, so the steps compile with that kernel's target features.
#[inline(always)]
fn run<V: Copy>(
    iterations: u32,
    seed: f32,
    splat: impl Fn(f32) -> V,
    step: impl Fn(V, V, V) -> V,
) -> [V; ACCUMULATORS] {
    let (x, y) = (splat(seed), splat(1.0 - seed * 1e-9));
    let mut acc = [splat(seed); ACCUMULATORS];
    for _ in 0..iterations {
        for a in acc.iter_mut() {
            *a = step(x, y, *a);
        }
    }
    acc
}

fn sse_mul_add(iterations: u32, seed: f32) -> f32 {
    // SAFETY: SSE is part of the x86-64 baseline.
    sum_128(run(iterations, seed, |v| unsafe { _mm_set1_ps(v) }, |x, y, a| unsafe { _mm_add_ps(a, _mm_mul_ps(x, y)) }))
}

#[target_feature(enable = "fma")]
unsafe fn fma_128(iterations: u32, seed: f32) -> f32 {
    sum_128(run(iterations, seed, |v| _mm_set1_ps(v), |x, y, a| _mm_fmadd_ps(x, y, a)))
}

#[target_feature(enable = "avx2,fma")]
unsafe fn fma_256(iterations: u32, seed: f32) -> f32 {
    let acc = run(iterations, seed, |v| _mm256_set1_ps(v), |x, y, a| _mm256_fmadd_ps(x, y, a));
    let mut lanes = [0f32; 8];
    let total = acc.iter().fold(_mm256_setzero_ps(), |s, &a| _mm256_add_ps(s, a));
    _mm256_storeu_ps(lanes.as_mut_ptr(), total);
    lanes.iter().sum()
}

fn sum_128(acc: [__m128; ACCUMULATORS]) -> f32 {
    let mut lanes = [0f32; 4];
    // SAFETY: SSE is part of the x86-64 baseline; `lanes` holds 4 floats.
    unsafe {
        let total = acc.iter().fold(_mm_setzero_ps(), |s, &a| _mm_add_ps(s, a));
        _mm_storeu_ps(lanes.as_mut_ptr(), total);
    }
    lanes.iter().sum()
}
