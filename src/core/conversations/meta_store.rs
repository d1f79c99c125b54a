//! The engine's conversation-metadata calls: get (with the default config as fallback), save (upsert), and
//! update (updatable fields only).

use serde_json::Value;

use super::meta::{group_of, meta_key, ConversationMeta, MetaInput, MetaView, META_KIND};
use super::meta_patch::{MetaPatch, MetaUpdate};
use crate::core::conversations::Conversations;
use crate::core::error::{MemoryError, Result};
use crate::core::identity::new_id;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// The stored metadata of `group` (`None`: the default config) exactly, without fallback.
    async fn stored_meta(&self, group: Option<&str>) -> Result<Option<ConversationMeta>> {
        let Some(record) = self.side_record(META_KIND, &meta_key(group)).await? else { return Ok(None) };
        crate::core::value_de::from_value(&record)
            .map(Some)
            .map_err(|e| MemoryError::Storage(format!("conversation metadata {group:?} does not decode: {e}")))
    }

    /// The metadata of `group_id`, else the default config; `None` when neither was saved.
    pub async fn conversation_meta(&self, group_id: Option<&str>) -> Result<Option<MetaView>> {
        let group = group_of(group_id.map(str::to_owned));
        if let Some(group) = group.as_deref() {
            if let Some(meta) = self.stored_meta(Some(group)).await? {
                return Ok(Some(meta.into()));
            }
        }
        Ok(self.stored_meta(None).await?.map(MetaView::from))
    }

    /// Saves metadata for its `groupId` (absent: the default config), replacing what was saved before but
    /// keeping its `id`.
    pub async fn save_conversation_meta(&self, input: MetaInput) -> Result<MetaView> {
        let group = group_of(input.group_id.clone());
        let _guard = self.locks.lock(&format!("meta:{}", meta_key(group.as_deref()))).await;
        let id = self.stored_meta(group.as_deref()).await?.map_or_else(new_id, |old| old.id);
        let meta = input.check(id, self.now_iso())?;
        self.write_meta(&meta).await?;
        Ok(meta.into())
    }

    /// Changes the updatable fields of saved metadata; `NOT_FOUND` when the group (or, without `groupId`, the
    /// default config) has none of its own.
    pub async fn update_conversation_meta(&self, patch: MetaPatch) -> Result<MetaUpdate> {
        let group = group_of(patch.group_id.clone());
        let _guard = self.locks.lock(&format!("meta:{}", meta_key(group.as_deref()))).await;
        let mut meta = self.stored_meta(group.as_deref()).await?.ok_or_else(|| {
            let whose = group.as_deref().map_or_else(|| "the default config".to_owned(), |g| format!("group {g:?}"));
            MemoryError::NotFound(format!("with conversation metadata for {whose}"))
        })?;
        let updated_fields = patch.apply(&mut meta, self.now_iso())?;
        self.write_meta(&meta).await?;
        Ok(MetaUpdate { view: meta.into(), updated_fields })
    }

    async fn write_meta(&self, meta: &ConversationMeta) -> Result<()> {
        let value = serde_json::to_value(meta).unwrap_or(Value::Null);
        self.write_side(vec![SideWrite::put(META_KIND, &meta_key(meta.group_id.as_deref()), value)]).await
    }
}
