//! The lifecycle of a new memory: its expiry from `ttl` / `expiresAt`, its type, pin and importance
//! (given, or computed at write time), and which memories an over-full scope gives up.

use super::importance::{importance, novelty, salience};
use crate::core::error::{MemoryError, Result};
use crate::core::model::lifecycle::Lifecycle;
use crate::core::model::memory_type::{route_fact, MemoryType};
use crate::core::model::types::MemoryItem;
use crate::core::time::{iso_from_millis, millis_from_iso};

/// What a write (`add`, `store`) says about the lifecycle of what it writes, checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WriteLifecycle {
    /// `None`: routed per fact (procedural for preferences, else semantic).
    pub memory_type: Option<MemoryType>,
    /// ISO 8601, from `ttl` or `expiresAt`.
    pub expires_at: Option<String>,
    pub pinned: bool,
    /// `None`: computed from novelty and salience (see `importance`).
    pub importance: Option<f64>,
}

/// The lifecycle options as a caller gives them.
#[derive(Debug, Clone, Default)]
pub struct LifecycleInput {
    pub memory_type: Option<MemoryType>,
    /// Milliseconds from now; 0 means no expiry.
    pub ttl: Option<f64>,
    /// RFC 3339 with a time zone.
    pub expires_at: Option<String>,
    pub pinned: Option<bool>,
    pub importance: Option<f64>,
}

impl LifecycleInput {
    /// Checks the input at `now_ms`: a TTL that is a finite number ≥ 0, an `expiresAt` with a time zone
    /// (not both), an importance in [0, 1].
    pub fn check(self, now_ms: i64) -> Result<WriteLifecycle> {
        let invalid = |why: String| MemoryError::InvalidInput(why);
        let ttl = match self.ttl {
            Some(ttl) if !(ttl.is_finite() && ttl >= 0.0) => {
                return Err(invalid(format!("ttl must be a number of milliseconds ≥ 0, got {ttl}")))
            }
            Some(ttl) if ttl > 0.0 => Some(ttl),
            _ => None,
        };
        let expires_at = match (ttl, self.expires_at) {
            (Some(_), Some(_)) => return Err(invalid("give ttl or expiresAt, not both".into())),
            (Some(ttl), None) => Some(iso_from_millis(now_ms.saturating_add(ttl.min(i64::MAX as f64) as i64))),
            (None, Some(text)) => {
                let millis = millis_from_iso(&text).ok_or_else(|| {
                    invalid(format!("expiresAt must be an ISO 8601 time with a time zone, got {text:?}"))
                })?;
                Some(iso_from_millis(millis))
            }
            (None, None) => None,
        };
        if let Some(importance) = self.importance.filter(|i| !(0.0..=1.0).contains(i)) {
            return Err(invalid(format!("importance must be between 0 and 1, got {importance}")));
        }
        Ok(WriteLifecycle {
            memory_type: self.memory_type,
            expires_at,
            pinned: self.pinned.unwrap_or(false),
            importance: self.importance,
        })
    }
}

impl WriteLifecycle {
    /// The lifecycle of a new memory with `text` and unit `vector`, in a scope whose existing embeddings
    /// have `centroid`.
    pub fn for_new(&self, text: &str, vector: Option<&[f32]>, centroid: Option<&[f64]>) -> Lifecycle {
        Lifecycle {
            memory_type: route_fact(text, self.memory_type),
            importance: self.importance.unwrap_or_else(|| importance(novelty(vector, centroid), salience(text))),
            pinned: self.pinned,
            expires_at: self.expires_at.clone(),
            ..Lifecycle::default()
        }
    }
}

/// Which of a scope's `memories` to delete so that at most `max` remain: unpinned ones, least important
/// first, then oldest first. `keep` (e.g. what the current write adds) is never chosen.
pub fn over_limit<'a>(memories: &[&'a MemoryItem], max: usize, keep: &dyn Fn(&str) -> bool) -> Vec<&'a MemoryItem> {
    let excess = memories.len().saturating_sub(max);
    let mut candidates: Vec<&MemoryItem> =
        memories.iter().copied().filter(|m| !m.lifecycle.pinned && !keep(&m.id)).collect();
    crate::core::sort::sort_by(&mut candidates, |a, b| {
        a.lifecycle.importance.total_cmp(&b.lifecycle.importance).then_with(|| a.created_at.cmp(&b.created_at))
    });
    candidates.truncate(excess);
    candidates
}

#[cfg(test)]
#[path = "write_tests.rs"]
mod tests;
