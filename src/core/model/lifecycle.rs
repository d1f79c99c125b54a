//! The lifecycle fields every memory carries: its type, importance, pin, expiry, key,
//! soft deletion and last access. Memories written before these existed read back with the defaults.

use serde::{Deserialize, Serialize};

use super::memory_type::MemoryType;

/// Importance of a memory written before importance existed: the middle of the scale, so it is neither
/// dropped from recall (below 0.2) nor favoured.
pub const LEGACY_IMPORTANCE: f64 = 0.5;

fn legacy_importance() -> f64 {
    LEGACY_IMPORTANCE
}

/// A memory's lifecycle, flattened into `MemoryItem` (camelCase in JS, as stored).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lifecycle {
    #[serde(default)]
    pub memory_type: MemoryType,
    /// In [0, 1]; computed at write time, lowered by `decay()`.
    #[serde(default = "legacy_importance")]
    pub importance: f64,
    /// Exempt from decay, trimming and `minToStore`; recalled right after procedural memories.
    #[serde(default)]
    pub pinned: bool,
    /// ISO 8601; the memory is invisible from then on, and purged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Unique within the memory's scope (`store(key, value)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Set by a soft delete; the memory is then invisible to every read but `getAll({includeDeleted})`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deleted_at: Option<String>,
    /// When a search last returned it (ISO 8601); decay counts from here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_accessed_at: Option<String>,
    /// When `decay()` last lowered its importance; the next decay counts from the later of this and the
    /// last access, so decaying twice never counts the same days twice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decayed_at: Option<String>,
    /// Whose statement the fact came from (`"user"` / `"assistant"`), when the extraction said (mem0's
    /// `attributedTo`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attributed_to: Option<String>,
}

impl Default for Lifecycle {
    fn default() -> Self {
        Self {
            memory_type: MemoryType::default(),
            importance: LEGACY_IMPORTANCE,
            pinned: false,
            expires_at: None,
            key: None,
            deleted_at: None,
            last_accessed_at: None,
            decayed_at: None,
            attributed_to: None,
        }
    }
}

impl Lifecycle {
    /// True once `expires_at` is at or before `now` (both ISO 8601 as the engine writes them).
    pub fn is_expired(&self, now: &str) -> bool {
        self.expires_at.as_deref().is_some_and(|at| at <= now)
    }

    /// True when soft-deleted.
    pub fn is_deleted(&self) -> bool {
        self.deleted_at.is_some()
    }

    /// Neither expired nor soft-deleted.
    pub fn is_live(&self, now: &str) -> bool {
        !self.is_expired(now) && !self.is_deleted()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn records_without_lifecycle_fields_read_back_with_defaults() {
        let old: Lifecycle = serde_json::from_value(json!({})).unwrap();
        assert_eq!(old, Lifecycle::default());
        assert_eq!(old.importance, LEGACY_IMPORTANCE);
        let json = serde_json::to_value(&old).unwrap();
        assert_eq!(json, json!({"memoryType": "semantic", "importance": 0.5, "pinned": false}));
    }

    #[test]
    fn expiry_and_soft_deletion_hide_a_memory() {
        let now = "2025-01-01T00:00:00.000Z";
        let mut life = Lifecycle::default();
        assert!(life.is_live(now));
        life.expires_at = Some("2025-01-01T00:00:00.001Z".into());
        assert!(life.is_live(now));
        life.expires_at = Some(now.into());
        assert!(life.is_expired(now) && !life.is_live(now));
        let deleted = Lifecycle { deleted_at: Some(now.into()), ..Lifecycle::default() };
        assert!(deleted.is_deleted() && !deleted.is_live(now));
    }
}
