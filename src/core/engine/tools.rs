//! Agent tools: `search_memory(query, limit)` (hybrid search) and `manage_memory(action,
//! content, id)` (verbatim create, update, delete; no LLM), as OpenAI or Anthropic tool definitions, and
//! their execution within one scope fixed when the tools are made. Arguments never carry a scope, and
//! ids outside it are "not found".

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::fusion::Method;
use crate::core::identity::{content_hash, new_id};
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model::types::{EventKind, MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::Read;
use crate::core::reply_schema::parsed;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The tool that searches memories.
pub const SEARCH_MEMORY: &str = "search_memory";
/// The tool that creates, updates and deletes memories.
pub const MANAGE_MEMORY: &str = "manage_memory";
/// Results `search_memory` returns when the model gives no `limit`.
pub const DEFAULT_TOOL_LIMIT: usize = 5;
/// Most results one `search_memory` call may ask for.
pub const MAX_TOOL_LIMIT: usize = 50;

/// The shape of tool definitions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolFormat {
    /// `{type: "function", function: {name, description, parameters}}` (chat completions).
    #[default]
    OpenAi,
    /// `{name, description, input_schema}` (Anthropic messages).
    Anthropic,
}

/// (name, description, JSON schema of the arguments) of each tool (`limit`'s maximum is [`MAX_TOOL_LIMIT`]).
fn specs() -> [(&'static str, &'static str, Value); 2] {
    [
        (
            SEARCH_MEMORY,
            "Search long-term memory about the user for facts relevant to a query. Returns the best matches \
             with their ids, best first.",
            parsed(
                r#"{"type": "object", "required": ["query"], "additionalProperties": false, "properties": {
                    "query": {"type": "string", "description": "What to look for, in natural language."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50,
                              "description": "Most results to return (default 5)."}}}"#,
            ),
        ),
        (
            MANAGE_MEMORY,
            "Create, update or delete one long-term memory about the user. Create stores `content` as a new \
             memory; update replaces the text of memory `id` with `content`; delete removes memory `id`. \
             Ids come from search_memory.",
            parsed(
                r#"{"type": "object", "required": ["action"], "additionalProperties": false, "properties": {
                    "action": {"type": "string", "enum": ["create", "update", "delete"]},
                    "content": {"type": "string", "description": "The memory text (create, update)."},
                    "id": {"type": "string", "description": "The memory to change (update, delete)."}}}"#,
            ),
        ),
    ]
}

/// The two tool definitions in `format`.
pub fn tool_definitions(format: ToolFormat) -> Vec<Value> {
    specs()
        .into_iter()
        .map(|(name, description, schema)| match format {
            ToolFormat::OpenAi => json!({
                "type": "function",
                "function": {"name": name, "description": description, "parameters": schema}
            }),
            ToolFormat::Anthropic => json!({"name": name, "description": description, "input_schema": schema}),
        })
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    query: String,
    limit: Option<f64>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Action {
    Create,
    Update,
    Delete,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManageArgs {
    action: Action,
    content: Option<String>,
    id: Option<String>,
}

/// Reads tool arguments: an object, or the JSON string OpenAI sends as `arguments`.
fn parse_args<T: DeserializeOwned>(tool: &str, args: &Value) -> Result<T> {
    let invalid = |why: String| MemoryError::InvalidInput(format!("{tool} arguments: {why}"));
    let parsed;
    let args = match args {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text).map_err(|e| invalid(format!("not JSON ({e})")))?;
            &parsed
        }
        Value::Null => &Value::Object(Default::default()),
        other => other,
    };
    crate::core::value_de::from_value(args).map_err(|e| invalid(e.to_string()))
}

fn required<'a>(tool: &str, name: &str, value: &'a Option<String>) -> Result<&'a str> {
    match value.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => Ok(text),
        _ => Err(MemoryError::InvalidInput(format!("{tool}: `{name}` must be a non-empty string"))),
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Runs tool `name` with `args` inside `scope`; the result is plain JSON for the model.
    pub async fn run_tool(&self, scope: &Scope, name: &str, args: &Value) -> Result<Value> {
        let scope = scope.clone().validated()?;
        match name {
            SEARCH_MEMORY => self.search_tool(scope, parse_args(name, args)?).await,
            MANAGE_MEMORY => self.manage_tool(scope, parse_args(name, args)?).await,
            other => Err(MemoryError::InvalidInput(format!(
                "unknown tool {other:?}; the tools are {SEARCH_MEMORY} and {MANAGE_MEMORY}"
            ))),
        }
    }

    async fn search_tool(&self, scope: Scope, args: SearchArgs) -> Result<Value> {
        let limit = match args.limit {
            None => DEFAULT_TOOL_LIMIT as f64,
            Some(n) if (1.0..=MAX_TOOL_LIMIT as f64).contains(&n) && n.fract() == 0.0 => n,
            Some(n) => {
                let why =
                    format!("{SEARCH_MEMORY}: `limit` must be a whole number from 1 to {MAX_TOOL_LIMIT}, got {n}");
                return Err(MemoryError::InvalidInput(why));
            }
        };
        let read = Read { method: Some(Method::Hybrid), ..Read::of(scope, limit as usize) };
        let found = self.search(&args.query, &read).await?;
        let results: Vec<Value> =
            found.results.iter().map(|m| json!({"id": m.id, "memory": m.memory, "score": m.score})).collect();
        Ok(json!({ "results": results }))
    }

    async fn manage_tool(&self, scope: Scope, args: ManageArgs) -> Result<Value> {
        match args.action {
            Action::Create => self.create_memory(scope, required(MANAGE_MEMORY, "content", &args.content)?).await,
            Action::Update => {
                let id = self.in_scope(&scope, required(MANAGE_MEMORY, "id", &args.id)?).await?;
                let content = required(MANAGE_MEMORY, "content", &args.content)?;
                self.update(&id, content).await?;
                Ok(event_reply(EventKind::Update, &id, Some(content)))
            }
            Action::Delete => {
                let id = self.in_scope(&scope, required(MANAGE_MEMORY, "id", &args.id)?).await?;
                self.delete(&id, false).await?;
                Ok(event_reply(EventKind::Delete, &id, None))
            }
        }
    }

    /// Stores `content` verbatim in `scope` (no LLM); an exact duplicate there is reported as `NONE`.
    async fn create_memory(&self, scope: Scope, content: &str) -> Result<Value> {
        self.load_scope(&scope).await?;
        let hash = content_hash(content);
        let now = self.now_iso();
        let live = |item: &MemoryItem| scope.contains(&item.scope) && item.lifecycle.is_live(&now);
        let duplicate = self.index.borrow().find_by_hash(&hash, &live).map(|m| m.item.id.clone());
        if let Some(id) = duplicate {
            return Ok(event_reply(EventKind::None, &id, Some(content)));
        }
        let embedding = self.embed_if_configured(content).await?;
        let lifecycle =
            WriteLifecycle::default().for_new(content, embedding.as_deref(), self.centroid(&scope).as_deref());
        let item = MemoryItem {
            id: new_id(),
            memory: content.to_owned(),
            hash,
            metadata: Default::default(),
            score: None,
            fused_score: None,
            created_at: now.clone(),
            updated_at: now,
            scope: scope.clone(),
            lifecycle,
        };
        let reply = event_reply(EventKind::Add, &item.id, Some(content));
        let history = vec![self.record(&item, EventKind::Add, None, Some(content.to_owned()))];
        let mut changes =
            Changeset { upserts: vec![StoredMemory { item, embedding }], history, ..Changeset::default() };
        self.trim(&scope, &mut changes);
        self.commit(changes).await?;
        Ok(reply)
    }

    /// `id` when that memory exists inside `scope`; `NOT_FOUND` otherwise, whether it is absent or
    /// belongs to someone else (the two are indistinguishable to the model).
    async fn in_scope(&self, scope: &Scope, id: &str) -> Result<String> {
        match self.get(id).await? {
            Some(item) if scope.contains(&item.scope) => Ok(item.id),
            _ => Err(MemoryError::NotFound(id.to_owned())),
        }
    }
}

/// `manage_memory`'s reply: `{event, id, memory?}`.
fn event_reply(event: EventKind, id: &str, memory: Option<&str>) -> Value {
    let mut reply = serde_json::Map::new();
    reply.insert("event".into(), Value::from(event.name()));
    reply.insert("id".into(), Value::from(id));
    if let Some(memory) = memory {
        reply.insert("memory".into(), Value::from(memory));
    }
    Value::Object(reply)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_argument_schemas_read_as_json_builds_them() {
        let search = json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for, in natural language."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_TOOL_LIMIT,
                          "description": "Most results to return (default 5)."}
            },
            "required": ["query"],
            "additionalProperties": false
        });
        let manage = json!({
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["create", "update", "delete"]},
                "content": {"type": "string", "description": "The memory text (create, update)."},
                "id": {"type": "string", "description": "The memory to change (update, delete)."}
            },
            "required": ["action"],
            "additionalProperties": false
        });
        let [(_, _, s), (_, _, m)] = specs();
        assert_eq!((s, m), (search, manage));
    }
}
