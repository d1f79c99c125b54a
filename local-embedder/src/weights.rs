//! A safetensors file read into float tensors (f32, f16 or bf16, for candle's `VarBuilder`) and int8
//! tensors (an int8 weights file: see [`crate::int8_file`]), with the quantisation the model will run:
//! int8 when asked for or when the file holds int8 tensors.

use crate::quant::Quantization;
use candle_core::safetensors::Load;
use candle_core::{Device, Tensor};
use safetensors::{Dtype, SafeTensors};
use std::collections::HashMap;

/// An int8 tensor as stored: its shape and values.
pub struct Int8Tensor {
    pub shape: Vec<usize>,
    pub values: Vec<i8>,
}

/// The int8 side of a loaded file.
pub struct Int8Weights {
    tensors: HashMap<String, Int8Tensor>,
    /// What the linear layers and the word table become.
    pub mode: Quantization,
}

impl Int8Weights {
    /// The int8 tensor `name`, if the file has one.
    pub fn get(&self, name: &str) -> Option<&Int8Tensor> {
        self.tensors.get(name)
    }
}

/// Parses `bytes`; `quantization` is what the caller asked for (an int8 file runs int8 either way).
pub fn read(bytes: &[u8], quantization: Quantization) -> candle_core::Result<(HashMap<String, Tensor>, Int8Weights)> {
    let file = SafeTensors::deserialize(bytes)?;
    let (mut floats, mut tensors) = (HashMap::new(), HashMap::new());
    for (name, view) in file.tensors() {
        if view.dtype() == Dtype::I8 {
            let values = view.data().iter().map(|&b| b as i8).collect();
            tensors.insert(name, Int8Tensor { shape: view.shape().to_vec(), values });
        } else {
            floats.insert(name, view.load(&Device::Cpu)?);
        }
    }
    let mode = if tensors.is_empty() { quantization } else { Quantization::Int8 };
    Ok((floats, Int8Weights { tensors, mode }))
}

/// The scale tensor stored beside the int8 tensor `<name>`: `<name>_scale`.
pub fn scale_name(name: &str) -> String {
    format!("{name}_scale")
}

/// The int8 tensor `<prefix>.weight` of shape `(rows, width)` and its `rows` scales (`<prefix>.weight_scale`,
/// finite and ≥ 0), when the file holds it; an error when either is missing or does not fit.
pub fn int8_matrix(
    int8: &Int8Weights,
    vb: &candle_nn::VarBuilder,
    rows: usize,
    width: usize,
) -> candle_core::Result<Option<(Vec<i8>, Vec<f32>)>> {
    let name = format!("{}.weight", vb.prefix());
    let Some(tensor) = int8.get(&name) else { return Ok(None) };
    if tensor.shape != [rows, width] {
        candle_core::bail!("int8 tensor {name}: shape {:?}, expected [{rows}, {width}]", tensor.shape)
    }
    let scales = vb.get(rows, "weight_scale")?.to_vec1::<f32>()?;
    if let Some(bad) = scales.iter().find(|s| !(s.is_finite() && **s >= 0.0)) {
        candle_core::bail!("int8 tensor {name}: scale {bad} (scales are finite and >= 0)")
    }
    Ok(Some((tensor.values.clone(), scales)))
}
