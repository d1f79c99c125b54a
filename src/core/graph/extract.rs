//! The one graph LLM call of `add()`: its prompt, its reply shape (the `extract_entities` and
//! `extract_relations` tools in one object) and a lenient reader of the reply.

use serde_json::Value;

use crate::core::error::MemoryError;
use crate::core::llm_json::extract_json;

/// System prompt of the graph call. Providers with tools or response schemas enforce its shape.
pub const GRAPH_EXTRACTION_PROMPT: &str = r#"You extract a knowledge graph from a conversation.
Return the entities (people, organizations, concepts, locations, events, technologies, products) the conversation mentions, and the relationships between them.
- Entity names are normalized, in title case ("Alice", "Google"). Refer to the user by their name when it is known, else as "User".
- Entity type is one of: person, organization, concept, location, event, technology, product.
- Relations are short snake_case verbs such as works_at, located_in, uses, knows, likes.
Reply with JSON only, in this shape:
{"entities": [{"name": "Alice", "type": "person", "description": "software engineer"}], "relations": [{"source": "Alice", "relation": "works_at", "target": "Google"}]}"#;

/// An entity as the LLM named it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractedEntity {
    pub name: String,
    pub entity_type: String,
    pub description: Option<String>,
}

/// A relation as the LLM named it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractedRelation {
    pub source: String,
    pub relation: String,
    pub target: String,
}

/// What one graph call found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extracted {
    pub entities: Vec<ExtractedEntity>,
    pub relations: Vec<ExtractedRelation>,
}

fn text(item: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| item.get(*k))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

fn items<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// Reads `{"entities": […], "relations": […]}` (either may be missing, not both), also inside prose or code
/// fences; mem0's `entity`/`entity_type` and `relationship`/`destination` spellings are accepted. Items
/// without a name, or relations without all three parts, are skipped.
pub fn parse_graph(reply: &str) -> Result<Extracted, MemoryError> {
    let unusable = |why: &str| MemoryError::LlmResponse(why.to_owned());
    let value = extract_json(reply).ok_or_else(|| unusable("graph reply is not JSON"))?;
    if value.get("entities").is_none() && value.get("relations").is_none() {
        return Err(unusable("graph reply has neither \"entities\" nor \"relations\""));
    }
    let entities = items(&value, "entities")
        .iter()
        .filter_map(|item| {
            Some(ExtractedEntity {
                name: text(item, &["name", "entity"])?,
                entity_type: text(item, &["type", "entity_type"]).unwrap_or_else(|| "concept".into()),
                description: text(item, &["description"]),
            })
        })
        .collect();
    let relations = items(&value, "relations")
        .iter()
        .filter_map(|item| {
            Some(ExtractedRelation {
                source: text(item, &["source"])?,
                relation: text(item, &["relation", "relationship"])?,
                target: text(item, &["target", "destination"])?,
            })
        })
        .collect();
    Ok(Extracted { entities, relations })
}
