//! `{provider: "azure_openai", config: {…}}` for the LLM and the embedder: one deployment each. mem0's shape is
//! read too: `modelProperties: {endpoint, deployment, apiVersion}` (what mem0 hands to openai's `AzureOpenAI`),
//! and `model`, which names the deployment when none is given (as that client does).

use serde::Deserialize;

use super::deployment::{AzureOpenAiChatSettings, AzureOpenAiEmbedderSettings, AzureTarget};
use crate::core::config::{invalid, non_empty};
use crate::core::error::Result;
use crate::providers::shared::fields::{dimensions, http_url, max_tokens, required, temperature, top_p};
use crate::providers::shared::keys::Env;
use crate::providers::shared::keys::{self, KeyNeed};

/// The GA data-plane API version used when none is given.
const API_VERSION: &str = "2024-10-21";

/// `llm.config` for Azure OpenAI.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AzureLlmOptions {
    /// `https://{resource}.openai.azure.com`; `AZURE_OPENAI_ENDPOINT` when absent.
    pub endpoint: Option<String>,
    pub deployment: Option<String>,
    pub api_version: Option<String>,
    pub api_key: Option<String>,
    /// mem0's: the deployment, when none is given.
    pub model: Option<String>,
    /// mem0's place for `endpoint`, `deployment` and `apiVersion`.
    pub model_properties: Option<ModelProperties>,
    pub temperature: Option<f64>,
    #[serde(alias = "max_tokens")]
    pub max_tokens: Option<u32>,
    #[serde(alias = "top_p")]
    pub top_p: Option<f64>,
    pub json_mode: Option<bool>,
}

/// `embedder.config` for Azure OpenAI.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AzureEmbedderOptions {
    pub endpoint: Option<String>,
    pub deployment: Option<String>,
    pub api_version: Option<String>,
    pub api_key: Option<String>,
    pub model: Option<String>,
    pub model_properties: Option<ModelProperties>,
    #[serde(alias = "embeddingDims", alias = "embedding_dims")]
    pub dimensions: Option<u32>,
}

/// Where a deployment is: its resource's `endpoint`, its name and the API version. mem0 gives them in
/// `modelProperties`, the options it hands to openai's `AzureOpenAI` client.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelProperties {
    pub endpoint: Option<String>,
    pub deployment: Option<String>,
    pub api_version: Option<String>,
}

impl ModelProperties {
    /// These options with those of `nested` (`modelProperties`), each given once; `model` names the deployment
    /// when neither does. `section` is `llm` or `embedder`.
    fn merged(self, nested: Option<ModelProperties>, model: Option<String>, section: &str) -> Result<Self> {
        let nested = nested.unwrap_or_default();
        let once = |name: &str, direct: Option<String>, nested: Option<String>| match (direct, nested) {
            (Some(_), Some(_)) => {
                let why = format!("is also in {section}.config.modelProperties: give it once");
                Err(invalid(&format!("{section}.config.{name}"), why))
            }
            (direct, nested) => Ok(direct.or(nested)),
        };
        Ok(ModelProperties {
            endpoint: once("endpoint", self.endpoint, nested.endpoint)?,
            deployment: once("deployment", self.deployment, nested.deployment)?.or(model),
            api_version: once("apiVersion", self.api_version, nested.api_version)?,
        })
    }
}

/// Whether `endpoint` is Azure's own (`https://{resource}.openai.azure.com` and the like), which needs a key;
/// a gateway of one's own may add it.
fn on_azure(endpoint: &str) -> bool {
    let host = endpoint.split("://").nth(1).unwrap_or(endpoint).split(['/', ':']).next().unwrap_or_default();
    host.to_ascii_lowercase().ends_with(".azure.com")
}

/// `endpoint`, with `https://` before a bare host name (`my-res.openai.azure.com`).
fn with_scheme(endpoint: String) -> String {
    if endpoint.contains("://") {
        endpoint
    } else {
        format!("https://{endpoint}")
    }
}

/// The deployment target; `section` is `llm` or `embedder`.
fn target(section: &str, place: ModelProperties, api_key: Option<String>, env: Env) -> Result<AzureTarget> {
    let field = |name: &str| format!("{section}.config.{name}");
    let ModelProperties { endpoint, deployment, api_version } = place;
    let endpoint = endpoint.or_else(|| env("AZURE_OPENAI_ENDPOINT"));
    let endpoint = required(&field("endpoint"), endpoint, "the resource URL")?;
    let endpoint = http_url(&field("endpoint"), Some(with_scheme(endpoint)), "")?;
    let deployment = required(&field("deployment"), deployment, "the deployment name")?;
    if !deployment.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
        return Err(invalid(&field("deployment"), "may only hold letters, digits, '-', '_' and '.'"));
    }
    let api_version = non_empty(&field("apiVersion"), api_version.or_else(|| env("OPENAI_API_VERSION")), API_VERSION)?;
    let need =
        KeyNeed { section, provider: "azure_openai", env_var: Some("AZURE_OPENAI_API_KEY"), url_field: "endpoint" };
    let api_key = keys::api_key(need, api_key.or_else(|| env("AZURE_OPENAI_API_KEY")), on_azure(&endpoint))?;
    Ok(AzureTarget { endpoint, deployment, api_version, api_key })
}

impl AzureLlmOptions {
    /// Validates and fills defaults (API version `2024-10-21`, JSON mode).
    pub fn resolve(self, env: Env) -> Result<AzureOpenAiChatSettings> {
        let place =
            ModelProperties { endpoint: self.endpoint, deployment: self.deployment, api_version: self.api_version };
        Ok(AzureOpenAiChatSettings {
            target: target("llm", place.merged(self.model_properties, self.model, "llm")?, self.api_key, env)?,
            temperature: temperature("llm.config.temperature", self.temperature, 2.0)?,
            max_tokens: max_tokens("llm.config.maxTokens", self.max_tokens)?,
            top_p: top_p("llm.config.topP", self.top_p)?,
            json_mode: self.json_mode.unwrap_or(true),
        })
    }
}

impl AzureEmbedderOptions {
    /// Validates and fills defaults.
    pub fn resolve(self, env: Env) -> Result<AzureOpenAiEmbedderSettings> {
        let place =
            ModelProperties { endpoint: self.endpoint, deployment: self.deployment, api_version: self.api_version };
        Ok(AzureOpenAiEmbedderSettings {
            target: target(
                "embedder",
                place.merged(self.model_properties, self.model, "embedder")?,
                self.api_key,
                env,
            )?,
            dimensions: dimensions("embedder.config.dimensions", self.dimensions)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::core::value_de::from_value;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn llm(config: Value) -> Result<AzureOpenAiChatSettings> {
        from_value::<AzureLlmOptions>(&config).unwrap().resolve(&no_env)
    }

    #[test]
    fn mem0s_model_properties_and_model_place_the_deployment() {
        let properties = json!({"endpoint": "https://r.openai.azure.com", "deployment": "d1", "apiVersion": "v9"});
        let read = llm(json!({"apiKey": "k", "model": "gpt-4o", "modelProperties": properties, "topP": 0.5})).unwrap();
        assert_eq!(
            (read.target.endpoint.as_str(), read.target.deployment.as_str()),
            ("https://r.openai.azure.com", "d1")
        );
        assert_eq!((read.target.api_version.as_str(), read.top_p), ("v9", Some(0.5)));
        let by_model = llm(json!({"model": "gpt-4o", "modelProperties": {"endpoint": "my-res.example.com"}})).unwrap();
        assert_eq!(by_model.target.deployment, "gpt-4o", "model names the deployment when nothing else does");
        assert_eq!(by_model.target.endpoint, "https://my-res.example.com", "a bare host is https");
        let embedder =
            from_value::<AzureEmbedderOptions>(&json!({"modelProperties": {"endpoint": "http://h", "deployment": "e"},
            "embeddingDims": 256}));
        assert_eq!(embedder.unwrap().resolve(&no_env).unwrap().dimensions, Some(256));
    }

    #[test]
    fn an_option_given_twice_or_a_bad_one_names_its_field() {
        let twice =
            llm(json!({"endpoint": "http://a", "deployment": "d", "modelProperties": {"endpoint": "http://b"}}));
        assert!(twice.unwrap_err().to_string().contains("llm.config.endpoint: is also in llm.config.modelProperties"));
        let none = llm(json!({"modelProperties": {"endpoint": "http://a"}})).unwrap_err().to_string();
        assert!(none.contains("llm.config.deployment: is required"), "{none}");
        let unknown = from_value::<AzureLlmOptions>(&json!({"modelProperties": {"modelName": "m"}})).unwrap_err();
        assert!(unknown.to_string().contains("unknown field `modelName`"), "{unknown}");
        assert!(llm(json!({"endpoint": "ftp://a", "deployment": "d"})).is_err());
        assert!(llm(json!({"endpoint": "http://a", "deployment": "d", "top_p": 2}))
            .unwrap_err()
            .to_string()
            .contains("topP"));
    }
}
