//! Sessions for compression: a scope's uncompressed episodic memories grouped by
//! `metadata.sessionId` (an episode of `addMessage`, or a document of `ingest`), each in chronological order,
//! the sessions oldest first by their start time. Episodic memories without a `sessionId` belong to none.

use serde_json::Value;

use super::membership::{join, participants};
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryItem, Metadata, StoredMemory};
use crate::core::model::MemoryType;
use crate::core::prompt_fence::{fence, Place};
use crate::core::retrieval::window::{is_compressed, span};
use crate::core::time::iso_from_millis;

/// One session's episodic memories.
#[derive(Debug, Clone)]
pub struct Session {
    pub session_id: String,
    /// Oldest first (by the start of their time span, then `createdAt`).
    pub memories: Vec<StoredMemory>,
    /// The earliest start and the latest end of the memories' time spans (milliseconds).
    pub start: i64,
    pub end: i64,
}

/// The session `item` was written in, if any.
pub fn session_of(item: &MemoryItem) -> Option<&str> {
    item.metadata.get("sessionId").and_then(Value::as_str).filter(|id| !id.trim().is_empty())
}

/// True for a memory compression takes: episodic, of a session, not compressed yet.
pub fn compressible(item: &MemoryItem) -> bool {
    item.lifecycle.memory_type == MemoryType::Episodic && session_of(item).is_some() && !is_compressed(item)
}

/// `memories` (compressible ones) grouped into sessions, oldest session first (ties: by session id).
pub fn sessions(memories: Vec<StoredMemory>) -> Vec<Session> {
    let mut sessions: Vec<Session> = Vec::new();
    for memory in memories {
        let Some(id) = session_of(&memory.item).map(str::to_owned) else { continue };
        let (start, end) = span(&memory.item);
        match sessions.iter_mut().find(|s| s.session_id == id) {
            Some(session) => {
                session.start = session.start.min(start);
                session.end = session.end.max(end);
                session.memories.push(memory);
            }
            None => sessions.push(Session { session_id: id, memories: vec![memory], start, end }),
        }
    }
    for session in &mut sessions {
        crate::core::sort::sort_by(&mut session.memories, |a, b| {
            span(&a.item).0.cmp(&span(&b.item).0).then(a.item.created_at.cmp(&b.item.created_at))
        });
    }
    crate::core::sort::sort_by(&mut sessions, |a, b| {
        a.start.cmp(&b.start).then_with(|| a.session_id.cmp(&b.session_id))
    });
    sessions
}

impl Session {
    /// The session's memories in chronological order, one `[time] text` line each (the prompt's content).
    pub fn content(&self) -> String {
        let line =
            |m: &StoredMemory| format!("[{}] {}", iso_from_millis(span(&m.item).0), fence(&m.item.memory, Place::Line));
        self.memories.iter().map(line).collect::<Vec<_>>().join("\n")
    }

    /// Where its summary goes: the scope of its oldest memory.
    pub fn scope(&self) -> Scope {
        self.memories.first().map(|m| m.item.scope.clone()).unwrap_or_default()
    }

    pub fn start_time(&self) -> String {
        iso_from_millis(self.start)
    }

    pub fn end_time(&self) -> String {
        iso_from_millis(self.end)
    }

    /// The summary's metadata: `sourceSessionId`, `compressionSource: true`, `sourceMemoryIds`, the session's
    /// `startTime` / `endTime`, the group (`groupId`, `groupName`) its memories carry, and every participant
    /// they list (`participants`).
    pub fn summary_metadata(&self) -> Metadata {
        let mut metadata = Metadata::new();
        if let Some(first) = self.memories.first() {
            for key in ["groupId", "groupName"] {
                if let Some(value) = first.item.metadata.get(key) {
                    metadata.insert(key.into(), value.clone());
                }
            }
        }
        metadata.insert("sourceSessionId".into(), Value::from(self.session_id.as_str()));
        metadata.insert("compressionSource".into(), Value::Bool(true));
        let ids: Vec<&str> = self.memories.iter().map(|m| m.item.id.as_str()).collect();
        metadata.insert("sourceMemoryIds".into(), Value::from(ids));
        metadata.insert("startTime".into(), Value::from(self.start_time()));
        metadata.insert("endTime".into(), Value::from(self.end_time()));
        let listed: Vec<String> = self.memories.iter().flat_map(|m| participants(&m.item.metadata)).collect();
        if !listed.is_empty() {
            join(&mut metadata, &listed);
        }
        metadata
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn memory(id: &str, session: Option<&str>, start: &str, kind: &str) -> StoredMemory {
        let mut metadata = json!({"startTime": start, "endTime": start});
        if let Some(session) = session {
            metadata["sessionId"] = json!(session);
        }
        let item = serde_json::from_value(json!({
            "id": id, "memory": format!("memory {id}"), "hash": "h", "createdAt": "2025-02-01T00:00:00.000Z",
            "updatedAt": "2025-02-01T00:00:00.000Z", "memoryType": kind, "metadata": metadata
        }))
        .unwrap();
        StoredMemory { item, embedding: None }
    }

    #[test]
    fn sessions_are_grouped_and_ordered_by_their_start() {
        let memories = vec![
            memory("b2", Some("b"), "2025-01-03T10:00:00Z", "episodic"),
            memory("a1", Some("a"), "2025-01-05T09:00:00Z", "episodic"),
            memory("b1", Some("b"), "2025-01-02T10:00:00Z", "episodic"),
            memory("loose", None, "2025-01-01T00:00:00Z", "episodic"),
        ];
        let grouped = sessions(memories);
        let order: Vec<(&str, Vec<&str>)> = grouped
            .iter()
            .map(|s| (s.session_id.as_str(), s.memories.iter().map(|m| m.item.id.as_str()).collect()))
            .collect();
        assert_eq!(order, [("b", vec!["b1", "b2"]), ("a", vec!["a1"])]);
        assert_eq!(
            (grouped[0].start_time().as_str(), grouped[0].end_time().as_str()),
            ("2025-01-02T10:00:00.000Z", "2025-01-03T10:00:00.000Z")
        );
        assert_eq!(grouped[0].content(), "[2025-01-02T10:00:00.000Z] memory b1\n[2025-01-03T10:00:00.000Z] memory b2");
        let metadata = grouped[0].summary_metadata();
        assert_eq!(
            (metadata["sourceSessionId"].clone(), metadata["compressionSource"].clone()),
            (json!("b"), json!(true))
        );
        assert_eq!(metadata["sourceMemoryIds"], json!(["b1", "b2"]));
    }

    #[test]
    fn only_uncompressed_episodic_memories_of_a_session_are_taken() {
        assert!(compressible(&memory("x", Some("s"), "2025-01-01T00:00:00Z", "episodic").item));
        assert!(!compressible(&memory("x", Some("s"), "2025-01-01T00:00:00Z", "semantic").item));
        assert!(!compressible(&memory("x", None, "2025-01-01T00:00:00Z", "episodic").item));
        let mut done = memory("x", Some("s"), "2025-01-01T00:00:00Z", "episodic");
        done.item.metadata.insert("compressed".into(), json!(true));
        assert!(!compressible(&done.item));
    }
}
