//! mem0's `reranker: {provider, config}`: a second ranking of search results by a cross-encoder, Cohere,
//! ZeroEntropy or an LLM. The library has no reranker stage, so a mem0 reranker is accepted and named in a
//! startup warning (search ranks as it would without one); a provider mem0 does not have is `INVALID_CONFIG`.

use serde::Deserialize;
use serde_json::Value;

use super::unknown_provider;
use crate::core::error::Result;

/// mem0's reranker providers (its `RerankerFactory`).
pub const MEM0_RERANKERS: &[&str] = &["cohere", "zero_entropy", "sentence_transformer", "huggingface", "llm_reranker"];

/// `reranker`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RerankerOptions {
    pub provider: String,
    /// The provider's settings (model, API key, `topK`, …): read by nobody.
    #[serde(default)]
    pub config: Option<Value>,
}

/// The startup warning a `reranker` gets, or `INVALID_CONFIG` for a provider mem0 does not have.
pub fn reranker_warning(reranker: &RerankerOptions) -> Result<String> {
    if !MEM0_RERANKERS.contains(&reranker.provider.as_str()) {
        return Err(unknown_provider("reranker.provider", &reranker.provider, MEM0_RERANKERS));
    }
    Ok(format!(
        "reranker is ignored: memwasm has no reranker stage, so the \"{}\" reranker and its config are not used \
         and search results keep their own ranking; remove reranker to silence this warning",
        reranker.provider
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_mem0_reranker_is_named_in_a_warning_and_another_is_invalid() {
        for provider in MEM0_RERANKERS {
            let options = RerankerOptions { provider: (*provider).into(), config: Some(json!({"topK": 5})) };
            let warning = reranker_warning(&options).unwrap();
            assert!(warning.starts_with("reranker is ignored") && warning.contains(provider), "{warning}");
        }
        let error = reranker_warning(&RerankerOptions { provider: "jina".into(), config: None }).unwrap_err();
        assert_eq!(error.code(), "INVALID_CONFIG");
        assert!(
            error.to_string().contains("reranker.provider: unknown provider \"jina\" (supported: cohere"),
            "{error}"
        );
    }
}
