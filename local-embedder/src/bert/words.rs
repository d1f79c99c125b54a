//! The word embedding table, f32 (candle's `Embedding`) or int8 with one scale per token's row: the int8
//! table is a quarter of the bytes (11.7 MB for all-MiniLM-L6-v2's 30,522 × 384), and a lookup dequantises
//! only the rows it reads.

use crate::quant::{quantize_rows, Quantization};
use crate::weights::{int8_matrix, Int8Weights};
use candle_core::{Device, Tensor};
use candle_nn::{embedding, Embedding, Module, VarBuilder};

pub enum Words {
    F32(Embedding),
    Int8 { values: Vec<i8>, scales: Vec<f32>, width: usize },
}

impl Words {
    /// `weight` under `vb`: `rows` tokens of `width`.
    pub fn load(vb: VarBuilder, int8: &Int8Weights, rows: usize, width: usize) -> candle_core::Result<Self> {
        if let Some((values, scales)) = int8_matrix(int8, &vb, rows, width)? {
            return Ok(Self::Int8 { values, scales, width });
        }
        Ok(match int8.mode {
            Quantization::Int8 => {
                let table = vb.get((rows, width), "weight")?.flatten_all()?.to_vec1::<f32>()?;
                let (values, scales) = quantize_rows(&table, width);
                Self::Int8 { values, scales, width }
            }
            _ => Self::F32(embedding(rows, width, vb)?),
        })
    }

    /// `ids` `(rows, cols)` → `(rows, cols, width)`; an id past the table is an error.
    pub fn forward(&self, ids: &Tensor) -> candle_core::Result<Tensor> {
        match self {
            Self::F32(table) => table.forward(ids),
            Self::Int8 { values, scales, width } => {
                let mut shape = ids.dims().to_vec();
                let mut out = Vec::with_capacity(ids.elem_count() * width);
                for id in ids.flatten_all()?.to_vec1::<u32>()? {
                    let id = id as usize;
                    let Some(&scale) = scales.get(id) else {
                        candle_core::bail!("token id {id} is past the word table")
                    };
                    out.extend(values[id * width..(id + 1) * width].iter().map(|&q| f32::from(q) * scale));
                }
                shape.push(*width);
                Tensor::from_vec(out, shape, &Device::Cpu)
            }
        }
    }
}
