//! A linear layer of either kind, f32 ([`Dense`]) or int8 ([`DenseI8`]), loaded as the weights say: an int8
//! tensor in the file, f32 weights quantised at load, or f32 weights as they are.

use super::dense::Dense;
use super::dense_i8::DenseI8;
use crate::quant::Quantization;
use crate::weights::{int8_matrix, Int8Weights};
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

    /// Rows of K floats → rows of N floats.
    pub fn apply(&self, x: &[f32]) -> Vec<f32> {
        match self {
            Self::F32(dense) => dense.apply(x),
            Self::Int8(dense) => dense.apply(x),
        }
    }
}
