//! The JSON shapes the memory's own prompts ask for, as JSON Schemas, so that providers with
//! structured output (Anthropic tools, Gemini response schemas, Workers AI JSON mode) can enforce them.
//! A schema is found by the system prompt of a call; calls with other prompts get plain JSON mode.

use serde_json::{json, Value};

use crate::core::config::Prompts;

/// One reply shape: a name (used as a tool name), what it is, and its JSON Schema.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplySchema {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: Value,
}

/// The reply shapes of the configured prompts, keyed by the system prompt that asks for them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReplySchemas(Vec<(String, ReplySchema)>);

fn facts() -> ReplySchema {
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

fn decisions() -> ReplySchema {
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

/// Seed 000's `extract_entities` and `extract_relations` tools as one reply: the graph call of `add()`.
fn graph() -> ReplySchema {
    let entity = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "type": {"type": "string", "enum": crate::core::graph::model::ENTITY_TYPES},
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

impl ReplySchemas {
    /// The shapes of the fact-extraction and update-decision prompts in use.
    pub fn for_prompts(prompts: &Prompts) -> Self {
        Self(vec![
            (prompts.fact_extraction.clone(), facts()),
            (prompts.update_decision.clone(), decisions()),
            (crate::core::graph::GRAPH_EXTRACTION_PROMPT.to_owned(), graph()),
        ])
    }

    /// The shape the call with this system prompt must reply in, if known.
    pub fn find(&self, system: &str) -> Option<&ReplySchema> {
        self.0.iter().find(|(prompt, _)| prompt == system).map(|(_, schema)| schema)
    }
}

/// `schema` in the OpenAPI subset Gemini's `responseSchema` reads: type names in upper case.
pub fn openapi_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| match (key.as_str(), value) {
                    ("type", Value::String(name)) => (key.clone(), Value::String(name.to_uppercase())),
                    ("properties", Value::Object(properties)) => (
                        key.clone(),
                        Value::Object(properties.iter().map(|(k, v)| (k.clone(), openapi_schema(v))).collect()),
                    ),
                    (_, value) => (key.clone(), openapi_schema(value)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(openapi_schema).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::prompts::{FACT_EXTRACTION_PROMPT, UPDATE_MEMORY_PROMPT};

    #[test]
    fn finds_schemas_by_system_prompt() {
        let prompts =
            Prompts { fact_extraction: FACT_EXTRACTION_PROMPT.into(), update_decision: UPDATE_MEMORY_PROMPT.into() };
        let schemas = ReplySchemas::for_prompts(&prompts);
        assert_eq!(schemas.find(FACT_EXTRACTION_PROMPT).unwrap().name, "record_facts");
        assert_eq!(schemas.find(UPDATE_MEMORY_PROMPT).unwrap().schema["required"], json!(["memory"]));
        assert!(schemas.find("some other prompt").is_none());
    }

    #[test]
    fn openapi_schema_upper_cases_types_only() {
        let schema = openapi_schema(&decisions().schema);
        assert_eq!(schema["type"], "OBJECT");
        let operation = &schema["properties"]["memory"]["items"];
        assert_eq!(
            operation["properties"]["event"],
            json!({"type": "STRING", "enum": ["ADD", "UPDATE", "DELETE", "NONE"]})
        );
        assert_eq!(
            operation["properties"]["text"]["type"], "STRING",
            "a property named like a keyword stays a property"
        );
    }
}
