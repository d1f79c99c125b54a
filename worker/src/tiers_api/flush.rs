//! `POST /v1/tiers/flush`: resumes what the tenant has queued, journals and queues the turns (persisted
//! before the answer), answers 202, and writes after the answer, inside `waitUntil` (the request's or the object's). A Worker keeps no
//! timers between requests, so there is no debounce: the write-behind runs every queued batch once (this
//! flush's turns, merged with what its scope had left, and other scopes' leftovers), one `add()` per scope.
//! A batch that fails stays queued, its attempts counted, for the next flush of the tenant; failures are
//! logged.

use memwasm::core::tiers::{day_of, Background, BackgroundSettings, BatchOutcome, TierCall};
use worker::{console_error, console_log, Response};

use super::params::messages_body;
use super::wire::{label, Flushed};
use crate::error::ApiError;
use crate::later::Later;
use crate::tenant_engine::Shared;

/// Persists the turns, schedules their write in `later`, and answers 202 `{queued, date}`.
pub async fn flush(
    engine: Shared,
    settings: BackgroundSettings,
    later: &Later<'_>,
    body: &[u8],
) -> Result<Response, ApiError> {
    let (messages, tier) = messages_body(body, TierCall::Flush)?;
    let queued = messages.len();
    // Every queued scope runs in this one write-behind: no slot to wait for.
    let background = Background::new(BackgroundSettings { concurrency: usize::MAX, ..settings });
    let date = day_of(engine.now_ms());
    // Resumed first, so the turns join what their scope left unwritten instead of replacing its record.
    engine.tiers().resume_background(&background).await?;
    engine.tiers().flush_turns(&background, &tier.scope, messages).await?;
    later.spawn(write_behind(engine, background));
    Ok(Response::from_json(&Flushed { queued, date })?.with_status(202))
}

/// Runs every batch of the tenant's queue once and logs how each went.
async fn write_behind(engine: Shared, background: Background) {
    let due = background.queue.borrow_mut().take_due(i64::MAX);
    for batch in due {
        match engine.tiers().run_batch(&background, batch).await {
            BatchOutcome::Changed { scope, result } => console_log!(
                "memwasm flush: {}: {} events, {} warnings",
                label(&scope),
                result.results.len(),
                result.warnings.len()
            ),
            BatchOutcome::Failed { scope, failure, attempts, retrying, kept, .. } => console_error!(
                "memwasm flush: {}: {}: {} (attempt {attempts}; {})",
                label(&scope),
                failure.code,
                failure.message,
                if retrying || kept { "kept for the next flush" } else { "given up, turns dropped" }
            ),
        }
    }
}
