//! The config's `observe` callback: told when each model call starts and ends, for tracing (`memwasm/otel`
//! turns the events into OpenTelemetry spans) or logging. `Observed` wraps the LLM and the embedder; with no
//! callback it only forwards. The callback gets `{phase: "start", id, kind, provider, model, inputs?}`, then
//! `{phase: "end", id, kind, provider, model, durationMs, error?: {code, message}}`; what it throws is
//! logged and ignored, so observing never changes a call's outcome.

use std::cell::Cell;

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::JsValue;

use crate::core::error::Result;
use crate::providers::{Embedder, Llm, LlmRequest};

thread_local! {
    /// Numbers the calls, so a start and its end can be paired.
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

/// A model, and the callback told about its calls.
pub struct Observed<T> {
    inner: T,
    hook: Option<Function>,
    /// `"chat"` or `"embeddings"`, as OpenTelemetry's `gen_ai.operation.name` says.
    kind: &'static str,
    provider: &'static str,
    model: String,
}

impl<T> Observed<T> {
    /// `inner`, whose calls `hook` (when given) is told about.
    pub fn new(inner: T, hook: Option<Function>, kind: &'static str, provider: &'static str, model: String) -> Self {
        Self { inner, hook, kind, provider, model }
    }

    /// The model observed.
    pub fn inner(&self) -> &T {
        &self.inner
    }

    /// Calls the hook with one event; the fields after `phase` and `id` are `extra`.
    fn tell(&self, hook: &Function, phase: &str, id: u32, extra: &[(&str, JsValue)]) {
        let event = Object::new();
        let fields = [
            ("phase", JsValue::from_str(phase)),
            ("id", JsValue::from(id)),
            ("kind", JsValue::from_str(self.kind)),
            ("provider", JsValue::from_str(self.provider)),
            ("model", JsValue::from_str(&self.model)),
        ];
        for (key, value) in fields.iter().chain(extra) {
            let _ = Reflect::set(&event, &JsValue::from_str(key), value);
        }
        if let Err(thrown) = hook.call1(&JsValue::NULL, &event) {
            web_sys::console::warn_2(&"memwasm: observe threw (the call goes on):".into(), &thrown);
        }
    }

    /// Runs `call`, telling the hook when it starts and ends.
    async fn observe<R>(&self, inputs: Option<usize>, call: impl std::future::Future<Output = Result<R>>) -> Result<R> {
        let Some(hook) = &self.hook else { return call.await };
        let id = NEXT_ID.with(|next| next.replace(next.get().wrapping_add(1)));
        let inputs: Vec<(&str, JsValue)> = inputs.map(|n| ("inputs", JsValue::from(n as u32))).into_iter().collect();
        self.tell(hook, "start", id, &inputs);
        let started = js_sys::Date::now();
        let result = call.await;
        let mut end = vec![("durationMs", JsValue::from(js_sys::Date::now() - started))];
        if let Err(error) = &result {
            let failure = Object::new();
            let _ = Reflect::set(&failure, &"code".into(), &JsValue::from_str(error.code()));
            let _ = Reflect::set(&failure, &"message".into(), &JsValue::from_str(&error.to_string()));
            end.push(("error", failure.into()));
        }
        self.tell(hook, "end", id, &end);
        result
    }
}

impl<T: Llm> Llm for Observed<T> {
    async fn generate(&self, request: &LlmRequest<'_>) -> Result<String> {
        self.observe(None, self.inner.generate(request)).await
    }

    fn is_configured(&self) -> bool {
        self.inner.is_configured()
    }
}

impl<T: Embedder> Embedder for Observed<T> {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.observe(Some(texts.len()), self.inner.embed(texts)).await
    }

    fn dimensions(&self) -> Option<usize> {
        self.inner.dimensions()
    }

    fn is_configured(&self) -> bool {
        self.inner.is_configured()
    }
}
