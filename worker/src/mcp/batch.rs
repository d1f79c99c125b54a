//! JSON-RPC batches on `/mcp`. Only MCP revision 2025-03-26 has them (2025-06-18 removed them). A request
//! without `MCP-Protocol-Version` is read as 2025-03-26, as the transport prescribes for a server with no
//! other way to tell (this one keeps no sessions). A batch holds at most `MAX_BATCH_MESSAGES` messages.

use super::rpc::{self, RpcError};

/// Most messages in one batch.
pub const MAX_BATCH_MESSAGES: usize = 20;

/// The one revision with batches, and the one a request without `MCP-Protocol-Version` is read as.
const BATCH_REVISION: &str = "2025-03-26";

/// The revision a request is read under: its `MCP-Protocol-Version` header, else 2025-03-26.
pub fn revision(header: Option<&str>) -> &str {
    header.map_or(BATCH_REVISION, str::trim)
}

/// Why a batch of `messages` messages under `revision` is refused whole; `None` when it may run.
pub fn refusal(messages: usize, revision: &str) -> Option<RpcError> {
    if revision != BATCH_REVISION {
        let why = format!(
            "JSON-RPC batches are not part of MCP revision {revision} (only {BATCH_REVISION} has them): send one \
             message per POST"
        );
        return Some(RpcError::new(rpc::INVALID_REQUEST, "BATCH_NOT_SUPPORTED", why));
    }
    (messages > MAX_BATCH_MESSAGES).then(|| {
        let why = format!(
            "a batch of {messages} messages exceeds the limit of {MAX_BATCH_MESSAGES} messages per request: send \
             at most {MAX_BATCH_MESSAGES} per POST, or one message per POST"
        );
        RpcError::new(rpc::INVALID_REQUEST, "BATCH_TOO_LARGE", why)
    })
}
