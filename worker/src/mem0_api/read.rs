//! Reads by filter: get all (`POST /v3/memories/`, paginated, oldest first) and search
//! (`POST /v3/memories/search/`, best first). Both need `filters` naming an entity; the filter becomes
//! memwasm's (see `filters`), and a read loads only the scope its top-level ids pin down (the whole
//! tenant for `OR`, `in` or `*`).

use memwasm::core::filter::Filter;
use memwasm::core::fusion::Method;
use memwasm::core::read::{checked_threshold, Read};
use memwasm::MemoryError;
use serde_json::{json, Value};
use worker::Response;

use super::entities::Ids;
use super::error::{Mem0Error, Result};
use super::filters::{all, translate, Translated};
use super::params::Fields;
use super::wire::{memory, only};
use super::{json, Call};

/// Search's default count and minimum score, as on the platform.
const DEFAULT_TOP_K: u64 = 10;
const DEFAULT_THRESHOLD: f64 = 0.1;
/// get all's default page size.
const DEFAULT_PAGE_SIZE: u64 = 100;
/// Fields the platform's reads take that memwasm accepts without acting on them.
const IGNORED: [&str; 7] =
    ["rerank", "reference_date", "latest_only", "output_format", "version", "source", "filter_memories"];

/// The filter a read's fields state: `filters`, top-level entity ids, and the shorthand fields.
fn read_filter(fields: &mut Fields) -> Result<Translated> {
    let mut parts: Vec<Value> = fields.take("filters").into_iter().collect();
    parts.extend(Ids::take(fields)?.filter());
    if let Some(start) = fields.string("start_date")? {
        parts.push(json!({ "created_at": { "gte": start } }));
    }
    if let Some(end) = fields.string("end_date")? {
        let end = if end.len() == 10 { format!("{end}T23:59:59.999Z") } else { end };
        parts.push(json!({ "created_at": { "lte": end } }));
    }
    if let Some(categories) = fields.strings("categories")? {
        parts.push(json!({ "categories": { "in": categories } }));
    }
    if let Some(words) = fields.string("keywords")? {
        parts.push(json!({ "keywords": { "icontains": words } }));
    }
    if let Some(metadata) = fields.object("metadata")? {
        parts.push(json!({ "metadata": metadata }));
    }
    let translated = translate(&all(parts))?;
    if !translated.names_entity {
        return Err(Mem0Error::invalid("filters must name at least one of user_id, agent_id, app_id or run_id"));
    }
    Ok(translated)
}

/// The library's message of an invalid input, as the platform's `detail`.
fn detail(error: MemoryError) -> Mem0Error {
    match error {
        MemoryError::InvalidInput(why) => Mem0Error::invalid(why),
        error => error.into(),
    }
}

/// The library's checked tenant-wide read of `translated`'s scope and filter (`threshold` 0: none).
fn read_of(translated: Translated, limit: u64, threshold: Option<f64>, show_expired: Option<bool>) -> Result<Read> {
    let mut read = Read::tenant_wide(translated.scope, limit as f64, threshold).map_err(detail)?;
    read.filter = Some(Filter::parse(&translated.filter)?);
    read.show_expired = show_expired.unwrap_or(false);
    Ok(read)
}

/// Get all: `fields` is the body (`POST`) or the query string (`GET /v1/memories/`); `page` and
/// `page_size` in the query string win over the body's.
pub async fn get_all(call: &Call<'_>, mut fields: Fields) -> Result<Response> {
    let mut query = (call.method == worker::Method::Post).then(|| Fields::query(&call.query));
    let mut paging = |key: &str, max: u64| -> Result<Option<u64>> {
        let asked = match query.as_mut() {
            Some(query) => query.whole(key, 1, max)?,
            None => None,
        };
        Ok(asked.or(fields.whole(key, 1, max)?))
    };
    let page = paging("page", u32::MAX as u64)?.unwrap_or(1);
    let size = paging("page_size", 10_000)?.or(paging("limit", 10_000)?).unwrap_or(DEFAULT_PAGE_SIZE);
    if let Some(query) = query {
        query.finish()?;
    }
    let translated = read_filter(&mut fields)?;
    let show_expired = fields.boolean("show_expired")?;
    let shown = fields.strings("fields")?;
    fields.ignore(&IGNORED);
    fields.finish()?;
    let mut read = read_of(translated, size, None, show_expired)?;
    let (page, size) = (page as usize, size as usize);
    read.offset = (page - 1).saturating_mul(size);
    let found = call.engine()?.get_all(&read).await?;
    let link = |page: usize| {
        let mut url = call.url.clone();
        url.query_pairs_mut()
            .clear()
            .append_pair("page", &page.to_string())
            .append_pair("page_size", &size.to_string());
        url.to_string()
    };
    let results: Vec<Value> = found.results.into_iter().map(|item| only(memory(item), &shown)).collect();
    json(
        200,
        &json!({
            "count": found.total_count,
            "next": found.has_more.then(|| link(page + 1)),
            "previous": (page > 1).then(|| link(page - 1)),
            "results": results,
        }),
    )
}

/// Search: `query`, `filters`, `top_k` (10), `threshold` (0.1; 0 turns it off), `keyword_search`
/// (memwasm's hybrid ranking), `fields`, `categories`, `metadata`, `show_expired`.
pub async fn search(call: &Call<'_>) -> Result<Response> {
    let mut fields = Fields::body(&call.body)?;
    let query = fields.string("query")?.filter(|q| !q.trim().is_empty());
    let query = query.ok_or_else(|| Mem0Error::invalid("query is required and cannot be empty"))?;
    let top_k = fields.whole("top_k", 1, 1000)?.or(fields.whole("limit", 1, 1000)?).unwrap_or(DEFAULT_TOP_K);
    let threshold =
        checked_threshold(Some(fields.number("threshold")?.unwrap_or(DEFAULT_THRESHOLD))).map_err(detail)?;
    let hybrid = fields.boolean("keyword_search")?.unwrap_or(false);
    let translated = read_filter(&mut fields)?;
    let show_expired = fields.boolean("show_expired")?;
    let shown = fields.strings("fields")?;
    fields.ignore(&IGNORED);
    fields.finish()?;
    let mut read = read_of(translated, top_k, threshold, show_expired)?;
    read.method = hybrid.then_some(Method::Hybrid);
    let found = call.engine()?.search(&query, &read).await?;
    let results: Vec<Value> = found.results.into_iter().map(|item| only(memory(item), &shown)).collect();
    json(200, &json!({ "results": results }))
}
