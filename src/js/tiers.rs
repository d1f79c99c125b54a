//! The memory tiers on `Memory`: `context` (a `MemoryContext` window), `flush` / `idle` / `on` / `off`
//! (the background writer), `journal`, `journals`, `dream`, `coreProfile`, `dreamDiary` and
//! `formatForInjection`.

use std::rc::Rc;

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

use super::convert::{from_js, json_arg, string_arg, to_js};
use super::error::{coded_error, to_js_error};
use super::{promise, Memory};
use crate::core::error::MemoryError;
use crate::core::model::types::Message;
use crate::core::pipeline_options::parse_messages;
use crate::core::tiers::{BatchOutcome, ContextWindow, TierCall, TierOptions};
use crate::platform::background::Topic;
use crate::platform::compose::Engine;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("tiers.d.ts");

fn options(value: JsValue) -> Result<TierOptions, MemoryError> {
    from_js(value, "options", MemoryError::InvalidInput)
}

fn messages(value: JsValue) -> Result<Vec<Message>, MemoryError> {
    parse_messages(&json_arg(&value, "messages", MemoryError::InvalidInput)?)
}

/// `"change"` or `"error"`, else `INVALID_INPUT`.
fn topic(event: &JsValue) -> Result<Topic, JsValue> {
    string_arg(event, "event").and_then(|name| Topic::parse(&name)).map_err(to_js_error)
}

/// The event a background outcome makes: `change` with the add's events, `error` (a `MemoryError` with the
/// dropped turns) once retries are exhausted; nothing for a failure that will be retried.
pub(super) fn present(outcome: &BatchOutcome) -> Option<(Topic, JsValue)> {
    match outcome {
        BatchOutcome::Changed { scope, result } => {
            let payload = serde_json::json!({"scope": scope, "results": result.results, "warnings": result.warnings});
            Some((Topic::Change, to_js(&payload).ok()?))
        }
        BatchOutcome::Failed { retrying: true, .. } => None,
        BatchOutcome::Failed { scope, failure, attempts, kept, messages, .. } => {
            let payload = serde_json::json!({"scope": scope, "attempts": attempts, "kept": kept, "messages": messages});
            let payload = to_js(&payload).ok()?;
            let error = coded_error(&failure.message, failure.code, failure.status);
            js_sys::Reflect::set(&payload, &"error".into(), &error).ok()?;
            Some((Topic::Error, payload))
        }
    }
}

/// A conversation window within a token budget, with a running summary (`memory.context(options)`).
#[wasm_bindgen]
pub struct MemoryContext {
    engine: Rc<Engine>,
    window: ContextWindow,
}

#[wasm_bindgen]
impl MemoryContext {
    /// Adds turns and returns the window to send: as is while it fits, else `[summary, …last turns]`.
    #[wasm_bindgen(unchecked_return_type = "Promise<ContextResult>")]
    pub fn push(&self, #[wasm_bindgen(unchecked_param_type = "string | Message[]")] turns: JsValue) -> Promise {
        let (engine, window) = (self.engine.clone(), self.window.clone());
        promise(async move { engine.tiers().context_push(&window, messages(turns)?).await })
    }
}

#[wasm_bindgen]
impl Memory {
    /// A context window for a scope: `{…scope, maxTokens, keepLast = 6}`. Throws `INVALID_INPUT` for bad
    /// options. The summary is stored per scope, so a window made after a reload continues it.
    #[wasm_bindgen]
    pub fn context(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ContextOptions")] options: JsValue,
    ) -> Result<MemoryContext, JsValue> {
        let check = || {
            let options = self::options(options)?;
            let scope = options.scope_for(TierCall::Context)?;
            Ok(ContextWindow { scope, max_tokens: options.max_tokens()?, keep_last: options.keep_last()? })
        };
        let window = check().map_err(to_js_error)?;
        Ok(MemoryContext { engine: self.engine.clone(), window })
    }

    /// Journals the turns and queues them for the background writer; resolves once they are stored, without
    /// waiting for the add. Model failures never reject it: they are retried, then reported as `error` events.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn flush(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | Message[]")] turns: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue,
    ) -> Promise {
        let writer = self.writer.clone();
        promise(async move {
            let scope = self::options(options)?.scope_for(TierCall::Flush)?;
            writer.flush(&scope, messages(turns)?).await
        })
    }

    /// Resolves when the background writer has nothing waiting or running.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn idle(&self) -> Promise {
        self.writer.idle()
    }

    /// Calls `handler` on every `"change"` (a batch was written) or `"error"` (a batch failed for good).
    #[wasm_bindgen]
    pub fn on(
        &self,
        #[wasm_bindgen(unchecked_param_type = "\"change\" | \"error\"")] event: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(event: any) => void")] handler: Function,
    ) -> Result<(), JsValue> {
        self.writer.listen(topic(&event)?, handler);
        Ok(())
    }

    /// Stops calling `handler` for `event`.
    #[wasm_bindgen]
    pub fn off(
        &self,
        #[wasm_bindgen(unchecked_param_type = "\"change\" | \"error\"")] event: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(event: any) => void")] handler: Function,
    ) -> Result<(), JsValue> {
        self.writer.unlisten(topic(&event)?, &handler);
        Ok(())
    }

    /// A scope's journal for `date` (default today, UTC) as Markdown, or `null`.
    #[wasm_bindgen(unchecked_return_type = "Promise<string | null>")]
    pub fn journal(&self, #[wasm_bindgen(unchecked_param_type = "JournalOptions")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let options = self::options(options)?;
            let scope = options.scope_for(TierCall::Journal)?;
            engine.tiers().journal(&scope, options.date()?.as_deref()).await
        })
    }

    /// A scope's journals from `since` (every day without), oldest first.
    #[wasm_bindgen(unchecked_return_type = "Promise<JournalDay[]>")]
    pub fn journals(&self, #[wasm_bindgen(unchecked_param_type = "JournalsOptions")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let options = self::options(options)?;
            let scope = options.scope_for(TierCall::Journals)?;
            engine.tiers().journals(&scope, options.since()?.as_deref()).await
        })
    }

    /// Consolidates the scope's new journals of the last `lookbackDays` (default 1) into its core profile and
    /// memories, with one LLM call (none when no journal is new).
    #[wasm_bindgen(unchecked_return_type = "Promise<DreamResult>")]
    pub fn dream(&self, #[wasm_bindgen(unchecked_param_type = "DreamOptions")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        self.answer(async move {
            let options = self::options(options)?;
            let scope = options.scope_for(TierCall::Dream)?;
            engine.tiers().dream(&scope, options.lookback_days()?).await
        })
    }

    /// The scope's core profile (a Markdown document `dream` keeps), or `null`.
    #[wasm_bindgen(js_name = coreProfile, unchecked_return_type = "Promise<CoreProfile | null>")]
    pub fn core_profile(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(
            async move { engine.tiers().core_profile(&self::options(options)?.scope_for(TierCall::CoreProfile)?).await },
        )
    }

    /// What each dream of the scope changed and why, oldest first.
    #[wasm_bindgen(js_name = dreamDiary, unchecked_return_type = "Promise<DreamDiaryEntry[]>")]
    pub fn dream_diary(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(
            async move { engine.tiers().dream_diary(&self::options(options)?.scope_for(TierCall::CoreProfile)?).await },
        )
    }

    /// The core profile, pinned and procedural memories, then the most important others, as a `<memory>`
    /// block within `maxTokens`.
    #[wasm_bindgen(js_name = formatForInjection, unchecked_return_type = "Promise<Injection>")]
    pub fn format_for_injection(
        &self,
        #[wasm_bindgen(unchecked_param_type = "InjectionOptions")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let options = self::options(options)?;
            let scope = options.scope_for(TierCall::Inject)?;
            engine.tiers().format_for_injection(&scope, options.max_tokens()?).await
        })
    }
}
