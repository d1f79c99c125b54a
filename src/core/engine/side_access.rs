//! The engine's reads of side records: each kind is loaded from storage once, then served from RAM (every
//! commit keeps that copy in step).

use serde_json::Value;

use super::memory::MemoryEngine;
use crate::core::error::Result;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::{SideRecord, SideWrite};
use crate::core::storage::Changeset;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Loads `kind` into RAM unless it already is.
    async fn load_side_kind(&self, kind: &str) -> Result<()> {
        if self.side.borrow().has(kind) {
            return Ok(());
        }
        let records = self.storage.load_side(kind).await?;
        self.side.borrow_mut().fill(kind, records);
        Ok(())
    }

    /// Every side record of `kind`, in key order.
    pub async fn side_records(&self, kind: &str) -> Result<Vec<SideRecord>> {
        self.load_side_kind(kind).await?;
        Ok(self.side.borrow().records(kind))
    }

    /// The side records of `kind` whose key starts with `prefix`, in key order.
    pub async fn side_records_under(&self, kind: &str, prefix: &str) -> Result<Vec<SideRecord>> {
        self.load_side_kind(kind).await?;
        Ok(self.side.borrow().records_under(kind, prefix))
    }

    /// The side record `kind` / `key`, if any.
    pub async fn side_record(&self, kind: &str, key: &str) -> Result<Option<Value>> {
        self.load_side_kind(kind).await?;
        Ok(self.side.borrow().get(kind, key).cloned())
    }

    /// Writes `writes` on their own, all or nothing (features usually put them in their own changeset).
    pub async fn write_side(&self, writes: Vec<SideWrite>) -> Result<()> {
        self.commit(Changeset { side: writes, ..Changeset::default() }).await
    }
}

#[cfg(test)]
mod tests {
    use futures_executor::block_on;
    use serde_json::json;

    use super::*;
    use crate::core::testing::{letter_engine, KeepingStorage};

    #[test]
    fn side_records_are_written_read_back_and_survive_a_reopen() {
        let storage = KeepingStorage::new();
        let engine = letter_engine(storage.clone());
        assert!(block_on(engine.side_records("buffer")).unwrap().is_empty());
        let writes = vec![SideWrite::put("buffer", "g1", json!({"n": 1})), SideWrite::put("buffer", "g0", json!([]))];
        block_on(engine.write_side(writes)).unwrap();
        block_on(engine.write_side(vec![SideWrite::delete("buffer", "g0"), SideWrite::put("meta", "g1", json!("x"))]))
            .unwrap();
        assert_eq!(block_on(engine.side_record("buffer", "g1")).unwrap(), Some(json!({"n": 1})));
        assert_eq!(block_on(engine.side_records("buffer")).unwrap().len(), 1);
        let reopened = letter_engine(storage.clone());
        assert_eq!(
            block_on(reopened.side_records("buffer")).unwrap(),
            block_on(engine.side_records("buffer")).unwrap()
        );
        assert_eq!(block_on(reopened.side_record("meta", "g1")).unwrap(), Some(json!("x")));
        block_on(engine.reset()).unwrap();
        assert!(block_on(engine.side_records("buffer")).unwrap().is_empty(), "reset clears side records");
    }

    #[test]
    fn a_refused_write_keeps_no_side_record() {
        let storage = KeepingStorage::new();
        let engine = letter_engine(storage.clone());
        block_on(engine.side_records("buffer")).unwrap();
        storage.refuse_commits_after(0);
        let refused = block_on(engine.write_side(vec![SideWrite::put("buffer", "g1", json!(1))]));
        assert_eq!(refused.unwrap_err().code(), "STORAGE");
        assert_eq!(block_on(engine.side_record("buffer", "g1")).unwrap(), None, "the cache kept nothing either");
    }
}
