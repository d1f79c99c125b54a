//! Tiers for agents: the context tier keeps a conversation within a token budget with a running
//! summary; the background writer (`flush`) coalesces turns into one `add()` per scope without making the
//! agent wait; the daily journal records every flushed turn; `dream` consolidates journals into the core
//! profile and the memories; `formatForInjection` puts profile and memories in a prompt within a budget.
//!
//! Everything is kept as side records beside the memories (every storage), one per scope (per day for
//! journals), keyed by `Scope::key`.

mod background;
mod context;
mod dream;
mod dream_state;
mod inject;
mod journal;
mod options;
mod prompts;
mod queue;
mod retry;

pub use crate::core::config::{BackgroundOptions, BackgroundSettings};
pub use background::{Background, BatchOutcome, Failure};
pub use context::{summary_message, ContextResult, ContextState, ContextWindow, MESSAGE_OVERHEAD};
pub use dream::DreamResult;
pub use dream_state::{CoreProfile, DiaryEntry, DreamState, DIARY_ENTRIES_KEPT};
pub use inject::Injection;
pub use journal::{day_of, journal_key, JournalDay, JournalRecord, JournalTurns};
pub use options::{day, TierCall, TierOptions, DEFAULT_KEEP_LAST, DEFAULT_LOOKBACK_DAYS};
pub use prompts::{dream_input, summary_input, DREAM_PROMPT, SUMMARY_PROMPT};
pub use queue::{Batch, Queue, Ran, Settled};
pub use retry::{failed_for_now, worth_running_again};

use serde_json::Value;

use super::model::scope::Scope;

/// Side-record kind of the context tier's summary and turns, per scope.
pub const CONTEXT: &str = "context";
/// Side-record kind of the background writer's unwritten turns, per scope.
pub const QUEUE: &str = "background-queue";
/// Side-record kind of the journals, per scope and day.
pub const JOURNAL: &str = "journal";
/// Side-record kind of the scopes with journal turns no dream consolidated yet.
pub const PENDING_DREAM: &str = "dream-pending";
/// Side-record kind of the core profiles, per scope.
pub const CORE_PROFILE: &str = "core-profile";
/// Side-record kind of the dream diaries, per scope.
pub const DREAM_DIARY: &str = "dream-diary";

/// A scope stored as a side record's value.
fn scope_of_key(value: &Value) -> Option<Scope> {
    crate::core::value_de::from_value::<Scope>(value).ok()?.validated().ok()
}

crate::core::engine::handle::feature_handle!(
    /// The agent tiers, reached with `engine.tiers()`.
    Tiers,
    /// The agent tiers: the context window, the background writer, journals and dreams.
    tiers
);

#[cfg(test)]
mod tests;
