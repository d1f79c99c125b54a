//! memwasm's `KvBackend` over workers-rs's `KvStore`.

use memwasm::core::kv::{KvBackend, KvPage};
use memwasm::MemoryError;
use worker::kv::KvStore;

/// Keys per `list` page (KV's maximum).
const LIST_PAGE: u64 = 1000;

/// A KV namespace binding, such as `env.kv("MEMORY_KV")`.
pub struct WorkerKv(pub KvStore);

fn storage_error(operation: &str, key: &str, error: impl std::fmt::Display) -> MemoryError {
    MemoryError::Storage(format!("KV {operation} {key}: {error}"))
}

impl KvBackend for WorkerKv {
    async fn get(&self, key: &str) -> memwasm::core::error::Result<Option<String>> {
        self.0.get(key).text().await.map_err(|e| storage_error("get", key, e))
    }

    async fn get_many(&self, keys: &[String]) -> memwasm::core::error::Result<Vec<Option<String>>> {
        let first = keys.first().map_or("", String::as_str);
        let mut found = self.0.get_bulk(keys).text().await.map_err(|e| storage_error("get", first, e))?;
        Ok(keys.iter().map(|key| found.remove(key).flatten()).collect())
    }

    async fn put(&self, key: &str, value: &str) -> memwasm::core::error::Result<()> {
        let put = self.0.put(key, value).map_err(|e| storage_error("put", key, e))?;
        put.execute().await.map_err(|e| storage_error("put", key, e))
    }

    async fn delete(&self, key: &str) -> memwasm::core::error::Result<()> {
        self.0.delete(key).await.map_err(|e| storage_error("delete", key, e))
    }

    async fn list(&self, prefix: &str, cursor: Option<&str>) -> memwasm::core::error::Result<KvPage> {
        let mut list = self.0.list().prefix(prefix.to_owned()).limit(LIST_PAGE);
        if let Some(cursor) = cursor {
            list = list.cursor(cursor.to_owned());
        }
        let page = list.execute().await.map_err(|e| storage_error("list", prefix, e))?;
        let cursor = if page.list_complete { None } else { page.cursor };
        Ok(KvPage { keys: page.keys.into_iter().map(|key| key.name).collect(), cursor })
    }
}
