//! Builds an engine from a resolved config: the configured LLM, embedder and storage, each one type over
//! every implementation a wasm32 build offers. The JS binding and the Cloudflare Worker both use it.

#[cfg(not(feature = "extras"))]
mod absent;
mod live;
mod models;
mod storage;

pub use live::{js_clock, js_token_counter, split, LiveValues};
pub use models::{LiveEmbedder, LiveLlm};
pub use storage::AnyStorage;

use crate::core::engine::embedding_model::EmbeddingModel;
use crate::core::engine::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::rerank::RerankStage;
use crate::core::time::Clock;
use crate::core::tokens::TokenCounter;
use crate::core::vector_store::InMemoryVectorStore;
use crate::http::Timed;
#[cfg(feature = "extras")]
use crate::platform::observe::Observed;
use crate::platform::FetchClient;
use crate::providers::any::{AnyEmbedder, AnyLlm};
use crate::providers::chroma::ChromaVectors;
use crate::providers::config::ResolvedConfig;

/// The LLM of a wasm32 build: an HTTP provider over `fetch` (with `llm.config.timeoutMs`), or a live one,
/// observed by the config's `observe` callback (in a build with `extras`).
#[cfg(feature = "extras")]
pub type Llm = Observed<AnyLlm<Timed<FetchClient>, LiveLlm>>;
/// The embedder of a wasm32 build: an HTTP provider over `fetch` (with `embedder.config.timeoutMs`), or a live
/// one, observed by the config's `observe` callback (in a build with `extras`).
#[cfg(feature = "extras")]
pub type Embedder = Observed<AnyEmbedder<Timed<FetchClient>, LiveEmbedder>>;
/// The LLM of a build without `extras` (the browser's core module): not observed.
#[cfg(not(feature = "extras"))]
pub type Llm = AnyLlm<Timed<FetchClient>, LiveLlm>;
/// The embedder of a build without `extras`: not observed.
#[cfg(not(feature = "extras"))]
pub type Embedder = AnyEmbedder<Timed<FetchClient>, LiveEmbedder>;
/// The engine behind the JS `Memory` class and the Worker's routes.
pub type Engine = MemoryEngine<Llm, Embedder, AnyStorage>;

/// The parts of an engine, before storage is opened.
pub struct Parts {
    pub llm: Llm,
    pub embedder: Embedder,
    pub storage: AnyStorage,
    /// The search index, empty and configured (`vectorStore`).
    pub index: InMemoryVectorStore,
    /// `vectorStore: {provider: "chroma"}`: where vectors are stored and searched.
    pub remote: Option<ChromaVectors<FetchClient>>,
    /// The config's `now` callback, else the system clock.
    pub clock: Clock,
    /// The config's `countTokens` callback, else the estimate.
    pub tokens: TokenCounter,
    /// The reranker stage of `search(…, {rerank: true})`, when `reranker` is configured.
    pub reranker: Option<RerankStage>,
}

/// `vectorStore: {provider: "chroma"}`, when configured (`NOT_IN_MODULE` in a build without `extras`).
fn remote_vectors(config: &ResolvedConfig) -> Result<Option<ChromaVectors<FetchClient>>> {
    match &config.remote_vectors {
        None => Ok(None),
        Some(_) if !cfg!(feature = "extras") => Err(MemoryError::NotInModule("vectorStore.provider \"chroma\"".into())),
        Some(chroma) => Ok(Some(ChromaVectors::new(FetchClient, chroma.clone(), config.retry))),
    }
}

/// Picks the implementations `config` asks for.
pub fn parts(config: &ResolvedConfig, live: &LiveValues) -> Result<Parts> {
    if config.engine.graph_enabled && !cfg!(feature = "extras") {
        return Err(MemoryError::NotInModule("graph memory (graph.enabled)".into()));
    }
    let clock = match live.get("now") {
        Some(now) => js_clock(now)?,
        None => Clock::default(),
    };
    let llm = models::llm(config, live, &clock)?;
    let embedder = models::embedder(config, live, &clock)?;
    if let (Some(want), Some(have)) =
        (config.engine.vector_store.dimension, crate::core::model_traits::Embedder::dimensions(&embedder))
    {
        if want != have {
            let why = format!("{want}, but the embedder's vectors have {have} dimensions");
            return Err(MemoryError::InvalidConfig(format!("vectorStore.config.dimension: {why}")));
        }
    }
    let storage = AnyStorage::open(&config.engine.storage.provider, config, live)?;
    let index = InMemoryVectorStore::new(config.engine.vector_store.quantization);
    let tokens = match live.get("countTokens") {
        Some(count) => js_token_counter(count)?,
        None => TokenCounter::default(),
    };
    let remote = remote_vectors(config)?;
    let reranker = models::reranker(config, live, &clock)?;
    Ok(Parts { llm, embedder, storage, index, remote, clock, tokens, reranker })
}

/// The config's engine settings and embedding model, and the platform's clock, token counter and reranker,
/// on a new engine.
fn configure(
    engine: &mut Engine,
    config: &ResolvedConfig,
    clock: Clock,
    tokens: TokenCounter,
    reranker: Option<RerankStage>,
) {
    let settings = &config.engine;
    let (provider, model) = models::embedder_name(&config.embedder);
    let dimensions = crate::core::model_traits::Embedder::dimensions(&engine.embedder);
    engine.set_embedding_model(EmbeddingModel::new(provider, &model, dimensions));
    engine.set_lifecycle(settings.lifecycle);
    engine.set_keep_history(settings.keep_history);
    engine.set_pipeline(settings.pipeline);
    engine.set_additive(settings.additive);
    engine.set_boundary(settings.boundary);
    if let Some(stage) = reranker {
        engine.set_reranker(stage);
    }
    engine.set_clock(clock);
    engine.set_token_counter(tokens);
}

impl Parts {
    /// An engine over these parts that starts with an empty index (see `starts_empty`), graph memory on
    /// when configured (each scope's graph then loads with the scope).
    pub fn engine(self, config: &ResolvedConfig) -> Engine {
        let clock = self.clock;
        let mut engine = MemoryEngine::new_with_index(
            self.llm,
            self.embedder,
            self.storage,
            config.engine.prompts.clone(),
            self.index,
        );
        configure(&mut engine, config, clock, self.tokens, self.reranker);
        #[cfg(feature = "extras")]
        if let Some(remote) = self.remote {
            engine.set_remote_vectors(remote);
        }
        if config.engine.graph_enabled {
            engine.graph().set_graph(Vec::new());
        }
        engine
    }

    /// An engine over these parts with everything the storage holds loaded into the index.
    pub async fn open(self, config: &ResolvedConfig) -> Result<Engine> {
        let (prompts, clock) = (config.engine.prompts.clone(), self.clock);
        let mut engine =
            MemoryEngine::open_with_index(self.llm, self.embedder, self.storage, prompts, self.index).await?;
        configure(&mut engine, config, clock, self.tokens, self.reranker);
        #[cfg(feature = "extras")]
        if let Some(remote) = self.remote {
            engine.set_remote_vectors(remote);
            engine.remote_vectors().backfill_remote().await?; // what storage held before the switch to it
        }
        if config.engine.graph_enabled {
            engine.graph().enable_graph().await?;
        }
        Ok(engine)
    }

    /// True when opening loads nothing (the storage starts empty, or loads scopes on demand like KV), so the
    /// synchronous constructor can build the engine.
    pub fn starts_empty(&self) -> bool {
        matches!(self.storage, AnyStorage::Memory(_) | AnyStorage::Kv(_))
    }
}
