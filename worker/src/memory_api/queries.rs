//! The routes over an agent's entries: search, vector-search, list, reflections, clear. Each sees what
//! the caller may see (see `namespace`).

use memwasm::core::fusion::Method;
use memwasm::core::read::Read;
use memwasm::platform::compose::Engine;

use super::bodies::{limit, list_query, search_query, VectorSearchBody, DEFAULT_SEARCH_LIMIT, DEFAULT_THRESHOLD};
use super::entry::{caller_vector, check_length};
use super::namespace::{Namespace, CANDIDATES};
use super::wire::{Done, Entries, Entry, Reflection, Reflections, Results, Similar};
use crate::error::ApiError;
use crate::query::Query;
use crate::requests::parse;

/// `GET …/search?q=…&limit=20`: BM25 keyword search, best first.
pub async fn search(engine: &Engine, space: &Namespace<'_>, query: &Query) -> Result<Results<Entry>, ApiError> {
    let (text, limit) = search_query(query)?;
    let read = Read { method: Some(Method::Keyword), ..space.read(CANDIDATES) };
    let found = engine.search(&text, &read).await?.results;
    let results = found.into_iter().filter(|item| space.is_entry(item)).take(limit).map(Entry::from).collect();
    Ok(Results { results })
}

/// `POST …/vector-search` with `text` (embedded) or `embedding`: cosine similarity at least `threshold`
/// (default 0.75), best first.
pub async fn vector_search(
    engine: &Engine,
    space: &Namespace<'_>,
    body: &[u8],
    dimensions: Option<usize>,
) -> Result<Results<Similar>, ApiError> {
    let body: VectorSearchBody = parse(body)?;
    let limit = limit(body.limit, DEFAULT_SEARCH_LIMIT)?;
    let threshold = body.threshold.unwrap_or(DEFAULT_THRESHOLD);
    if !(0.0..=1.0).contains(&threshold) {
        return Err(ApiError::invalid(format!("threshold must be between 0 and 1, got {threshold}")));
    }
    let read = Read { method: Some(Method::Vector), threshold: Some(threshold), ..space.read(CANDIDATES) };
    let found = match (body.text, body.embedding) {
        (Some(_), Some(_)) | (None, None) => return Err(ApiError::invalid("give one of text and embedding")),
        (None, Some(embedding)) => {
            check_length(&embedding, dimensions)?;
            engine.search_by_vector(embedding, &read).await.map_err(caller_vector)?
        }
        (Some(text), None) => {
            if engine.effective_method(Some(Method::Vector)) != Method::Vector {
                return Err(ApiError::invalid("text: no embedder is configured (EMBEDDER_PROVIDER); give embedding"));
            }
            engine.search(&text, &read).await?
        }
    };
    let results = found.results.into_iter().filter(|item| space.is_entry(item)).take(limit).map(Similar::from);
    Ok(Results { results: results.collect() })
}

/// `GET …/list?limit=50&offset=0`: a page of entries, oldest first.
pub async fn list(engine: &Engine, space: &Namespace<'_>, query: &Query) -> Result<Entries, ApiError> {
    let (limit, offset) = list_query(query)?;
    let all = space.entries(engine).await?;
    let total = all.len();
    let entries: Vec<Entry> = all.into_iter().skip(offset).take(limit).map(Entry::from).collect();
    let has_more = offset.saturating_add(entries.len()) < total;
    Ok(Entries { entries, total, has_more })
}

/// `GET …/reflections`: entries whose key starts with `reflection:`, oldest first.
pub async fn reflections(engine: &Engine, space: &Namespace<'_>) -> Result<Reflections, ApiError> {
    let all = space.entries(engine).await?;
    let reflections = all
        .into_iter()
        .filter(|item| item.lifecycle.key.as_deref().is_some_and(|key| key.starts_with("reflection:")))
        .map(Reflection::from)
        .collect();
    Ok(Reflections { reflections })
}

/// `DELETE …/clear`: deletes the entries the caller owns (every entry of the agent for an admin).
pub async fn clear(engine: &Engine, space: &Namespace<'_>) -> Result<Done, ApiError> {
    let mine: Vec<String> =
        space.entries(engine).await?.into_iter().filter(|item| space.may_change(item)).map(|item| item.id).collect();
    for id in &mine {
        engine.delete(id, false).await?;
    }
    Ok(Done { deleted: Some(mine.len()), ..Done::ok() })
}
