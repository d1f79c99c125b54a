//! Which memories are facts, the ones `limits.maxFacts` counts: what `add()` extracted or was given to keep
//! as a fact. Conversation turns (stored as said, with a `role`), agent key/value entries, document chunks
//! and conversation memories (episodes, profiles, plans, event logs) are not, so the limit never trims them.

use crate::core::model::types::MemoryItem;
use crate::core::model::MemoryType;

/// The memory types a fact can have (the ones `decay()` takes by default).
pub const FACT_TYPES: [MemoryType; 3] = [MemoryType::Semantic, MemoryType::Procedural, MemoryType::Working];

/// True when `item` counts towards `limits.maxFacts`.
pub fn is_fact(item: &MemoryItem) -> bool {
    FACT_TYPES.contains(&item.lifecycle.memory_type)
        && item.lifecycle.key.is_none()
        && !item.metadata.contains_key("role")
        && !item.metadata.contains_key("documentHash")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::core::model::scope::Scope;
    use crate::core::model::Lifecycle;

    fn item(memory_type: MemoryType, metadata: serde_json::Value, key: Option<&str>) -> MemoryItem {
        MemoryItem {
            id: "m".into(),
            memory: "text".into(),
            hash: String::new(),
            metadata: serde_json::from_value(metadata).unwrap(),
            score: None,
            fused_score: None,
            created_at: String::new(),
            updated_at: String::new(),
            scope: Scope::default(),
            lifecycle: Lifecycle { memory_type, key: key.map(str::to_owned), ..Lifecycle::default() },
        }
    }

    #[test]
    fn facts_are_plain_semantic_procedural_or_working_memories() {
        for kind in FACT_TYPES {
            assert!(is_fact(&item(kind, json!({"topic": "tea"}), None)), "{kind:?}");
        }
        for kind in [MemoryType::Episodic, MemoryType::Profile, MemoryType::Foresight, MemoryType::EventLog] {
            assert!(!is_fact(&item(kind, json!({}), None)), "{kind:?}");
        }
        assert!(!is_fact(&item(MemoryType::Semantic, json!({"role": "user"}), None)), "a conversation turn");
        assert!(!is_fact(&item(MemoryType::Semantic, json!({}), Some("theme"))), "a key/value entry");
        assert!(!is_fact(&item(MemoryType::Semantic, json!({"documentHash": "ab"}), None)), "a document chunk");
    }
}
