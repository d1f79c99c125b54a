//! The `Origin` check of `/mcp`, which the MCP transport requires against DNS rebinding: a request whose
//! `Origin` header is present and not allowed is refused with HTTP 403 before anything runs. Allowed: no
//! `Origin` (clients outside a browser send none), the endpoint's own origin, and the origins listed in the
//! var `MCP_ALLOWED_ORIGINS` (comma-separated, e.g. `https://app.example.com,http://localhost:5173`).

use crate::settings::text;
use crate::visit::Visit;

use super::rpc::{RpcError, INVALID_REQUEST};

/// The var listing the browser origins allowed besides the endpoint's own.
const ALLOWED_VAR: &str = "MCP_ALLOWED_ORIGINS";

/// An origin as compared: no trailing slash, scheme and host in lower case (ports and paths as sent).
fn normal(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// Why `visit`'s `Origin` is refused (answered with 403 and no `id`); `None` when it is allowed.
pub fn refusal(visit: &Visit<'_>) -> Option<RpcError> {
    let origin = visit.headers.get("origin").ok().flatten()?;
    let asked = normal(&origin);
    if asked == normal(&visit.url.origin().ascii_serialization()) {
        return None;
    }
    let listed = text(visit.env, ALLOWED_VAR).unwrap_or_default();
    if listed.split(',').map(normal).any(|allowed| !allowed.is_empty() && allowed == asked) {
        return None;
    }
    let why = format!(
        "the Origin {origin:?} may not use this MCP endpoint: add it to the var {ALLOWED_VAR} (comma-separated \
         origins) to allow a browser page there, or call from outside a browser (no Origin header)"
    );
    Some(RpcError::new(INVALID_REQUEST, "ORIGIN_NOT_ALLOWED", why))
}
