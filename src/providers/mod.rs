//! Model providers: the core's `Llm` and `Embedder` over HTTP, one module per wire format (OpenAI and
//! Azure OpenAI, Anthropic, Gemini, Ollama), each with its settings; `config` reads the JS config that
//! picks them, and `any` composes whichever was picked.

mod anthropic;
pub mod any;
mod azure_openai;
pub mod chroma;
pub mod config;
mod gemini;
mod ollama;
mod openai;
mod shared;
mod workers_ai;

pub use anthropic::{AnthropicChat, AnthropicSettings};
pub use azure_openai::{AzureOpenAiChatSettings, AzureOpenAiEmbedderSettings, AzureTarget};
pub use gemini::{openapi_schema, GeminiChat, GeminiChatSettings, GeminiEmbedder, GeminiEmbedderSettings};
pub use ollama::{OllamaChat, OllamaChatSettings, OllamaEmbedder, OllamaEmbedderSettings};
pub use openai::{OpenAiChat, OpenAiChatSettings, OpenAiEmbedder, OpenAiEmbedderSettings};
pub use shared::embedding_reply::{checked_vectors, json_vector, json_vectors};
pub use shared::structured::StructuredOutput;

pub use crate::core::model_traits::{Embedder, Llm, LlmRequest};

use crate::core::error::UpstreamError;
use crate::http::HttpError;

/// The transport's failure as the core sees it: a status (or none for a network failure or a timeout) and a
/// message.
pub(crate) fn upstream(error: HttpError) -> UpstreamError {
    match error {
        HttpError::Network(message) => UpstreamError::new(None, message),
        HttpError::Status { status, message } => UpstreamError::new(Some(status), message),
        HttpError::Timeout(ms) => UpstreamError::timeout(ms),
    }
}

/// `base_url` + `path`, without doubling the slash.
fn endpoint(base_url: &str, path: &str) -> String {
    format!("{}/{}", base_url.trim_end_matches('/'), path)
}

/// Where a provider posts its requests, and the headers that go with them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    pub url: String,
    pub headers: Vec<(String, String)>,
}

impl Target {
    /// A POST of `body` to this target.
    pub fn post(&self, body: serde_json::Value) -> crate::http::HttpRequest {
        crate::http::HttpRequest {
            url: self.url.clone(),
            headers: self.headers.clone(),
            body: body.to_string(),
            timeout_ms: None,
        }
    }
}

/// JSON and, when a key is set, bearer-auth headers.
fn json_headers(api_key: Option<&str>) -> Vec<(String, String)> {
    let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
    if let Some(key) = api_key.filter(|key| !key.is_empty()) {
        headers.push(("authorization".to_owned(), format!("Bearer {key}")));
    }
    headers
}

#[cfg(test)]
pub(crate) mod testing {
    //! A recording `HttpClient` for provider unit tests.
    use std::cell::RefCell;

    use crate::http::{HttpClient, HttpError, HttpRequest, HttpResponse};

    #[derive(Default)]
    pub struct Recorder {
        pub replies: RefCell<Vec<Result<HttpResponse, HttpError>>>,
        pub requests: RefCell<Vec<HttpRequest>>,
    }

    impl Recorder {
        pub fn replying(status: u16, body: &str) -> Self {
            let recorder = Self::default();
            recorder.replies.borrow_mut().push(Ok(HttpResponse { status, retry_after: None, body: body.into() }));
            recorder
        }

        /// Replies with each `(status, body)` in turn.
        pub fn with_replies(replies: &[(u16, &str)]) -> Self {
            let recorder = Self::default();
            for (status, body) in replies {
                let reply = HttpResponse { status: *status, retry_after: None, body: (*body).into() };
                recorder.replies.borrow_mut().push(Ok(reply));
            }
            recorder
        }

        pub fn body(&self) -> serde_json::Value {
            self.body_of(0)
        }

        /// The JSON body of request `index`.
        pub fn body_of(&self, index: usize) -> serde_json::Value {
            serde_json::from_str(&self.requests.borrow()[index].body).unwrap()
        }

        /// The value of header `name` in the first request.
        pub fn header(&self, name: &str) -> Option<String> {
            self.requests.borrow()[0].headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
        }
    }

    impl HttpClient for Recorder {
        async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
            self.requests.borrow_mut().push(request.clone());
            self.replies.borrow_mut().remove(0)
        }
        async fn sleep(&self, _: u32) {}
    }
}
