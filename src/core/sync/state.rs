//! What sync keeps beside the memories, as side records written in the same transactions as the changes
//! they describe: the log this store follows and how far it applied it (`sync` / `log`), each client's next
//! entry number (`sync-client` / its id), and the outbox of entries not yet acknowledged by the server
//! (`sync-outbox`, keyed so that key order is the order they were written).

use serde::Deserialize;
use serde_json::{json, Value};

use crate::core::side_records::{SideRecord, SideWrite};

/// The kinds sync writes; a commit that writes one of them is sync's own and is not recorded again.
pub const LOG_KIND: &str = "sync";
pub const CLIENT_KIND: &str = "sync-client";
pub const OUTBOX_KIND: &str = "sync-outbox";
/// Entries the server stored, by outbox key: only the ids and keys they change (their data is dropped),
/// until a pull brings them back without their data (a client's own entries do not travel back).
pub const SENT_KIND: &str = "sync-sent";
const LOG_KEY: &str = "log";
/// The store's device id (`sync` / `device`): one per store, kept across opens (unlike client ids), so the
/// server knows how far each device has applied the log and may compact what every device has.
const DEVICE_KEY: &str = "device";

/// The log this store follows: its id (`None` until the first answer of a server) and the sequence number
/// of the last entry applied.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogState {
    pub log_id: Option<String>,
    pub checkpoint: u64,
}

impl LogState {
    /// The state in its side record, when sync was started on this store (read by hand: this runs at every
    /// open, in every build).
    pub fn read(value: Option<Value>) -> Option<Self> {
        let value = value?;
        let log_id = value.get("logId").and_then(Value::as_str).map(str::to_owned);
        Some(Self { log_id, checkpoint: value.get("checkpoint").and_then(Value::as_u64).unwrap_or(0) })
    }

    /// The state among the `sync` records, when sync was started on this store.
    pub fn of(records: &[SideRecord]) -> Option<Self> {
        Self::read(records.iter().find(|record| record.key == LOG_KEY).map(|record| record.value.clone()))
    }

    /// The write that stores this state.
    pub fn write(&self) -> SideWrite {
        SideWrite::put(LOG_KIND, LOG_KEY, json!({ "logId": self.log_id, "checkpoint": self.checkpoint }))
    }
}

/// One entry waiting in the outbox: the client that wrote it, its number, its text, and the memory ids and
/// graph keys it changes (what a pull must not overwrite until it is pushed).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pending {
    pub client_id: String,
    pub n: u64,
    pub data: String,
    #[serde(default)]
    pub ids: Vec<String>,
    #[serde(default)]
    pub keys: Vec<String>,
}

impl Pending {
    /// The outbox key: the time written, then the client and number, so that key order is write order.
    pub fn key(&self, at_ms: i64) -> String {
        format!("{:013}.{}.{:012}", at_ms.max(0), self.client_id, self.n)
    }

    pub fn write(&self, at_ms: i64) -> SideWrite {
        let value =
            json!({"clientId": self.client_id, "n": self.n, "data": self.data, "ids": self.ids, "keys": self.keys});
        SideWrite::put(OUTBOX_KIND, &self.key(at_ms), value)
    }

    /// Once the server stored it: the entry as a sent record under `key` (its outbox key), without its data.
    pub fn sent(&self, key: &str) -> SideWrite {
        let value = json!({"clientId": self.client_id, "n": self.n, "data": "", "ids": self.ids, "keys": self.keys});
        SideWrite::put(SENT_KIND, key, value)
    }

    /// The outbox's records that are entries (anything else is skipped).
    pub fn read_all(records: Vec<SideRecord>) -> Vec<(String, Pending)> {
        let read = |record: SideRecord| Some((record.key, serde_json::from_value(record.value).ok()?));
        records.into_iter().filter_map(read).collect()
    }
}

/// The device id among the `sync` records, if one was given.
pub fn device_of(records: &[SideRecord]) -> Option<String> {
    let record = records.iter().find(|record| record.key == DEVICE_KEY)?;
    record.value.get("id").and_then(Value::as_str).map(str::to_owned)
}

/// The write that stores the store's device id.
pub fn device_write(id: &str) -> SideWrite {
    SideWrite::put(LOG_KIND, DEVICE_KEY, json!({ "id": id }))
}

/// The write that stores `client`'s next entry number.
pub fn client_write(client: &str, next: u64) -> SideWrite {
    SideWrite::put(CLIENT_KIND, client, serde_json::json!({ "next": next }))
}

/// True when `writes` hold one of sync's own records (the commit is sync's, not the app's).
pub fn is_sync_commit(writes: &[SideWrite]) -> bool {
    writes.iter().any(|write| [LOG_KIND, CLIENT_KIND, OUTBOX_KIND, SENT_KIND].contains(&write.kind.as_str()))
}
