//! Ollama's native chat API (`POST {baseUrl}/api/chat`, default `http://localhost:11434`) with
//! `stream: false` and, for JSON replies, `format: "json"`. Sampling goes in `options`.

use serde_json::{json, Value};

use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::{Llm, LlmRequest};
use crate::http::{HttpClient, HttpRequest, RetryPolicy};
use crate::providers::shared::request::{endpoint, json_headers, upstream, Target};
use crate::providers::shared::structured::StructuredOutput;

/// Resolved settings for an Ollama model.
#[derive(Debug, Clone, PartialEq)]
pub struct OllamaChatSettings {
    pub model: String,
    /// Default `http://localhost:11434`.
    pub base_url: String,
    /// Sent as a bearer token, for Ollama behind an authenticating proxy.
    pub api_key: Option<String>,
    pub temperature: f64,
    /// Sent as `options.num_predict`.
    pub max_tokens: u32,
    /// `options.top_p` and `options.top_k`, when set.
    pub top_p: Option<f64>,
    pub top_k: Option<u32>,
    /// Send `format: "json"` when JSON is wanted.
    pub json_mode: bool,
}

/// An Ollama model reached through `C`.
pub struct OllamaChat<C> {
    client: C,
    target: Target,
    settings: OllamaChatSettings,
    json_mode: StructuredOutput,
    retry: RetryPolicy,
}

impl<C: HttpClient> OllamaChat<C> {
    pub fn new(client: C, settings: OllamaChatSettings, retry: RetryPolicy) -> Self {
        let target = Target {
            url: endpoint(&settings.base_url, "api/chat"),
            headers: json_headers(settings.api_key.as_deref()),
        };
        let json_mode = StructuredOutput::new(settings.json_mode, &["format"]);
        Self { client, target, settings, json_mode, retry }
    }

    fn request(&self, system: &str, user: &str, json_mode: bool) -> HttpRequest {
        let mut body = json!({
            "model": self.settings.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "stream": false,
            "options": {"temperature": self.settings.temperature, "num_predict": self.settings.max_tokens},
        });
        if let Some(top_p) = self.settings.top_p {
            body["options"]["top_p"] = json!(top_p);
        }
        if let Some(top_k) = self.settings.top_k {
            body["options"]["top_k"] = json!(top_k);
        }
        if json_mode {
            body["format"] = json!("json");
        }
        self.target.post(body)
    }
}

/// `message.content` of a non-streamed chat reply.
fn reply_text(body: &str) -> Result<String> {
    let value: Value =
        serde_json::from_str(body).map_err(|_| MemoryError::LlmResponse("response is not one JSON object".into()))?;
    value
        .pointer("/message/content")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| MemoryError::LlmResponse("no message.content in response".into()))
}

impl<C: HttpClient> Llm for OllamaChat<C> {
    async fn generate(&self, call: &LlmRequest<'_>) -> Result<String> {
        let request = |json_mode| self.request(call.system, call.user, json_mode);
        let response = self.json_mode.send(&self.client, &self.retry, call.wants_json(), request).await;
        let response = response.map_err(|e| MemoryError::Llm(upstream(e)))?;
        reply_text(&response.body)
    }
}

#[cfg(test)]
mod tests {
    use futures_executor::block_on;

    use super::*;
    use crate::core::reply_schema;
    use crate::providers::shared::testing::Recorder;

    fn chat(recorder: Recorder) -> OllamaChat<Recorder> {
        let settings = OllamaChatSettings {
            model: "llama3.1".into(),
            base_url: "http://localhost:11434".into(),
            api_key: None,
            temperature: 0.0,
            max_tokens: 700,
            top_p: None,
            top_k: Some(20),
            json_mode: true,
        };
        OllamaChat::new(recorder, settings, RetryPolicy { max_retries: 0, ..RetryPolicy::default() })
    }

    const REPLY: &str = r#"{"model":"llama3.1","created_at":"2024-07-22T20:33:28.123Z",
        "message":{"role":"assistant","content":"{\"facts\":[]}"},"done_reason":"stop","done":true,"eval_count":4}"#;

    #[test]
    fn sends_api_chat_unstreamed_with_format_json() {
        let llm = chat(Recorder::replying(200, REPLY));
        let facts = reply_schema::facts();
        assert_eq!(block_on(llm.generate(&LlmRequest::json("sys", "usr", &facts))).unwrap(), "{\"facts\":[]}");
        let request = llm.client.requests.borrow()[0].clone();
        assert_eq!(request.url, "http://localhost:11434/api/chat");
        assert_eq!(llm.client.header("authorization"), None);
        let body = llm.client.body();
        assert_eq!(body["model"], "llama3.1");
        assert_eq!(body["stream"], false);
        assert_eq!(body["format"], "json");
        assert_eq!(body["messages"][0], json!({"role": "system", "content": "sys"}));
        assert_eq!(body["messages"][1], json!({"role": "user", "content": "usr"}));
        assert_eq!(body["options"], json!({"temperature": 0.0, "num_predict": 700, "top_k": 20}));
        let text = chat(Recorder::replying(200, REPLY));
        block_on(text.generate(&LlmRequest::text("s", "u"))).unwrap();
        assert!(text.client.body().get("format").is_none(), "a text call is not forced into JSON");
    }

    #[test]
    fn ollama_errors_and_streamed_bodies_carry_codes() {
        let facts = reply_schema::facts();
        let request = LlmRequest::json("s", "u", &facts);
        let missing = r#"{"error":"model \"llama3.1\" not found, try pulling it first"}"#;
        let error = block_on(chat(Recorder::replying(404, missing)).generate(&request)).unwrap_err();
        assert_eq!((error.code(), error.http_status()), ("LLM_HTTP", Some(404)));
        assert!(error.to_string().contains("try pulling it first"), "{error}");
        let streamed =
            "{\"message\":{\"content\":\"a\"},\"done\":false}\n{\"message\":{\"content\":\"b\"},\"done\":true}";
        for body in [streamed, r#"{"done":true}"#] {
            let error = block_on(chat(Recorder::replying(200, body)).generate(&request)).unwrap_err();
            assert_eq!(error.code(), "LLM_RESPONSE", "{body}");
        }
    }
}
