//! The directory of a tenant with `DO_SHARDS = "scope"`, in the tenant's own object: which user's object
//! holds each memory id (`dir/<id>` → user) and which users have one (`user/<user>`), kept in the object's
//! storage, never in its memory. A user's object reports the memories its requests wrote and deleted
//! (`POST /__do/directory`, `send` → `record`) before it answers them, from reports kept in its own storage
//! until the directory took them (`outbox`).

use memwasm::core::kv::keys::{decode, encode};
use serde::{Deserialize, Serialize};
use worker::ListOptions;

use super::front::{self, Target};
use super::TenantObject;
use crate::error::ApiError;
/// Keys per storage call.
const KEYS_PER_CALL: usize = 128;

/// What a user's object wrote and deleted: memory ids.
#[derive(Serialize, Deserialize, Default)]
pub struct Changes {
    #[serde(default)]
    pub user: String,
    #[serde(default)]
    pub put: Vec<String>,
    #[serde(default)]
    pub drop: Vec<String>,
}

/// Sends `changes` to `tenant`'s object (`POST /__do/directory`).
pub async fn send(env: &worker::Env, tenant: &str, changes: &Changes) -> Result<(), ApiError> {
    let body = serde_json::to_string(changes).map_err(|error| ApiError::new(500, "INTERNAL", error.to_string()))?;
    let target = Target { tenant: tenant.to_owned(), user: None };
    front::post_internal(env, &target, "directory", body, "the directory").await
}

/// With `DO_TEST_HOOKS = "true"` only: the test var `DO_TEST_DIRECTORY` makes the directory refuse every
/// report (`"refuse"`: 503, as a directory that cannot be reached) or hold each one unanswered (`"hold"`,
/// after logging that it does), so a test can kill workerd between a user's store and its report.
pub async fn test_fault(env: &worker::Env) -> Result<(), ApiError> {
    if !crate::settings::flag(env, "DO_TEST_HOOKS", false)? {
        return Ok(());
    }
    let refused = || ApiError::new(503, "OBJECT_UNAVAILABLE", "the directory refuses reports (DO_TEST_DIRECTORY)");
    match crate::settings::text(env, "DO_TEST_DIRECTORY").as_deref() {
        Some("refuse") => Err(refused()),
        Some("hold") => {
            worker::console_log!("memwasm test hook: the directory holds a report");
            worker::Delay::from(std::time::Duration::from_secs(3600)).await;
            Err(refused())
        }
        _ => Ok(()),
    }
}

/// Takes `changes` into the directory.
pub async fn record(object: &TenantObject, changes: Changes) -> Result<(), ApiError> {
    let storage = object.state.storage();
    for ids in changes.put.chunks(KEYS_PER_CALL) {
        let entries = js_sys::Object::new();
        for id in ids {
            js_sys::Reflect::set(&entries, &dir_key(id).into(), &changes.user.as_str().into())
                .map_err(super::storage_error)?;
        }
        storage.put_multiple_raw(entries).await?;
    }
    for ids in changes.drop.chunks(KEYS_PER_CALL) {
        storage.delete_multiple(ids.iter().map(|id| dir_key(id)).collect()).await?;
    }
    if !changes.put.is_empty() {
        storage.put(&user_key(&changes.user), "").await?;
    }
    Ok(())
}

pub fn dir_key(id: &str) -> String {
    format!("dir/{}", encode(id))
}

fn user_key(user: &str) -> String {
    format!("user/{}", encode(user))
}

/// The users with an object, in order, from the first after `after`; at most `limit`.
pub async fn users(object: &TenantObject, after: Option<&str>, limit: usize) -> Result<Vec<String>, ApiError> {
    let start = after.map(user_key);
    let mut options = ListOptions::new().prefix("user/").limit(limit + 1);
    if let Some(start) = &start {
        options = options.start(start);
    }
    let listed = object.state.storage().list_with_options(options).await?;
    let keys = listed.keys().into_iter().filter_map(|key| key.ok()?.as_string());
    let users = keys.filter(|key| Some(key) != start.as_ref()).filter_map(|key| decode(key.strip_prefix("user/")?));
    Ok(users.take(limit).collect())
}

/// Every user with an object, in order.
pub async fn every_user(object: &TenantObject) -> Result<Vec<String>, ApiError> {
    let mut all: Vec<String> = Vec::new();
    loop {
        let page = users(object, all.last().map(String::as_str), 1000).await?;
        if page.is_empty() {
            return Ok(all);
        }
        all.extend(page);
    }
}

/// The cron in every user's object of the tenant; a failure is logged and the others still run.
pub async fn cron(object: &TenantObject, tenant: &str, cron: &str, max_scopes: Option<usize>) -> Result<(), ApiError> {
    for user in every_user(object).await? {
        let target = Target { tenant: tenant.to_owned(), user: Some(user.clone()) };
        if let Err(error) = front::cron(&object.env, &target, cron, max_scopes).await {
            worker::console_error!("memwasm cron ({cron}): tenant {tenant:?}, user {user:?}: {}", error.message);
        }
    }
    Ok(())
}
