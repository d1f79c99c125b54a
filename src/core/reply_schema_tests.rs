//! The schemas' JSON texts against the same schemas built with `json!`.

use serde_json::json;

use super::ReplySchema;

/// The schemas as `json!` builds them.
mod built {
    use super::*;

    /// The fact-extraction reply: `{"facts": [string]}`.
    pub fn facts() -> ReplySchema {
        ReplySchema {
            name: "record_facts",
            description: "Record the facts extracted from the conversation.",
            schema: json!({
                "type": "object",
                "properties": {"facts": {"type": "array", "items": {"type": "string"}}},
                "required": ["facts"],
            }),
        }
    }

    /// The update-decision reply: `{"memory": [{id, text, event, old_memory}]}`.
    pub fn decisions() -> ReplySchema {
        let operation = json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "text": {"type": "string"},
                "event": {"type": "string", "enum": ["ADD", "UPDATE", "DELETE", "NONE"]},
                "old_memory": {"type": "string"},
            },
            "required": ["text", "event"],
        });
        ReplySchema {
            name: "record_memory_operations",
            description: "Record the memory operations decided for the new facts.",
            schema: json!({
                "type": "object",
                "properties": {"memory": {"type": "array", "items": operation}},
                "required": ["memory"],
            }),
        }
    }

    /// The `extract_entities` and `extract_relations` tools as one reply: the graph call of `add()`.
    pub fn graph() -> ReplySchema {
        let entity = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "type": {"type": "string", "enum": crate::core::model::graph::ENTITY_TYPES},
                "description": {"type": "string"},
            },
            "required": ["name", "type"],
        });
        let relation = json!({
            "type": "object",
            "properties": {"source": {"type": "string"}, "relation": {"type": "string"}, "target": {"type": "string"}},
            "required": ["source", "relation", "target"],
        });
        ReplySchema {
            name: "extract_graph",
            description: "Extract entities and the relationships between them",
            schema: json!({
                "type": "object",
                "properties": {"entities": {"type": "array", "items": entity}, "relations": {"type": "array", "items": relation}},
                "required": ["entities", "relations"],
            }),
        }
    }

    /// The boundary judgement of message-by-message memory: `{"boundary": bool, "reason": string}`.
    pub fn boundary() -> ReplySchema {
        ReplySchema {
            name: "judge_boundary",
            description: "Say whether the new message starts a new episode of the conversation.",
            schema: json!({
                "type": "object",
                "properties": {"boundary": {"type": "boolean"}, "reason": {"type": "string"}},
                "required": ["boundary", "reason"],
            }),
        }
    }

    /// The episode extraction of message-by-message memory: a narrative `summary` and `title`, `event_log`
    /// facts, `foresight` items with optional validity, and `profiles` as key/value attribute lists (lists
    /// rather than free-form objects, which not every structured-output API accepts).
    pub fn episode() -> ReplySchema {
        let foresight = json!({
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "valid_from": {"type": "string"},
                "valid_until": {"type": "string"},
                "replaces": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["text"],
        });
        let attribute = json!({
            "type": "object",
            "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
            "required": ["key", "value"],
        });
        let profile = json!({
            "type": "object",
            "properties": {"user_id": {"type": "string"}, "attributes": {"type": "array", "items": attribute}},
            "required": ["user_id", "attributes"],
        });
        ReplySchema {
            name: "record_episode",
            description: "Record the memories extracted from one episode of a conversation.",
            schema: json!({
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "summary": {"type": "string"},
                    "event_log": {"type": "array", "items": {"type": "string"}},
                    "foresight": {"type": "array", "items": foresight},
                    "profiles": {"type": "array", "items": profile},
                },
                "required": ["summary", "event_log", "foresight", "profiles"],
            }),
        }
    }

    /// Agentic retrieval, first call: do the results answer the query? `{"sufficient": bool, "reasoning":
    /// string, "missing_information": [string]}`.
    pub fn retrieval_judgement() -> ReplySchema {
        ReplySchema {
            name: "judge_retrieval",
            description: "Say whether the retrieved memories are enough to answer the query, and what is missing.",
            schema: json!({
                "type": "object",
                "properties": {
                    "sufficient": {"type": "boolean"},
                    "reasoning": {"type": "string"},
                    "missing_information": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["sufficient", "reasoning", "missing_information"],
            }),
        }
    }

    /// Agentic retrieval, second call (only when the first said the results fall short): up to 3 refined
    /// queries, `{"queries": [string]}`.
    pub fn refined_queries() -> ReplySchema {
        ReplySchema {
            name: "refine_queries",
            description: "Propose up to 3 search queries that would find the missing memories.",
            schema: json!({
                "type": "object",
                "properties": {"queries": {"type": "array", "items": {"type": "string"}}},
                "required": ["queries"],
            }),
        }
    }

    /// Compression: one session's summary, `{"summary": string}`.
    pub fn session_summary() -> ReplySchema {
        ReplySchema {
            name: "summarize_session",
            description: "Summarize one conversation session in 2-3 sentences.",
            schema: json!({
                "type": "object",
                "properties": {"summary": {"type": "string"}},
                "required": ["summary"],
            }),
        }
    }
}

/// A schema's function.
type Shape = fn() -> ReplySchema;

#[test]
fn every_schema_reads_as_json_builds_it() {
    let pairs: [(Shape, Shape); 8] = [
        (super::facts, built::facts),
        (super::decisions, built::decisions),
        (super::graph, built::graph),
        (super::boundary, built::boundary),
        (super::episode, built::episode),
        (super::retrieval_judgement, built::retrieval_judgement),
        (super::refined_queries, built::refined_queries),
        (super::session_summary, built::session_summary),
    ];
    for (parsed, built) in pairs {
        assert_eq!(parsed(), built());
        assert!(parsed().schema.is_object());
    }
}
