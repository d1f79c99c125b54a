//! A client's (or device's, or snapshot's) id: 1 to 64 characters of `[A-Za-z0-9_-]`, chosen by the client (one per device or store).

use crate::error::ApiError;

/// The longest client id.
const MAX_CHARS: usize = 64;

/// The field naming the client.
pub const CLIENT_FIELD: &str = "clientId";

/// `id`, checked; `INVALID_INPUT` naming the field otherwise.
pub fn checked(id: &str) -> Result<String, ApiError> {
    checked_named(CLIENT_FIELD, id)
}

/// `id` of the field `field` (a client's, a device's or a snapshot's: the same rule), checked.
pub fn checked_named(field: &str, id: &str) -> Result<String, ApiError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if id.is_empty() || id.len() > MAX_CHARS || !id.chars().all(allowed) {
        return Err(ApiError::invalid(format!(
            "{field}: must be 1 to {MAX_CHARS} characters of A-Z, a-z, 0-9, _ and -, got {id:?}"
        )));
    }
    Ok(id.to_owned())
}
