//! Two applies of one pull at once on one store, as two tabs' rounds of `syncLive` run them: they take turns,
//! so the second finds the first's checkpoint, and each history record is kept once.

use futures_executor::block_on;
use futures_util::future::join;
use serde_json::json;

use super::*;
use crate::core::model::graph::GraphRecord;
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::model::types::{HistoryRecord, StoredMemory};
use crate::core::pipeline_options::AddOptions;
use crate::core::side_records::SideRecord;
use crate::core::storage::{Changeset, Storage};
use crate::core::testing::{yield_once, KeepingStorage, Letters, NoLlm};

/// A storage pending once before each read of side records and each commit: where two tasks interleave.
struct Yielding(KeepingStorage);

impl Storage for Yielding {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        self.0.load_memories().await
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        yield_once().await;
        self.0.commit(changes).await
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        yield_once().await;
        self.0.load_side(kind).await
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        self.0.history(memory_id).await
    }

    async fn clear(&self) -> Result<()> {
        self.0.clear().await
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        self.0.all_history().await
    }

    async fn load_graph(&self) -> Result<Option<Vec<GraphRecord>>> {
        self.0.load_graph().await
    }

    async fn load_scope(&self, scope: &Scope) -> Result<Option<crate::core::packed::Packed>> {
        self.0.load_scope(scope).await
    }
}

#[test]
fn two_applies_of_the_same_pull_at_once_keep_each_record_once() {
    let writer: MemoryEngine<NoLlm, Letters, KeepingStorage> =
        block_on(MemoryEngine::open(NoLlm, Letters::new(26), KeepingStorage::new(), Default::default())).unwrap();
    block_on(writer.sync_start()).unwrap();
    let options = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    for text in ["likes tea", "likes figs", "has a cat"] {
        block_on(writer.add(&json!(text), &options)).unwrap();
    }
    let pending = block_on(writer.sync_pending(usize::MAX)).unwrap();
    let pulled: Vec<Pulled> =
        (1..).zip(pending).map(|(seq, p)| Pulled { seq, client_id: p.client_id, n: p.n, data: Some(p.data) }).collect();

    let kept = KeepingStorage::new();
    let reader: MemoryEngine<NoLlm, Letters, Yielding> =
        block_on(MemoryEngine::open(NoLlm, Letters::new(26), Yielding(kept.clone()), Default::default())).unwrap();
    block_on(reader.sync_start()).unwrap();
    let (first, second) =
        block_on(join(reader.sync_apply("log-1", pulled.clone()), reader.sync_apply("log-1", pulled.clone())));
    let applied = [first.unwrap().entries, second.unwrap().entries];
    assert_eq!(applied, [3, 0], "the second apply finds the first's checkpoint");
    let history = block_on(kept.all_history()).unwrap().unwrap_or_default();
    assert_eq!(history.len(), 3, "one ADD per memory: {history:?}");
    assert_eq!(block_on(reader.sync_status()).unwrap().checkpoint, 3);
}
