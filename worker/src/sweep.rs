//! Forgetting over a whole tenant: purge what expired, then decay the importance of the agent key/value
//! entries and delete those that fall below the threshold. Other memories (`/v1/memories/` facts,
//! conversation memories) are never decayed by a sweep: their callers did not ask for it. Both
//! `POST /api/v1/memory/decay` and the Cron Trigger run it.
//!
//! The empty scope means "every memory of the tenant": KV storage loads it by listing every scope marker
//! under `t/<tenant>/scope/` (following cursors), then reading the memories in bulk.

use memwasm::core::lifecycle::decay::{DecayOptions, DecayPlan};
use memwasm::core::model::scope::Scope;
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

/// Purges the expired memories of `engine` (one tenant's) and decays its key/value entries.
pub async fn sweep(engine: &Engine, options: DecayOptions) -> Result<Swept, ApiError> {
    let plan = DecayPlan { keyed_only: true, ..options.plan()? };
    let everything = Scope::default();
    let purged = engine.lifecycle().purge_expired(&everything).await?;
    let outcome = engine.lifecycle().decay(&everything, plan).await?;
    Ok(Swept { purged, decayed: outcome.decayed, forgotten: outcome.forgotten })
}
