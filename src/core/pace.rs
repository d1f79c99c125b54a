//! Pacing of long calls (an import): the work is cut into short turns so that the host (a browser page)
//! stays responsive, reports its progress and can be stopped. The core only says where a turn may end; the
//! platform decides when one has lasted long enough, how to hand the thread back, and whether the caller
//! asked to stop (an `AbortSignal`). [`Unpaced`] never pauses: what native code and the other calls use.

use std::future::Future;
use std::pin::Pin;

use super::error::{MemoryError, Result};

/// What a paced call is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Reading and checking the input.
    Read,
    /// Embedding the memories that came without a vector.
    Embed,
    /// Writing to storage.
    Write,
    /// Adding to the in-RAM search index.
    Index,
}

impl Phase {
    /// The name callers see (`"read"`, `"embed"`, `"write"`, `"index"`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Embed => "embed",
            Self::Write => "write",
            Self::Index => "index",
        }
    }
}

/// `done` of `total` items of `phase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub phase: Phase,
    pub done: usize,
    pub total: usize,
}

/// How a long call hands the thread back, reports progress and learns that it should stop.
pub trait Pace {
    /// True when the current turn has used up its time: the call should end it (see [`pause`]).
    fn due(&self) -> bool;
    /// Ends the turn: resolves in a later turn of the host's event loop, with a fresh time budget.
    fn yield_now(&self) -> Pin<Box<dyn Future<Output = ()> + '_>>;
    /// Notes that the thread was handed back some other way (an awaited storage request): a fresh budget.
    fn resumed(&self);
    /// True once the caller asked to stop.
    fn aborted(&self) -> bool;
    /// Tells the caller how far the call is.
    fn report(&self, progress: Progress);
}

/// No pacing: never pauses, never stops, reports to nobody.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unpaced;

impl Pace for Unpaced {
    fn due(&self) -> bool {
        false
    }

    fn yield_now(&self) -> Pin<Box<dyn Future<Output = ()> + '_>> {
        Box::pin(async {})
    }

    fn resumed(&self) {}

    fn aborted(&self) -> bool {
        false
    }

    fn report(&self, _progress: Progress) {}
}

/// `ABORTED`: the caller stopped the call (an import, the only paced one) and nothing of it was written.
pub fn aborted_error() -> MemoryError {
    MemoryError::Aborted(
        "the import was stopped by its AbortSignal; nothing was written (import again to retry)".into(),
    )
}

/// Between two items: ends the turn when it is due (reporting `progress` first), then fails with
/// `ABORTED` if the caller asked to stop.
pub async fn pause(pace: &dyn Pace, progress: Progress) -> Result<()> {
    if pace.due() {
        pace.report(progress);
        pace.yield_now().await;
    }
    if pace.aborted() {
        return Err(aborted_error());
    }
    Ok(())
}
