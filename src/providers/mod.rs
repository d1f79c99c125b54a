//! Model providers: the two small traits the engine needs, and their implementations over HTTP, one
//! module per wire format (OpenAI and Azure OpenAI, Anthropic, Gemini, Ollama).

mod anthropic;
mod azure_openai;
mod gemini_chat;
mod gemini_embedder;
mod ollama_chat;
mod ollama_embedder;
mod openai_chat;
mod openai_embedder;
mod reply_schema;
mod structured;
mod vectors;

pub use anthropic::{AnthropicChat, AnthropicSettings};
pub use azure_openai::{AzureOpenAiChatSettings, AzureOpenAiEmbedderSettings, AzureTarget};
pub use gemini_chat::{GeminiChat, GeminiChatSettings};
pub use gemini_embedder::{GeminiEmbedder, GeminiEmbedderSettings};
pub use ollama_chat::{OllamaChat, OllamaChatSettings};
pub use ollama_embedder::{OllamaEmbedder, OllamaEmbedderSettings};
pub use openai_chat::{OpenAiChat, OpenAiChatSettings};
pub use openai_embedder::{OpenAiEmbedder, OpenAiEmbedderSettings};
pub use reply_schema::{openapi_schema, ReplySchema, ReplySchemas};
pub use structured::StructuredOutput;
pub use vectors::{checked_vectors, json_vector, json_vectors};

use crate::core::error::Result;

/// A chat model that answers one system + user prompt.
#[allow(async_fn_in_trait)]
pub trait Llm {
    /// Returns the model's reply text; `json` asks for a JSON reply when the provider supports it.
    async fn generate(&self, system: &str, user: &str, json: bool) -> Result<String>;

    /// False for the "none" provider: the memory then stores messages as they are.
    fn is_configured(&self) -> bool {
        true
    }
}

/// A text embedding model.
#[allow(async_fn_in_trait)]
pub trait Embedder {
    /// One vector per text, in order, in as few requests as the API allows.
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>>;

    /// The vector length every embedding must have, when configured.
    fn dimensions(&self) -> Option<usize> {
        None
    }

    /// False for the "none" provider: memories then have no vectors and search uses keywords.
    fn is_configured(&self) -> bool {
        true
    }

    /// Embeds a single text.
    async fn embed_one(&self, text: &str) -> Result<Vec<f32>> {
        let mut vectors = self.embed(&[text.to_owned()]).await?;
        vectors.pop().ok_or_else(|| crate::core::error::MemoryError::EmbeddingResponse("no vector returned".into()))
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
        crate::http::HttpRequest { url: self.url.clone(), headers: self.headers.clone(), body: body.to_string() }
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
