//! The JSON shapes the memory's own prompts ask for, as JSON Schemas. Every LLM call carries its shape
//! (`LlmRequest::reply`), so providers with structured output (Anthropic tools, Gemini response schemas,
//! Workers AI JSON mode) can enforce it whatever the prompt's text.

use serde_json::Value;

/// One reply shape: a name (used as a tool name), what it is, and its JSON Schema.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplySchema {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: Value,
}

/// A schema written as JSON text (a literal is smaller in the .wasm than the code `json!` compiles to).
pub(crate) fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_default()
}

/// The fact-extraction reply: `{"facts": [string]}`.
pub fn facts() -> ReplySchema {
    ReplySchema {
        name: "record_facts",
        description: "Record the facts extracted from the conversation.",
        schema: parsed(
            r#"{"type": "object", "required": ["facts"],
                "properties": {"facts": {"type": "array", "items": {"type": "string"}}}}"#,
        ),
    }
}

/// The update-decision reply: `{"memory": [{id, text, event, old_memory}]}`.
pub fn decisions() -> ReplySchema {
    ReplySchema {
        name: "record_memory_operations",
        description: "Record the memory operations decided for the new facts.",
        schema: parsed(
            r#"{"type": "object", "required": ["memory"], "properties": {"memory": {"type": "array", "items": {
                "type": "object", "required": ["text", "event"], "properties": {
                    "id": {"type": "string"},
                    "text": {"type": "string"},
                    "event": {"type": "string", "enum": ["ADD", "UPDATE", "DELETE", "NONE"]},
                    "old_memory": {"type": "string"}}}}}}"#,
        ),
    }
}

/// The `extract_entities` and `extract_relations` tools as one reply: the graph call of `add()`. The entity
/// types are `model::graph::ENTITY_TYPES`.
pub fn graph() -> ReplySchema {
    ReplySchema {
        name: "extract_graph",
        description: "Extract entities and the relationships between them",
        schema: parsed(
            r#"{"type": "object", "required": ["entities", "relations"], "properties": {
                "entities": {"type": "array", "items": {
                    "type": "object", "required": ["name", "type"], "properties": {
                        "name": {"type": "string"},
                        "type": {"type": "string", "enum": ["person", "organization", "concept", "location",
                            "event", "technology", "product"]},
                        "description": {"type": "string"}}}},
                "relations": {"type": "array", "items": {
                    "type": "object", "required": ["source", "relation", "target"], "properties": {
                        "source": {"type": "string"},
                        "relation": {"type": "string"},
                        "target": {"type": "string"}}}}}}"#,
        ),
    }
}

/// The boundary judgement of message-by-message memory: `{"boundary": bool, "reason": string}`.
pub fn boundary() -> ReplySchema {
    ReplySchema {
        name: "judge_boundary",
        description: "Say whether the new message starts a new episode of the conversation.",
        schema: parsed(
            r#"{"type": "object", "required": ["boundary", "reason"],
                "properties": {"boundary": {"type": "boolean"}, "reason": {"type": "string"}}}"#,
        ),
    }
}

/// The episode extraction of message-by-message memory: a narrative `summary` and `title`, `event_log`
/// facts, `foresight` items with optional validity, and `profiles` as key/value attribute lists (lists
/// rather than free-form objects, which not every structured-output API accepts).
pub fn episode() -> ReplySchema {
    ReplySchema {
        name: "record_episode",
        description: "Record the memories extracted from one episode of a conversation.",
        schema: parsed(
            r#"{"type": "object", "required": ["summary", "event_log", "foresight", "profiles"], "properties": {
                "title": {"type": "string"},
                "summary": {"type": "string"},
                "event_log": {"type": "array", "items": {"type": "string"}},
                "foresight": {"type": "array", "items": {
                    "type": "object", "required": ["text"], "properties": {
                        "text": {"type": "string"},
                        "valid_from": {"type": "string"},
                        "valid_until": {"type": "string"},
                        "replaces": {"type": "array", "items": {"type": "string"}}}}},
                "profiles": {"type": "array", "items": {
                    "type": "object", "required": ["user_id", "attributes"], "properties": {
                        "user_id": {"type": "string"},
                        "attributes": {"type": "array", "items": {
                            "type": "object", "required": ["key", "value"],
                            "properties": {"key": {"type": "string"}, "value": {"type": "string"}}}}}}}}}"#,
        ),
    }
}

/// Agentic retrieval, first call: do the results answer the query? `{"sufficient": bool, "reasoning":
/// string, "missing_information": [string]}`.
pub fn retrieval_judgement() -> ReplySchema {
    ReplySchema {
        name: "judge_retrieval",
        description: "Say whether the retrieved memories are enough to answer the query, and what is missing.",
        schema: parsed(
            r#"{"type": "object", "required": ["sufficient", "reasoning", "missing_information"], "properties": {
                "sufficient": {"type": "boolean"},
                "reasoning": {"type": "string"},
                "missing_information": {"type": "array", "items": {"type": "string"}}}}"#,
        ),
    }
}

/// Agentic retrieval, second call (only when the first said the results fall short): up to 3 refined
/// queries, `{"queries": [string]}`.
pub fn refined_queries() -> ReplySchema {
    ReplySchema {
        name: "refine_queries",
        description: "Propose up to 3 search queries that would find the missing memories.",
        schema: parsed(
            r#"{"type": "object", "required": ["queries"],
                "properties": {"queries": {"type": "array", "items": {"type": "string"}}}}"#,
        ),
    }
}

/// Compression: one session's summary, `{"summary": string}`.
pub fn session_summary() -> ReplySchema {
    ReplySchema {
        name: "summarize_session",
        description: "Summarize one conversation session in 2-3 sentences.",
        schema: parsed(r#"{"type": "object", "required": ["summary"], "properties": {"summary": {"type": "string"}}}"#),
    }
}

#[cfg(test)]
#[path = "reply_schema_tests.rs"]
mod tests;
