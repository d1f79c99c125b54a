//! Every storage a wasm32 build can persist to, as one type: in memory, IndexedDB (browsers) and Workers
//! KV (through a namespace binding), SQLite in Node. One row per backend in `storage_backends!`; each
//! row's opener reads the backend's `storage` config.

use super::live::LiveValues;
use crate::core::config::indexeddb_settings;
use crate::core::error::{MemoryError, Result};
use crate::core::storage::InMemoryStorage;
use crate::platform::indexeddb::IndexedDbStorage;
use crate::providers::config::ResolvedConfig;
use crate::providers::registry::storage::storage_backends;

/// Workers KV through a namespace binding; in a build without `extras`, a type with no values.
#[cfg(feature = "extras")]
pub type KvBackend = crate::core::kv::KvStorage<crate::platform::JsKv>;
/// Workers KV through a namespace binding; in a build without `extras`, a type with no values.
#[cfg(not(feature = "extras"))]
pub type KvBackend = super::absent::Absent;

/// SQLite in Node, through the handle its entry point opens; in a build without `extras`, a type with no values.
#[cfg(feature = "extras")]
pub type SqliteBackend = crate::platform::sqlite::SqliteStorage;
/// SQLite in Node, through the handle its entry point opens; in a build without `extras`, a type with no values.
#[cfg(not(feature = "extras"))]
pub type SqliteBackend = super::absent::Absent;

storage_backends! {
    /// Every storage this build can persist to.
    pub enum AnyStorage, opened with (config: &ResolvedConfig, live: &LiveValues) {
        Memory(InMemoryStorage) = "memory" => memory_storage,
        IndexedDb(IndexedDbStorage) = "indexeddb" => indexeddb_storage,
        /// Workers KV, through a namespace binding.
        Kv(KvBackend) = "cloudflare-kv" => kv_storage,
        /// SQLite, in Node.
        Sqlite(SqliteBackend) = "sqlite" => sqlite_storage,
    }
}

/// `storage: {provider: "memory"}`, the default.
fn memory_storage(_config: &ResolvedConfig, _live: &LiveValues) -> Result<InMemoryStorage> {
    Ok(InMemoryStorage::default())
}

/// `storage: {provider: "indexeddb", config: {dbName}}`.
fn indexeddb_storage(config: &ResolvedConfig, _live: &LiveValues) -> Result<IndexedDbStorage> {
    Ok(IndexedDbStorage::new(&indexeddb_settings(&config.engine.storage.options)?))
}

/// `storage: {provider: "cloudflare-kv", binding}`.
#[cfg(feature = "extras")]
fn kv_storage(config: &ResolvedConfig, live: &LiveValues) -> Result<KvBackend> {
    let binding = live.get("storage.binding").ok_or_else(|| {
        MemoryError::InvalidConfig(
            "storage.binding: required for cloudflare-kv, and missing (undefined): declare the KV namespace in \
             the Worker's wrangler config ([[kv_namespaces]] binding = \"MEMORY_KV\", or kv_namespaces in \
             wrangler.jsonc) and pass it, e.g. env.MEMORY_KV"
                .into(),
        )
    })?;
    let prefix = crate::core::config::kv_prefix(&config.engine.storage.options)?;
    Ok(crate::core::kv::KvStorage::new(crate::platform::JsKv::new(binding)?, &prefix))
}

/// `storage: {provider: "sqlite", config: {path}}`, opened by the host's `storage.open` (Node's entry point).
#[cfg(feature = "extras")]
fn sqlite_storage(config: &ResolvedConfig, live: &LiveValues) -> Result<SqliteBackend> {
    let settings = crate::core::config::sqlite_settings(&config.engine.storage.options)?;
    crate::platform::sqlite::SqliteStorage::new(live.get("storage.open"), settings)
}

#[cfg(not(feature = "extras"))]
fn sqlite_storage(_config: &ResolvedConfig, _live: &LiveValues) -> Result<SqliteBackend> {
    Err(MemoryError::NotInModule("storage.provider \"sqlite\"".into()))
}

#[cfg(not(feature = "extras"))]
fn kv_storage(_config: &ResolvedConfig, _live: &LiveValues) -> Result<KvBackend> {
    Err(MemoryError::NotInModule("storage.provider \"cloudflare-kv\"".into()))
}
