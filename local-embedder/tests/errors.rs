//! Bad input gives coded errors, never a panic; long texts are truncated, not rejected.

mod common;
use common::{embedder, read};
use memwasm_local_embedder::{Embedder, MAX_TOKENS};

fn load_code(weights: Vec<u8>, tokenizer: &[u8]) -> &'static str {
    match Embedder::new(weights, tokenizer) {
        Ok(_) => "ok",
        Err(e) => e.code(),
    }
}

/// A well-formed safetensors file holding one tensor that BERT does not use.
fn foreign_safetensors() -> Vec<u8> {
    let header = br#"{"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#;
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(header);
    bytes.extend_from_slice(&1f32.to_le_bytes());
    bytes
}

#[test]
fn missing_or_corrupt_weights_are_embedder_load() {
    let tokenizer = read("tokenizer.json");
    let weights = read("model.safetensors");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("garbage", b"not a safetensors file at all".to_vec()),
        ("truncated", weights[..weights.len() / 2].to_vec()),
        ("header only", weights[..1000].to_vec()),
        ("foreign tensors", foreign_safetensors()),
    ];
    for (name, bytes) in cases {
        assert_eq!(load_code(bytes, &tokenizer), "EMBEDDER_LOAD", "{name}");
    }
}

#[test]
fn missing_or_corrupt_tokenizer_is_embedder_load() {
    let weights = read("model.safetensors");
    let tokenizer = read("tokenizer.json");
    for (name, bytes) in [("empty", &b""[..]), ("not json", b"<html>404</html>"), ("wrong json", b"{\"model\": 3}")] {
        assert_eq!(load_code(weights.clone(), bytes), "EMBEDDER_LOAD", "{name}");
    }
    assert_eq!(load_code(weights, &tokenizer[..tokenizer.len() / 2]), "EMBEDDER_LOAD", "truncated");
}

#[test]
fn a_bad_config_is_embedder_load() {
    let err = Embedder::from_config_json(read("model.safetensors"), &read("tokenizer.json"), "{\"hidden_size\": 1}");
    assert_eq!(err.err().map(|e| e.code()), Some("EMBEDDER_LOAD"));
    let config = std::fs::read_to_string(common::model_dir().join("config.json")).unwrap();
    for (field, value) in [("num_attention_heads", 0), ("num_attention_heads", 7), ("max_position_embeddings", 128)] {
        let mut json: serde_json::Value = serde_json::from_str(&config).unwrap();
        json[field] = value.into();
        let err = Embedder::from_config_json(read("model.safetensors"), &read("tokenizer.json"), &json.to_string());
        assert_eq!(err.err().map(|e| e.code()), Some("EMBEDDER_LOAD"), "{field} = {value}");
    }
    let mut relative: serde_json::Value = serde_json::from_str(&config).unwrap();
    relative["position_embedding_type"] = "relative_key".into();
    let err = Embedder::from_config_json(read("model.safetensors"), &read("tokenizer.json"), &relative.to_string());
    assert_eq!(err.err().map(|e| e.code()), Some("EMBEDDER_LOAD"), "only absolute positions are supported");
    let loaded = Embedder::from_config_json(read("model.safetensors"), &read("tokenizer.json"), &config).unwrap();
    assert_eq!(loaded.dimensions(), 384, "the model's own config.json loads");
}

#[test]
fn texts_longer_than_the_window_are_truncated() {
    let embedder = embedder();
    let long = "memory ".repeat(5000);
    assert_eq!(embedder.tokenizer().ids(&long).unwrap().len(), MAX_TOKENS);
    let vectors = embedder.embed(&[&long, "short"]).unwrap();
    assert_eq!(vectors.len(), 2);
    assert!(vectors[0].iter().all(|x| x.is_finite()));
}

#[test]
fn an_empty_list_embeds_to_nothing() {
    assert!(embedder().embed(&[]).unwrap().is_empty());
}
