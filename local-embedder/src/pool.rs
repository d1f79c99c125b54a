//! sentence-transformers' pooling for all-MiniLM-L6-v2: the mean of the hidden states over the real
//! tokens only (padding is masked out, so a text embeds the same alone and in a batch), then L2
//! normalisation (as `torch.nn.functional.normalize`, with its 1e-12 floor).

use candle_core::{Result, Tensor};

/// `hidden`: `(rows, cols, dims)`; `mask`: `(rows, cols)` f32 of 1/0. Returns `(rows, dims)` unit vectors.
pub fn mean_pool_normalize(hidden: &Tensor, mask: &Tensor) -> Result<Tensor> {
    let mask = mask.unsqueeze(2)?;
    let sum = hidden.broadcast_mul(&mask)?.sum(1)?;
    let count = mask.sum(1)?.clamp(1e-9f32, f32::MAX)?;
    let mean = sum.broadcast_div(&count)?;
    let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12f32, f32::MAX)?;
    mean.broadcast_div(&norm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn padding_rows_do_not_move_the_mean_and_rows_come_out_unit_length() {
        let hidden = Tensor::new(&[[[3f32, 0.], [1., 4.], [100., -100.]]], &Device::Cpu).unwrap();
        let mask = Tensor::new(&[[1f32, 1., 0.]], &Device::Cpu).unwrap();
        let out = mean_pool_normalize(&hidden, &mask).unwrap().to_vec2::<f32>().unwrap();
        // mean of the two real rows: (2, 2); normalised: (1/√2, 1/√2)
        let half = std::f32::consts::FRAC_1_SQRT_2;
        assert!((out[0][0] - half).abs() < 1e-6 && (out[0][1] - half).abs() < 1e-6, "{out:?}");
    }

    #[test]
    fn an_all_zero_row_stays_finite() {
        let hidden = Tensor::zeros((1, 2, 3), candle_core::DType::F32, &Device::Cpu).unwrap();
        let mask = Tensor::new(&[[1f32, 0.]], &Device::Cpu).unwrap();
        let out = mean_pool_normalize(&hidden, &mask).unwrap().to_vec2::<f32>().unwrap();
        assert!(out[0].iter().all(|x| *x == 0.0));
    }
}
