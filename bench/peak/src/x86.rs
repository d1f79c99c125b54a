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

/// The kernels this CPU can run.
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

fn sse_mul_add(iterations: u32, seed: f32) -> f32 {
    // SAFETY: SSE is part of the x86-64 baseline.
    unsafe {
        let (x, y) = (_mm_set1_ps(seed), _mm_set1_ps(1.0 - seed * 1e-9));
        let mut acc = [_mm_set1_ps(seed); ACCUMULATORS];
        for _ in 0..iterations {
            for a in acc.iter_mut() {
                *a = _mm_add_ps(*a, _mm_mul_ps(x, y));
            }
        }
        sum_128(acc)
    }
}

#[target_feature(enable = "fma")]
unsafe fn fma_128(iterations: u32, seed: f32) -> f32 {
    let (x, y) = (_mm_set1_ps(seed), _mm_set1_ps(1.0 - seed * 1e-9));
    let mut acc = [_mm_set1_ps(seed); ACCUMULATORS];
    for _ in 0..iterations {
        for a in acc.iter_mut() {
            *a = _mm_fmadd_ps(x, y, *a);
        }
    }
    sum_128(acc)
}

#[target_feature(enable = "avx2,fma")]
unsafe fn fma_256(iterations: u32, seed: f32) -> f32 {
    let (x, y) = (_mm256_set1_ps(seed), _mm256_set1_ps(1.0 - seed * 1e-9));
    let mut acc = [_mm256_set1_ps(seed); ACCUMULATORS];
    for _ in 0..iterations {
        for a in acc.iter_mut() {
            *a = _mm256_fmadd_ps(x, y, *a);
        }
    }
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
