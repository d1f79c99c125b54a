//! Deletes and clears that reached storage but not the remote index (it was down): kept in RAM and, so
//! that another instance or a restart replays them too, in storage as one side record. Every write that
//! sends vectors replays them first. A delete lost between storage and the remote index (the process died
//! in between) leaves a vector no memory has: its hits are dropped, as every unknown hit is.

use serde_json::{json, Value};

use crate::core::engine::remote_index::RemoteIndex;
use crate::core::error::Result;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::remote_slot::Pending;
use crate::core::vector_store::VectorStore;

/// The side record holding what is pending.
const KIND: &str = "vector-store-pending";
const KEY: &str = "pending";

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> RemoteIndex<'_, L, E, S, V> {
    /// Adds what earlier instances left pending in storage, once.
    async fn load_pending(&self) -> Result<()> {
        if self.remote.pending_loaded.get() {
            return Ok(());
        }
        let stored = self.side_record(KIND, KEY).await?.unwrap_or(Value::Null);
        let mut pending = self.remote.pending.borrow_mut();
        pending.clear |= stored["clear"].as_bool().unwrap_or(false);
        for id in stored["deletes"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            if !pending.deletes.iter().any(|held| held == id) {
                pending.deletes.push(id.to_owned());
            }
        }
        self.remote.pending_loaded.set(true);
        Ok(())
    }

    /// Writes what is pending to storage (deletes the record when nothing is). Best effort: when storage
    /// fails too, this instance still holds it.
    async fn save_pending(&self) {
        let pending = self.remote.pending.borrow().clone();
        let write = match pending.is_empty() {
            true => SideWrite::delete(KIND, KEY),
            false => SideWrite::put(KIND, KEY, json!({"clear": pending.clear, "deletes": pending.deletes})),
        };
        let changes = Changeset { side: vec![write], ..Changeset::default() };
        if self.storage.commit(&changes).await.is_ok() {
            self.side.borrow_mut().apply_to_filled(&changes.side);
        }
    }

    /// Replays what is pending (a clear, then deletes); what fails stays pending.
    pub(crate) async fn replay_remote(&self) -> Result<()> {
        let Some(remote) = self.remote.index() else { return Ok(()) };
        self.load_pending().await?;
        let pending = self.remote.pending.borrow().clone();
        if pending.is_empty() {
            return Ok(());
        }
        if pending.clear {
            remote.clear().await?;
            self.remote.pending.borrow_mut().clear = false;
        }
        if !pending.deletes.is_empty() {
            if let Err(error) = remote.delete(&pending.deletes).await {
                self.save_pending().await;
                return Err(error);
            }
            self.remote.pending.borrow_mut().deletes.retain(|id| !pending.deletes.contains(id));
        }
        self.save_pending().await;
        Ok(())
    }

    /// Deletes `ids` remotely now, or records them pending when that fails.
    pub(crate) async fn delete_or_defer(&self, ids: Vec<String>) {
        let Some(remote) = self.remote.index() else { return };
        if ids.is_empty() {
            return;
        }
        if self.replay_remote().await.is_ok() && remote.delete(&ids).await.is_ok() {
            return;
        }
        self.remote.pending.borrow_mut().deletes.extend(ids);
        self.save_pending().await;
    }

    /// Clears the remote index now, or records the clear pending when that fails (storage was cleared).
    pub(crate) async fn clear_or_defer(&self) {
        let Some(remote) = self.remote.index() else { return };
        *self.remote.pending.borrow_mut() = Pending { clear: true, deletes: Vec::new() };
        self.remote.pending_loaded.set(true); // storage was cleared: nothing older is pending
        if remote.clear().await.is_ok() {
            self.remote.pending.borrow_mut().clear = false;
        } else {
            self.save_pending().await;
        }
    }
}
