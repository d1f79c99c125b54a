//! The two model traits the engine calls: a chat model that answers one prompt, and a text embedder.
//! Providers (`crate::providers`) and platform adapters implement them; the core only sees these.

use super::error::{MemoryError, Result};
use super::reply_schema::ReplySchema;

/// One call to a chat model: a system prompt, a user prompt, and the JSON shape the reply must have.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LlmRequest<'a> {
    pub system: &'a str,
    pub user: &'a str,
    /// The reply's JSON shape, which providers with structured output enforce (tools, response schemas,
    /// JSON mode); `None` for free text.
    pub reply: Option<&'a ReplySchema>,
}

impl<'a> LlmRequest<'a> {
    /// A request whose reply must be JSON of the shape `reply`.
    pub fn json(system: &'a str, user: &'a str, reply: &'a ReplySchema) -> Self {
        Self { system, user, reply: Some(reply) }
    }

    /// A request for a free-text reply.
    pub fn text(system: &'a str, user: &'a str) -> Self {
        Self { system, user, reply: None }
    }

    /// True when the reply must be JSON.
    pub fn wants_json(&self) -> bool {
        self.reply.is_some()
    }
}

/// A chat model.
#[allow(async_fn_in_trait)]
pub trait Llm {
    /// The model's reply text.
    async fn generate(&self, request: &LlmRequest<'_>) -> Result<String>;

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
        vectors.pop().ok_or_else(|| MemoryError::EmbeddingResponse("no vector returned".into()))
    }
}

/// A model that scores how relevant each of a few documents is to a query (a cross-encoder service, or an
/// LLM asked for scores): the reranker stage of `search(…, {rerank: true})`.
#[allow(async_fn_in_trait)]
pub trait Reranker {
    /// `(index into documents, relevance)` for every document, in any order; a higher relevance is better.
    async fn rerank(&self, query: &str, documents: &[&str]) -> Result<Vec<(usize, f64)>>;
}
