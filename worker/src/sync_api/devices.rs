//! What the log knows of each device (a store, the same across its opens and clients): how far it applied
//! the log (`pulled`, the `since` of its last pull), when it last pulled (`at`, ms) and which snapshot it is
//! reading (`snapshot`). Compaction waits for every device seen in the last `SYNC_DEVICE_TTL_SECONDS`; a
//! device away longer is retired: when it comes back below the snapshot it rebuilds from it.

use serde::{Deserialize, Serialize};

use super::log::{Log, Meta};
use super::store::{self, json, range, write_all};
use crate::error::ApiError;

/// One device's record.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Device {
    pub pulled: u64,
    pub at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
}

impl Log {
    /// What the log knows of device `id`, if anything.
    pub async fn device(&self, meta: &Meta, id: &str) -> Result<Option<Device>, ApiError> {
        store::get(self.storage(), &format!("{}{id}", self.devices_prefix(meta))).await
    }

    pub async fn set_device(&self, meta: &Meta, id: &str, device: &Device) -> Result<(), ApiError> {
        let key = format!("{}{id}", self.devices_prefix(meta));
        write_all(self.storage(), &[(key, json(device)?)], &[]).await
    }

    /// Every device the log knows, by id.
    pub async fn devices(&self, meta: &Meta) -> Result<Vec<(String, Device)>, ApiError> {
        let prefix = self.devices_prefix(meta);
        let listed: Vec<(String, Device)> = range(self.storage(), &prefix, None, None).await?;
        Ok(listed.into_iter().map(|(key, device)| (key[prefix.len()..].to_owned(), device)).collect())
    }
}

/// The sequence number that every device seen since `now - ttl_ms`, `except` the one asking, has applied
/// (`head` when there is none).
pub fn settled(devices: &[(String, Device)], except: &str, now: u64, ttl_ms: u64, head: u64) -> u64 {
    let active = devices.iter().filter(|(id, device)| id != except && device.at + ttl_ms >= now);
    active.map(|(_, device)| device.pulled).fold(head, u64::min)
}

/// Now, in ms since the epoch.
pub fn now_ms() -> u64 {
    js_sys::Date::now().max(0.0) as u64
}
