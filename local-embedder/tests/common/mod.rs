//! Shared fixtures: the weights in `MINILM_DIR` (default `~/.cache/memwasm/minilm`, filled by
//! scripts/setup.d/65-minilm.sh) and the numpy reference written by tests/local-embedder/reference.py.
#![allow(dead_code)] // each test file uses a part

use memwasm_local_embedder::Embedder;
use std::path::PathBuf;

pub fn model_dir() -> PathBuf {
    std::env::var_os("MINILM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/memwasm/minilm"))
}

pub fn read(name: &str) -> Vec<u8> {
    let path = model_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run scripts/setup.d/65-minilm.sh)", path.display()))
}

pub fn embedder() -> Embedder {
    Embedder::new(read("model.safetensors"), &read("tokenizer.json")).expect("the weights load")
}

pub struct Row {
    pub text: String,
    pub ids: Vec<u32>,
    pub embedding: Vec<f32>,
}

/// The reference rows (`reference.json` in the model directory).
pub fn reference() -> Vec<Row> {
    let json: serde_json::Value = serde_json::from_slice(&read("reference.json")).expect("reference.json is JSON");
    let rows = json["rows"].as_array().expect("rows");
    rows.iter()
        .map(|row| Row {
            text: row["text"].as_str().expect("text").to_owned(),
            ids: row["ids"].as_array().expect("ids").iter().map(|v| v.as_u64().expect("id") as u32).collect(),
            embedding: row["embedding"]
                .as_array()
                .expect("embedding")
                .iter()
                .map(|v| v.as_f64().expect("f") as f32)
                .collect(),
        })
        .collect()
}

pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (norm(a) * norm(b)).max(1e-12)
}
