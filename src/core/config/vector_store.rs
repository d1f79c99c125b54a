//! `vectorStore: {provider: "memory", config: {quantization: "auto" | "none" | "int8", collectionName?, dimension?,
//! dbPath?}}`: the in-RAM search index. The last three are mem0's: the collection names the storage, the
//! dimension is checked against the embedder's, and `dbPath` (a file) does not apply. `chroma` is read by
//! `crate::providers::chroma`.

use serde::Deserialize;

use super::{invalid, provider_options, unknown_provider, ProviderConfig};
use crate::core::error::Result;
use crate::core::vector_store::Quantization;

/// `vectorStore.config` for the `memory` index.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemoryVectorStoreOptions {
    /// `"auto"` (the default: f32, scanned as int8 codes at large sizes), `"none"` (f32) or `"int8"`.
    pub quantization: Option<Quantization>,
    pub collection_name: Option<String>,
    pub dimension: Option<u32>,
    pub db_path: Option<serde_json::Value>,
}

/// The search index to build.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VectorStoreSettings {
    pub quantization: Quantization,
    /// mem0's collection: names the storage where `storage.config` does not.
    pub collection_name: Option<String>,
    /// mem0's vector length, which the embedder must produce.
    pub dimension: Option<usize>,
}

/// Checks `vectorStore` (absent means the f32 in-memory index).
pub fn vector_store_settings(config: Option<&ProviderConfig>) -> Result<VectorStoreSettings> {
    let Some(store) = config else { return Ok(VectorStoreSettings::default()) };
    if store.provider != "memory" {
        return Err(unknown_provider("vectorStore.provider", &store.provider, &["memory", "chroma"]));
    }
    let options: MemoryVectorStoreOptions = provider_options(&store.config, "vectorStore.config")?;
    if options.collection_name.as_ref().is_some_and(|name| name.trim().is_empty()) {
        return Err(invalid("vectorStore.config.collectionName", "must not be empty"));
    }
    if options.dimension == Some(0) {
        return Err(invalid("vectorStore.config.dimension", "must be at least 1"));
    }
    Ok(VectorStoreSettings {
        quantization: options.quantization.unwrap_or_default(),
        collection_name: options.collection_name,
        dimension: options.dimension.map(|d| d as usize),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    fn settings(config: Value) -> Result<VectorStoreSettings> {
        let config: Option<ProviderConfig> = serde_json::from_value(config).unwrap();
        vector_store_settings(config.as_ref())
    }

    #[test]
    fn quantization_defaults_to_auto_and_accepts_none_and_int8() {
        assert_eq!(settings(Value::Null).unwrap().quantization, Quantization::Auto);
        assert_eq!(settings(json!({"provider": "memory"})).unwrap().quantization, Quantization::Auto);
        let auto = settings(json!({"provider": "memory", "config": {"quantization": "auto"}})).unwrap();
        assert_eq!(auto.quantization, Quantization::Auto);
        let int8 = settings(json!({"provider": "memory", "config": {"quantization": "int8"}})).unwrap();
        assert_eq!(int8.quantization, Quantization::Int8);
        let none = settings(json!({"provider": "memory", "config": {"quantization": "none"}})).unwrap();
        assert_eq!(none.quantization, Quantization::None);
    }

    #[test]
    fn bad_options_name_the_field() {
        let message = |config: Value| settings(config).unwrap_err().to_string();
        let bad = message(json!({"provider": "memory", "config": {"quantization": "int4"}}));
        assert!(bad.contains("vectorStore.config.quantization") && bad.contains("int8"), "{bad}");
        let unknown = message(json!({"provider": "memory", "config": {"quantisation": "int8"}}));
        assert!(unknown.contains("vectorStore.config") && unknown.contains("quantisation"), "{unknown}");
        let mem0 = settings(
            json!({"provider": "memory", "config": {"collectionName": "c", "dimension": 8, "dbPath": ":memory:"}}),
        );
        assert_eq!(mem0.unwrap().dimension, Some(8));
        assert!(message(json!({"provider": "memory", "config": {"dimension": 0}})).contains("dimension"));
        assert!(message(json!({"provider": "memory", "config": {"collectionName": ""}})).contains("collectionName"));
        let provider = message(json!({"provider": "qdrant"}));
        assert!(provider.contains("vectorStore.provider") && provider.contains("qdrant"), "{provider}");
        assert_eq!(
            settings(json!({"provider": "memory", "config": {"quantization": 8}})).unwrap_err().code(),
            "INVALID_CONFIG"
        );
    }
}
