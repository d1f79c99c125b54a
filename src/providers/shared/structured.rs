//! Structured output (JSON mode, response schemas, forced tools) that a host may not support. It is
//! tried first; when the host rejects it (400/422 naming the parameter, e.g. "response_format is not
//! supported") and the same request without it succeeds, it is turned off for the rest of the
//! instance's life, so every later call goes straight to prompt-only JSON. Other 400s are not retried.
//! The same holds for any optional part of a request a model may refuse (the OpenAI format's sampling
//! parameters, which reasoning models refuse: `openai/chat.rs`).

use crate::core::case::CaseExt;
use std::cell::Cell;

use crate::http::{send_with_retry, HttpClient, HttpError, HttpRequest, HttpResponse, RetryPolicy};

/// Whether to ask a host for structured output, remembering a refusal.
#[derive(Debug)]
pub struct StructuredOutput {
    enabled: Cell<bool>,
    /// Words (lower case) of which a rejection names at least one, e.g. `response_format`.
    parameter: &'static [&'static str],
}

impl StructuredOutput {
    /// `enabled: false` never asks (the config turned it off). A 400/422 whose message contains one of
    /// `parameter` (case-insensitive) counts as a refusal of structured output.
    pub fn new(enabled: bool, parameter: &'static [&'static str]) -> Self {
        Self { enabled: Cell::new(enabled), parameter }
    }

    /// True when `error` refuses this part of the request (a 400/422 naming it).
    pub fn is_refusal(&self, error: &HttpError) -> bool {
        let HttpError::Status { status: 400 | 422, message } = error else { return false };
        let message = message.lowercased();
        self.parameter.iter().any(|word| message.contains(word))
    }

    /// True while structured output is still worth asking for.
    pub fn enabled(&self) -> bool {
        self.enabled.get()
    }

    /// Stops asking for it (a request without it succeeded after a refusal).
    pub fn turn_off(&self) {
        self.enabled.set(false);
    }

    /// Sends `request(structured)`, with `structured` true when `wanted` and still enabled. On a
    /// rejection of the structured request, retries once without it.
    pub async fn send<C: HttpClient>(
        &self,
        client: &C,
        retry: &RetryPolicy,
        wanted: bool,
        request: impl Fn(bool) -> HttpRequest,
    ) -> Result<HttpResponse, HttpError> {
        let structured = wanted && self.enabled.get();
        match send_with_retry(client, &request(structured), retry).await {
            Err(error) if structured && self.is_refusal(&error) => {
                let response = send_with_retry(client, &request(false), retry).await?;
                self.enabled.set(false);
                Ok(response)
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::shared::testing::Recorder;

    fn request(structured: bool) -> HttpRequest {
        HttpRequest { url: "http://h".into(), headers: vec![], body: structured.to_string(), timeout_ms: None }
    }

    fn run(output: &StructuredOutput, client: &Recorder) -> Result<HttpResponse, HttpError> {
        futures_executor::block_on(output.send(
            client,
            &RetryPolicy { max_retries: 0, ..RetryPolicy::default() },
            true,
            request,
        ))
    }

    const PARAMETER: &[&str] = &["response_format"];

    #[test]
    fn a_rejected_structured_request_is_retried_plain_once_and_remembered() {
        let output = StructuredOutput::new(true, PARAMETER);
        let client =
            Recorder::with_replies(&[(400, "{\"error\":{\"message\":\"response_format\"}}"), (200, "ok"), (200, "ok")]);
        assert_eq!(run(&output, &client).unwrap().body, "ok");
        assert!(!output.enabled());
        run(&output, &client).unwrap();
        let bodies: Vec<String> = client.requests.borrow().iter().map(|r| r.body.clone()).collect();
        assert_eq!(bodies, ["true", "false", "false"]);
    }

    #[test]
    fn other_failures_are_not_retried_and_keep_structured_output_on() {
        let output = StructuredOutput::new(true, PARAMETER);
        let refusal = r#"{"error":{"message":"Unknown parameter: 'Response_Format'"}}"#;
        let replies = [(401, "response_format"), (400, "context length exceeded"), (422, refusal), (400, "still bad")];
        let client = Recorder::with_replies(&replies);
        assert!(matches!(run(&output, &client), Err(HttpError::Status { status: 401, .. })));
        assert!(matches!(run(&output, &client), Err(HttpError::Status { status: 400, .. })));
        assert_eq!(client.requests.borrow().len(), 2, "a 400 that does not name the parameter is not retried");
        assert!(matches!(run(&output, &client), Err(HttpError::Status { status: 400, .. })));
        assert!(output.enabled(), "the plain retry failed too, so the refusal was not about structured output");
        assert_eq!(client.requests.borrow().len(), 4);
    }

    #[test]
    fn disabled_never_asks() {
        let output = StructuredOutput::new(false, PARAMETER);
        let client = Recorder::with_replies(&[(200, "ok")]);
        run(&output, &client).unwrap();
        assert_eq!(client.requests.borrow()[0].body, "false");
    }
}
