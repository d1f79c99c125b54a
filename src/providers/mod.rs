//! Model providers: the two small traits the engine needs, and their OpenAI-compatible implementations.

mod openai_chat;
mod openai_embedder;

pub use openai_chat::{OpenAiChat, OpenAiChatSettings};
pub use openai_embedder::{OpenAiEmbedder, OpenAiEmbedderSettings};

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

        pub fn body(&self) -> serde_json::Value {
            serde_json::from_str(&self.requests.borrow()[0].body).unwrap()
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
