//! Whose log a sync request reaches. A user's token syncs its own user's log (naming another user in
//! `userId` is 403); a tenant-wide token names the user in `userId` (400 without it); an admin token that
//! also has a user may name any user and defaults to its own; a reader's token is 403.

use memwasm::core::model::scope::checked_id;
use serde_json::{Map, Value};

use crate::auth::Caller;
use crate::error::ApiError;

/// Why a reader's token is refused.
pub const READER_REFUSAL: &str = "the /v1/sync routes take a user's token ({\"tenant\", \"user\"} in MEMORY_TOKENS) \
     or a tenant-wide token naming userId: this token has neither a user nor admin";

/// The field naming the user.
pub const USER_FIELD: &str = "userId";

/// The user whose log `caller` reaches, naming `named` (`userId`, when given).
pub fn owner(caller: &Caller, named: Option<&str>) -> Result<String, ApiError> {
    if caller.is_reader() {
        return Err(ApiError::forbidden(READER_REFUSAL));
    }
    let named = named.map(|named| checked_id(USER_FIELD, named).map_err(|error| ApiError::invalid(error.to_string())));
    match (caller.user.as_deref(), named.transpose()?) {
        (Some(user), Some(named)) if user != named && !caller.admin => {
            Err(ApiError::forbidden(format!("this token syncs the log of user {user:?} only, not of {named:?}")))
        }
        (_, Some(named)) => Ok(named),
        (Some(user), None) => Ok(user.to_owned()),
        (None, None) => Err(ApiError::invalid(format!(
            "{USER_FIELD}: required with a tenant-wide token (the user whose log to sync)"
        ))),
    }
}

/// A JSON body read as an object: `INVALID_JSON` when it is not JSON, `INVALID_INPUT` when not an object.
pub fn object_of(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice::<Value>(body).map_err(ApiError::invalid_json)? {
        Value::Object(object) => Ok(object),
        _ => Err(ApiError::invalid("the body must be a JSON object")),
    }
}

/// The `userId` of a JSON body object: `None` when absent or null, `INVALID_INPUT` when not a string.
pub fn named_in(object: &Map<String, Value>) -> Result<Option<String>, ApiError> {
    match object.get(USER_FIELD) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(user)) => Ok(Some(user.clone())),
        Some(_) => Err(ApiError::invalid(format!("{USER_FIELD}: must be a string"))),
    }
}

/// The user a push names: in its body's `userId` or in the query string (`INVALID_INPUT` when both name one,
/// and not the same).
pub fn either(in_body: Option<String>, in_query: Option<String>) -> Result<Option<String>, ApiError> {
    match (in_body, in_query) {
        (Some(body), Some(query)) if body != query => {
            Err(ApiError::invalid(format!("{USER_FIELD}: the body names {body:?} and the query string {query:?}")))
        }
        (body, query) => Ok(body.or(query)),
    }
}
