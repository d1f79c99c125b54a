//! OpenAI-compatible chat completions (`POST {baseUrl}/chat/completions`), also used for Azure OpenAI
//! deployments and hosts such as Groq, Together, OpenRouter, DeepSeek, LM Studio and vLLM. JSON mode
//! (`response_format`) is dropped for the instance when a host rejects it, and so are the sampling
//! parameters (`temperature`, `max_tokens`, `top_p`) when a model refuses one: OpenAI's reasoning models
//! take the model's own (what mem0 sends: the model alone).

use serde_json::{json, Value};

use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::{Llm, LlmRequest};
use crate::http::{HttpClient, HttpRequest, RetryPolicy};
use crate::providers::shared::request::{endpoint, json_headers, upstream, Target};
use crate::providers::shared::structured::StructuredOutput;

/// What hosts name when they refuse JSON mode ("response_format is not supported", "json_object …").
pub(in crate::providers) const JSON_MODE_PARAMETER: &[&str] = &["response_format", "json_object", "json mode"];
/// What a model names when it refuses a sampling parameter ("Unsupported value: 'temperature' does not support
/// 0 with this model", "'max_tokens' is not supported with this model").
pub(in crate::providers) const SAMPLING_PARAMETERS: &[&str] = &["temperature", "max_tokens", "top_p"];

/// Resolved settings for an OpenAI-compatible chat model.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenAiChatSettings {
    pub model: String,
    pub api_key: Option<String>,
    pub base_url: String,
    pub temperature: f64,
    pub max_tokens: u32,
    /// Sent as `top_p` when set.
    pub top_p: Option<f64>,
    /// Send `response_format: {type: "json_object"}` when JSON is wanted.
    pub json_mode: bool,
}

/// An OpenAI-compatible chat model reached through `C`.
pub struct OpenAiChat<C> {
    pub(in crate::providers) client: C,
    pub(in crate::providers) target: Target,
    /// Sent as `model`; `None` for Azure, where the deployment picks the model.
    pub(in crate::providers) model: Option<String>,
    pub(in crate::providers) temperature: f64,
    pub(in crate::providers) max_tokens: u32,
    pub(in crate::providers) top_p: Option<f64>,
    pub(in crate::providers) json_mode: StructuredOutput,
    /// Whether to send `temperature`, `max_tokens` and `top_p` (off once the model refused one).
    pub(in crate::providers) sampling: StructuredOutput,
    pub(in crate::providers) retry: RetryPolicy,
}

impl<C: HttpClient> OpenAiChat<C> {
    pub fn new(client: C, settings: OpenAiChatSettings, retry: RetryPolicy) -> Self {
        Self {
            client,
            target: Target {
                url: endpoint(&settings.base_url, "chat/completions"),
                headers: json_headers(settings.api_key.as_deref()),
            },
            model: Some(settings.model),
            temperature: settings.temperature,
            max_tokens: settings.max_tokens,
            top_p: settings.top_p,
            json_mode: StructuredOutput::new(settings.json_mode, JSON_MODE_PARAMETER),
            sampling: StructuredOutput::new(true, SAMPLING_PARAMETERS),
            retry,
        }
    }

    fn request(&self, system: &str, user: &str, json_mode: bool, sampling: bool) -> HttpRequest {
        let mut body = json!({
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        });
        if let Some(model) = &self.model {
            body["model"] = json!(model);
        }
        if sampling {
            body["temperature"] = json!(self.temperature);
            body["max_tokens"] = json!(self.max_tokens);
            if let Some(top_p) = self.top_p {
                body["top_p"] = json!(top_p);
            }
        }
        if json_mode {
            body["response_format"] = json!({"type": "json_object"});
        }
        self.target.post(body)
    }
}

/// `choices[0].message.content` of a chat completion; when it has none but tool calls, their arguments
/// objects merged into one (e.g. `extract_entities` + `extract_relations` → `{entities, relations}`).
fn reply_text(body: &str) -> Result<String> {
    let value: Value = serde_json::from_str(body)
        .map_err(|error| MemoryError::LlmResponse(format!("response is not JSON: {error}")))?;
    if let Some(text) = value.pointer("/choices/0/message/content").and_then(Value::as_str) {
        return Ok(text.to_owned());
    }
    let calls = value.pointer("/choices/0/message/tool_calls").and_then(Value::as_array);
    let mut merged = serde_json::Map::new();
    for call in calls.into_iter().flatten() {
        let arguments = call.pointer("/function/arguments").and_then(Value::as_str).unwrap_or("{}");
        if let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(arguments) {
            merged.extend(fields);
        }
    }
    if merged.is_empty() {
        return Err(MemoryError::LlmResponse("no choices[0].message.content in response".into()));
    }
    Ok(Value::Object(merged).to_string())
}

impl<C: HttpClient> Llm for OpenAiChat<C> {
    async fn generate(&self, call: &LlmRequest<'_>) -> Result<String> {
        let send = |sampling: bool| {
            let request = move |json_mode| self.request(call.system, call.user, json_mode, sampling);
            self.json_mode.send(&self.client, &self.retry, call.wants_json(), request)
        };
        let sampling = self.sampling.enabled();
        let response = match send(sampling).await {
            Err(error) if sampling && self.sampling.is_refusal(&error) => {
                let response = send(false).await;
                if response.is_ok() {
                    self.sampling.turn_off();
                }
                response
            }
            other => other,
        };
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

    fn chat(recorder: Recorder, json_mode: bool) -> OpenAiChat<Recorder> {
        let settings = OpenAiChatSettings {
            model: "m".into(),
            api_key: Some("k".into()),
            base_url: "http://h/v1/".into(),
            temperature: 0.0,
            max_tokens: 2000,
            top_p: None,
            json_mode,
        };
        OpenAiChat::new(recorder, settings, RetryPolicy { max_retries: 0, ..RetryPolicy::default() })
    }

    const OK: &str = r#"{"choices":[{"message":{"role":"assistant","content":"hi"}}]}"#;

    #[test]
    fn sends_the_openai_request_shape_and_reads_the_content() {
        let facts = reply_schema::facts();
        let llm = chat(Recorder::replying(200, OK), true);
        assert_eq!(block_on(llm.generate(&LlmRequest::json("sys", "usr", &facts))).unwrap(), "hi");
        let request = llm.client.requests.borrow()[0].clone();
        assert_eq!(request.url, "http://h/v1/chat/completions");
        assert!(request.headers.contains(&("authorization".into(), "Bearer k".into())));
        let body = llm.client.body();
        assert_eq!(body["model"], "m");
        assert_eq!(body["messages"][0], json!({"role": "system", "content": "sys"}));
        assert_eq!(body["messages"][1]["content"], "usr");
        assert_eq!(body["temperature"], 0.0);
        assert_eq!(body["max_tokens"], 2000);
        assert_eq!(body["response_format"]["type"], "json_object");
        assert!(body.get("top_p").is_none(), "top_p only when set");
        let mut nucleus = chat(Recorder::replying(200, OK), true);
        nucleus.top_p = Some(0.9);
        block_on(nucleus.generate(&LlmRequest::text("s", "u"))).unwrap();
        assert_eq!(nucleus.client.body()["top_p"], 0.9);
    }

    #[test]
    fn json_mode_can_be_turned_off_and_is_only_sent_for_json_calls() {
        let facts = reply_schema::facts();
        let llm = chat(Recorder::replying(200, OK), false);
        block_on(llm.generate(&LlmRequest::json("s", "u", &facts))).unwrap();
        assert!(llm.client.body().get("response_format").is_none());
        let llm = chat(Recorder::replying(200, OK), true);
        block_on(llm.generate(&LlmRequest::text("s", "u"))).unwrap();
        assert!(llm.client.body().get("response_format").is_none());
    }

    #[test]
    fn a_host_that_rejects_response_format_gets_prompt_only_json_from_then_on() {
        let facts = reply_schema::facts();
        let rejection = r#"{"error":{"message":"response_format is not supported","type":"invalid_request_error"}}"#;
        let llm = chat(Recorder::with_replies(&[(400, rejection), (200, OK), (200, OK)]), true);
        assert_eq!(block_on(llm.generate(&LlmRequest::json("s", "u", &facts))).unwrap(), "hi");
        block_on(llm.generate(&LlmRequest::json("s", "u", &facts))).unwrap();
        let with_format: Vec<bool> =
            llm.client.requests.borrow().iter().map(|r| r.body.contains("response_format")).collect();
        assert_eq!(with_format, [true, false, false]);
    }

    #[test]
    fn a_model_that_refuses_a_sampling_parameter_gets_none_from_then_on() {
        let refusal =
            r#"{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model."}}"#;
        let mut llm = chat(Recorder::with_replies(&[(400, refusal), (200, OK), (200, OK)]), true);
        llm.top_p = Some(0.9);
        assert_eq!(block_on(llm.generate(&LlmRequest::text("s", "u"))).unwrap(), "hi");
        block_on(llm.generate(&LlmRequest::text("s", "u"))).unwrap();
        let sampled: Vec<[bool; 3]> = (llm.client.requests.borrow().iter())
            .map(|r| ["temperature", "max_tokens", "top_p"].map(|name| r.body.contains(name)))
            .collect();
        assert_eq!(sampled, [[true; 3], [false; 3], [false; 3]]);
        let other = r#"{"error":{"message":"context length exceeded"}}"#;
        let llm = chat(Recorder::with_replies(&[(400, other)]), true);
        assert!(block_on(llm.generate(&LlmRequest::text("s", "u"))).is_err());
        assert_eq!(llm.client.requests.borrow().len(), 1, "another 400 is not sent again");
        assert!(llm.sampling.enabled());
    }

    #[test]
    fn errors_carry_codes() {
        let facts = reply_schema::facts();
        let llm = chat(Recorder::replying(401, r#"{"error":{"message":"bad key"}}"#), true);
        let error = block_on(llm.generate(&LlmRequest::json("s", "u", &facts))).unwrap_err();
        assert_eq!((error.code(), error.http_status()), ("LLM_HTTP", Some(401)));
        assert!(error.to_string().contains("bad key"));
        for body in ["{not json", r#"{"choices":[]}"#, r#"{"choices":[{"message":{"content":null}}]}"#] {
            let llm = chat(Recorder::replying(200, body), true);
            let error = block_on(llm.generate(&LlmRequest::json("s", "u", &facts))).unwrap_err();
            assert_eq!(error.code(), "LLM_RESPONSE", "{body}");
        }
    }
}
