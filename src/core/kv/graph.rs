//! Graph memory in KV: one key per entity and per relation (`graph/{scope}/{recordKey}`, see [`super::keys`]),
//! its value the record's JSON. No index key: a scope's records are listed by prefix when the scope is
//! first used, like its memories.

use super::{KvBackend, KvStorage};
use crate::core::error::{MemoryError, Result};
use crate::core::model::graph::{GraphChanges, GraphRecord};
use crate::core::model::scope::Scope;

/// The scope a `GraphRecord::key()` was made for (`kind␞user␟agent␟run␞…`; an empty id is no id).
fn scope_of_record_key(record_key: &str) -> Option<Scope> {
    let scope = record_key.split('\u{1e}').nth(1)?;
    let ids: Vec<Option<String>> = scope.split('\u{1f}').map(|id| (!id.is_empty()).then(|| id.to_owned())).collect();
    let [user_id, agent_id, run_id] = <[Option<String>; 3]>::try_from(ids).ok()?;
    Some(Scope { user_id, agent_id, run_id })
}

impl<B: KvBackend> KvStorage<B> {
    /// The KV keys `changes` writes and deletes; `STORAGE` for a delete whose key names no scope.
    pub(super) fn graph_keys(&self, changes: &GraphChanges) -> Result<(Vec<String>, Vec<String>)> {
        let puts = changes.upserts.iter().map(|record| self.keys.graph(record.scope(), &record.key())).collect();
        let deletes = changes
            .deletes
            .iter()
            .map(|key| {
                let scope = scope_of_record_key(key)
                    .ok_or_else(|| MemoryError::Storage(format!("not a graph record key: {key:?}")))?;
                Ok(self.keys.graph(&scope, key))
            })
            .collect::<Result<_>>()?;
        Ok((puts, deletes))
    }

    /// Writes the graph records of `changes`.
    pub(super) async fn put_graph(&self, changes: &GraphChanges) -> Result<()> {
        let (keys, _) = self.graph_keys(changes)?;
        for (key, record) in keys.iter().zip(&changes.upserts) {
            let value = serde_json::to_string(record)
                .map_err(|error| MemoryError::Storage(format!("cannot encode a graph record: {error}")))?;
            self.backend.put(key, &value).await?;
        }
        Ok(())
    }

    /// Removes the graph records `changes` deletes.
    pub(super) async fn delete_graph(&self, changes: &GraphChanges) -> Result<()> {
        let (_, keys) = self.graph_keys(changes)?;
        for key in keys {
            self.backend.delete(&key).await?;
        }
        Ok(())
    }

    /// The stored graph records `scope` can see.
    pub(super) async fn read_graph(&self, scope: &Scope) -> Result<Vec<GraphRecord>> {
        let keys: Vec<String> = self
            .list_all(&self.keys.graph_prefix(scope))
            .await?
            .into_iter()
            .filter(|key| self.keys.parse_graph(key).is_some_and(|(stored, _)| scope.contains(&stored)))
            .collect();
        self.read_decoded(&keys, |key, value| {
            let record = serde_json::from_str(value)
                .map_err(|error| MemoryError::Storage(format!("graph record {key} does not decode: {error}")))?;
            Ok(Some(record))
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::graph::entity_key;

    #[test]
    fn a_record_key_gives_back_its_scope() {
        let scope = Scope { user_id: Some("u".into()), agent_id: None, run_id: Some("r".into()) };
        assert_eq!(scope_of_record_key(&entity_key(&scope, "alice")), Some(scope));
        assert_eq!(scope_of_record_key("no separators"), None);
    }
}
