//! A storage with no values, standing in for Workers KV in a build without the `extras` feature (the
//! browser's core module), so that no KV code is compiled in and no `match` needs a `cfg`.

use crate::core::error::Result;
use crate::core::model::types::{HistoryRecord, StoredMemory};
use crate::core::side_records::SideRecord;
use crate::core::storage::{Changeset, Storage};

/// Cannot be made: every method is unreachable by construction.
pub enum Absent {}

impl Storage for Absent {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        match *self {}
    }

    async fn commit(&self, _changes: &Changeset) -> Result<()> {
        match *self {}
    }

    async fn history(&self, _memory_id: &str) -> Result<Vec<HistoryRecord>> {
        match *self {}
    }

    async fn clear(&self) -> Result<()> {
        match *self {}
    }

    async fn load_side(&self, _kind: &str) -> Result<Vec<SideRecord>> {
        match *self {}
    }
}
