//! `ingest()` on an engine with letter-frequency vectors (which count requests) and a storage that outlives
//! the engine, so the embedding cache can be checked after a reopen.

use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::documents::CACHE_KIND;
use crate::core::error::MemoryError;
use crate::core::lifecycle::LifecycleSettings;
use crate::core::testing::{Doubles, KeepingStorage, Letters, NoEmbedder, NoLlm};

type Rig = Doubles<NoLlm, Letters, KeepingStorage>;

/// Two paragraphs of over 50 tokens with no salience signal (no names, numbers, preferences or jargon).
const GARDEN: &str = "the garden behind the old house grows tomatoes and beans every summer, and the neighbours \
                      often stop by the fence to talk about the weather, the birds and the slow progress of the \
                      vines along the wall, while in the evening the whole family sits outside under the old tree \
                      and listens to the wind moving through the leaves.";
const KITCHEN: &str = "a kettle sings on the stove while bread cools by the window, and somebody hums an old song \
                       without knowing the words, which makes everybody in the warm kitchen smile a little and \
                       reach for another slice, while the cat sleeps on a chair beside the open door and the clock \
                       ticks softly.";
/// `GARDEN`'s words in another order: another text (another hash), the same letters (the same vector).
const GARDEN_SHUFFLED: &str = "leaves the through moving wind the to listens and tree old the under outside sits \
                               family whole the evening the in while wall the along vines the of progress slow the \
                               and birds the weather, the about talk to fence the by stop often neighbours the and, \
                               summer every beans and tomatoes grows house old the behind garden the.";

fn rig() -> Rig {
    Doubles { llm: NoLlm, embedder: Letters::new(26), storage: KeepingStorage::new() }
}

fn options(user: &str) -> IngestOptions {
    serde_json::from_value(json!({"userId": user, "sessionId": "s1"})).unwrap()
}

#[test]
fn chunks_are_stored_with_one_embedding_request_and_no_llm() {
    let rig = rig();
    let engine = rig.engine();
    let text = format!("{GARDEN}\n\n\n{KITCHEN}\n\nI prefer tea.");
    let result = block_on(engine.documents().ingest(&text, &options("u"))).unwrap();
    assert_eq!(rig.embedder.requests(), 1, "one batched request for both chunks");
    assert_eq!((result.stored, result.discarded, result.chunks.len()), (2, 0, 2));
    let second = &result.chunks[1];
    assert_eq!(second.text, format!("{KITCHEN}\n\nI prefer tea."), "the short last paragraph was merged");
    assert_eq!((second.memory_type, second.stored, second.reason), (MemoryType::Procedural, true, None));
    assert_eq!(result.chunks[0].memory_type, MemoryType::Episodic);
    assert_eq!(result.chunks[0].importance, 0.6, "novelty 1 in an empty scope, no salience");
    let stored = rig.storage.memories();
    assert_eq!(stored.len(), 2);
    for (index, memory) in stored.iter().enumerate() {
        assert_eq!(Some(&memory.item.id), result.chunks[index].id.as_ref());
        assert_eq!(memory.item.metadata["sessionId"], "s1");
        assert_eq!(memory.item.metadata["chunkIndex"], index);
        assert_eq!(memory.item.metadata["documentHash"], content_hash(&crate::core::documents::clean(&text).unwrap()));
        assert!(memory.embedding.is_some());
        let history = block_on(engine.history(&memory.item.id)).unwrap();
        assert_eq!(history.iter().map(|h| h.event).collect::<Vec<_>>(), [EventKind::Add]);
    }
    assert!(block_on(engine.side_records(CACHE_KIND)).unwrap().is_empty(), "stored chunks keep their own vector");
}

#[test]
fn low_importance_chunks_are_discarded_and_their_vectors_cached() {
    let rig = rig();
    let engine = rig.engine();
    block_on(engine.documents().ingest(GARDEN, &options("u"))).unwrap();
    let result = block_on(engine.documents().ingest(GARDEN_SHUFFLED, &options("u"))).unwrap();
    let chunk = &result.chunks[0];
    assert_eq!((chunk.importance, chunk.stored, chunk.reason), (0.0, false, Some(DiscardReason::LowImportance)));
    assert_eq!((chunk.id.as_ref(), result.stored, result.discarded), (None, 0, 1));
    assert_eq!(rig.storage.memories().len(), 1, "nothing more stored");
    let cached = block_on(engine.side_records(CACHE_KIND)).unwrap();
    assert_eq!(cached.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(), [content_hash(GARDEN_SHUFFLED)]);
    assert_eq!(rig.embedder.requests(), 2);
}

#[test]
fn the_same_text_is_never_embedded_again_even_after_a_reopen() {
    let rig = rig();
    let engine = rig.engine();
    block_on(engine.documents().ingest(GARDEN, &options("u"))).unwrap();
    block_on(engine.documents().ingest(GARDEN_SHUFFLED, &options("u"))).unwrap();
    assert_eq!(rig.embedder.requests(), 2);
    let reopened = block_on(rig.open()).unwrap();
    let again =
        block_on(reopened.documents().ingest(&format!("{GARDEN}\n\n{GARDEN_SHUFFLED}"), &options("u"))).unwrap();
    assert_eq!(rig.embedder.requests(), 2, "one vector from its memory, one from the cache: no request");
    let reasons: Vec<_> = again.chunks.iter().map(|c| c.reason).collect();
    assert_eq!(reasons, [Some(DiscardReason::Duplicate), Some(DiscardReason::LowImportance)]);
    assert_eq!(again.chunks[0].id, Some(rig.storage.memories()[0].item.id.clone()), "the memory holding it");
    let elsewhere = block_on(reopened.documents().ingest(GARDEN, &options("w"))).unwrap();
    assert_eq!((elsewhere.stored, rig.embedder.requests()), (1, 2), "another scope's memory lends its vector");
}

#[test]
fn a_chunk_repeated_in_one_document_is_stored_once() {
    let rig = rig();
    let result =
        block_on(rig.engine().documents().ingest(&format!("{GARDEN}\n\n{KITCHEN}\n\n{GARDEN}"), &options("u")))
            .unwrap();
    let reasons: Vec<_> = result.chunks.iter().map(|c| c.reason).collect();
    assert_eq!(reasons, [None, None, Some(DiscardReason::Duplicate)]);
    assert_eq!(result.chunks[2].id, result.chunks[0].id);
    assert_eq!((rig.storage.memories().len(), rig.embedder.requests()), (2, 1));
}

#[test]
fn hints_thresholds_and_limits_come_from_options_and_config() {
    let rig = rig();
    let mut engine = rig.engine();
    let hinted: IngestOptions =
        serde_json::from_value(json!({"agentId": "a", "sessionId": "s", "memoryTypeHint": "foresight"})).unwrap();
    let result = block_on(engine.documents().ingest(&format!("{GARDEN}\n\nI prefer tea."), &hinted)).unwrap();
    assert_eq!(result.chunks[0].memory_type, MemoryType::Foresight);
    engine.set_lifecycle(LifecycleSettings { min_to_store: 0.7, max_memories_per_scope: Some(2), max_facts: None });
    let result = block_on(engine.documents().ingest(KITCHEN, &options("u"))).unwrap();
    assert_eq!(result.chunks[0].reason, Some(DiscardReason::LowImportance), "0.6 < minToStore 0.7");
    engine.set_lifecycle(LifecycleSettings { min_to_store: 0.0, max_memories_per_scope: Some(2), max_facts: None });
    let scope = options("u").checked().unwrap().0;
    let write = WriteLifecycle::default();
    block_on(engine.lifecycle().store("old", "zzz qqq xxx", &scope, None, Metadata::new(), &write)).unwrap();
    let result = block_on(engine.documents().ingest(&format!("{GARDEN}\n\n{KITCHEN}"), &options("u"))).unwrap();
    assert_eq!(result.stored, 2, "{result:?}");
    let kept: Vec<String> =
        rig.storage.memories().into_iter().filter(|m| m.item.scope == scope).map(|m| m.item.memory).collect();
    assert_eq!(kept, [GARDEN, KITCHEN], "the older memory of the scope was trimmed to honour the limit of 2");
}

#[test]
fn bad_input_stores_nothing_and_sends_nothing() {
    let rig = rig();
    let engine = rig.engine();
    let no_session: IngestOptions = serde_json::from_value(json!({"userId": "u"})).unwrap();
    let no_scope: IngestOptions = serde_json::from_value(json!({"sessionId": "s"})).unwrap();
    for (text, options, code) in [
        ("", options("u"), "INVALID_INPUT"),
        (" \n\n\t ", options("u"), "INVALID_INPUT"),
        (GARDEN, no_session, "INVALID_INPUT"),
        (GARDEN, no_scope, "SCOPE_REQUIRED"),
    ] {
        assert_eq!(block_on(engine.documents().ingest(text, &options)).unwrap_err().code(), code, "{text:?}");
    }
    assert_eq!((rig.storage.memories().len(), rig.embedder.requests()), (0, 0));
}

#[test]
fn a_failed_embedding_rejects_and_stores_nothing() {
    let rig = Doubles { llm: NoLlm, embedder: Letters::new(26).failing_on("kettle"), storage: KeepingStorage::new() };
    let error =
        block_on(rig.engine().documents().ingest(&format!("{GARDEN}\n\n{KITCHEN}"), &options("u"))).unwrap_err();
    assert!(matches!(error, MemoryError::EmbeddingResponse(_)), "{error:?}");
    assert!(rig.storage.memories().is_empty());
}

#[test]
fn without_an_embedder_chunks_are_stored_without_vectors() {
    let rig = Doubles { llm: NoLlm, embedder: NoEmbedder::new(), storage: KeepingStorage::new() };
    let engine = rig.engine();
    let result = block_on(engine.documents().ingest(&format!("{GARDEN}\n\n{GARDEN}"), &options("u"))).unwrap();
    assert_eq!((result.stored, result.chunks[0].importance, rig.embedder.requests()), (1, 0.6, 0));
    assert!(rig.storage.memories()[0].embedding.is_none());
    assert!(block_on(engine.side_records(CACHE_KIND)).unwrap().is_empty());
}

#[test]
fn an_injected_token_counter_sizes_the_chunks() {
    let rig = rig();
    let mut engine = rig.engine();
    // 40 short sentences: about 280 tokens by the estimate (one chunk), 960 by a counter that sees 4 tokens
    // in every word.
    let text = "The cat sat on the mat. ".repeat(40);
    assert_eq!(block_on(rig.engine().documents().ingest(&text, &options("v"))).unwrap().chunks.len(), 1);
    engine.set_token_counter(crate::core::tokens::TokenCounter::from_fn(|text| 4 * text.split_whitespace().count()));
    let result = block_on(engine.documents().ingest(&text, &options("u"))).unwrap();
    assert!(result.chunks.len() >= 4, "{} chunks", result.chunks.len());
    for chunk in &result.chunks {
        assert_eq!(chunk.tokens, 4 * chunk.text.split_whitespace().count(), "reported by the same counter");
        assert!(chunk.tokens <= super::super::chunk::MAX_CHUNK_TOKENS, "{} tokens", chunk.tokens);
    }
}
