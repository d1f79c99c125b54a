//! Results of the sync building blocks (`syncStart`, `syncApply`, `syncCurate` …), made by a store that synced.

use futures_executor::block_on;
use serde_json::json;

use super::memory_samples::warning;
use super::{Declared::Method, Sample};
use crate::core::sync::{Applied, Curated, SyncStatus};

pub fn samples() -> Vec<Sample> {
    let (engine, _) = super::memory_samples::engine();
    let started = block_on(engine.sync_start()).unwrap();
    let status = SyncStatus { log_id: Some("log-1".into()), ..started };
    let outbox = json!([{"clientId": status.client_id, "n": 1, "data": "{}"}]);
    let applied = Applied { entries: 1, checkpoint: 1, warnings: vec![warning()], ..Applied::default() };
    let curated = Curated { judged: 1, updated: 1, deleted: 1, warnings: vec![warning()] };
    vec![
        Sample::of(Method("syncStart"), &status),
        Sample::of(Method("syncStatus"), &status),
        Sample::of(Method("syncRebase"), &status),
        Sample::wrapped(Method("syncOutbox"), "Vec<Pending> as {clientId, n, data}", outbox),
        Sample::of(Method("syncApply"), &applied),
        Sample::of(Method("syncCurate"), &curated),
    ]
}
