//! Builds the engine the JS `Memory` wraps: the configured LLM, embedder and storage, each an enum over
//! the implementations this build offers (new providers and storages add a variant here).

use super::live::LiveValues;
use crate::core::config::{indexeddb_settings, kv_prefix, unknown_provider, ResolvedConfig};
use crate::core::error::{MemoryError, Result};
use crate::core::kv::KvStorage;
use crate::core::memory::MemoryEngine;
use crate::core::scope::Scope;
use crate::core::storage::{Changeset, InMemoryStorage, RemoteListener, Storage};
use crate::core::types::{HistoryRecord, StoredMemory};
use crate::core::vector_store::InMemoryVectorStore;
use crate::platform::indexeddb::IndexedDbStorage;
use crate::platform::{FetchClient, JsKv};
use crate::platform::{CallbackEmbedder, CallbackLlm, WorkersAiEmbedder, WorkersAiLlm};
use crate::providers::{
    AnthropicChat, Embedder, GeminiChat, GeminiEmbedder, Llm, OllamaChat, OllamaEmbedder, OpenAiChat, OpenAiEmbedder,
};

/// The engine behind the JS `Memory` class.
pub type Engine = MemoryEngine<AnyLlm, AnyEmbedder, AnyStorage>;

/// Every LLM this build can talk to.
pub enum AnyLlm {
    None,
    /// OpenAI, Azure OpenAI and the OpenAI-compatible hosts.
    OpenAi(OpenAiChat<FetchClient>),
    Anthropic(AnthropicChat<FetchClient>),
    Gemini(GeminiChat<FetchClient>),
    Ollama(OllamaChat<FetchClient>),
    WorkersAi(WorkersAiLlm),
    Custom(CallbackLlm),
}

impl Llm for AnyLlm {
    async fn generate(&self, system: &str, user: &str, json: bool) -> Result<String> {
        match self {
            Self::None => Err(MemoryError::InvalidInput("no LLM is configured (llm.provider is \"none\")".into())),
            Self::OpenAi(llm) => llm.generate(system, user, json).await,
            Self::Anthropic(llm) => llm.generate(system, user, json).await,
            Self::Gemini(llm) => llm.generate(system, user, json).await,
            Self::Ollama(llm) => llm.generate(system, user, json).await,
            Self::WorkersAi(llm) => llm.generate(system, user, json).await,
            Self::Custom(llm) => llm.generate(system, user, json).await,
        }
    }

    fn is_configured(&self) -> bool {
        !matches!(self, Self::None)
    }
}

/// Every embedder this build can talk to.
pub enum AnyEmbedder {
    None,
    /// OpenAI, Azure OpenAI and the OpenAI-compatible hosts.
    OpenAi(OpenAiEmbedder<FetchClient>),
    Gemini(GeminiEmbedder<FetchClient>),
    Ollama(OllamaEmbedder<FetchClient>),
    WorkersAi(WorkersAiEmbedder),
    Custom(CallbackEmbedder),
}

impl Embedder for AnyEmbedder {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        match self {
            Self::None => {
                Err(MemoryError::InvalidInput("no embedder is configured (embedder.provider is \"none\")".into()))
            }
            Self::OpenAi(embedder) => embedder.embed(texts).await,
            Self::Gemini(embedder) => embedder.embed(texts).await,
            Self::Ollama(embedder) => embedder.embed(texts).await,
            Self::WorkersAi(embedder) => embedder.embed(texts).await,
            Self::Custom(embedder) => embedder.embed(texts).await,
        }
    }

    fn dimensions(&self) -> Option<usize> {
        match self {
            Self::None => None,
            Self::OpenAi(embedder) => embedder.dimensions(),
            Self::Gemini(embedder) => embedder.dimensions(),
            Self::Ollama(embedder) => embedder.dimensions(),
            Self::WorkersAi(embedder) => embedder.dimensions(),
            Self::Custom(embedder) => embedder.dimensions(),
        }
    }

    fn is_configured(&self) -> bool {
        !matches!(self, Self::None)
    }
}

/// Every storage this build can persist to.
pub enum AnyStorage {
    Memory(InMemoryStorage),
    IndexedDb(IndexedDbStorage),
    /// Workers KV, through a namespace binding.
    Kv(KvStorage<JsKv>),
}

impl Storage for AnyStorage {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        match self {
            Self::Memory(storage) => storage.load_memories().await,
            Self::IndexedDb(storage) => storage.load_memories().await,
            Self::Kv(storage) => storage.load_memories().await,
        }
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        match self {
            Self::Memory(storage) => storage.commit(changes).await,
            Self::IndexedDb(storage) => storage.commit(changes).await,
            Self::Kv(storage) => storage.commit(changes).await,
        }
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        match self {
            Self::Memory(storage) => storage.history(memory_id).await,
            Self::IndexedDb(storage) => storage.history(memory_id).await,
            Self::Kv(storage) => storage.history(memory_id).await,
        }
    }

    async fn clear(&self) -> Result<()> {
        match self {
            Self::Memory(storage) => storage.clear().await,
            Self::IndexedDb(storage) => storage.clear().await,
            Self::Kv(storage) => storage.clear().await,
        }
    }

    async fn load_scope(&self, scope: &Scope) -> Result<Option<Vec<StoredMemory>>> {
        match self {
            Self::Memory(storage) => storage.load_scope(scope).await,
            Self::IndexedDb(storage) => storage.load_scope(scope).await,
            Self::Kv(storage) => storage.load_scope(scope).await,
        }
    }

    async fn load_memory(&self, id: &str) -> Result<Option<StoredMemory>> {
        match self {
            Self::Memory(storage) => storage.load_memory(id).await,
            Self::IndexedDb(storage) => storage.load_memory(id).await,
            Self::Kv(storage) => storage.load_memory(id).await,
        }
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        match self {
            Self::Memory(storage) => storage.all_history().await,
            Self::IndexedDb(storage) => storage.all_history().await,
            Self::Kv(storage) => storage.all_history().await,
        }
    }

    async fn load_graph(&self) -> Result<Option<Vec<crate::core::graph::GraphRecord>>> {
        match self {
            Self::Memory(storage) => storage.load_graph().await,
            Self::IndexedDb(storage) => storage.load_graph().await,
            Self::Kv(storage) => storage.load_graph().await,
        }
    }

    async fn load_scope_graph(&self, scope: &Scope) -> Result<Vec<crate::core::graph::GraphRecord>> {
        match self {
            Self::Memory(storage) => storage.load_scope_graph(scope).await,
            Self::IndexedDb(storage) => storage.load_scope_graph(scope).await,
            Self::Kv(storage) => storage.load_scope_graph(scope).await,
        }
    }

    fn watch(&self, listener: RemoteListener) {
        match self {
            Self::Memory(storage) => storage.watch(listener),
            Self::IndexedDb(storage) => storage.watch(listener),
            Self::Kv(storage) => storage.watch(listener),
        }
    }
}

/// The parts of an engine, before storage is opened.
pub struct Parts {
    pub llm: AnyLlm,
    pub embedder: AnyEmbedder,
    pub storage: AnyStorage,
    /// The search index, empty and configured (`vectorStore`).
    pub index: InMemoryVectorStore,
}

/// Picks the implementations `config` asks for.
pub fn parts(config: &ResolvedConfig, live: &LiveValues) -> Result<Parts> {
    let llm = super::models::llm(config, live)?;
    let embedder = super::models::embedder(config, live)?;
    let storage = match config.storage.provider.as_str() {
        "memory" => AnyStorage::Memory(InMemoryStorage::default()),
        "indexeddb" => AnyStorage::IndexedDb(IndexedDbStorage::new(&indexeddb_settings(&config.storage.options)?)),
        "cloudflare-kv" => {
            let binding = live.get("storage.binding").ok_or_else(|| {
                MemoryError::InvalidConfig("storage.binding: required for cloudflare-kv (e.g. env.MEMORY_KV)".into())
            })?;
            AnyStorage::Kv(KvStorage::new(JsKv::new(binding)?, &kv_prefix(&config.storage.options)?))
        }
        other => return Err(unknown_provider("storage.provider", other, &["memory", "indexeddb", "cloudflare-kv"])),
    };
    let index = InMemoryVectorStore::new(config.vector_store.quantization);
    Ok(Parts { llm, embedder, storage, index })
}

impl Parts {
    /// True when opening loads nothing (the storage starts empty, or loads scopes on demand like KV), so the
    /// synchronous constructor can build the engine.
    pub fn starts_empty(&self) -> bool {
        matches!(self.storage, AnyStorage::Memory(_) | AnyStorage::Kv(_))
    }
}
