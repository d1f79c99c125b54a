//! The sync building blocks (see `core::sync`): the package's `memory.sync()` moves their entries over
//! HTTP and encrypts them; an app with a transport of its own can use them directly.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, string_arg};
use super::{promise, Memory};
use crate::core::error::MemoryError;
use crate::core::sync::Pulled;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("sync.d.ts");

/// The most entries one `syncOutbox` call returns.
const MAX_OUTBOX_PAGE: usize = 10_000;

#[wasm_bindgen]
impl Memory {
    /// Starts recording this memory's writes for sync (the first time on a store, what it holds is queued
    /// too); resolves with the sync status. Later calls only report.
    #[wasm_bindgen(js_name = syncStart, unchecked_return_type = "Promise<SyncStatus>")]
    pub fn sync_start(&self) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.sync_start().await })
    }

    /// `{clientId, logId, checkpoint, pending}`.
    #[wasm_bindgen(js_name = syncStatus, unchecked_return_type = "Promise<SyncStatus>")]
    pub fn sync_status(&self) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.sync_status().await })
    }

    /// How many entries this instance has recorded since it opened: a number that changes with every write
    /// (what `syncLive` watches).
    #[wasm_bindgen(js_name = syncRecorded, unchecked_return_type = "Promise<number>")]
    pub fn sync_recorded(&self) -> Promise {
        let recorded = self.engine.sync_recorder().recorded();
        promise(async move { Ok(recorded) })
    }

    /// The first `limit` entries waiting to be pushed, in push order: `[{clientId, n, data}]`.
    #[wasm_bindgen(js_name = syncOutbox, unchecked_return_type = "Promise<SyncOutboxEntry[]>")]
    pub fn sync_outbox(&self, #[wasm_bindgen(unchecked_param_type = "number | undefined")] limit: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let limit = match limit.as_f64() {
                None if limit.is_undefined() => 100,
                Some(n) if n >= 1.0 && n.fract() == 0.0 => (n as usize).min(MAX_OUTBOX_PAGE),
                _ => return Err(MemoryError::InvalidInput("limit must be a positive whole number".into())),
            };
            let pending = engine.sync_pending(limit).await?;
            let entries =
                pending.into_iter().map(|p| serde_json::json!({"clientId": p.client_id, "n": p.n, "data": p.data}));
            Ok(entries.collect::<Vec<_>>())
        })
    }

    /// Drops `clientId`'s entries numbered `numbers` from the outbox (the server stored them).
    #[wasm_bindgen(js_name = syncAcknowledge, unchecked_return_type = "Promise<number>")]
    pub fn sync_acknowledge(
        &self,
        #[wasm_bindgen(js_name = clientId, unchecked_param_type = "string")] client_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number[]")] numbers: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let client = string_arg(&client_id, "clientId")?;
            let numbers: Vec<u64> = from_js(numbers, "numbers", MemoryError::InvalidInput)?;
            engine.sync_acknowledge(&client, &numbers).await
        })
    }

    /// Applies entries pulled from log `logId` (`[{seq, clientId, n, data}]`, `data` decrypted).
    #[wasm_bindgen(js_name = syncApply, unchecked_return_type = "Promise<SyncApplied>")]
    pub fn sync_apply(
        &self,
        #[wasm_bindgen(js_name = logId, unchecked_param_type = "string")] log_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SyncPulledEntry[]")] entries: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let log = string_arg(&log_id, "logId")?;
            let entries: Vec<Pulled> = from_js(entries, "entries", MemoryError::InvalidInput)?;
            engine.sync_apply(&log, entries).await
        })
    }

    /// Judges the memories `ids` that a pull brought (`SyncApplied.arrived`) against the older memories of
    /// their scopes with the LLM, as `add()` judges a new fact, and writes what it decided (pushed next sync).
    #[wasm_bindgen(js_name = syncCurate, unchecked_return_type = "Promise<SyncCurated>")]
    pub fn sync_curate(&self, #[wasm_bindgen(unchecked_param_type = "string[]")] ids: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let ids: Vec<String> = from_js(ids, "ids", MemoryError::InvalidInput)?;
            engine.sync_curate(&ids).await
        })
    }

    /// Starts over on the log `logId` (the server's log was wiped or replaced): everything this store holds
    /// is queued for it.
    #[wasm_bindgen(js_name = syncRebase, unchecked_return_type = "Promise<SyncStatus>")]
    pub fn sync_rebase(
        &self,
        #[wasm_bindgen(js_name = logId, unchecked_param_type = "string")] log_id: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.sync_rebase(&string_arg(&log_id, "logId")?).await })
    }

    /// Everything this store holds, as the data of entries numbered from 1 (a compaction of the log uploads
    /// them, encrypted, in place of the entries applied here).
    #[wasm_bindgen(js_name = syncSnapshot, unchecked_return_type = "Promise<string[]>")]
    pub fn sync_snapshot(&self) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.sync_snapshot_texts().await })
    }
}
