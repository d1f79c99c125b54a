use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::config::Prompts;
use crate::core::engine::reembed::ReembedSummary;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::testing::{KeepingStorage, Letters, NoLlm};

type Engine = MemoryEngine<NoLlm, Letters, KeepingStorage>;

/// The store in `storage` opened with `model` as the embedder's model (the letters embedder either way).
fn opened(storage: &KeepingStorage, embedder: &Letters, model: &str) -> Engine {
    let mut engine =
        block_on(MemoryEngine::open(NoLlm, embedder.clone(), storage.clone(), Prompts::default())).unwrap();
    engine.set_embedding_model(EmbeddingModel::new("test", model, Some(26)));
    engine
}

/// A store holding two memories embedded by `model`.
fn written(model: &str) -> (KeepingStorage, Letters) {
    let (storage, embedder) = (KeepingStorage::new(), Letters::new(26));
    let engine = opened(&storage, &embedder, model);
    assert_eq!(block_on(engine.check_embedding_model(true)).unwrap(), None, "an empty store takes the model");
    let talk = json!([{"role": "user", "content": "likes tea"}, {"role": "user", "content": "lives in Oslo"}]);
    let options = AddOptions { scope: ScopeFields::user("alice"), infer: Some(false), ..AddOptions::default() };
    block_on(engine.add(&talk, &options)).unwrap();
    (storage, embedder)
}

#[test]
fn another_model_warns_naming_both_and_the_fix_and_the_same_model_does_not() {
    let (storage, embedder) = written("letters-a");
    assert_eq!(block_on(opened(&storage, &embedder, "letters-a").check_embedding_model(false)).unwrap(), None);
    let warning = block_on(opened(&storage, &embedder, "letters-b").check_embedding_model(false)).unwrap();
    let warning = warning.expect("a warning for another model");
    assert_eq!(warning.code, WarningCode::EmbeddingModelChanged);
    for part in ["test/letters-a (26 dimensions)", "test/letters-b (26 dimensions)", "memory.reembed()"] {
        assert!(warning.message.contains(part), "{part} in {}", warning.message);
    }
    let error = block_on(opened(&storage, &embedder, "letters-b").check_embedding_model(true)).unwrap_err();
    assert_eq!(error.code(), "EMBEDDING_MODEL_CHANGED");
    assert_eq!(error.to_string(), warning.message);
}

#[test]
fn a_store_without_a_recorded_model_adopts_the_configured_one() {
    let (storage, embedder) = written("letters-a");
    let engine = opened(&storage, &embedder, "letters-a");
    block_on(engine.write_side(vec![crate::core::side_records::SideWrite::delete("store", "embedding-model")]))
        .unwrap();
    assert_eq!(block_on(opened(&storage, &embedder, "letters-b").check_embedding_model(true)).unwrap(), None);
    assert!(block_on(opened(&storage, &embedder, "letters-b").check_embedding_model(true)).unwrap().is_none());
    let error = block_on(opened(&storage, &embedder, "letters-a").check_embedding_model(true)).unwrap_err();
    assert!(error.to_string().contains("made by test/letters-b"), "{error}");
}

#[test]
fn reembed_embeds_every_memory_again_and_records_the_model() {
    let (storage, embedder) = written("letters-a");
    let engine = opened(&storage, &embedder, "letters-b");
    let before = embedder.requests();
    let summary = block_on(engine.reembed()).unwrap();
    assert_eq!(summary, ReembedSummary { memories: 2, warnings: Vec::new() });
    assert_eq!(embedder.requests(), before + 1, "one batch (its progress is tested through the package)");
    assert!(storage.memories().iter().all(|m| m.embedding.as_ref().is_some_and(|v| v.len() == 26)));
    assert_eq!(block_on(opened(&storage, &embedder, "letters-b").check_embedding_model(true)).unwrap(), None);
    let error = block_on(opened(&storage, &embedder, "letters-a").check_embedding_model(true)).unwrap_err();
    assert_eq!(error.code(), "EMBEDDING_MODEL_CHANGED");
}

#[test]
fn an_export_names_its_model_and_an_import_into_another_model_warns() {
    let (storage, embedder) = written("letters-a");
    let jsonl = block_on(opened(&storage, &embedder, "letters-a").export(Default::default())).unwrap();
    let header: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(header["embedder"], json!({"provider": "test", "model": "letters-a", "dimensions": 26}));
    let same = opened(&KeepingStorage::new(), &embedder, "letters-a");
    assert_eq!(block_on(same.import(&jsonl)).unwrap().warnings, Vec::new());
    let other = opened(&KeepingStorage::new(), &embedder, "letters-b");
    let summary = block_on(other.import(&jsonl)).unwrap();
    assert_eq!(summary.memories, 2, "the memories are imported");
    assert_eq!(summary.warnings.iter().map(|w| w.code).collect::<Vec<_>>(), [WarningCode::EmbeddingModelChanged]);
    for part in ["test/letters-a", "test/letters-b", "memory.reembed()"] {
        assert!(summary.warnings[0].message.contains(part), "{part} in {}", summary.warnings[0].message);
    }
}
