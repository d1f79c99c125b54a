//! BERT's layer norm over each row of `width` values, `(x − mean) / √(var + eps) · weight + bias`, applied
//! after adding the residual, in place.

use candle_nn::VarBuilder;

/// A layer norm's weights.
pub struct Norm {
    weight: Vec<f32>,
    bias: Vec<f32>,
    eps: f32,
}

impl Norm {
    /// `weight` and `bias` (`width` each) under `vb`.
    pub fn load(vb: VarBuilder, width: usize, eps: f64) -> candle_core::Result<Self> {
        Ok(Self {
            weight: vb.get(width, "weight")?.to_vec1()?,
            bias: vb.get(width, "bias")?.to_vec1()?,
            eps: eps as f32,
        })
    }

    /// `x ← norm(x + residual)`, row by row; `x` and `residual` have the same length.
    pub fn add_and_normalize(&self, x: &mut [f32], residual: &[f32]) {
        let width = self.weight.len().max(1);
        x.iter_mut().zip(residual).for_each(|(x, r)| *x += r);
        for row in x.chunks_exact_mut(width) {
            let mean = row.iter().sum::<f32>() / width as f32;
            let var = row.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / width as f32;
            let inverse = 1.0 / (var + self.eps).sqrt();
            for ((x, w), b) in row.iter_mut().zip(&self.weight).zip(&self.bias) {
                *x = (*x - mean) * inverse * w + b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_out_with_mean_zero_and_unit_variance_before_the_affine() {
        let norm = Norm { weight: vec![1.0; 4], bias: vec![0.0; 4], eps: 0.0 };
        let mut x = vec![1.0, 2.0, 3.0, 4.0, 10.0, 10.0, 10.0, 14.0];
        norm.add_and_normalize(&mut x, &[0.0; 8]);
        for row in x.chunks(4) {
            let mean: f32 = row.iter().sum::<f32>() / 4.0;
            let var: f32 = row.iter().map(|v| v * v).sum::<f32>() / 4.0;
            assert!(mean.abs() < 1e-6 && (var - 1.0).abs() < 1e-5, "{row:?}");
        }
    }
}
