//! `vectorStore: {provider: "memory", config: {quantization: "none" | "int8"}}`: the in-RAM search index.

use serde::Deserialize;

use super::{provider_options, unknown_provider, ProviderConfig};
use crate::core::error::Result;
use crate::core::vector_store::Quantization;

/// `vectorStore.config` for the `memory` index.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemoryVectorStoreOptions {
    /// `"none"` (f32, the default) or `"int8"`.
    pub quantization: Option<Quantization>,
}

/// The search index to build.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VectorStoreSettings {
    pub quantization: Quantization,
}

/// Checks `vectorStore` (absent means the f32 in-memory index).
pub fn vector_store_settings(config: Option<&ProviderConfig>) -> Result<VectorStoreSettings> {
    let Some(store) = config else { return Ok(VectorStoreSettings::default()) };
    if store.provider != "memory" {
        return Err(unknown_provider("vectorStore.provider", &store.provider, &["memory"]));
    }
    let options: MemoryVectorStoreOptions = provider_options(&store.config, "vectorStore.config")?;
    Ok(VectorStoreSettings { quantization: options.quantization.unwrap_or_default() })
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
    fn quantization_defaults_to_f32_and_accepts_int8() {
        assert_eq!(settings(Value::Null).unwrap().quantization, Quantization::None);
        assert_eq!(settings(json!({"provider": "memory"})).unwrap().quantization, Quantization::None);
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
        let provider = message(json!({"provider": "qdrant"}));
        assert!(provider.contains("vectorStore.provider") && provider.contains("qdrant"), "{provider}");
        assert_eq!(
            settings(json!({"provider": "memory", "config": {"quantization": 8}})).unwrap_err().code(),
            "INVALID_CONFIG"
        );
    }
}
