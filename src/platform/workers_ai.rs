//! Cloudflare Workers AI through the Worker's AI binding (`env.AI`): `binding.run(model, inputs)`.
//! Text generation sends `{messages, max_tokens, temperature}` (plus `response_format` for JSON replies,
//! dropped for the instance if the model refuses it) and reads `{response}`, a string, or an object in
//! JSON mode. `@cf/baai/bge-*` embeddings send `{text: [...]}` (up to 100 texts per call) and read `{shape, data}`.

use crate::core::case::CaseExt;
use std::cell::Cell;

use js_sys::{Function, Reflect};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};

use super::callback::{call, Failed};
use crate::core::config::invalid;
use crate::core::error::{MemoryError, Result};
use crate::core::reply_schema::ReplySchema;
use crate::providers::config::{WorkersAiEmbedderSettings, WorkersAiLlmSettings};
use crate::providers::{checked_vectors, json_vectors, Embedder, Llm, LlmRequest};

/// The AI binding: an object with a `run(model, inputs)` method.
struct Binding {
    object: JsValue,
    run: Function,
    /// `config.timeoutMs`: a `run()` not settled by then fails.
    timeout_ms: Option<u32>,
}

impl Binding {
    fn new(object: &JsValue, field: &str, timeout_ms: Option<u32>) -> Result<Self> {
        let run = Reflect::get(object, &"run".into()).ok().filter(|_| object.is_object());
        let run = run.and_then(|run| run.dyn_into::<Function>().ok());
        let run =
            run.ok_or_else(|| invalid(field, "must be the Worker's AI binding (e.g. env.AI), an object with run()"))?;
        Ok(Self { object: object.clone(), run, timeout_ms })
    }

    /// `run(model, inputs)`; a throw or rejection comes back as its message.
    async fn run(&self, model: &str, inputs: &Value) -> Result<Value, Failed> {
        let serializer = serde_wasm_bindgen::Serializer::json_compatible();
        let inputs = serde::Serialize::serialize(inputs, &serializer).map_err(|e| Failed::Threw(e.to_string()))?;
        let output = call(&self.run, &self.object, &[JsValue::from_str(model), inputs], self.timeout_ms).await?;
        super::plain::json_of(&output, "run()'s result").map_err(|(path, why)| Failed::Threw(format!("{path} {why}")))
    }
}

/// A Workers AI text-generation model.
pub struct WorkersAiLlm {
    binding: Binding,
    settings: WorkersAiLlmSettings,
    json_mode: Cell<bool>,
}

impl WorkersAiLlm {
    /// `binding` is the live value at `llm.binding`; a call not settled within `timeout_ms` fails.
    pub fn new(binding: &JsValue, settings: WorkersAiLlmSettings, timeout_ms: Option<u32>) -> Result<Self> {
        let json_mode = Cell::new(settings.json_mode);
        Ok(Self { binding: Binding::new(binding, "llm.binding", timeout_ms)?, settings, json_mode })
    }

    /// The inputs for `system` + `user`; with `shape`, JSON mode with that schema.
    fn inputs(&self, system: &str, user: &str, shape: Option<&ReplySchema>) -> Value {
        let mut inputs = json!({
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "max_tokens": self.settings.max_tokens,
            "temperature": self.settings.temperature,
        });
        if let Some(shape) = shape {
            inputs["response_format"] = json!({"type": "json_schema", "json_schema": shape.schema});
        }
        inputs
    }
}

/// True when `run()` failed because the model does not do JSON mode (the error names it).
fn refuses_json_mode(message: &str) -> bool {
    let message = message.lowercased();
    ["response_format", "json", "schema"].iter().any(|word| message.contains(word))
}

/// The reply text of a text-generation output: `response` as a string, or as JSON text in JSON mode.
fn reply_text(output: &Value) -> Result<String> {
    match output.get("response") {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(value @ (Value::Object(_) | Value::Array(_))) => Ok(value.to_string()),
        _ => Err(MemoryError::LlmResponse("Workers AI output has no response".into())),
    }
}

impl Llm for WorkersAiLlm {
    async fn generate(&self, request: &LlmRequest<'_>) -> Result<String> {
        let model = &self.settings.model;
        let failed = |why: Failed| why.llm("Workers AI binding: ");
        let (system, user) = (request.system, request.user);
        let shape = request.reply.filter(|_| self.json_mode.get());
        let output = match self.binding.run(model, &self.inputs(system, user, shape)).await {
            Err(Failed::Threw(why)) if shape.is_some() && refuses_json_mode(&why) => {
                let output = self.binding.run(model, &self.inputs(system, user, None)).await.map_err(failed)?;
                self.json_mode.set(false);
                output
            }
            other => other.map_err(failed)?,
        };
        reply_text(&output)
    }
}

/// The most texts the BGE models take in one `run()`.
const BATCH_LIMIT: usize = 100;

/// A Workers AI embedding model (`@cf/baai/bge-*`).
pub struct WorkersAiEmbedder {
    binding: Binding,
    settings: WorkersAiEmbedderSettings,
}

impl WorkersAiEmbedder {
    /// `binding` is the live value at `embedder.binding`; a call not settled within `timeout_ms` fails.
    pub fn new(binding: &JsValue, settings: WorkersAiEmbedderSettings, timeout_ms: Option<u32>) -> Result<Self> {
        Ok(Self { binding: Binding::new(binding, "embedder.binding", timeout_ms)?, settings })
    }
}

impl Embedder for WorkersAiEmbedder {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut vectors = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH_LIMIT) {
            let output = self.binding.run(&self.settings.model, &json!({"text": batch})).await;
            let output = output.map_err(|why| why.embedding("Workers AI binding: "))?;
            let batch_vectors = json_vectors(output.get("data"), "data")?;
            vectors.extend(checked_vectors(batch_vectors, batch.len(), self.settings.dimensions)?);
        }
        Ok(vectors)
    }

    fn dimensions(&self) -> Option<usize> {
        self.settings.dimensions
    }
}
