//! mem0 OSS's config keys, with their mem0 meaning, so a mem0 `Memory` config works as it is:
//! - `customPrompt` (mem0 2.x) replaces the fact-extraction prompt, like `customPrompts.factExtraction`;
//! - `customInstructions` (mem0 3.x) are added to the fact-extraction prompt;
//! - `enableGraph` is `graph.enabled`; `graphStore` (mem0's Neo4j / Memgraph settings) is accepted, and the
//!   graph is kept in the library's own storage;
//! - `vectorStore.config.collectionName` names the storage: the IndexedDB database and the KV key prefix
//!   when `storage.config` names neither; `dimension` is checked against the embedder's;
//! - `disableHistory` keeps no history records; `historyDbPath` / `historyStore` (its SQLite file) do not
//!   apply here and are accepted.

use serde_json::{json, Value};

use super::{invalid, CustomPrompts, GraphOptions, Prompts, ProviderConfig};
use crate::core::error::Result;
use crate::core::prompt_fence::{fence, Place};

/// The prompts, with `customPrompt` and `customInstructions` applied.
pub fn prompts(custom: CustomPrompts, prompt: Option<String>, instructions: Option<String>) -> Result<Prompts> {
    let custom = match prompt {
        Some(_) if custom.fact_extraction.is_some() => {
            return Err(invalid("customPrompt", "give customPrompt or customPrompts.factExtraction, not both"))
        }
        Some(prompt) if prompt.trim().is_empty() => return Err(invalid("customPrompt", "must not be empty")),
        Some(prompt) => CustomPrompts { fact_extraction: Some(prompt), ..custom },
        None => custom,
    };
    let mut prompts = custom.resolve()?;
    if let Some(instructions) = instructions.filter(|text| !text.trim().is_empty()) {
        prompts.fact_extraction = format!(
            "{}\n\nCustom instructions:\n{}",
            prompts.fact_extraction,
            fence(instructions.trim(), Place::Block)
        );
    }
    Ok(prompts)
}

/// `graph.enabled`, or mem0's `enableGraph` (both given must agree).
pub fn graph_enabled(graph: Option<GraphOptions>, enable_graph: Option<bool>) -> Result<bool> {
    match (graph.map(|graph| graph.enabled), enable_graph) {
        (Some(a), Some(b)) if a != b => Err(invalid("enableGraph", "disagrees with graph.enabled; give one")),
        (a, b) => Ok(a.or(b).unwrap_or(false)),
    }
}

/// `storage` with the collection name as its IndexedDB database or KV prefix, where it names none.
pub fn namespaced(mut storage: ProviderConfig, collection: Option<&str>) -> ProviderConfig {
    let Some(collection) = collection else { return storage };
    let (key, value) = match storage.provider.as_str() {
        "indexeddb" => ("dbName", collection.to_owned()),
        "cloudflare-kv" => ("prefix", format!("{collection}/")),
        _ => return storage,
    };
    let config = storage.config.get_or_insert_with(|| json!({}));
    if let Value::Object(map) = config {
        map.entry(key).or_insert(Value::String(value));
    }
    storage
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_prompt_replaces_and_instructions_extend_the_extraction_prompt() {
        let replaced = prompts(CustomPrompts::default(), Some("Only dates.".into()), None).unwrap();
        assert_eq!(replaced.fact_extraction, "Only dates.");
        let extended = prompts(CustomPrompts::default(), None, Some("Skip small talk.".into())).unwrap();
        assert!(extended.fact_extraction.ends_with("Custom instructions:\nSkip small talk."));
        assert_eq!(extended.update_decision, Prompts::default().update_decision);
        let both = CustomPrompts { fact_extraction: Some("x".into()), ..CustomPrompts::default() };
        assert_eq!(prompts(both, Some("y".into()), None).unwrap_err().code(), "INVALID_CONFIG");
        assert!(prompts(CustomPrompts::default(), Some(" ".into()), None).is_err());
    }

    #[test]
    fn enable_graph_is_graph_enabled() {
        assert!(graph_enabled(None, Some(true)).unwrap());
        assert!(!graph_enabled(None, None).unwrap());
        assert!(graph_enabled(Some(GraphOptions { enabled: true }), None).unwrap());
        assert!(graph_enabled(Some(GraphOptions { enabled: false }), Some(true)).is_err());
    }

    #[test]
    fn the_collection_names_storage_that_names_nothing() {
        let store = |provider: &str, config: Option<Value>| ProviderConfig {
            provider: provider.into(),
            config,
            dimensions: None,
        };
        let idb = namespaced(store("indexeddb", None), Some("notes"));
        assert_eq!(idb.config, Some(json!({"dbName": "notes"})));
        let named = namespaced(store("indexeddb", Some(json!({"dbName": "mine"}))), Some("notes"));
        assert_eq!(named.config, Some(json!({"dbName": "mine"})));
        let kv = namespaced(store("cloudflare-kv", None), Some("notes"));
        assert_eq!(kv.config, Some(json!({"prefix": "notes/"})));
        assert_eq!(namespaced(store("memory", None), Some("notes")).config, None);
    }
}
