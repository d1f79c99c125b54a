//! Reads across users with `DO_SHARDS = "scope"`: a search, a list or a scope's delete that names no user
//! (or `user_id: "__all__"`, any user), such as every memory of one agent, visits every user's object in
//! turn, and the tenant's object merges what they answer: a search keeps the best `limit` by score, a list
//! the first `limit`, oldest first. It costs one request per user's object, so it suits tenants of a few
//! hundred users better than of thousands; a user's own reads go straight to their object.

use serde_json::{json, Value};
use worker::{Method, Request, Response};

use super::copy;
use super::directory::every_user;
use super::front::{self, Target};
use super::TenantObject;
use crate::desk::body;
use crate::error::ApiError;
use crate::query::Query;

/// The engine's limit when a read names none.
const DEFAULT_LIMIT: usize = memwasm::core::read::DEFAULT_LIMIT;

/// The read's `limit` (or `top_k`), from the query string or the JSON body.
fn limit(query: &Query, body: &[u8]) -> usize {
    let from_query = || query.get("limit").or_else(|| query.get("top_k")).and_then(|n| n.parse().ok());
    let from_body = || body::field(body, "limit").or_else(|| body::field(body, "top_k"))?.as_f64();
    from_query().or_else(from_body).filter(|n: &f64| *n >= 1.0).map_or(DEFAULT_LIMIT, |n| n as usize)
}

/// Answers a search (`searched`), a list or a scope's delete across every user's object.
pub async fn serve(
    object: &TenantObject,
    request: &mut Request,
    tenant: &str,
    searched: bool,
) -> Result<Response, ApiError> {
    let url = request.url()?;
    let method = request.method();
    let body = if method == Method::Post { body::body(request, &object.env).await? } else { Vec::new() };
    let (mut results, mut relations, mut graph) = (Vec::new(), Vec::new(), false);
    for user in every_user(object).await? {
        let target = Target { tenant: tenant.to_owned(), user: Some(user) };
        let copied = copy::request_like(request, method.clone(), url.as_str(), &body)?;
        let mut answer = front::send(&copied, &object.env, &target).await?;
        if answer.status_code() != 200 {
            return Ok(answer);
        }
        let answered: Value = answer.json().await?;
        if method == Method::Delete {
            continue;
        }
        results.extend(answered.get("results").and_then(Value::as_array).cloned().unwrap_or_default());
        if let Some(found) = answered.get("relations").and_then(Value::as_array) {
            relations.extend(found.iter().cloned());
            graph = true;
        }
    }
    if method == Method::Delete {
        return Ok(Response::from_json(&json!({ "message": "Memories deleted successfully!" }))?);
    }
    if searched {
        let score = |item: &Value| item.get("score").and_then(Value::as_f64).unwrap_or(f64::NEG_INFINITY);
        results.sort_by(|a, b| score(b).total_cmp(&score(a)));
    } else {
        let created = |item: &Value| item.get("created_at").and_then(Value::as_str).unwrap_or_default().to_owned();
        results.sort_by_key(created);
    }
    results.truncate(limit(&Query::of(&url), &body));
    let mut answer = json!({ "results": results });
    if graph {
        answer["relations"] = Value::Array(relations);
    }
    Ok(Response::from_json(&answer)?)
}
