//! Entities and relations an app writes itself (`addToGraph`, `deleteRelations`), read strictly: unlike the
//! model's reply, a bad item is the caller's error (`INVALID_INPUT` naming it), never skipped.

use serde_json::Value;

use super::extract::{Extracted, ExtractedEntity, ExtractedRelation};
use crate::core::error::{MemoryError, Result};

/// Longest name, type, relation or description accepted, in characters.
const LONGEST: usize = 1_000;

fn bad(path: &str, why: &str) -> MemoryError {
    MemoryError::InvalidInput(format!("{path}: {why}"))
}

/// `item[key]` as trimmed text: required unless `optional`.
fn text(item: &Value, key: &str, path: &str, optional: bool) -> Result<Option<String>> {
    match item.get(key) {
        None | Some(Value::Null) if optional => Ok(None),
        Some(Value::String(text)) if !text.trim().is_empty() && text.chars().count() <= LONGEST => {
            Ok(Some(text.trim().to_owned()))
        }
        Some(Value::String(text)) if !text.trim().is_empty() => {
            Err(bad(&format!("{path}.{key}"), &format!("at most {LONGEST} characters")))
        }
        _ => Err(bad(&format!("{path}.{key}"), "required, a non-empty string")),
    }
}

/// The array at `value[key]` (absent: empty), each item an object.
fn list<'a>(value: &'a Value, key: &str) -> Result<&'a [Value]> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => match items.iter().position(|item| !item.is_object()) {
            Some(at) => Err(bad(&format!("{key}[{at}]"), "must be an object")),
            None => Ok(items),
        },
        Some(_) => Err(bad(key, "must be an array")),
    }
}

/// The relations of `items` (`{source, relation, target}` each), named `path[i]` in errors.
pub fn relations(items: &[Value], path: &str) -> Result<Vec<ExtractedRelation>> {
    let read = |(at, item): (usize, &Value)| {
        let path = format!("{path}[{at}]");
        let part = |key| text(item, key, &path, false).map(Option::unwrap_or_default);
        Ok(ExtractedRelation { source: part("source")?, relation: part("relation")?, target: part("target")? })
    };
    items.iter().enumerate().map(read).collect()
}

/// What an app writes: the entities and relations, and the memories they are linked to.
pub struct GraphInput {
    pub extracted: Extracted,
    pub memory_ids: Vec<String>,
}

/// `{entities?: [{name, type?, description?}], relations?: [{source, relation, target}], memoryIds?: [id]}`.
pub fn graph_input(value: &Value) -> Result<GraphInput> {
    let Some(object) = value.as_object() else {
        return Err(bad("graph", "must be an object with entities and/or relations"));
    };
    if let Some(key) = object.keys().find(|key| !["entities", "relations", "memoryIds"].contains(&key.as_str())) {
        return Err(bad(&format!("graph.{key}"), "unknown key (expected entities, relations, memoryIds)"));
    }
    let memory_ids = match value.get("memoryIds") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(ids)) => ids
            .iter()
            .enumerate()
            .map(|(at, id)| match id.as_str().filter(|id| !id.trim().is_empty()) {
                Some(id) => Ok(id.to_owned()),
                None => Err(bad(&format!("memoryIds[{at}]"), "must be a memory id")),
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(bad("memoryIds", "must be an array of memory ids")),
    };
    let entities = list(value, "entities")?
        .iter()
        .enumerate()
        .map(|(at, item)| {
            let path = format!("entities[{at}]");
            Ok(ExtractedEntity {
                name: text(item, "name", &path, false)?.unwrap_or_default(),
                // Empty: keep an existing entity's type, or `concept` for a new one.
                entity_type: text(item, "type", &path, true)?.unwrap_or_default(),
                description: text(item, "description", &path, true)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let relations = relations(list(value, "relations")?, "relations")?;
    if entities.is_empty() && relations.is_empty() {
        return Err(bad("graph", "names no entity and no relation"));
    }
    Ok(GraphInput { extracted: Extracted { entities, relations }, memory_ids })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(value: Value) -> String {
        graph_input(&value).err().map(|error| error.to_string()).unwrap_or_default()
    }

    #[test]
    fn reads_entities_and_relations_trimmed_with_a_default_type() {
        let graph = json!({"entities": [{"name": " Alice ", "type": "person"}, {"name": "Lisbon"}],
            "relations": [{"source": "Alice", "relation": "lives in", "target": "Lisbon"}]});
        let read = graph_input(&graph).unwrap().extracted;
        assert_eq!((read.entities[0].name.as_str(), read.entities[1].entity_type.as_str()), ("Alice", ""));
        assert_eq!(read.relations[0].relation, "lives in");
    }

    #[test]
    fn a_bad_item_is_named_never_skipped() {
        assert!(message(json!({"entities": [{"name": "A"}, {"type": "x"}]})).contains("entities[1].name: required"));
        assert!(message(json!({"relations": [{"source": "A", "target": "B"}]})).contains("relations[0].relation"));
        assert!(message(json!({"entities": "Alice"})).contains("entities: must be an array"));
        assert!(message(json!({"entities": [3]})).contains("entities[0]: must be an object"));
        assert!(message(json!({"entities": [{"name": "x".repeat(1001)}]})).contains("at most 1000"));
        assert!(message(json!({})).contains("names no entity and no relation"));
        assert!(message(json!([])).contains("graph: must be an object"));
        assert!(message(json!({"entities": [{"name": "A"}], "edges": []})).contains("graph.edges: unknown key"));
        assert!(message(json!({"entities": [{"name": "A"}], "memoryIds": [""]})).contains("memoryIds[0]"));
        let linked = graph_input(&json!({"entities": [{"name": "A"}], "memoryIds": ["m1"]})).unwrap();
        assert_eq!(linked.memory_ids, vec!["m1".to_owned()]);
    }
}
