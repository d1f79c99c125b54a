//! The int8 linear layer, `y = x·Wᵀ + b` in integers: W is held as int8 with one scale per output channel
//! (symmetric), packed once into panels of [`PANEL`] outputs ([`kernel_i8`](super::kernel_i8)'s layout); each
//! call quantises every row of x with a scale of its own, sums `x·w` in i32, and dequantises once per
//! output: `y = acc · (scale_x · scale_w) + b`. The kernel widens the weights to i16 for
//! `i32x4_dot_i16x8_s`, so the activations take i16 values at no cost: as many levels as keep K products
//! of at most 127 × levels within i32 ([`activation_levels`]: 11,008 for K = 1536, 32,767 for K = 384),
//! where 127 levels lost too much (a worst cosine of 0.980 to f32 over the test sentences). The sums are integers and the dequantisation is the same
//! scalar code on every target, so native tests check the numbers the browser computes.

use super::kernel_i8::{self, pair, MAX_ROWS, PAIR_BYTES, PANEL};
use crate::quant::{quantize_i16_into, quantize_rows, Q_MAX};

/// A packed int8 linear layer.
pub struct DenseI8 {
    /// Inputs per row (K).
    inputs: usize,
    /// Outputs per row (N).
    outputs: usize,
    /// `⌈N / PANEL⌉` panels of `⌈K / 2⌉ × 16` bytes; outputs past N and the input past an odd K are zero.
    panels: Vec<i8>,
    /// N weight scales, then zeros up to the last panel's end.
    scales: Vec<f32>,
    /// N biases, then zeros.
    bias: Vec<f32>,
}

impl DenseI8 {
    /// Quantises f32 `weight` (N × K, row-major, PyTorch's layout) per output channel.
    pub fn quantize(weight: &[f32], bias: Vec<f32>, inputs: usize) -> Self {
        let (values, scales) = quantize_rows(weight, inputs);
        Self::from_int8(&values, scales, bias, inputs)
    }

    /// From int8 `values` (N × K) and their N `scales`; the caller checks the lengths (N × K, N, N).
    pub fn from_int8(values: &[i8], mut scales: Vec<f32>, mut bias: Vec<f32>, inputs: usize) -> Self {
        let outputs = scales.len();
        let pairs = inputs.div_ceil(2);
        let count = outputs.div_ceil(PANEL);
        let mut panels = vec![0i8; count * pairs * PAIR_BYTES];
        for (n, row) in values.chunks_exact(inputs.max(1)).enumerate() {
            let (panel, lane) = (n / PANEL, n % PANEL);
            for (k, &w) in row.iter().enumerate() {
                panels[(panel * pairs + k / 2) * PAIR_BYTES + 2 * lane + k % 2] = w;
            }
        }
        scales.resize(count * PANEL, 0.0);
        bias.resize(count * PANEL, 0.0);
        Self { inputs, outputs, panels, scales, bias }
    }

    /// Rows of K floats in `x` → rows of N floats. Rows go up to four at a time: each row's integers are
    /// the same however they are grouped, so a text embeds identically alone or in a batch.
    pub fn apply(&self, x: &[f32]) -> Vec<f32> {
        let (k, n, pairs) = (self.inputs, self.outputs, self.inputs.div_ceil(2));
        let rows = x.len().checked_div(k).unwrap_or(0);
        let (packed, row_scales) = quantize_activations(x, k, rows);
        let mut y = vec![0.0; rows * n];
        let mut block = [0i32; MAX_ROWS * PANEL];
        for (index, panel) in self.panels.chunks_exact((pairs * PAIR_BYTES).max(1)).enumerate() {
            let first = index * PANEL;
            let width = PANEL.min(n - first);
            let mut row = 0;
            while row < rows {
                let take = MAX_ROWS.min(rows - row);
                kernel_i8::rows(&packed[row * pairs..(row + take) * pairs], panel, &mut block, take);
                for r in 0..take {
                    let out = &mut y[(row + r) * n + first..(row + r) * n + first + width];
                    let sums = &block[r * PANEL..r * PANEL + width];
                    let (scales, bias) = (&self.scales[first..first + width], &self.bias[first..first + width]);
                    for (((y, &acc), &scale), &b) in out.iter_mut().zip(sums).zip(scales).zip(bias) {
                        *y = acc as f32 * (row_scales[row + r] * scale) + b;
                    }
                }
                row += take;
            }
        }
        y
    }
}

/// The activations' levels for K inputs: `K · 127 · levels` stays within i32 (at most 32,767, the i16 range).
pub fn activation_levels(k: usize) -> f32 {
    let limit = f64::from(i32::MAX) / (k.max(1) as f64 * f64::from(Q_MAX));
    limit.floor().min(f64::from(i16::MAX)) as f32
}

/// Each row of K floats quantised with its own scale and packed as input pairs (an odd K gets a zero);
/// returns the packed rows and the scales.
fn quantize_activations(x: &[f32], k: usize, rows: usize) -> (Vec<u32>, Vec<f32>) {
    let (pairs, levels) = (k.div_ceil(2), activation_levels(k));
    let mut packed = Vec::with_capacity(rows * pairs);
    let mut scales = Vec::with_capacity(rows);
    let mut q = vec![0i16; 2 * pairs];
    for row in x.chunks_exact(k.max(1)).take(rows) {
        scales.push(quantize_i16_into(row, &mut q[..k], levels));
        packed.extend(q.chunks_exact(2).map(|p| pair(p[0], p[1])));
    }
    (packed, scales)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layer's arithmetic spelled out: quantise row and weights, integer dot, dequantise.
    fn reference(x: &[f32], w: &[f32], b: &[f32], k: usize) -> Vec<f32> {
        let (wq, ws) = quantize_rows(w, k);
        let mut y = Vec::new();
        for row in x.chunks_exact(k) {
            let mut q = vec![0i16; k];
            let row_scale = crate::quant::quantize_i16_into(row, &mut q, activation_levels(k));
            for j in 0..b.len() {
                let dot: i32 = q.iter().zip(&wq[j * k..(j + 1) * k]).map(|(a, c)| i32::from(*a) * i32::from(*c)).sum();
                y.push(dot as f32 * (row_scale * ws[j]) + b[j]);
            }
        }
        y
    }

    #[test]
    fn matches_the_spelled_out_arithmetic_for_every_row_count_odd_inputs_and_a_ragged_last_panel() {
        let value = |i: usize| ((i * 7919 % 1000) as f32 / 500.0) - 1.0;
        for (rows, k, n) in
            [(1, 5, 3), (2, 16, 8), (3, 16, 8), (4, 384, 384), (6, 40, 9), (7, 384, 1536), (9, 41, 13), (0, 8, 8)]
        {
            let x: Vec<f32> = (0..rows * k).map(value).collect();
            let w: Vec<f32> = (0..n * k).map(|i| value(i + 17)).collect();
            let b: Vec<f32> = (0..n).map(|i| value(i + 3)).collect();
            let got = DenseI8::quantize(&w, b.clone(), k).apply(&x);
            assert_eq!(got, reference(&x, &w, &b, k), "{rows}×{k}×{n}");
        }
    }

    #[test]
    fn activation_levels_keep_the_sums_within_i32() {
        assert_eq!(activation_levels(384), 32767.0);
        assert_eq!(activation_levels(1536), 11008.0);
        for k in [1, 384, 1536, 3072, 100_000] {
            assert!(k as f64 * 127.0 * f64::from(activation_levels(k)) <= f64::from(i32::MAX), "{k}");
        }
    }

    #[test]
    fn stays_close_to_the_f32_product() {
        let value = |i: usize| ((i * 7919 % 1000) as f32 / 500.0) - 1.0;
        let (k, n) = (384, 64);
        let x: Vec<f32> = (0..2 * k).map(value).collect();
        let w: Vec<f32> = (0..n * k).map(|i| value(i * 3 + 1)).collect();
        let got = DenseI8::quantize(&w, vec![0.0; n], k).apply(&x);
        for (index, g) in got.iter().enumerate() {
            let (row, j) = (index / n, index % n);
            let exact: f32 = (0..k).map(|i| x[row * k + i] * w[j * k + i]).sum();
            assert!((g - exact).abs() < 0.05 * (1.0 + exact.abs()), "{g} vs {exact}");
        }
    }

    #[test]
    fn extreme_inputs_stay_finite_and_zero_rows_give_the_bias() {
        let dense = DenseI8::quantize(&[1.0, -1.0, 0.5, 0.25], vec![3.0, -2.0], 2);
        assert_eq!(dense.apply(&[0.0, 0.0]), [3.0, -2.0]);
        let y = dense.apply(&[1e30, -1e30, f32::NAN, 1.0]);
        assert!(y.iter().all(|v| v.is_finite()), "{y:?}");
    }
}
