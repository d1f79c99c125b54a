//! The object's storage as the sync log uses it: JSON values by key, ranges of keys, and one atomic write
//! of many keys. Writes go straight to the object's storage, never through the engine's buffer
//! (`durable::object_kv`): the sync log is not memories.

use js_sys::{Array, Function, Object, Promise, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use worker::{ListOptions, Storage};

use crate::error::ApiError;

/// Most keys one storage call takes.
const MAX_KEYS: usize = 128;
/// Keys listed (their values with them) per page of a deletion.
const DELETE_PAGE: usize = 64;

/// A storage failure, as a coded error.
pub fn storage_error(error: impl std::fmt::Debug) -> ApiError {
    ApiError::new(503, "STORAGE", format!("durable object storage: {error:?}"))
}

fn corrupt(key: &str, error: impl std::fmt::Display) -> ApiError {
    ApiError::new(500, "STORAGE", format!("the sync log's record {key} is unreadable: {error}"))
}

/// The JSON value at `key`, if any.
pub async fn get<T: DeserializeOwned>(storage: &Storage, key: &str) -> Result<Option<T>, ApiError> {
    let text: Option<String> = storage.get(key).await.map_err(storage_error)?;
    text.map(|text| serde_json::from_str(&text).map_err(|error| corrupt(key, error))).transpose()
}

/// Which of `keys` are stored (at most 128 per storage call, the runtime's limit).
pub async fn present(storage: &Storage, keys: &[String]) -> Result<std::collections::HashSet<String>, ApiError> {
    let mut found = std::collections::HashSet::new();
    for chunk in keys.chunks(MAX_KEYS) {
        let listed = storage.get_multiple(chunk.to_vec()).await.map_err(storage_error)?;
        for pair in listed.entries() {
            let pair: Array = pair.map_err(storage_error)?.dyn_into().map_err(storage_error)?;
            found.extend(pair.get(0).as_string());
        }
    }
    Ok(found)
}

/// The keys under `prefix` from `start` on (inclusive; `None`: the first), at most `limit` of them (`None`:
/// all), in key order, with their JSON values.
pub async fn range<T: DeserializeOwned>(
    storage: &Storage,
    prefix: &str,
    start: Option<&str>,
    limit: Option<usize>,
) -> Result<Vec<(String, T)>, ApiError> {
    let mut options = ListOptions::new().prefix(prefix);
    if let Some(limit) = limit {
        options = options.limit(limit);
    }
    if let Some(start) = start {
        options = options.start(start);
    }
    let listed = storage.list_with_options(options).await.map_err(storage_error)?;
    let mut found = Vec::new();
    for pair in listed.entries() {
        let pair: Array = pair.map_err(storage_error)?.dyn_into().map_err(storage_error)?;
        let key = pair.get(0).as_string().unwrap_or_default();
        let text = pair.get(1).as_string().ok_or_else(|| corrupt(&key, "not a string"))?;
        let value = serde_json::from_str(&text).map_err(|error| corrupt(&key, error))?;
        found.push((key, value));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// The keys under `prefix` from `start` (inclusive) to `end` (exclusive), at most `limit`, in key order,
/// with their text unread (for counting).
pub async fn raw_range(
    storage: &Storage,
    prefix: &str,
    (start, end): (&str, &str),
    limit: usize,
) -> Result<Vec<(String, String)>, ApiError> {
    let options = ListOptions::new().prefix(prefix).start(start).end(end).limit(limit);
    let listed = storage.list_with_options(options).await.map_err(storage_error)?;
    let mut found = Vec::new();
    for pair in listed.entries() {
        let pair: Array = pair.map_err(storage_error)?.dyn_into().map_err(storage_error)?;
        found.push((pair.get(0).as_string().unwrap_or_default(), pair.get(1).as_string().unwrap_or_default()));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// Deletes, page by page, the keys under `prefix` before `end` for which `doomed` holds; each page is one
/// write, so a stop half-way leaves keys to delete later, never half a record.
pub async fn delete_where(
    storage: &Storage,
    prefix: &str,
    end: Option<&str>,
    doomed: impl Fn(&str) -> bool,
) -> Result<(), ApiError> {
    let mut after: Option<String> = None;
    loop {
        let mut options = ListOptions::new().prefix(prefix).limit(DELETE_PAGE);
        if let Some(end) = end {
            options = options.end(end);
        }
        let start = after.as_ref().map(|key| format!("{key}\u{0}"));
        if let Some(start) = &start {
            options = options.start(start);
        }
        let listed = storage.list_with_options(options).await.map_err(storage_error)?;
        let mut keys: Vec<String> = Vec::new();
        for pair in listed.entries() {
            let pair: Array = pair.map_err(storage_error)?.dyn_into().map_err(storage_error)?;
            keys.extend(pair.get(0).as_string());
        }
        keys.sort();
        let Some(last) = keys.last().cloned() else { return Ok(()) };
        let doomed: Vec<String> = keys.into_iter().filter(|key| doomed(key)).collect();
        if !doomed.is_empty() {
            write_all(storage, &[], &doomed).await?;
        }
        after = Some(last);
    }
}

/// JSON text of `value`.
pub fn json<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|error| ApiError::new(500, "INTERNAL", error.to_string()))
}

/// Stores every one of `puts` and deletes every one of `deletes` in one atomic write: the calls (of at most
/// 128 keys each) are all issued before any is awaited, and the runtime coalesces writes with no `await`
/// between them into one atomic write; the answer waits until it is durable (the object's output gate).
pub async fn write_all(storage: &Storage, puts: &[(String, String)], deletes: &[String]) -> Result<(), ApiError> {
    let raw = JsValue::clone(storage.as_raw());
    let method = |name: &str| -> Result<Function, ApiError> {
        Reflect::get(&raw, &name.into()).and_then(|f| f.dyn_into()).map_err(storage_error)
    };
    let (put, delete) = (method("put")?, method("delete")?);
    let calls = Array::new();
    for chunk in puts.chunks(MAX_KEYS) {
        let entries = Object::new();
        for (key, value) in chunk {
            Reflect::set(&entries, &key.as_str().into(), &value.as_str().into()).map_err(storage_error)?;
        }
        calls.push(&put.call1(&raw, &entries).map_err(storage_error)?);
    }
    for chunk in deletes.chunks(MAX_KEYS) {
        let keys: Array = chunk.iter().map(|key| JsValue::from_str(key)).collect();
        calls.push(&delete.call1(&raw, &keys).map_err(storage_error)?);
    }
    JsFuture::from(Promise::all(&calls)).await.map_err(storage_error)?;
    Ok(())
}
