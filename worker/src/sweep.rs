//! Forgetting over a whole tenant: purge what expired, then decay importance and delete what falls below
//! the threshold. Both `POST /api/v1/memory/decay` and the Cron Trigger run it.
//!
//! The empty scope means "every memory of the tenant": KV storage loads it by listing every scope marker
//! under `t/<tenant>/scope/` (following cursors), then reading the memories in bulk.

use memwasm::core::lifecycle::decay::DecayOptions;
use memwasm::core::scope::Scope;
use memwasm::platform::compose::Engine;
use serde::Serialize;

use crate::error::ApiError;

/// What one sweep did.
#[derive(Debug, Default, Clone, Copy, Serialize)]
pub struct Swept {
    /// Expired memories deleted.
    pub purged: usize,
    /// Memories whose importance was lowered and kept.
    pub decayed: usize,
    /// Memories that fell below the threshold and were deleted.
    pub forgotten: usize,
}

/// Purges and decays every memory `engine` (one tenant's) holds.
pub async fn sweep(engine: &Engine, options: DecayOptions) -> Result<Swept, ApiError> {
    let plan = options.plan()?;
    let everything = Scope::default();
    let purged = engine.purge_expired(&everything).await?;
    let outcome = engine.decay(&everything, plan).await?;
    Ok(Swept { purged, decayed: outcome.decayed, forgotten: outcome.forgotten })
}
