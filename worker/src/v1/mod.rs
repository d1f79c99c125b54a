//! The mem0-style routes under `/v1/`. They act on the whole tenant, so only
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
//! | `GET /v1/memories/:id/sources/` | the messages a memory came from, oldest first → `{results: [...]}` (`sources()`'s records in snake_case) |
//! | `GET /v1/export/` | the memories and history of a scope (`user_id`, `agent_id`, `run_id`), or of the whole tenant, as JSON Lines |
//! | `POST /v1/reset/` | delete every memory and history record of the caller's tenant |
//! | `POST /v1/storage/migrate` | copy the tenant from Workers KV into its object (`STORAGE = "do"` only: `durable::migrate`) |
//! | `POST /v1/reembed/` | embed every memory of the caller's tenant again with the configured embedder → `{memories, warnings?}` |
//! | `GET /v1/entities/` | graph memory: the entities of a scope (`user_id`, `agent_id`, `run_id`) |
//! | `GET /v1/entities/:name/relations/` | graph memory: the relations starting or ending at entity `name` |

pub mod route;

use memwasm::core::kv::keys::decode;
use memwasm::core::model::Scope;
use memwasm::core::read::ReadCall;
use serde::Serialize;
use worker::Response;

use self::route::{V1Call, V1Route};
use crate::error::ApiError;
use crate::requests::{add_body, parse, read_query, search_body, search_query, UpdateBody};
use crate::visit::Visit;
use crate::wire::{Added, EntityItem, Found, History, Item, Message, RelationItem, Results};
use crate::wire_source::Source;

fn json<T: Serialize>(value: &T) -> Result<Response, ApiError> {
    Ok(Response::from_json(value)?)
}

/// Answers `call`, a request under `/v1/` (admitted and read by the desk; `None`: no route of the family).
pub async fn handle(visit: &Visit<'_>, call: Option<&V1Call>) -> Result<Response, ApiError> {
    let (engine, _) = visit.engine()?;
    let (method, path, query, body) = (&visit.method, &visit.path, &visit.query, visit.body.as_slice());
    let read = |call: ReadCall| -> Result<_, ApiError> { Ok(read_query(query)?.check(call)?) };
    let Some(V1Call { route, id_or_name }) = call else {
        return Err(ApiError::not_found(format!("route {method} {path}")));
    };
    let id = id_or_name.as_str();
    match route {
        V1Route::Add => {
            let add = add_body(body)?;
            json(&Added::from(engine.add(&add.messages, &add.options).await?))
        }
        V1Route::Search | V1Route::SearchBody => {
            let search = if *route == V1Route::SearchBody { search_body(body)? } else { search_query(query)? };
            let found = engine.search(&search.query, &search.options.check(ReadCall::Search)?).await?;
            json(&Found { results: found.results.into_iter().map(Item::from).collect(), relations: found.relations })
        }
        V1Route::List => {
            let all = engine.get_all(&read(ReadCall::GetAll)?).await?.results;
            json(&Results { results: all.into_iter().map(Item::from).collect() })
        }
        V1Route::DeleteScope => {
            engine.delete_all(&read(ReadCall::DeleteAll)?).await?;
            json(&Message { message: "Memories deleted successfully!" })
        }
        V1Route::Get => match engine.get(id).await? {
            Some(item) => json(&Item::from(item)),
            None => Err(ApiError::not_found(format!("memory {id}"))),
        },
        V1Route::Update => {
            let update: UpdateBody = parse(body)?;
            engine.update(id, &update.text).await?;
            json(&Message { message: "Memory updated successfully!" })
        }
        V1Route::Delete => {
            engine.delete(id, false).await?;
            json(&Message { message: "Memory deleted successfully!" })
        }
        V1Route::History => {
            let history = engine.history(id).await?;
            if history.is_empty() {
                return Err(ApiError::not_found(format!("memory {id}")));
            }
            json(&history.into_iter().map(History::from).collect::<Vec<_>>())
        }
        V1Route::Sources => {
            let sources = engine.provenance().sources(id).await?;
            json(&Results { results: sources.into_iter().map(Source::from).collect() })
        }
        V1Route::Entities => {
            let entities = engine.graph().get_entities(read(ReadCall::ScopeOnly)?.scope).await?;
            json(&Results { results: entities.into_iter().map(EntityItem::from).collect() })
        }
        V1Route::Relations => {
            let name = decode(id).unwrap_or_else(|| id.to_owned());
            let relations = engine.graph().get_relations(&name, read(ReadCall::ScopeOnly)?.scope).await?;
            json(&Results { results: relations.into_iter().map(RelationItem::from).collect() })
        }
        V1Route::Export => {
            let scope = if query.is_empty() { Scope::default() } else { read(ReadCall::ScopeOnly)?.scope };
            let headers = worker::Headers::new();
            headers.set("content-type", "application/x-ndjson")?;
            Ok(Response::ok(engine.export(scope).await?)?.with_headers(headers))
        }
        V1Route::Reembed => json(&engine.reembed().await?),
        V1Route::Reset => {
            engine.reset().await?;
            json(&Message { message: "Memories reset successfully!" })
        }
        // Served by the tenant's object with `STORAGE = "do"` (`durable::migrate`), before the desk.
        V1Route::Migrate => Err(ApiError::not_found(format!("route {method} {path}"))),
    }
}
