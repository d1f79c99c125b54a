//! A linear layer of either kind, f32 ([`Dense`]) or int8 ([`DenseI8`]), loaded as the weights say: an int8
//! tensor in the file, f32 weights quantised at load, or f32 weights as they are.

use super::dense::Dense;
use super::dense_i8::DenseI8;
use crate::error::{inference, Result};
use crate::quant::Quantization;
use crate::weights::{int8_matrix, Int8Weights};
use candle_core::{Device, Tensor};
use candle_nn::VarBuilder;

pub enum Linear {
    F32(Dense),
    Int8(DenseI8),
}

impl Linear {
    /// `weight` and `bias` under `vb`.
    pub fn load(vb: &VarBuilder, int8: &Int8Weights, inputs: usize, outputs: usize) -> candle_core::Result<Self> {
        let bias = vb.get(outputs, "bias")?;
        if let Some((values, scales)) = int8_matrix(int8, vb, outputs, inputs)? {
            return Ok(Self::Int8(DenseI8::from_int8(&values, scales, bias.to_vec1()?, inputs)));
        }
        let weight = vb.get((outputs, inputs), "weight")?;
        Ok(match int8.mode {
            Quantization::Int8 => {
                Self::Int8(DenseI8::quantize(&weight.flatten_all()?.to_vec1()?, bias.to_vec1()?, inputs))
            }
            _ => Self::F32(Dense::new(&weight, &bias)?),
        })
    }

    /// `x` `(…, K)` → `(…, N)`; `then` runs on the outputs before they become a tensor (an activation).
    pub fn forward_with(&self, x: &Tensor, then: impl FnOnce(&mut [f32])) -> Result<Tensor> {
        let mut shape = x.dims().to_vec();
        let x = x.flatten_all().and_then(|x| x.to_vec1::<f32>()).map_err(inference)?;
        let (mut y, outputs) = match self {
            Self::F32(dense) => (dense.apply(&x), dense.outputs()),
            Self::Int8(dense) => (dense.apply(&x), dense.outputs()),
        };
        then(&mut y);
        if let Some(last) = shape.last_mut() {
            *last = outputs;
        }
        Tensor::from_vec(y, shape, &Device::Cpu).map_err(inference)
    }

    /// `x` `(…, K)` → `(…, N)`.
    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        self.forward_with(x, |_| ())
    }
}
