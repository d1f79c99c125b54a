//! Entities: the users, agents, apps and runs that memories belong to. `user_id`, `agent_id` and `run_id`
//! are memwasm's scope; `app_id` is filed in `metadata.app_id`. `GET /v1/entities/` counts them over the
//! whole tenant; `DELETE /v2/entities/:type/:name/` deletes one's memories.

use std::collections::BTreeMap;

use memwasm::core::filter::Filter;
use memwasm::core::model::scope::Scope;
use memwasm::core::read::Read;
use memwasm::platform::compose::Engine;
use serde_json::{json, Value};
use worker::Response;

use super::error::{Mem0Error, Result};
use super::filters::Translated;
use super::params::Fields;
use super::wire::APP_KEY;
use super::{json, Call};

/// The entity types, with the field naming each.
const TYPES: [(&str, &str); 4] = [("user", "user_id"), ("agent", "agent_id"), ("app", "app_id"), ("run", "run_id")];

/// The entity ids a request names: memwasm's scope, and the app.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ids {
    pub scope: Scope,
    pub app_id: Option<String>,
}

impl Ids {
    /// Takes the top-level `user_id`, `agent_id`, `run_id` and `app_id` fields.
    pub fn take(fields: &mut Fields) -> Result<Self> {
        let scope = Scope {
            user_id: fields.string("user_id")?,
            agent_id: fields.string("agent_id")?,
            run_id: fields.string("run_id")?,
        };
        Ok(Self { scope, app_id: fields.string("app_id")? })
    }

    /// Adds the plain ids of a translated filter; an id given twice must agree.
    pub fn merge(&mut self, filter: &Translated) -> Result<()> {
        let pairs = [
            (&mut self.scope.user_id, &filter.scope.user_id, "user_id"),
            (&mut self.scope.agent_id, &filter.scope.agent_id, "agent_id"),
            (&mut self.scope.run_id, &filter.scope.run_id, "run_id"),
            (&mut self.app_id, &filter.app_id, "app_id"),
        ];
        for (mine, theirs, name) in pairs {
            match (mine.as_deref(), theirs) {
                (Some(a), Some(b)) if a != b => {
                    return Err(Mem0Error::invalid(format!("{name} is given twice: {a:?} and {b:?} in filters")))
                }
                (None, Some(b)) => *mine = Some(b.clone()),
                _ => {}
            }
        }
        Ok(())
    }

    /// True when no id is given.
    pub fn is_empty(&self) -> bool {
        self.scope == Scope::default() && self.app_id.is_none()
    }

    /// The mem0 filter `{user_id: …, app_id: …}` of these ids (`None` when there are none).
    pub fn filter(&self) -> Option<Value> {
        let pairs = [
            ("user_id", &self.scope.user_id),
            ("agent_id", &self.scope.agent_id),
            ("app_id", &self.app_id),
            ("run_id", &self.scope.run_id),
        ];
        let map: serde_json::Map<String, Value> =
            pairs.iter().filter_map(|(key, id)| id.as_ref().map(|id| (key.to_string(), json!(id)))).collect();
        (!map.is_empty()).then_some(Value::Object(map))
    }
}

/// Deletes every memory within `scope` that `filter` (memwasm's) matches, expired ones too, each with
/// its DELETE record; returns how many. An empty scope walks the whole tenant.
pub async fn delete_matching(engine: &Engine, scope: Scope, filter: Option<Value>) -> Result<usize> {
    let mut read = Read::of(scope.clone(), usize::MAX);
    read.filter = filter.as_ref().map(Filter::parse).transpose()?;
    read.show_expired = true;
    if scope.validated().is_ok() {
        return Ok(engine.delete_all(&read).await?);
    }
    let ids: Vec<String> = engine.get_all(&read).await?.results.into_iter().map(|item| item.id).collect();
    for id in &ids {
        engine.delete(id, false).await?;
    }
    Ok(ids.len())
}

/// `GET /v1/entities/`: every entity with memories, as `{count, next, previous, results, total_users, …}`.
pub async fn list(call: &Call<'_>) -> Result<Response> {
    let mut query = Fields::query(&call.query);
    let page = query.whole("page", 1, u32::MAX as u64)?.unwrap_or(1) as usize;
    let size = query.whole("page_size", 1, 1000)?.map(|n| n as usize);
    query.finish()?;
    let mut read = Read::of(Scope::default(), usize::MAX);
    read.show_expired = true;
    let mut found: BTreeMap<(usize, String), (usize, String, String)> = BTreeMap::new();
    for item in call.engine()?.get_all(&read).await?.results {
        let app = item.metadata.get(APP_KEY).and_then(Value::as_str).map(str::to_owned);
        let names = [&item.scope.user_id, &item.scope.agent_id, &app, &item.scope.run_id];
        for (order, name) in names.into_iter().enumerate().filter_map(|(i, name)| Some((i, name.clone()?))) {
            let entry = found.entry((order, name)).or_insert((0, item.created_at.clone(), item.updated_at.clone()));
            entry.0 += 1;
            entry.1 = entry.1.clone().min(item.created_at.clone());
            entry.2 = entry.2.clone().max(item.updated_at.clone());
        }
    }
    let totals: Vec<usize> = (0..4).map(|order| found.keys().filter(|(o, _)| *o == order).count()).collect();
    let count = found.len();
    let size = size.unwrap_or(count.max(1));
    let results: Vec<Value> = found
        .into_iter()
        .skip((page - 1).saturating_mul(size))
        .take(size)
        .map(|((order, name), (total, created, updated))| {
            let kind = TYPES[order].0;
            json!({
                "id": format!("{kind}:{name}"), "name": name, "type": kind, "total_memories": total,
                "owner": call.caller.tenant, "metadata": null, "created_at": created, "updated_at": updated,
            })
        })
        .collect();
    json(
        200,
        &json!({
            "count": count, "next": null, "previous": null, "results": results,
            "total_users": totals[0], "total_agents": totals[1], "total_apps": totals[2], "total_runs": totals[3],
        }),
    )
}

/// `DELETE /v2/entities/:type/:name/`: deletes the entity's memories.
pub async fn delete(call: &Call<'_>, kind: &str, name: &str) -> Result<Response> {
    Fields::query(&call.query).finish()?;
    let Some((_, field)) = TYPES.iter().find(|(type_name, _)| *type_name == kind) else {
        return Err(Mem0Error::invalid(format!("Invalid entity type `{kind}` (user, agent, app or run)")));
    };
    let id = Some(name.to_owned());
    let (scope, filter) = match *field {
        "user_id" => (Scope { user_id: id, ..Scope::default() }, None),
        "agent_id" => (Scope { agent_id: id, ..Scope::default() }, None),
        "run_id" => (Scope { run_id: id, ..Scope::default() }, None),
        _ => (Scope::default(), Some(app_condition(name))),
    };
    let deleted = delete_matching(&*call.engine()?, scope, filter).await?;
    json(200, &json!({ "message": "Entity deleted successfully.", "deleted": deleted }))
}

/// memwasm's condition "the memory's app is `app_id`".
pub fn app_condition(app_id: &str) -> Value {
    json!({ "field": APP_KEY, "operator": "eq", "value": app_id })
}
