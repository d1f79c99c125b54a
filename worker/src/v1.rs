//! Seed 000 §12's routes under `/v1/` (the mem0-style API). They act on the whole tenant, so only
//! tenant-wide (admin) tokens may call them.
//!
//! | route | does |
//! |---|---|
//! | `POST /v1/memories/` | add (`{messages, user_id?, agent_id?, run_id?, metadata?, filters?, prompt?, infer?}`) |
//! | `GET /v1/memories/search/?q=…` or `POST` with a body | search |
//! | `GET /v1/memories/` | list a scope (`user_id`, `agent_id`, `run_id`, `limit`, `filters`) |
//! | `GET` / `PUT` / `DELETE /v1/memories/:id/` | get / update (`{text}`) / delete one memory |
//! | `DELETE /v1/memories/` | delete a scope's memories |
//! | `GET /v1/memories/:id/history/` | a memory's history |
//! | `POST /v1/reset/` | delete every memory and history record of the caller's tenant |
//! | `GET /v1/entities/` | graph memory: the entities of a scope (`user_id`, `agent_id`, `run_id`) |
//! | `GET /v1/entities/:name/relations/` | graph memory: the relations starting or ending at entity `name` |

use std::collections::HashMap;

use memwasm::core::kv::keys::decode;
use memwasm::core::read::ReadCall;
use memwasm::platform::compose::Engine;
use serde::Serialize;
use worker::{Method, Response};

use crate::error::ApiError;
use crate::requests::{add_body, parse, read_query, search_body, search_query, UpdateBody};
use crate::wire::{Added, EntityItem, Found, History, Item, Message, RelationItem, Results};

fn json<T: Serialize>(value: &T) -> Result<Response, ApiError> {
    Ok(Response::from_json(value)?)
}

/// Answers `method` on `segments` (after `v1`) of `path`.
pub async fn handle(
    engine: &Engine,
    method: Method,
    segments: &[&str],
    path: &str,
    pairs: HashMap<String, String>,
    body: &[u8],
) -> Result<Response, ApiError> {
    let read = |call: ReadCall| -> Result<_, ApiError> { Ok(read_query(pairs.clone())?.check(call)?) };
    match (&method, segments) {
        (Method::Post, ["memories"]) => {
            let add = add_body(body)?;
            json(&Added::from(engine.add(&add.messages, &add.options).await?))
        }
        (Method::Get | Method::Post, ["memories", "search"]) => {
            let search = if method == Method::Post { search_body(body)? } else { search_query(pairs.clone())? };
            let found = engine.search(&search.query, &search.options.check(ReadCall::Search)?).await?;
            json(&Found { results: found.results.into_iter().map(Item::from).collect(), relations: found.relations })
        }
        (Method::Get, ["memories"]) => {
            let all = engine.get_all(&read(ReadCall::GetAll)?).await?.results;
            json(&Results { results: all.into_iter().map(Item::from).collect() })
        }
        (Method::Delete, ["memories"]) => {
            engine.delete_all(&read(ReadCall::DeleteAll)?).await?;
            json(&Message { message: "Memories deleted successfully!" })
        }
        (Method::Get, ["memories", id]) => match engine.get(id).await? {
            Some(item) => json(&Item::from(item)),
            None => Err(ApiError::not_found(format!("memory {id}"))),
        },
        (Method::Put, ["memories", id]) => {
            let update: UpdateBody = parse(body)?;
            engine.update(id, &update.text).await?;
            json(&Message { message: "Memory updated successfully!" })
        }
        (Method::Delete, ["memories", id]) => {
            engine.delete(id, false).await?;
            json(&Message { message: "Memory deleted successfully!" })
        }
        (Method::Get, ["memories", id, "history"]) => {
            let history = engine.history(id).await?;
            if history.is_empty() {
                return Err(ApiError::not_found(format!("memory {id}")));
            }
            json(&history.into_iter().map(History::from).collect::<Vec<_>>())
        }
        (Method::Get, ["entities"]) => {
            let entities = engine.get_entities(read(ReadCall::ScopeOnly)?.scope).await?;
            json(&Results { results: entities.into_iter().map(EntityItem::from).collect() })
        }
        (Method::Get, ["entities", name, "relations"]) => {
            let name = decode(name).unwrap_or_else(|| (*name).to_owned());
            let relations = engine.get_relations(&name, read(ReadCall::ScopeOnly)?.scope).await?;
            json(&Results { results: relations.into_iter().map(RelationItem::from).collect() })
        }
        (Method::Post, ["reset"]) => {
            engine.reset().await?;
            json(&Message { message: "Memories reset successfully!" })
        }
        (method, _) => Err(ApiError::not_found(format!("route {method} {path}"))),
    }
}
