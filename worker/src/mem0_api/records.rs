//! The platform's own records (add events, exports, feedback), one KV key each under the tenant's prefix:
//! `t/<tenant>/mem0/<kind>/<id>`. The memory engine never reads them; a tenant's reset deletes them too.

use memwasm::core::kv::keys::encode;
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
    prefix: String,
}

impl Records {
    pub fn new(env: &Env, tenant: &str) -> Result<Self> {
        Ok(Self { kv: env.kv(KV_BINDING)?, prefix: format!("{}mem0/", tenant_prefix(tenant)) })
    }

    fn key(&self, kind: &str, id: &str) -> String {
        format!("{}{kind}/{}", self.prefix, encode(id))
    }

    /// Writes record `kind` / `id`, kept for `ttl` seconds when given.
    pub async fn put(&self, kind: &str, id: &str, record: &Value, ttl: Option<u64>) -> Result<()> {
        let mut put = self.kv.put(&self.key(kind, id), record.to_string())?;
        if let Some(seconds) = ttl {
            put = put.expiration_ttl(seconds);
        }
        Ok(put.execute().await?)
    }

    /// Record `kind` / `id`, if any.
    pub async fn get(&self, kind: &str, id: &str) -> Result<Option<Value>> {
        let text = self.kv.get(&self.key(kind, id)).text().await?;
        Ok(text.and_then(|text| serde_json::from_str(&text).ok()))
    }

    /// Every record of `kind`.
    pub async fn all(&self, kind: &str) -> Result<Vec<Value>> {
        let prefix = format!("{}{kind}/", self.prefix);
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
