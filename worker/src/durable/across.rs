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
use crate::error::ApiError;

/// The engine's limit when a read names none.
const DEFAULT_LIMIT: usize = memwasm::core::read::DEFAULT_LIMIT;

/// True for the `/v1/` routes read across users when they name no user.
pub fn is_read_across(method: &Method, path: &str) -> bool {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    matches!(
        (method, segments.as_slice()),
        (Method::Get | Method::Post, ["v1", "memories", "search"]) | (Method::Get | Method::Delete, ["v1", "memories"])
    )
}

/// The read's `limit` (or `top_k`), from the query string or the JSON body.
fn limit(url: &worker::Url, body: &[u8]) -> usize {
    let from_query =
        url.query_pairs().find(|(name, _)| name == "limit" || name == "top_k").and_then(|(_, n)| n.parse().ok());
    let from_body = || {
        let body: Value = serde_json::from_slice(body).ok()?;
        body.get("limit").or_else(|| body.get("top_k"))?.as_f64()
    };
    from_query.or_else(from_body).filter(|n: &f64| *n >= 1.0).map_or(DEFAULT_LIMIT, |n| n as usize)
}

pub async fn serve(object: &TenantObject, request: &mut Request, tenant: &str) -> Result<Response, ApiError> {
    let url = request.url()?;
    let method = request.method();
    let body = if method == Method::Post { request.bytes().await? } else { Vec::new() };
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
    let searched = url.path().contains("/search");
    if searched {
        let score = |item: &Value| item.get("score").and_then(Value::as_f64).unwrap_or(f64::NEG_INFINITY);
        results.sort_by(|a, b| score(b).total_cmp(&score(a)));
    } else {
        let created = |item: &Value| item.get("created_at").and_then(Value::as_str).unwrap_or_default().to_owned();
        results.sort_by_key(created);
    }
    results.truncate(limit(&url, &body));
    let mut answer = json!({ "results": results });
    if graph {
        answer["relations"] = Value::Array(relations);
    }
    Ok(Response::from_json(&answer)?)
}
