//! A linear layer, `y = x·Wᵀ + b`, with its weights packed once at load: panels of [`PANEL`] outputs, each
//! `K × PANEL` floats in k order. A general matmul packs its operands on every call; for the few rows of a
//! sentence that copy costs as much as the multiply-adds, so this layer keeps the packed copy instead.
//! Each output is `b + Σₖ x·w` summed in k order, lane by lane, on every target: native tests check the
//! arithmetic the browser runs.

use super::kernel::{rows_1, rows_4, PANEL};
use candle_core::Tensor;

/// A packed linear layer.
pub struct Dense {
    /// Inputs per row (K).
    inputs: usize,
    /// Outputs per row (N).
    outputs: usize,
    /// `⌈N / PANEL⌉` panels of `K × PANEL` weights; outputs past N are zero.
    panels: Vec<f32>,
    /// N biases, then zeros up to the last panel's end.
    bias: Vec<f32>,
}

impl Dense {
    /// From `weight` `(N, K)` (PyTorch's layout, any strides) and `bias` `(N)`.
    pub fn new(weight: &Tensor, bias: &Tensor) -> candle_core::Result<Self> {
        let (outputs, inputs) = weight.dims2()?;
        let weight = weight.flatten_all()?.to_vec1::<f32>()?;
        let mut bias = bias.to_vec1::<f32>()?;
        let count = outputs.div_ceil(PANEL);
        let mut panels = vec![0.0; count * inputs * PANEL];
        for (n, row) in weight.chunks_exact(inputs.max(1)).enumerate() {
            let (panel, lane) = (n / PANEL, n % PANEL);
            for (k, w) in row.iter().enumerate() {
                panels[(panel * inputs + k) * PANEL + lane] = *w;
            }
        }
        bias.resize(count * PANEL, 0.0);
        Ok(Self { inputs, outputs, panels, bias })
    }

    /// Rows of K floats in `x` → rows of N floats. Each panel meets every row while it is in cache.
    pub fn apply(&self, x: &[f32]) -> Vec<f32> {
        let (k, n) = (self.inputs, self.outputs);
        let rows = x.len().checked_div(k).unwrap_or(0);
        let mut y = vec![0.0; rows * n];
        let mut block = [0.0f32; 4 * PANEL];
        // Rows go four at a time, the last one to three one at a time: each row's outputs are the same
        // floats either way, so a text embeds identically alone or in a batch.
        for (index, panel) in self.panels.chunks_exact((k * PANEL).max(1)).enumerate() {
            let bias = &self.bias[index * PANEL..(index + 1) * PANEL];
            let columns = index * PANEL..((index + 1) * PANEL).min(n);
            let mut row = 0;
            while row < rows {
                let take = if rows - row >= 4 { 4 } else { 1 };
                let x = &x[row * k..(row + take) * k];
                if take == 4 {
                    rows_4(x, panel, bias, &mut block);
                } else {
                    rows_1(x, panel, bias, &mut block);
                }
                for r in 0..take {
                    let out = &mut y[(row + r) * n..(row + r + 1) * n];
                    out[columns.clone()].copy_from_slice(&block[r * PANEL..r * PANEL + columns.len()]);
                }
                row += take;
            }
        }
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    /// `b + Σ x·w` in f64: the reference the packed layer must match.
    fn reference(x: &[f32], w: &[f32], b: &[f32], k: usize) -> Vec<f64> {
        let n = b.len();
        let mut y = Vec::new();
        for row in x.chunks_exact(k) {
            for j in 0..n {
                let dot: f64 = row.iter().zip(&w[j * k..(j + 1) * k]).map(|(a, c)| f64::from(*a) * f64::from(*c)).sum();
                y.push(dot + f64::from(b[j]));
            }
        }
        y
    }

    #[test]
    fn matches_a_plain_matmul_for_every_row_count_and_a_ragged_last_panel() {
        let value = |i: usize| ((i * 7919 % 1000) as f32 / 500.0) - 1.0;
        for (rows, k, n) in [(1, 5, 3), (3, 16, 8), (4, 384, 384), (7, 384, 1536), (9, 40, 13), (0, 8, 8)] {
            let x: Vec<f32> = (0..rows * k).map(value).collect();
            let w: Vec<f32> = (0..n * k).map(|i| value(i + 17)).collect();
            let b: Vec<f32> = (0..n).map(|i| value(i + 3)).collect();
            let weight = Tensor::from_vec(w.clone(), (n, k), &Device::Cpu).unwrap();
            let dense = Dense::new(&weight, &Tensor::from_vec(b.clone(), n, &Device::Cpu).unwrap()).unwrap();
            let got = dense.apply(&x);
            let want = reference(&x, &w, &b, k);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                assert!((f64::from(*g) - w).abs() <= 1e-4 * (1.0 + w.abs()), "{rows}×{k}×{n}: {g} vs {w}");
            }
        }
    }

    #[test]
    fn a_transposed_view_of_the_weights_packs_the_same() {
        let w = Tensor::from_vec((0..24).map(|i| i as f32).collect::<Vec<_>>(), (4, 6), &Device::Cpu).unwrap();
        let strided = w.t().unwrap().contiguous().unwrap().t().unwrap();
        let bias = Tensor::zeros(4, candle_core::DType::F32, &Device::Cpu).unwrap();
        let x = [1.0f32, 0.0, 0.0, 0.0, 0.0, 2.0];
        let (a, b) = (Dense::new(&w, &bias).unwrap().apply(&x), Dense::new(&strided, &bias).unwrap().apply(&x));
        assert_eq!(a, b);
        assert_eq!(a, [10.0, 28.0, 46.0, 64.0], "row j is 6j..6j+5: 6j + 2·(6j + 5)");
    }
}
