//! The JS binding: a thin `Memory` class that converts arguments, calls the core engine and maps
//! errors. Every method returns a Promise and rejects with a coded `MemoryError`.

#[cfg(feature = "bench")]
mod bench;
#[cfg(feature = "extras")]
mod conversations;
mod convert;
#[cfg(feature = "extras")]
mod documents;
mod error;
#[cfg(feature = "extras")]
mod graph;
mod import;
mod lifecycle;
mod reembed;
mod snapshot;
mod strict;
#[cfg(feature = "extras")]
mod sync;
mod tiers;
mod tokens;
mod tools;

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::Promise;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use self::convert::{from_js, json_arg, read_options, string_arg, to_js};
use self::error::to_js_error;
use crate::core::engine::update::UpdatePatch;
use crate::core::error::MemoryError;
use crate::core::lifecycle::options::DeleteOptions;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::{ReadCall, ReadOptions};
use crate::platform::background::Writer;
use crate::platform::compose::{parts, split, Engine, Parts};
use crate::platform::env_var;
use crate::providers::config::{MemoryConfig, ResolvedConfig};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");

/// The provider and storage names, generated from their tables (`UPDATE_TYPES=1 cargo test --lib ts_types`).
#[wasm_bindgen(typescript_custom_section)]
const GENERATED_TYPES: &'static str = include_str!("generated.d.ts");

/// Fact-based AI memory: `add` conversations, `search` what was learned.
#[wasm_bindgen]
pub struct Memory {
    engine: Rc<Engine>,
    /// The background writer behind `flush`.
    writer: Rc<Writer>,
    /// `strict: true`: results with warnings reject (see `strict`).
    strict: bool,
}

impl Memory {
    fn over(engine: Rc<Engine>, config: &ResolvedConfig) -> Self {
        let writer = Writer::new(engine.clone(), config.engine.background, tiers::present);
        engine.defer_vectors(true); // settled right after add() resolves (see `add`)
        Memory { engine, writer, strict: config.engine.strict }
    }
}

/// Runs `work` as a Promise that resolves to its serialised result or rejects with a coded error.
fn promise<T, F>(work: F) -> Promise
where
    T: Serialize,
    F: Future<Output = Result<T, MemoryError>> + 'static,
{
    answered(work, false)
}

/// `promise`; with `strict`, a result that carries warnings rejects (see `strict`).
fn answered<T, F>(work: F, strict: bool) -> Promise
where
    T: Serialize,
    F: Future<Output = Result<T, MemoryError>> + 'static,
{
    // Only the conversion to JS is per method; settling the promise is shared (`settled`).
    settled(Box::pin(async move { to_js(&work.await?) }), strict)
}

/// The promise of `work`: its value (checked with `strict`), or its error as a JS `MemoryError`. Boxed: one
/// `future_to_promise` for every method instead of one copy of its machinery each.
fn settled(work: Pin<Box<dyn Future<Output = Result<JsValue, MemoryError>>>>, strict: bool) -> Promise {
    future_to_promise(async move {
        match work.await {
            Ok(value) => strict::checked(value, strict),
            Err(error) => Err(to_js_error(error)),
        }
    })
}

/// `{embedding}` as a search query: the vector, or `INVALID_INPUT`.
fn vector_query(query: &JsValue) -> Result<Vec<f32>, MemoryError> {
    #[derive(serde::Deserialize, Default)]
    #[serde(deny_unknown_fields)]
    struct VectorQuery {
        embedding: Vec<f32>,
    }
    let why = "query must be a string or {embedding: number[]}";
    if !query.is_object() {
        return Err(MemoryError::InvalidInput(why.into()));
    }
    let embedding = js_sys::Reflect::get(query, &"embedding".into()).unwrap_or(JsValue::UNDEFINED);
    if let Some(array) = embedding.dyn_ref::<js_sys::Float32Array>() {
        return Ok(array.to_vec());
    }
    let parsed: VectorQuery = from_js(query.clone(), "query", MemoryError::InvalidInput)?;
    if parsed.embedding.is_empty() {
        return Err(MemoryError::InvalidInput(why.into()));
    }
    Ok(parsed.embedding)
}

/// `{message: text}`, what the calls that change memories resolve with.
fn message(text: &str) -> Value {
    let mut reply = serde_json::Map::new();
    reply.insert("message".into(), Value::from(text));
    Value::Object(reply)
}

/// Reads a JS config: its JSON part through serde, its live values (callbacks, bindings) as they are.
fn configure(config: &JsValue) -> Result<(ResolvedConfig, Parts), MemoryError> {
    crate::platform::use_host_unicode();
    let (json, live) = split(config);
    let json = match json.is_undefined() || json.is_null() {
        true => Value::Object(serde_json::Map::new()),
        false => json_arg(&json, "config", MemoryError::InvalidConfig)?,
    };
    let config = MemoryConfig::read(json, &env_var)?;
    for warning in &config.warnings {
        web_sys::console::warn_1(&format!("memwasm: {warning}").into());
    }
    let parts = parts(&config, &live)?;
    Ok((config, parts))
}

#[wasm_bindgen]
impl Memory {
    /// Creates a memory that starts empty (the in-memory store). Throws `INVALID_CONFIG` for an unusable
    /// config; persistent storage needs `await Memory.open(config)`, which loads what is stored.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "MemoryConfig")] config: JsValue,
    ) -> Result<Memory, JsValue> {
        let (config, parts) = configure(&config).map_err(to_js_error)?;
        if !parts.starts_empty() {
            let why = "storage: persistent storage must be opened with `await Memory.open(config)`";
            return Err(to_js_error(MemoryError::InvalidConfig(why.into())));
        }
        Ok(Memory::over(Rc::new(parts.engine(&config)), &config))
    }

    /// mem0's `Memory.fromConfig(config)`: the same as `new Memory(config)`.
    #[wasm_bindgen(js_name = fromConfig)]
    pub fn from_config(
        #[wasm_bindgen(unchecked_optional_param_type = "MemoryConfig")] config: JsValue,
    ) -> Result<Memory, JsValue> {
        Memory::new(config)
    }

    /// Creates a memory and loads everything its storage holds into the search index.
    #[wasm_bindgen(unchecked_return_type = "Promise<Memory>")]
    pub fn open(#[wasm_bindgen(unchecked_optional_param_type = "MemoryConfig")] config: JsValue) -> Promise {
        future_to_promise(async move {
            let (config, parts) = configure(&config).map_err(to_js_error)?;
            let engine = Rc::new(parts.open(&config).await.map_err(to_js_error)?);
            reembed::check_model(&engine, config.engine.strict).await.map_err(to_js_error)?;
            engine.follow_remote();
            let memory = Memory::over(engine, &config);
            memory.writer.resume().await.map_err(to_js_error)?;
            Ok(memory.into())
        })
    }

    /// Extracts facts from `messages` and merges them into the scope's memories.
    #[wasm_bindgen(unchecked_return_type = "Promise<AddResult>")]
    pub fn add(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | Message[]")] messages: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AddOptions")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        self.answer(async move {
            let options: AddOptions = from_js(options, "options", MemoryError::InvalidInput)?;
            if messages.is_undefined() || messages.is_null() {
                let why =
                    "messages is required and cannot be undefined or null. Provide a string or array of messages.";
                return Err(MemoryError::InvalidInput(why.into()));
            }
            let messages = json_arg(&messages, "messages", MemoryError::InvalidInput)?;
            let added = engine.add(&messages, &options).await;
            if engine.has_unsettled_vectors() {
                let engine = engine.clone();
                wasm_bindgen_futures::spawn_local(async move { engine.settle_quietly().await });
            }
            added
        })
    }

    /// The scope's memories that best match `query` (by `options.method`), best first; `query` may be
    /// `{embedding}`, a vector to search by.
    #[wasm_bindgen(unchecked_return_type = "Promise<SearchResult>")]
    pub fn search(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | { embedding: number[] | Float32Array }")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        // One JSON text for the page: its numbers are f64 (scores, importance), which JSON keeps exactly.
        let found = async move {
            let read = read_options(options, ReadCall::Search)?;
            let mut found = match query.as_string() {
                Some(text) => engine.search(&text, &read).await,
                None => engine.search_by_vector(vector_query(&query)?, &read).await,
            }?;
            crate::core::recency::newest_first_at_equal_score(&mut found.results);
            convert::to_js_by_json(&found)
        };
        settled(Box::pin(found), self.strict)
    }

    /// The memory with this id, or `null`.
    #[wasm_bindgen(unchecked_return_type = "Promise<MemoryItem | null>")]
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string", js_name = memoryId)] memory_id: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.get(&string_arg(&memory_id, "memoryId")?).await })
    }

    /// The scope's memories, oldest first.
    #[wasm_bindgen(js_name = getAll, unchecked_return_type = "Promise<GetAllResult>")]
    pub fn get_all(&self, #[wasm_bindgen(unchecked_param_type = "GetAllOptions")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        let page =
            async move { convert::to_js_by_json(&engine.get_all(&read_options(options, ReadCall::GetAll)?).await?) };
        settled(Box::pin(page), self.strict)
    }

    /// Changes a memory: a new text (a string, or `{text}`), merged `metadata`, an `expirationDate` (`null`
    /// clears it). Rejects with `NOT_FOUND` for an unknown id.
    #[wasm_bindgen(unchecked_return_type = "Promise<{ message: string }>")]
    pub fn update(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string", js_name = memoryId)] memory_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | UpdateOptions")] change: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let id = string_arg(&memory_id, "memoryId")?;
            let patch = match change.as_string() {
                Some(text) => UpdatePatch { text: Some(text), ..UpdatePatch::default() },
                None => from_js::<UpdatePatch>(change, "options", MemoryError::InvalidInput)?,
            };
            if patch.data.is_some() {
                web_sys::console::warn_1(&"memwasm: update()'s `data` option is deprecated; use `text`".into());
            }
            engine.update_with(&id, &patch).await?;
            Ok(message("Memory updated successfully!"))
        })
    }

    /// Deletes a memory (`{soft: true}`: marks it deleted, restorable). Rejects with `NOT_FOUND` for an
    /// unknown id.
    #[wasm_bindgen(js_name = delete, unchecked_return_type = "Promise<{ message: string }>")]
    pub fn delete_memory(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string", js_name = memoryId)] memory_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "{ soft?: boolean }")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let options: DeleteOptions = from_js(options, "options", MemoryError::InvalidInput)?;
            engine.delete(&string_arg(&memory_id, "memoryId")?, options.soft.unwrap_or(false)).await?;
            Ok(message("Memory deleted successfully!"))
        })
    }

    /// Deletes every memory of a scope that passes `filters` (all of the scope's without).
    #[wasm_bindgen(js_name = deleteAll, unchecked_return_type = "Promise<{ message: string }>")]
    pub fn delete_all(&self, #[wasm_bindgen(unchecked_param_type = "DeleteAllOptions")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            engine.delete_all(&read_options(options, ReadCall::DeleteAll)?).await?;
            Ok(message("Memories deleted successfully!"))
        })
    }

    /// A memory's audit trail, oldest first.
    #[wasm_bindgen(unchecked_return_type = "Promise<HistoryRecord[]>")]
    pub fn history(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string", js_name = memoryId)] memory_id: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.history(&string_arg(&memory_id, "memoryId")?).await })
    }

    /// The messages a memory came from, oldest first (`[]` for none). Rejects with `NOT_FOUND` for an
    /// unknown id.
    #[wasm_bindgen(unchecked_return_type = "Promise<MemorySource[]>")]
    pub fn sources(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string", js_name = memoryId)] memory_id: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.provenance().sources(&string_arg(&memory_id, "memoryId")?).await })
    }

    /// Lets go of what the storage holds open: SQLite's database file in Node, so another process can open
    /// it; later calls that read or write storage reject with `STORAGE_UNAVAILABLE`. Nothing happens for
    /// other storages.
    pub fn close(&self) {
        crate::core::storage::Storage::close(&self.engine.storage);
    }

    /// Deletes every memory and all history.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn reset(&self) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.reset().await })
    }

    /// The scope's memories (all memories for `{}`), with embeddings and history, as JSON Lines.
    #[wasm_bindgen(js_name = exportMemories, unchecked_return_type = "Promise<string>")]
    pub fn export_memories(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let options: ReadOptions = from_js(options, "options", MemoryError::InvalidInput)?;
            engine.export(options.any_scope()?).await
        })
    }

    /// Writes back an `exportMemories` text, all or nothing, in short turns that leave the page responsive.
    /// Rejects with `INVALID_INPUT` naming a bad line, `DIMENSION_MISMATCH` for vectors of another length
    /// than the memory's, `ABORTED` once `options.signal` aborts before the write commits.
    #[wasm_bindgen(js_name = importMemories, unchecked_return_type = "Promise<ImportResult>")]
    pub fn import_memories(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] jsonl: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ImportOptions")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let pace = import::import_pace(&options, "importMemories")?;
            let jsonl = import::import_text(&jsonl, &pace).await?;
            engine.import_paced(&jsonl, &pace).await
        })
    }
}
