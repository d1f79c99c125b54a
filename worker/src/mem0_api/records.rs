//! The platform's own records (add events, exports, feedback), one KV key each under the tenant's prefix:
//! `t/<tenant>/mem0/<kind>/<id>`. The memory engine never reads them; a tenant's reset deletes them too.
//! In a tenant's Durable Object (`STORAGE = "do"`) they live in its storage, without expiry (TTLs are KV's).

use memwasm::core::kv::keys::encode;
use memwasm::core::kv::KvBackend;
use memwasm::platform::JsKv;
use serde_json::Value;
use worker::kv::KvStore;
use worker::Env;

use super::error::Result;
use crate::auth::tenant_prefix;
use crate::settings::KV_BINDING;

/// An add's event record.
pub const EVENT: &str = "event";
/// A memory export.
pub const EXPORT: &str = "export";
/// One piece of feedback.
pub const FEEDBACK: &str = "feedback";

/// How long an event record is kept: 30 days.
pub const EVENT_TTL_SECONDS: u64 = 30 * 24 * 3600;

/// One tenant's records.
pub struct Records {
    kv: KvStore,
    /// The tenant's object storage, when the request runs in it.
    object: Option<JsKv>,
    prefix: String,
}

impl Records {
    pub fn new(env: &Env, tenant: &str) -> Result<Self> {
        let object = crate::tenant_engine::warm::storage(tenant).map(|storage| JsKv::new(&storage)).transpose()?;
        Ok(Self { kv: env.kv(KV_BINDING)?, object, prefix: format!("{}mem0/", tenant_prefix(tenant)) })
    }

    fn key(&self, kind: &str, id: &str) -> String {
        format!("{}{kind}/{}", self.prefix, encode(id))
    }

    /// Writes record `kind` / `id`, kept for `ttl` seconds when given.
    pub async fn put(&self, kind: &str, id: &str, record: &Value, ttl: Option<u64>) -> Result<()> {
        if let Some(object) = &self.object {
            object.put(&self.key(kind, id), &record.to_string()).await?;
            return Ok(object.finish().await?);
        }
        let mut put = self.kv.put(&self.key(kind, id), record.to_string())?;
        if let Some(seconds) = ttl {
            put = put.expiration_ttl(seconds);
        }
        Ok(put.execute().await?)
    }

    /// Record `kind` / `id`, if any.
    pub async fn get(&self, kind: &str, id: &str) -> Result<Option<Value>> {
        if let Some(object) = &self.object {
            let text = object.get(&self.key(kind, id)).await?;
            return Ok(text.and_then(|text| serde_json::from_str(&text).ok()));
        }
        let text = self.kv.get(&self.key(kind, id)).text().await?;
        Ok(text.and_then(|text| serde_json::from_str(&text).ok()))
    }

    /// Every record of `kind`.
    pub async fn all(&self, kind: &str) -> Result<Vec<Value>> {
        let prefix = format!("{}{kind}/", self.prefix);
        if let Some(object) = &self.object {
            let keys = object.list(&prefix, None).await?.keys;
            let mut records = Vec::with_capacity(keys.len());
            for chunk in keys.chunks(memwasm::core::kv::BULK_READ_KEYS) {
                for text in object.get_many(chunk).await?.into_iter().flatten() {
                    records.extend(serde_json::from_str::<Value>(&text).ok());
                }
            }
            return Ok(records);
        }
        let (mut records, mut cursor) = (Vec::new(), None);
        loop {
            let mut list = self.kv.list().prefix(prefix.clone());
            if let Some(cursor) = cursor.take() {
                list = list.cursor(cursor);
            }
            let page = list.execute().await?;
            for key in &page.keys {
                if let Some(text) = self.kv.get(&key.name).text().await? {
                    records.extend(serde_json::from_str::<Value>(&text).ok());
                }
            }
            match page.cursor.filter(|_| !page.list_complete) {
                Some(next) => cursor = Some(next),
                None => return Ok(records),
            }
        }
    }
}
