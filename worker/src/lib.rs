//! memwasm's REST API (seed 000 §12) on Cloudflare Workers: memories in Workers KV, one tenant per bearer
//! token, any of the library's LLMs and embedders from vars and secrets (see `settings`). JSON is snake_case on the wire and
//! every error is `{"error": {"code", "message"}}`.
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
//!
//! Graph memory is on when the var `GRAPH_ENABLED` is `"true"`; search then also returns `relations`.

mod auth;
mod error;
mod requests;
mod settings;
mod wire;

use std::collections::HashMap;

use memwasm::core::kv::keys::decode;
use memwasm::core::read::ReadCall;
use memwasm::platform::compose::{parts, Engine};
use serde::Serialize;
use worker::{event, Context, Env, Method, Request, Response};

use self::error::ApiError;
use self::requests::{add_body, parse, read_query, search_body, search_query, UpdateBody};
use self::wire::{Added, EntityItem, Found, History, Item, Message, RelationItem, Results};

#[event(fetch)]
async fn fetch(request: Request, env: Env, _ctx: Context) -> worker::Result<Response> {
    match handle(request, &env).await {
        Ok(response) => Ok(response),
        Err(error) => error.response(),
    }
}

fn json<T: Serialize>(value: &T) -> Result<Response, ApiError> {
    Ok(Response::from_json(value)?)
}

fn not_found(what: impl std::fmt::Display) -> ApiError {
    ApiError::new(404, "NOT_FOUND", format!("{what} not found"))
}

/// The body, refused with 413 when it is larger than `MAX_BODY_BYTES` (by its header, or once read).
async fn body(request: &mut Request, env: &Env) -> Result<Vec<u8>, ApiError> {
    let limit = settings::max_body_bytes(env)?;
    let too_large = || ApiError::new(413, "PAYLOAD_TOO_LARGE", format!("the request body exceeds {limit} bytes"));
    let declared = request.headers().get("content-length").ok().flatten().and_then(|n| n.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let bytes = request.bytes().await?;
    if bytes.len() > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The engine of one request: the configured models over the tenant's slice of KV, loaded scope by scope
/// as the request needs it (each scope's graph with it).
fn engine(env: &Env, tenant: &str) -> Result<Engine, ApiError> {
    let config = settings::resolved_config(env, &auth::tenant_prefix(tenant))?;
    let live = settings::live_values(env, &config)?;
    Ok(parts(&config, &live)?.engine(&config))
}

async fn handle(mut request: Request, env: &Env) -> Result<Response, ApiError> {
    let path = request.path();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segments.first() != Some(&"v1") {
        return Err(not_found(format!("route {path}")));
    }
    let tenant = auth::tenant(&request, env)?;
    let method = request.method();
    let has_body = matches!(method, Method::Post | Method::Put);
    let body = if has_body { body(&mut request, env).await? } else { Vec::new() };
    let pairs = || request.query::<HashMap<String, String>>().unwrap_or_default();
    let read = |call: ReadCall| -> Result<_, ApiError> { Ok(read_query(pairs())?.check(call)?) };
    let engine = engine(env, &tenant)?;

    match (method, &segments[1..]) {
        (Method::Post, ["memories"]) => {
            let add = add_body(&body)?;
            json(&Added::from(engine.add(&add.messages, &add.options).await?))
        }
        (Method::Get | Method::Post, ["memories", "search"]) => {
            let search = if request.method() == Method::Post { search_body(&body)? } else { search_query(pairs())? };
            let found = engine.search(&search.query, &search.options.check(ReadCall::Search)?).await?;
            json(&Found { results: found.results.into_iter().map(Item::from).collect(), relations: found.relations })
        }
        (Method::Get, ["memories"]) => {
            let all = engine.get_all(&read(ReadCall::GetAll)?).await?;
            json(&Results { results: all.into_iter().map(Item::from).collect() })
        }
        (Method::Delete, ["memories"]) => {
            engine.delete_all(&read(ReadCall::DeleteAll)?).await?;
            json(&Message { message: "Memories deleted successfully!" })
        }
        (Method::Get, ["memories", id]) => match engine.get(id).await? {
            Some(item) => json(&Item::from(item)),
            None => Err(not_found(format!("memory {id}"))),
        },
        (Method::Put, ["memories", id]) => {
            let update: UpdateBody = parse(&body)?;
            engine.update(id, &update.text).await?;
            json(&Message { message: "Memory updated successfully!" })
        }
        (Method::Delete, ["memories", id]) => {
            engine.delete(id).await?;
            json(&Message { message: "Memory deleted successfully!" })
        }
        (Method::Get, ["memories", id, "history"]) => {
            let history = engine.history(id).await?;
            if history.is_empty() {
                return Err(not_found(format!("memory {id}")));
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
        (method, _) => Err(not_found(format!("route {method} {path}"))),
    }
}
