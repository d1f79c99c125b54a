//! Symmetric quantisation, `q = round(x / scale)` with `scale = max|x| / levels`, so `|q| ≤ levels` and
//! `x ≈ q · scale`: int8 (127 levels) for the weights (one scale per output channel or table row) and the
//! int8 weights file; i16 for the activations (one scale per row, at run time; as many levels as keep the
//! layer's i32 sums from overflowing).

/// How the weights are held and the linear layers run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Quantization {
    /// f32 weights, f32 arithmetic (f16/bf16 files are widened).
    #[default]
    None,
    /// int8 weights with a scale per output channel; activations quantised per row; integer dot products.
    Int8,
}

impl Quantization {
    /// `"none"` or `"int8"` (the JS option's values); anything else is `None` here and a load error above.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "none" => Some(Self::None),
            "int8" => Some(Self::Int8),
            _ => None,
        }
    }

    /// The name [`Quantization::from_name`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Int8 => "int8",
        }
    }
}

/// The largest quantised magnitude of a weight.
pub const Q_MAX: f32 = 127.0;

/// Rounds `values / scale` into `put(index, q)` with `scale = max|x| / levels`, so `|q| ≤ levels`; returns
/// the scale. An all-zero (or non-finite) row gets scale 0 and zeros.
fn quantize_with(values: &[f32], levels: f32, mut put: impl FnMut(usize, f32)) -> f32 {
    let max = simd::max_abs(values);
    if !(max.is_finite() && max > 0.0) {
        (0..values.len()).for_each(|i| put(i, 0.0));
        return 0.0;
    }
    let inverse = levels / max;
    for (i, v) in values.iter().enumerate() {
        put(i, round_scaled(*v, inverse, levels));
    }
    max / levels
}

/// The largest `|x|` of `values` (0 when empty), a NaN skipped: compares, not `f32::max`, which wasm makes a
/// call to libm's `fmaxf`.
fn max_abs_scalar(values: &[f32]) -> f32 {
    values.iter().fold(0.0f32, |m, v| if v.abs() > m { v.abs() } else { m })
}

/// `x · inverse` rounded to even and clamped to `±levels`. A NaN stays NaN, which `as` turns into 0 where the
/// caller converts, so the clamp only guards rounding at the edge.
fn round_scaled(x: f32, inverse: f32, levels: f32) -> f32 {
    (x * inverse).round_ties_even().clamp(-levels, levels)
}

/// Quantises `values` into int8 `out` (same length), `|q| ≤ 127`, and returns the scale.
pub fn quantize_into(values: &[f32], out: &mut [i8]) -> f32 {
    quantize_with(values, Q_MAX, |i, q| out[i] = q as i8)
}

/// Quantises `values` into i16 `out` (same length) with `|q| ≤ levels` (at most 32767), and returns the scale.
/// The arithmetic of [`quantize_with`], four values at a time on wasm (run on every row of activations).
pub fn quantize_i16_into(values: &[f32], out: &mut [i16], levels: f32) -> f32 {
    let levels = levels.min(f32::from(i16::MAX));
    let max = simd::max_abs(values);
    if !(max.is_finite() && max > 0.0) {
        out.fill(0);
        return 0.0;
    }
    simd::round_into(values, out, levels / max, levels);
    max / levels
}

/// Quantises each row of `width` values of `matrix`: the int8 values, row after row, and one scale per row.
pub fn quantize_rows(matrix: &[f32], width: usize) -> (Vec<i8>, Vec<f32>) {
    let mut values = vec![0i8; matrix.len()];
    let scales = matrix.chunks_exact(width.max(1)).zip(values.chunks_exact_mut(width.max(1)));
    let scales = scales.map(|(row, out)| quantize_into(row, out)).collect();
    (values, scales)
}

/// [`max_abs_scalar`] and [`round_scaled`] over a row, scalar or SIMD128 with the same results: the maximum
/// is exact, and multiply, round-to-even, clamp and conversion are per value.
mod simd {
    use super::{max_abs_scalar, round_scaled};

    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    pub fn max_abs(values: &[f32]) -> f32 {
        max_abs_scalar(values)
    }

    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    pub fn round_into(values: &[f32], out: &mut [i16], inverse: f32, levels: f32) {
        for (q, v) in out.iter_mut().zip(values) {
            *q = round_scaled(*v, inverse, levels) as i16;
        }
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub fn max_abs(values: &[f32]) -> f32 {
        use core::arch::wasm32::*;
        let chunks = values.chunks_exact(4);
        let tail = max_abs_scalar(chunks.remainder());
        // `pmax(m, x)` is `m < x ? x : m`: a NaN x leaves m, as the scalar fold does.
        let mut lanes = f32x4_splat(0.0);
        for c in chunks {
            lanes = f32x4_pmax(lanes, f32x4_abs(f32x4(c[0], c[1], c[2], c[3])));
        }
        let (a, b) = (f32x4_extract_lane::<0>(lanes), f32x4_extract_lane::<1>(lanes));
        let (c, d) = (f32x4_extract_lane::<2>(lanes), f32x4_extract_lane::<3>(lanes));
        max_abs_scalar(&[tail, a, b, c, d])
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub fn round_into(values: &[f32], out: &mut [i16], inverse: f32, levels: f32) {
        use core::arch::wasm32::*;
        let (scale, low, high) = (f32x4_splat(inverse), f32x4_splat(-levels), f32x4_splat(levels));
        // round, then clamp (a NaN stays NaN through pmax/pmin), then convert: NaN → 0 as `as i16` gives.
        let four = |c: &[f32]| {
            let r = f32x4_nearest(f32x4_mul(f32x4(c[0], c[1], c[2], c[3]), scale));
            i32x4_trunc_sat_f32x4(f32x4_pmin(f32x4_pmax(r, low), high))
        };
        let mut eights = out.chunks_exact_mut(8);
        let mut input = values.chunks_exact(8);
        for (q, c) in (&mut eights).zip(&mut input) {
            let packed = i16x8_narrow_i32x4(four(&c[..4]), four(&c[4..]));
            // SAFETY: `q` is 8 i16s, the 16 bytes stored; v128 stores need no alignment.
            unsafe { v128_store(q.as_mut_ptr().cast(), packed) };
        }
        for (q, v) in eights.into_remainder().iter_mut().zip(input.remainder()) {
            *q = round_scaled(*v, inverse, levels) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_round_trips_within_half_a_step() {
        let row = [0.5f32, -1.27, 0.0, 0.01, 1.0];
        let mut q = [0i8; 5];
        let scale = quantize_into(&row, &mut q);
        assert_eq!(scale, 1.27 / 127.0);
        assert_eq!(q, [50, -127, 0, 1, 100]);
        for (x, q) in row.iter().zip(q) {
            assert!((x - f32::from(q) * scale).abs() <= scale / 2.0 + 1e-7);
        }
    }

    #[test]
    fn zero_and_non_finite_rows_quantise_to_zeros() {
        let mut q = [1i8; 3];
        assert_eq!(quantize_into(&[0.0; 3], &mut q), 0.0);
        assert_eq!(q, [0; 3]);
        q = [1; 3];
        assert_eq!(quantize_into(&[1.0, f32::INFINITY, 2.0], &mut q), 0.0);
        assert_eq!(q, [0; 3]);
    }

    #[test]
    fn i16_rows_use_the_levels_asked_for() {
        let mut q = [0i16; 3];
        assert_eq!(quantize_i16_into(&[1.0, -0.5, 0.25], &mut q, 1000.0), 1.0 / 1000.0);
        assert_eq!(q, [1000, -500, 250]);
        assert_eq!(quantize_i16_into(&[1.0, -0.5, 0.25], &mut q, 1e9), 1.0 / 32767.0, "capped at i16::MAX");
        assert_eq!(q, [32767, -16384, 8192]);
    }

    #[test]
    fn rows_get_their_own_scales() {
        let (values, scales) = quantize_rows(&[1.0, -2.0, 0.5, 0.25], 2);
        assert_eq!(values, [64, -127, 127, 64]);
        assert_eq!(scales, [2.0 / 127.0, 0.5 / 127.0]);
    }
}
