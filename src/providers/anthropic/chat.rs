//! Anthropic Messages API (`POST {baseUrl}/messages`, `x-api-key`, `anthropic-version`). The system
//! prompt goes in the top-level `system`. Replies in a known shape are forced through a tool whose
//! input schema is that shape (`tool_choice: {type: "tool"}`), and read from its `tool_use` block; any
//! other reply, or a host that rejects tools, takes the text path.

use serde_json::{json, Value};

use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::{Llm, LlmRequest};
use crate::core::reply_schema::ReplySchema;
use crate::http::{HttpClient, HttpRequest, RetryPolicy};
use crate::providers::shared::request::{endpoint, upstream, Target};
use crate::providers::shared::structured::StructuredOutput;

/// Resolved settings for an Anthropic model.
#[derive(Debug, Clone, PartialEq)]
pub struct AnthropicSettings {
    pub model: String,
    pub api_key: Option<String>,
    /// Default `https://api.anthropic.com/v1`.
    pub base_url: String,
    /// The `anthropic-version` header.
    pub version: String,
    /// Sent unless `top_p` is.
    pub temperature: f64,
    pub max_tokens: u32,
    /// Sent instead of `temperature` when set.
    pub top_p: Option<f64>,
    pub top_k: Option<u32>,
    /// Force known reply shapes through a tool (structured output).
    pub tool_output: bool,
    /// Send `anthropic-dangerous-direct-browser-access: true`, which browsers need for CORS. It exposes
    /// the key to the page, so it is an explicit opt-in.
    pub browser_access: bool,
}

/// An Anthropic model reached through `C`.
pub struct AnthropicChat<C> {
    client: C,
    target: Target,
    settings: AnthropicSettings,
    tool_output: StructuredOutput,
    retry: RetryPolicy,
}

impl<C: HttpClient> AnthropicChat<C> {
    pub fn new(client: C, settings: AnthropicSettings, retry: RetryPolicy) -> Self {
        let mut headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            ("anthropic-version".to_owned(), settings.version.clone()),
        ];
        if let Some(key) = settings.api_key.as_deref().filter(|key| !key.is_empty()) {
            headers.push(("x-api-key".to_owned(), key.to_owned()));
        }
        if settings.browser_access {
            headers.push(("anthropic-dangerous-direct-browser-access".to_owned(), "true".to_owned()));
        }
        let target = Target { url: endpoint(&settings.base_url, "messages"), headers };
        let tool_output = StructuredOutput::new(settings.tool_output, &["tool"]);
        Self { client, target, settings, tool_output, retry }
    }

    fn request(&self, system: &str, user: &str, tool: Option<&ReplySchema>) -> HttpRequest {
        let mut body = json!({
            "model": self.settings.model,
            "max_tokens": self.settings.max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": user}],
        });
        match self.settings.top_p {
            Some(top_p) => body["top_p"] = json!(top_p),
            None => body["temperature"] = json!(self.settings.temperature),
        }
        if let Some(top_k) = self.settings.top_k {
            body["top_k"] = json!(top_k);
        }
        if let Some(tool) = tool {
            body["tools"] = json!([{"name": tool.name, "description": tool.description, "input_schema": tool.schema}]);
            body["tool_choice"] = json!({"type": "tool", "name": tool.name});
        }
        self.target.post(body)
    }
}

/// The reply of a message: the input of its first `tool_use` block as JSON text, else its text blocks.
fn reply_text(body: &str) -> Result<String> {
    let bad = |why: &str| MemoryError::LlmResponse(why.to_owned());
    let value: Value = serde_json::from_str(body).map_err(|_| bad("response is not JSON"))?;
    let blocks = value.get("content").and_then(Value::as_array).ok_or_else(|| bad("no content array in response"))?;
    let kind = |block: &Value| block.get("type").and_then(Value::as_str).map(str::to_owned);
    if let Some(input) = blocks.iter().find(|b| kind(b).as_deref() == Some("tool_use")).and_then(|b| b.get("input")) {
        return Ok(input.to_string());
    }
    let text: Vec<&str> = blocks
        .iter()
        .filter(|b| kind(b).as_deref() == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    if text.is_empty() {
        return Err(bad("no text or tool_use block in response"));
    }
    Ok(text.concat())
}

impl<C: HttpClient> Llm for AnthropicChat<C> {
    async fn generate(&self, call: &LlmRequest<'_>) -> Result<String> {
        let request = |forced: bool| self.request(call.system, call.user, call.reply.filter(|_| forced));
        let response = self.tool_output.send(&self.client, &self.retry, call.wants_json(), request).await;
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

    fn settings(browser_access: bool) -> AnthropicSettings {
        AnthropicSettings {
            model: "claude-x".into(),
            api_key: Some("ak".into()),
            base_url: "https://api.anthropic.com/v1".into(),
            version: "2023-06-01".into(),
            temperature: 0.0,
            max_tokens: 1000,
            top_p: None,
            top_k: None,
            tool_output: true,
            browser_access,
        }
    }

    fn chat(recorder: Recorder, browser_access: bool) -> AnthropicChat<Recorder> {
        let retry = RetryPolicy { max_retries: 0, ..RetryPolicy::default() };
        AnthropicChat::new(recorder, settings(browser_access), retry)
    }

    const TOOL_REPLY: &str = r#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-x",
        "content":[{"type":"tool_use","id":"toolu_1","name":"record_facts","input":{"facts":["User likes tea"]}}],
        "stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}"#;
    const TEXT_REPLY: &str = r#"{"id":"msg_2","type":"message","role":"assistant",
        "content":[{"type":"text","text":"{\"facts\":"},{"type":"text","text":" []}"}],"stop_reason":"end_turn"}"#;

    #[test]
    fn json_requests_are_forced_through_a_tool_of_their_shape() {
        let llm = chat(Recorder::replying(200, TOOL_REPLY), false);
        let facts = reply_schema::facts();
        let reply = block_on(llm.generate(&LlmRequest::json("EXTRACT", "Input: hi", &facts))).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&reply).unwrap(), json!({"facts": ["User likes tea"]}));
        let request = llm.client.requests.borrow()[0].clone();
        assert_eq!(request.url, "https://api.anthropic.com/v1/messages");
        assert_eq!(llm.client.header("x-api-key").as_deref(), Some("ak"));
        assert_eq!(llm.client.header("anthropic-version").as_deref(), Some("2023-06-01"));
        assert_eq!(llm.client.header("anthropic-dangerous-direct-browser-access"), None);
        assert_eq!(llm.client.header("authorization"), None);
        let body = llm.client.body();
        assert_eq!(body["system"], "EXTRACT");
        assert_eq!(body["messages"], json!([{"role": "user", "content": "Input: hi"}]));
        assert_eq!((body["model"].as_str(), body["max_tokens"].as_u64()), (Some("claude-x"), Some(1000)));
        assert_eq!(body["tools"][0]["name"], "record_facts");
        assert_eq!(body["tools"][0]["input_schema"]["required"], json!(["facts"]));
        assert_eq!(body["tool_choice"], json!({"type": "tool", "name": "record_facts"}));
        assert_eq!((body["temperature"].as_f64(), body.get("top_p"), body.get("top_k")), (Some(0.0), None, None));
    }

    #[test]
    fn top_p_replaces_temperature_and_top_k_is_sent_as_given() {
        let retry = RetryPolicy { max_retries: 0, ..RetryPolicy::default() };
        let nucleus = AnthropicSettings { top_p: Some(0.9), top_k: Some(40), ..settings(false) };
        let llm = AnthropicChat::new(Recorder::replying(200, TEXT_REPLY), nucleus, retry);
        block_on(llm.generate(&LlmRequest::text("s", "u"))).unwrap();
        let body = llm.client.body();
        assert_eq!(
            (body["top_p"].as_f64(), body["top_k"].as_u64(), body.get("temperature")),
            (Some(0.9), Some(40), None)
        );
    }

    #[test]
    fn text_requests_and_tool_less_replies_take_the_text_path() {
        let llm = chat(Recorder::with_replies(&[(200, TEXT_REPLY), (200, TEXT_REPLY), (200, TEXT_REPLY)]), true);
        assert_eq!(block_on(llm.generate(&LlmRequest::text("a custom prompt", "u"))).unwrap(), "{\"facts\": []}");
        assert!(llm.client.body().get("tools").is_none());
        assert_eq!(llm.client.header("anthropic-dangerous-direct-browser-access").as_deref(), Some("true"));
        let decisions = reply_schema::decisions();
        assert_eq!(block_on(llm.generate(&LlmRequest::json("DECIDE", "u", &decisions))).unwrap(), "{\"facts\": []}");
        assert_eq!(llm.client.body_of(1)["tools"][0]["name"], "record_memory_operations");
        // The shape comes with the request, so a custom system prompt gets the tool too.
        block_on(llm.generate(&LlmRequest::json("a custom prompt", "u", &decisions))).unwrap();
        assert_eq!(llm.client.body_of(2)["system"], "a custom prompt");
        assert_eq!(llm.client.body_of(2)["tool_choice"], json!({"type": "tool", "name": "record_memory_operations"}));
    }

    #[test]
    fn a_host_that_rejects_tools_gets_the_text_path_from_then_on() {
        let rejection = r#"{"type":"error","error":{"type":"invalid_request_error","message":"tools: not supported"}}"#;
        let llm = chat(Recorder::with_replies(&[(400, rejection), (200, TEXT_REPLY), (200, TEXT_REPLY)]), false);
        let (facts, decisions) = (reply_schema::facts(), reply_schema::decisions());
        block_on(llm.generate(&LlmRequest::json("EXTRACT", "u", &facts))).unwrap();
        block_on(llm.generate(&LlmRequest::json("DECIDE", "u", &decisions))).unwrap();
        let tools: Vec<bool> = llm.client.requests.borrow().iter().map(|r| r.body.contains("\"tools\"")).collect();
        assert_eq!(tools, [true, false, false]);
    }

    #[test]
    fn anthropic_errors_and_bad_bodies_carry_codes() {
        let overloaded = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        let facts = reply_schema::facts();
        let request = LlmRequest::json("s", "u", &facts);
        let error = block_on(chat(Recorder::replying(529, overloaded), false).generate(&request)).unwrap_err();
        assert_eq!((error.code(), error.http_status()), ("LLM_HTTP", Some(529)));
        assert!(error.to_string().contains("Overloaded"), "{error}");
        for body in ["nope", r#"{"content":[]}"#, r#"{"content":[{"type":"thinking","thinking":"hm"}]}"#, "{}"] {
            let error = block_on(chat(Recorder::replying(200, body), false).generate(&request)).unwrap_err();
            assert_eq!(error.code(), "LLM_RESPONSE", "{body}");
        }
    }
}
