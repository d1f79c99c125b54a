//! The Cron Trigger's dreaming (the memory tiers' nightly deep dream): in one tenant, `dream` over each scope
//! with journal turns no dream consolidated yet, at most `DREAM_MAX_SCOPES` of them per run (the rest wait
//! for the next run). A scope that fails is logged and the others still dream.

use memwasm::core::tiers::DEFAULT_LOOKBACK_DAYS;
use memwasm::platform::compose::Engine;
use worker::console_error;

use crate::error::ApiError;
use crate::tiers_api::wire::label;

/// What one tenant's dreaming did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Dreamt {
    /// Scopes whose journals were consolidated (one LLM call each).
    pub dreamed: usize,
    /// Scopes with nothing new in the lookback window (no call).
    pub unchanged: usize,
    /// Scopes whose dream failed (logged).
    pub failed: usize,
    /// Scopes left for the next run, over the cap.
    pub deferred: usize,
}

/// Dreams over at most `max_scopes` of the scopes `engine` (one tenant's) has new journal turns for.
pub async fn dream_tenant(engine: &Engine, tenant: &str, max_scopes: usize) -> Result<Dreamt, ApiError> {
    let scopes = engine.tiers().scopes_to_dream().await?;
    let mut dreamt = Dreamt { deferred: scopes.len().saturating_sub(max_scopes), ..Dreamt::default() };
    for scope in scopes.into_iter().take(max_scopes) {
        match engine.tiers().dream(&scope, DEFAULT_LOOKBACK_DAYS).await {
            Ok(result) if result.dreamed => dreamt.dreamed += 1,
            Ok(_) => dreamt.unchanged += 1,
            Err(error) => {
                dreamt.failed += 1;
                console_error!("memwasm dream: tenant {tenant:?}: {}: {}: {}", label(&scope), error.code(), error);
            }
        }
    }
    Ok(dreamt)
}
