//! OpenAI-compatible chat completions (`POST {baseUrl}/chat/completions`).

use serde_json::{json, Value};

use super::{endpoint, json_headers, Llm};
use crate::core::error::{MemoryError, Result};
use crate::http::{send_with_retry, HttpClient, HttpRequest, RetryPolicy};

/// Resolved settings for an OpenAI-compatible chat model.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenAiChatSettings {
    pub model: String,
    pub api_key: Option<String>,
    pub base_url: String,
    pub temperature: f64,
    pub max_tokens: u32,
    /// Send `response_format: {type: "json_object"}` when JSON is wanted.
    pub json_mode: bool,
}

/// An OpenAI-compatible chat model reached through `C`.
pub struct OpenAiChat<C> {
    client: C,
    settings: OpenAiChatSettings,
    retry: RetryPolicy,
}

impl<C: HttpClient> OpenAiChat<C> {
    pub fn new(client: C, settings: OpenAiChatSettings, retry: RetryPolicy) -> Self {
        Self { client, settings, retry }
    }

    fn request(&self, system: &str, user: &str, json: bool) -> HttpRequest {
        let mut body = json!({
            "model": self.settings.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "temperature": self.settings.temperature,
            "max_tokens": self.settings.max_tokens,
        });
        if json && self.settings.json_mode {
            body["response_format"] = json!({"type": "json_object"});
        }
        HttpRequest {
            url: endpoint(&self.settings.base_url, "chat/completions"),
            headers: json_headers(self.settings.api_key.as_deref()),
            body: body.to_string(),
        }
    }
}

/// `choices[0].message.content` of a chat completion.
fn reply_text(body: &str) -> Result<String> {
    let value: Value = serde_json::from_str(body)
        .map_err(|error| MemoryError::LlmResponse(format!("response is not JSON: {error}")))?;
    value
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| MemoryError::LlmResponse("no choices[0].message.content in response".into()))
}

impl<C: HttpClient> Llm for OpenAiChat<C> {
    async fn generate(&self, system: &str, user: &str, json: bool) -> Result<String> {
        let response = send_with_retry(&self.client, &self.request(system, user, json), &self.retry)
            .await
            .map_err(MemoryError::Llm)?;
        reply_text(&response.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::testing::Recorder;

    fn chat(recorder: Recorder, json_mode: bool) -> OpenAiChat<Recorder> {
        let settings = OpenAiChatSettings {
            model: "m".into(),
            api_key: Some("k".into()),
            base_url: "http://h/v1/".into(),
            temperature: 0.0,
            max_tokens: 2000,
            json_mode,
        };
        OpenAiChat::new(recorder, settings, RetryPolicy { max_retries: 0, ..RetryPolicy::default() })
    }

    #[test]
    fn sends_the_openai_request_shape_and_reads_the_content() {
        let llm =
            chat(Recorder::replying(200, r#"{"choices":[{"message":{"role":"assistant","content":"hi"}}]}"#), true);
        assert_eq!(futures_executor::block_on(llm.generate("sys", "usr", true)).unwrap(), "hi");
        let request = llm.client.requests.borrow()[0].clone();
        assert_eq!(request.url, "http://h/v1/chat/completions");
        assert!(request.headers.contains(&("authorization".into(), "Bearer k".into())));
        let body = llm.client.body();
        assert_eq!(body["messages"][0], json!({"role": "system", "content": "sys"}));
        assert_eq!(body["messages"][1]["content"], "usr");
        assert_eq!(body["temperature"], 0.0);
        assert_eq!(body["max_tokens"], 2000);
        assert_eq!(body["response_format"]["type"], "json_object");
    }

    #[test]
    fn json_mode_can_be_turned_off() {
        let llm = chat(Recorder::replying(200, r#"{"choices":[{"message":{"content":"x"}}]}"#), false);
        futures_executor::block_on(llm.generate("s", "u", true)).unwrap();
        assert!(llm.client.body().get("response_format").is_none());
    }

    #[test]
    fn errors_carry_codes() {
        let llm = chat(Recorder::replying(401, r#"{"error":{"message":"bad key"}}"#), true);
        let error = futures_executor::block_on(llm.generate("s", "u", true)).unwrap_err();
        assert_eq!((error.code(), error.http_status()), ("LLM_HTTP", Some(401)));
        assert!(error.to_string().contains("bad key"));
        for body in ["{not json", r#"{"choices":[]}"#, r#"{"choices":[{"message":{"content":null}}]}"#] {
            let llm = chat(Recorder::replying(200, body), true);
            let error = futures_executor::block_on(llm.generate("s", "u", true)).unwrap_err();
            assert_eq!(error.code(), "LLM_RESPONSE", "{body}");
        }
    }
}
