//! Azure OpenAI: the OpenAI wire format at a deployment URL,
//! `{endpoint}/openai/deployments/{deployment}/{chat/completions|embeddings}?api-version=…`, with the
//! key in an `api-key` header. The deployment picks the model, so no `model` is sent.

use crate::http::{HttpClient, RetryPolicy};
use crate::providers::openai::{OpenAiChat, OpenAiEmbedder, JSON_MODE_PARAMETER, SAMPLING_PARAMETERS};
use crate::providers::shared::request::Target;
use crate::providers::shared::structured::StructuredOutput;

/// One Azure OpenAI deployment.
#[derive(Debug, Clone, PartialEq)]
pub struct AzureTarget {
    /// `https://{resource}.openai.azure.com`
    pub endpoint: String,
    pub deployment: String,
    pub api_version: String,
    pub api_key: Option<String>,
}

impl AzureTarget {
    /// The deployment's `operation` (e.g. `chat/completions`) with its headers.
    pub(crate) fn target(&self, operation: &str) -> Target {
        let url = format!(
            "{}/openai/deployments/{}/{operation}?api-version={}",
            self.endpoint.trim_end_matches('/'),
            self.deployment,
            self.api_version
        );
        let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
        if let Some(key) = self.api_key.as_deref().filter(|key| !key.is_empty()) {
            headers.push(("api-key".to_owned(), key.to_owned()));
        }
        Target { url, headers }
    }
}

/// Resolved settings for an Azure OpenAI chat deployment.
#[derive(Debug, Clone, PartialEq)]
pub struct AzureOpenAiChatSettings {
    pub target: AzureTarget,
    pub temperature: f64,
    pub max_tokens: u32,
    /// Sent as `top_p` when set.
    pub top_p: Option<f64>,
    pub json_mode: bool,
}

/// Resolved settings for an Azure OpenAI embedding deployment.
#[derive(Debug, Clone, PartialEq)]
pub struct AzureOpenAiEmbedderSettings {
    pub target: AzureTarget,
    pub dimensions: Option<usize>,
}

impl<C: HttpClient> OpenAiChat<C> {
    /// A chat model behind an Azure OpenAI deployment.
    pub fn azure(client: C, settings: AzureOpenAiChatSettings, retry: RetryPolicy) -> Self {
        Self {
            client,
            target: settings.target.target("chat/completions"),
            model: None,
            temperature: settings.temperature,
            max_tokens: settings.max_tokens,
            top_p: settings.top_p,
            json_mode: StructuredOutput::new(settings.json_mode, JSON_MODE_PARAMETER),
            sampling: StructuredOutput::new(true, SAMPLING_PARAMETERS),
            retry,
        }
    }
}

impl<C: HttpClient> OpenAiEmbedder<C> {
    /// An embedding model behind an Azure OpenAI deployment.
    pub fn azure(client: C, settings: AzureOpenAiEmbedderSettings, retry: RetryPolicy) -> Self {
        Self {
            client,
            target: settings.target.target("embeddings"),
            model: None,
            dimensions: settings.dimensions,
            send_dimensions: true,
            retry,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use futures_executor::block_on;

    use super::*;
    use crate::core::model_traits::{Embedder, Llm, LlmRequest};
    use crate::core::reply_schema;
    use crate::providers::shared::testing::Recorder;

    fn target() -> AzureTarget {
        AzureTarget {
            endpoint: "https://res.openai.azure.com/".into(),
            deployment: "gpt4o-prod".into(),
            api_version: "2024-10-21".into(),
            api_key: Some("az-key".into()),
        }
    }

    #[test]
    fn chat_goes_to_the_deployment_with_an_api_key_header() {
        let reply = r#"{"choices":[{"message":{"role":"assistant","content":"{}"}}]}"#;
        let settings = AzureOpenAiChatSettings {
            target: target(),
            temperature: 0.0,
            max_tokens: 100,
            top_p: None,
            json_mode: true,
        };
        let llm = OpenAiChat::azure(Recorder::replying(200, reply), settings, RetryPolicy::default());
        let facts = reply_schema::facts();
        assert_eq!(block_on(llm.generate(&LlmRequest::json("s", "u", &facts))).unwrap(), "{}");
        let request = llm.client.requests.borrow()[0].clone();
        assert_eq!(
            request.url,
            "https://res.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21"
        );
        assert_eq!(llm.client.header("api-key").as_deref(), Some("az-key"));
        assert_eq!(llm.client.header("authorization"), None);
        let body = llm.client.body();
        assert!(body.get("model").is_none());
        assert_eq!(body["response_format"], json!({"type": "json_object"}));
        assert_eq!(body["max_tokens"], 100);
    }

    #[test]
    fn embeddings_go_to_the_deployment_in_one_batch() {
        let reply = r#"{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[0,1]}]}"#;
        let settings = AzureOpenAiEmbedderSettings { target: target(), dimensions: Some(2) };
        let embedder = OpenAiEmbedder::azure(Recorder::replying(200, reply), settings, RetryPolicy::default());
        let vectors = block_on(embedder.embed(&["a".into(), "b".into()])).unwrap();
        assert_eq!(vectors.len(), 2);
        let url = embedder.client.requests.borrow()[0].url.clone();
        assert_eq!(url, "https://res.openai.azure.com/openai/deployments/gpt4o-prod/embeddings?api-version=2024-10-21");
        assert_eq!(embedder.client.body(), json!({"input": ["a", "b"], "dimensions": 2}));
    }

    #[test]
    fn azure_errors_keep_their_message() {
        let reply = r#"{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}"#;
        let settings = AzureOpenAiChatSettings {
            target: target(),
            temperature: 0.0,
            max_tokens: 1,
            top_p: None,
            json_mode: false,
        };
        let policy = RetryPolicy { max_retries: 0, ..RetryPolicy::default() };
        let llm = OpenAiChat::azure(Recorder::replying(404, reply), settings, policy);
        let facts = reply_schema::facts();
        let error = block_on(llm.generate(&LlmRequest::json("s", "u", &facts))).unwrap_err();
        assert_eq!((error.code(), error.http_status()), ("LLM_HTTP", Some(404)));
        assert!(error.to_string().contains("deployment for this resource does not exist"), "{error}");
    }
}
