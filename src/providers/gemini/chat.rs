//! Gemini `generateContent` (`POST {baseUrl}/models/{model}:generateContent`, key in `x-goog-api-key`).
//! The system prompt goes in `systemInstruction`; JSON replies are asked for with
//! `responseMimeType: application/json`, plus a `responseSchema` for the shapes the memory's own
//! prompts ask for. A host that rejects either gets plain prompts from then on.

use serde_json::{json, Value};

use super::openapi_schema::openapi_schema;
use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::{Llm, LlmRequest};
use crate::core::reply_schema::ReplySchema;
use crate::http::{HttpClient, HttpRequest, RetryPolicy};
use crate::providers::shared::request::{endpoint, upstream, Target};
use crate::providers::shared::structured::StructuredOutput;

/// What Gemini names when it refuses JSON mode or a schema (e.g. `Unknown name "responseSchema"`).
const JSON_MODE_PARAMETER: &[&str] =
    &["response_mime_type", "responsemimetype", "response_schema", "responseschema", "json mode"];

/// Resolved settings for a Gemini model.
#[derive(Debug, Clone, PartialEq)]
pub struct GeminiChatSettings {
    pub model: String,
    pub api_key: Option<String>,
    /// Default `https://generativelanguage.googleapis.com/v1beta`.
    pub base_url: String,
    pub temperature: f64,
    pub max_tokens: u32,
    /// `topP` and `topK` of `generationConfig`, when set.
    pub top_p: Option<f64>,
    pub top_k: Option<u32>,
    /// Ask for `application/json` (and a schema where known).
    pub json_mode: bool,
}

/// The `x-goog-api-key` target for `{baseUrl}/models/{model}:{method}`.
pub(super) fn gemini_target(base_url: &str, model: &str, method: &str, api_key: Option<&str>) -> Target {
    let model = model.strip_prefix("models/").unwrap_or(model);
    let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
    if let Some(key) = api_key.filter(|key| !key.is_empty()) {
        headers.push(("x-goog-api-key".to_owned(), key.to_owned()));
    }
    Target { url: endpoint(base_url, &format!("models/{model}:{method}")), headers }
}

/// A Gemini model reached through `C`.
pub struct GeminiChat<C> {
    client: C,
    target: Target,
    settings: GeminiChatSettings,
    json_mode: StructuredOutput,
    retry: RetryPolicy,
}

impl<C: HttpClient> GeminiChat<C> {
    pub fn new(client: C, settings: GeminiChatSettings, retry: RetryPolicy) -> Self {
        let target = gemini_target(&settings.base_url, &settings.model, "generateContent", settings.api_key.as_deref());
        let json_mode = StructuredOutput::new(settings.json_mode, JSON_MODE_PARAMETER);
        Self { client, target, settings, json_mode, retry }
    }

    /// The request for `system` + `user`; in JSON mode with `shape` as the `responseSchema`.
    fn request(&self, system: &str, user: &str, shape: Option<&ReplySchema>) -> HttpRequest {
        let mut config = json!({"temperature": self.settings.temperature, "maxOutputTokens": self.settings.max_tokens});
        if let Some(top_p) = self.settings.top_p {
            config["topP"] = json!(top_p);
        }
        if let Some(top_k) = self.settings.top_k {
            config["topK"] = json!(top_k);
        }
        if let Some(shape) = shape {
            config["responseMimeType"] = json!("application/json");
            config["responseSchema"] = openapi_schema(&shape.schema);
        }
        self.target.post(json!({
            "systemInstruction": {"parts": [{"text": system}]},
            "contents": [{"role": "user", "parts": [{"text": user}]}],
            "generationConfig": config,
        }))
    }
}

/// The text parts of the first candidate (thought summaries left out).
fn reply_text(body: &str) -> Result<String> {
    let bad = |why: String| MemoryError::LlmResponse(why);
    let value: Value = serde_json::from_str(body).map_err(|_| bad("response is not JSON".into()))?;
    let Some(candidate) = value.pointer("/candidates/0") else {
        let blocked = value.pointer("/promptFeedback/blockReason").and_then(Value::as_str);
        return Err(bad(blocked.map_or("no candidates in response".into(), |why| format!("prompt blocked: {why}"))));
    };
    let parts = candidate.pointer("/content/parts").and_then(Value::as_array);
    let text: String = parts
        .into_iter()
        .flatten()
        .filter(|part| part.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    if text.is_empty() {
        let reason = candidate.get("finishReason").and_then(Value::as_str).unwrap_or("unknown");
        return Err(bad(format!("candidate has no text (finishReason {reason})")));
    }
    Ok(text)
}

impl<C: HttpClient> Llm for GeminiChat<C> {
    async fn generate(&self, call: &LlmRequest<'_>) -> Result<String> {
        let request = |json_mode: bool| self.request(call.system, call.user, call.reply.filter(|_| json_mode));
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

    fn chat(recorder: Recorder) -> GeminiChat<Recorder> {
        let settings = GeminiChatSettings {
            model: "models/gemini-x".into(),
            api_key: Some("gk".into()),
            base_url: "https://generativelanguage.googleapis.com/v1beta/".into(),
            temperature: 0.0,
            max_tokens: 500,
            top_p: Some(0.8),
            top_k: None,
            json_mode: true,
        };
        let retry = RetryPolicy { max_retries: 0, ..RetryPolicy::default() };
        GeminiChat::new(recorder, settings, retry)
    }

    const REPLY: &str = r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"facts\":"},{"text":"[]}"}]},
        "finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2}}"#;

    #[test]
    fn sends_generate_content_with_json_mode_and_schema() {
        let llm = chat(Recorder::replying(200, REPLY));
        let facts = reply_schema::facts();
        let reply = block_on(llm.generate(&LlmRequest::json("EXTRACT", "Input: hi", &facts))).unwrap();
        assert_eq!(reply, "{\"facts\":[]}");
        let request = llm.client.requests.borrow()[0].clone();
        assert_eq!(request.url, "https://generativelanguage.googleapis.com/v1beta/models/gemini-x:generateContent");
        assert_eq!(llm.client.header("x-goog-api-key").as_deref(), Some("gk"));
        assert!(!request.url.contains("key="), "the key travels in a header, not the URL");
        let body = llm.client.body();
        assert_eq!(body["systemInstruction"], json!({"parts": [{"text": "EXTRACT"}]}));
        assert_eq!(body["contents"], json!([{"role": "user", "parts": [{"text": "Input: hi"}]}]));
        let config = &body["generationConfig"];
        assert_eq!((config["temperature"].as_f64(), config["maxOutputTokens"].as_u64()), (Some(0.0), Some(500)));
        assert_eq!((config["topP"].as_f64(), config.get("topK")), (Some(0.8), None));
        assert_eq!(config["responseMimeType"], "application/json");
        assert_eq!(config["responseSchema"]["properties"]["facts"]["type"], "ARRAY");
    }

    #[test]
    fn custom_prompts_get_the_schema_of_their_request_and_text_calls_get_neither() {
        let llm = chat(Recorder::with_replies(&[(200, REPLY), (200, REPLY)]));
        let decisions = reply_schema::decisions();
        block_on(llm.generate(&LlmRequest::json("custom", "u", &decisions))).unwrap();
        block_on(llm.generate(&LlmRequest::text("EXTRACT", "u"))).unwrap();
        let (json_call, text_call) = (llm.client.body_of(0), llm.client.body_of(1));
        assert_eq!(json_call["systemInstruction"], json!({"parts": [{"text": "custom"}]}));
        assert_eq!(json_call["generationConfig"]["responseMimeType"], "application/json");
        let schema = &json_call["generationConfig"]["responseSchema"];
        assert_eq!((schema["type"].as_str(), &schema["required"]), (Some("OBJECT"), &json!(["memory"])));
        assert!(text_call["generationConfig"].get("responseMimeType").is_none());
        assert!(text_call["generationConfig"].get("responseSchema").is_none());
    }

    #[test]
    fn a_model_without_json_mode_gets_plain_prompts_from_then_on() {
        let refusal = r#"{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"responseSchema\" at 'generation_config': Cannot find field.","status":"INVALID_ARGUMENT"}}"#;
        let llm = chat(Recorder::with_replies(&[(400, refusal), (200, REPLY), (200, REPLY)]));
        let (facts, decisions) = (reply_schema::facts(), reply_schema::decisions());
        block_on(llm.generate(&LlmRequest::json("EXTRACT", "u", &facts))).unwrap();
        block_on(llm.generate(&LlmRequest::json("DECIDE", "u", &decisions))).unwrap();
        let asked: Vec<bool> =
            llm.client.requests.borrow().iter().map(|r| r.body.contains("responseMimeType")).collect();
        assert_eq!(asked, [true, false, false]);
    }

    #[test]
    fn gemini_errors_blocks_and_empty_candidates_carry_codes() {
        let quota = r#"{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}"#;
        let facts = reply_schema::facts();
        let request = LlmRequest::json("s", "u", &facts);
        let error = block_on(chat(Recorder::replying(429, quota)).generate(&request)).unwrap_err();
        assert_eq!((error.code(), error.http_status()), ("LLM_HTTP", Some(429)));
        assert!(error.to_string().contains("Resource has been exhausted"), "{error}");
        let cases = [
            ("<html>", "not JSON"),
            (r#"{"promptFeedback":{"blockReason":"SAFETY"}}"#, "blocked: SAFETY"),
            (r#"{"candidates":[{"finishReason":"MAX_TOKENS","content":{"parts":[]}}]}"#, "MAX_TOKENS"),
            (r#"{"candidates":[{"content":{"parts":[{"text":"x","thought":true}]}}]}"#, "no text"),
        ];
        for (body, why) in cases {
            let error = block_on(chat(Recorder::replying(200, body)).generate(&request)).unwrap_err();
            assert_eq!(error.code(), "LLM_RESPONSE", "{body}");
            assert!(error.to_string().contains(why), "{error}");
        }
    }
}
