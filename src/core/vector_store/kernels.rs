//! Dot-product kernels over rows padded to a multiple of [`LANES`] elements. On wasm32 built with
//! `+simd128` they use SIMD128 (`core::arch::wasm32`); elsewhere a portable version computes the very
//! same sums in the very same order, so native tests check the arithmetic the browser runs.

/// Rows and queries are padded with zeros to a multiple of this many elements.
pub const LANES: usize = 16;

/// `Σ a[i]·b[i]` for f32 slices of equal length, a multiple of [`LANES`].
#[inline(always)]
pub fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
    debug_assert!(a.len() == b.len() && a.len() % LANES == 0);
    imp::dot_f32(a, b)
}

/// [`dot_f32`] of rows `a` and `b` with `query`, each summed as `dot_f32` sums it, in one pass: on wasm the
/// two rows are read side by side, so the cache misses of rows scattered over a large arena overlap.
#[inline(always)]
pub fn dot_f32_pair(a: &[f32], b: &[f32], query: &[f32]) -> (f32, f32) {
    debug_assert!(a.len() == query.len() && b.len() == query.len() && query.len() % LANES == 0);
    imp::dot_f32_pair(a, b, query)
}

/// `Σ v[i]²` for a slice of any length: the whole chunks of [`LANES`] through [`dot_f32`], the rest one by
/// one. A check of a vector's length, so its rounding may differ from a sequential sum's in the last bits.
pub fn squared_norm(v: &[f32]) -> f32 {
    let (head, rest) = v.split_at(v.len() / LANES * LANES);
    dot_f32(head, head) + rest.iter().map(|x| x * x).sum::<f32>()
}

/// `Σ codes[i]·query[i]` for int8 codes against an i16 query, both a multiple of [`LANES`] long.
/// The caller bounds `|query[i]|` so that the i32 sum cannot overflow (see `quantize`).
#[inline(always)]
pub fn dot_i8(codes: &[i8], query: &[i16]) -> i32 {
    debug_assert!(codes.len() == query.len() && codes.len() % LANES == 0);
    imp::dot_i8(codes, query)
}

/// Writes `round(x / scale)` (ties to even), clamped to ±127, for each `x` of `vector` into `codes`.
#[inline(always)]
pub fn quantize(vector: &[f32], scale: f32, codes: &mut [i8]) {
    imp::quantize(vector, scale, codes)
}

/// The largest `|x|` of `vector` (0 when empty); a NaN is skipped. Exact, so every lane order agrees.
#[inline(always)]
pub fn max_abs(vector: &[f32]) -> f32 {
    imp::max_abs(vector)
}

/// The portable [`max_abs`], in four lanes of plain comparisons (`f32::max` is a call to `fmaxf` on wasm).
#[inline(always)]
fn max_abs_scalar(vector: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 4];
    let quads = vector.chunks_exact(4);
    let rest = quads.remainder();
    for quad in quads {
        for (lane, x) in lanes.iter_mut().zip(quad) {
            let magnitude = x.abs();
            if magnitude > *lane {
                *lane = magnitude;
            }
        }
    }
    rest.iter().chain(&lanes).fold(0.0, |max, x| if x.abs() > max { x.abs() } else { max })
}

/// The portable [`quantize`]: the SIMD128 one computes every code exactly as this does.
#[inline(always)]
fn quantize_scalar(vector: &[f32], scale: f32, codes: &mut [i8]) {
    for (code, x) in codes.iter_mut().zip(vector) {
        *code = (x / scale).round_ties_even().clamp(-127.0, 127.0) as i8;
    }
}

/// Four partial sums of four lanes each, reduced as SIMD128 reduces them.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn reduce_f32(acc: [[f32; 4]; 4]) -> f32 {
    let mut lanes = [0.0f32; 4];
    for (l, lane) in lanes.iter_mut().enumerate() {
        *lane = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l]);
    }
    (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    use super::{max_abs_scalar, quantize_scalar, reduce_f32, LANES};

    pub fn max_abs(vector: &[f32]) -> f32 {
        max_abs_scalar(vector)
    }

    pub fn quantize(vector: &[f32], scale: f32, codes: &mut [i8]) {
        quantize_scalar(vector, scale, codes);
    }

    pub fn dot_f32_pair(a: &[f32], b: &[f32], query: &[f32]) -> (f32, f32) {
        (dot_f32(a, query), dot_f32(b, query))
    }

    pub fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
        let mut acc = [[0.0f32; 4]; 4];
        for (x, y) in a.chunks_exact(LANES).zip(b.chunks_exact(LANES)) {
            for (j, sums) in acc.iter_mut().enumerate() {
                for (l, sum) in sums.iter_mut().enumerate() {
                    *sum += x[4 * j + l] * y[4 * j + l];
                }
            }
        }
        reduce_f32(acc)
    }

    pub fn dot_i8(codes: &[i8], query: &[i16]) -> i32 {
        let mut acc = [0i32; 4];
        for (c, q) in codes.chunks_exact(LANES).zip(query.chunks_exact(LANES)) {
            for (l, sum) in acc.iter_mut().enumerate() {
                let pair = |i: usize| i32::from(c[i]) * i32::from(q[i]) + i32::from(c[i + 1]) * i32::from(q[i + 1]);
                *sum += pair(2 * l) + pair(8 + 2 * l);
            }
        }
        acc.iter().sum()
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    //! Plain locals and pointer offsets rather than arrays and iterator adapters, so that even at
    //! `opt-level = "s"` the accumulators stay in registers and the loop is one straight block.
    use core::arch::wasm32::*;

    use super::{max_abs_scalar, quantize_scalar, LANES};

    /// Four lanes of `|x|` kept at their largest (`pmax` keeps the lane when `x` is NaN).
    pub fn max_abs(vector: &[f32]) -> f32 {
        let quads = vector.len() / 4;
        let x = vector.as_ptr();
        let mut lanes = f32x4_splat(0.0);
        for i in 0..quads {
            // SAFETY: quad i covers elements 4i..4i+4, in bounds as quads ≤ len / 4; v128_load has no
            // alignment requirement.
            lanes = f32x4_pmax(lanes, f32x4_abs(unsafe { v128_load(x.add(4 * i).cast()) }));
        }
        let lane = [
            f32x4_extract_lane::<0>(lanes),
            f32x4_extract_lane::<1>(lanes),
            f32x4_extract_lane::<2>(lanes),
            f32x4_extract_lane::<3>(lanes),
        ];
        let rest = vector.get(quads * 4..).unwrap_or_default();
        max_abs_scalar(rest).max(max_abs_scalar(&lane))
    }

    /// The codes of the four values at `x`, as i32 lanes: divided by `step`, rounded to nearest even,
    /// converted and clamped to `low..=high`. Always inlined: at `opt-level = "z"` a call per four values
    /// took a quarter of loading the vectors at open.
    ///
    /// # Safety
    /// `x` must point at four readable `f32`s.
    #[inline(always)]
    unsafe fn four_codes(x: *const f32, step: v128, (low, high): (v128, v128)) -> v128 {
        let rounded = f32x4_nearest(f32x4_div(v128_load(x.cast()), step));
        i32x4_min(i32x4_max(i32x4_trunc_sat_f32x4(rounded), low), high)
    }

    /// Sixteen codes per step: divide, round to nearest even, convert and clamp, narrow to i8.
    pub fn quantize(vector: &[f32], scale: f32, codes: &mut [i8]) {
        let chunks = vector.len().min(codes.len()) / LANES;
        let (x, c) = (vector.as_ptr(), codes.as_mut_ptr());
        let (step, low, high) = (f32x4_splat(scale), i32x4_splat(-127), i32x4_splat(127));
        for i in 0..chunks {
            // SAFETY: chunk i covers elements 16i..16i+16 of both slices, in bounds as chunks ≤ len / 16;
            // v128_load and v128_store have no alignment requirement.
            unsafe {
                let x = x.add(i * LANES);
                let bounds = (low, high);
                let (c0, c1) = (four_codes(x, step, bounds), four_codes(x.add(4), step, bounds));
                let (c2, c3) = (four_codes(x.add(8), step, bounds), four_codes(x.add(12), step, bounds));
                let (a, b) = (i16x8_narrow_i32x4(c0, c1), i16x8_narrow_i32x4(c2, c3));
                v128_store(c.add(i * LANES).cast(), i8x16_narrow_i16x8(a, b));
            }
        }
        let done = chunks * LANES;
        quantize_scalar(vector.get(done..).unwrap_or_default(), scale, codes.get_mut(done..).unwrap_or_default());
    }

    #[inline(always)]
    pub fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
        let chunks = a.len().min(b.len()) / LANES;
        let (x, y) = (a.as_ptr(), b.as_ptr());
        let (mut s0, mut s1, mut s2, mut s3) = (f32x4_splat(0.0), f32x4_splat(0.0), f32x4_splat(0.0), f32x4_splat(0.0));
        for i in 0..chunks {
            // SAFETY: chunk i covers elements 16i..16i+16 of both slices, in bounds as chunks ≤ len / 16;
            // v128_load has no alignment requirement.
            unsafe {
                let (x, y) = (x.add(i * LANES), y.add(i * LANES));
                s0 = f32x4_add(s0, f32x4_mul(v128_load(x.cast()), v128_load(y.cast())));
                s1 = f32x4_add(s1, f32x4_mul(v128_load(x.add(4).cast()), v128_load(y.add(4).cast())));
                s2 = f32x4_add(s2, f32x4_mul(v128_load(x.add(8).cast()), v128_load(y.add(8).cast())));
                s3 = f32x4_add(s3, f32x4_mul(v128_load(x.add(12).cast()), v128_load(y.add(12).cast())));
            }
        }
        reduce([s0, s1, s2, s3])
    }

    /// `dot_f32` of two rows, their steps interleaved: the same sums, in the same order, per row.
    #[inline(always)]
    pub fn dot_f32_pair(a: &[f32], b: &[f32], query: &[f32]) -> (f32, f32) {
        let chunks = a.len().min(b.len()).min(query.len()) / LANES;
        let (x, z, y) = (a.as_ptr(), b.as_ptr(), query.as_ptr());
        let zero = f32x4_splat(0.0);
        let (mut s0, mut s1, mut s2, mut s3) = (zero, zero, zero, zero);
        let (mut t0, mut t1, mut t2, mut t3) = (zero, zero, zero, zero);
        for i in 0..chunks {
            // SAFETY: chunk i covers elements 16i..16i+16 of the three slices, in bounds as chunks ≤ each
            // len / 16; v128_load has no alignment requirement.
            unsafe {
                let (x, z, y) = (x.add(i * LANES), z.add(i * LANES), y.add(i * LANES));
                let (q0, q1) = (v128_load(y.cast()), v128_load(y.add(4).cast()));
                let (q2, q3) = (v128_load(y.add(8).cast()), v128_load(y.add(12).cast()));
                s0 = f32x4_add(s0, f32x4_mul(v128_load(x.cast()), q0));
                t0 = f32x4_add(t0, f32x4_mul(v128_load(z.cast()), q0));
                s1 = f32x4_add(s1, f32x4_mul(v128_load(x.add(4).cast()), q1));
                t1 = f32x4_add(t1, f32x4_mul(v128_load(z.add(4).cast()), q1));
                s2 = f32x4_add(s2, f32x4_mul(v128_load(x.add(8).cast()), q2));
                t2 = f32x4_add(t2, f32x4_mul(v128_load(z.add(8).cast()), q2));
                s3 = f32x4_add(s3, f32x4_mul(v128_load(x.add(12).cast()), q3));
                t3 = f32x4_add(t3, f32x4_mul(v128_load(z.add(12).cast()), q3));
            }
        }
        (reduce([s0, s1, s2, s3]), reduce([t0, t1, t2, t3]))
    }

    /// The same order as `reduce_f32`: lane-wise (s0 + s1) + (s2 + s3), then (l0 + l1) + (l2 + l3).
    #[inline(always)]
    fn reduce([s0, s1, s2, s3]: [v128; 4]) -> f32 {
        let sum = f32x4_add(f32x4_add(s0, s1), f32x4_add(s2, s3));
        (f32x4_extract_lane::<0>(sum) + f32x4_extract_lane::<1>(sum))
            + (f32x4_extract_lane::<2>(sum) + f32x4_extract_lane::<3>(sum))
    }

    #[inline(always)]
    pub fn dot_i8(codes: &[i8], query: &[i16]) -> i32 {
        let chunks = codes.len().min(query.len()) / LANES;
        let (c, q) = (codes.as_ptr(), query.as_ptr());
        let (mut low, mut high) = (i32x4_splat(0), i32x4_splat(0));
        for i in 0..chunks {
            // SAFETY: chunk i is 16 codes (one v128) and 16 i16 (two v128), in bounds as chunks ≤ len / 16.
            unsafe {
                let (c, q) = (c.add(i * LANES), q.add(i * LANES));
                let cv = v128_load(c.cast());
                low = i32x4_add(low, i32x4_dot_i16x8(i16x8_extend_low_i8x16(cv), v128_load(q.cast())));
                high = i32x4_add(high, i32x4_dot_i16x8(i16x8_extend_high_i8x16(cv), v128_load(q.add(8).cast())));
            }
        }
        let sum = i32x4_add(low, high);
        i32x4_extract_lane::<0>(sum)
            + i32x4_extract_lane::<1>(sum)
            + i32x4_extract_lane::<2>(sum)
            + i32x4_extract_lane::<3>(sum)
    }
}
