//! The background writer's queue (after DeerFlow's `MemoryUpdateQueue`), as a plain state machine
//! the platform drives with its timers: turns flushed for a scope wait until `debounceMs` passed without a
//! new one, then go to one `add()`; at most `concurrency` scopes run at once, one batch per scope at a time;
//! a failed batch is retried with a doubling delay (unless its failure was for good), then given up (and
//! reported).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use super::BackgroundSettings;
use crate::core::model::scope::Scope;
use crate::core::model::types::Message;

/// The turns waiting for one scope (persisted, so a closed tab resumes them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Batch {
    pub scope: Scope,
    pub messages: Vec<Message>,
    /// When the last turn arrived, or when a retry is due (ms since the epoch).
    pub due_after: i64,
    /// Failed attempts so far.
    pub attempts: u32,
}

/// `due_after` of a held batch: no timer runs it; the next flush (of any scope) or a reopen does.
pub const HELD: i64 = i64::MAX;

/// How a batch's run went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ran {
    Ok,
    /// It failed in a way running it again may fix.
    Failed,
    /// A model or vector-store call failed for now (408, 429, 5xx, no answer) after spending its own retry
    /// budget: running it again at once would start that budget over, so it waits for the next flush.
    Spent,
    /// It failed in a way running it again would not fix: a request the model refused, or a model call that
    /// already spent the retry budget (one budget per call, not one per run).
    FailedForGood,
}

/// What became of a batch that ran.
#[derive(Debug, Clone, PartialEq)]
pub enum Settled {
    Done,
    /// It failed and will be tried again at the batch's `due_after`.
    Retrying,
    /// It failed for now; its turns are kept for the next flush or reopen (no timer runs it).
    Held,
    /// It failed this many times (`max_retries + 1`, or fewer after a failure for good); its turns were
    /// dropped.
    GaveUp(u32),
}

/// The queue: waiting batches by scope key, and the scopes running now.
#[derive(Debug, Default)]
pub struct Queue {
    pub settings: BackgroundSettings,
    waiting: BTreeMap<String, Batch>,
    running: BTreeMap<String, Batch>,
}

impl Queue {
    pub fn new(settings: BackgroundSettings) -> Self {
        Self { settings, ..Self::default() }
    }

    /// Adds `messages` for `scope` at `now`: joins the scope's waiting batch (restarting its debounce) or
    /// starts one. Returns the batch as it now is, to persist.
    pub fn push(&mut self, scope: &Scope, messages: Vec<Message>, now: i64) -> Batch {
        let debounced = now + i64::from(self.settings.debounce_ms);
        for held in self.waiting.values_mut().filter(|batch| batch.due_after == HELD) {
            held.due_after = debounced;
        }
        let batch = self.waiting.entry(scope.key()).or_insert_with(|| Batch {
            scope: scope.clone(),
            messages: Vec::new(),
            due_after: debounced,
            attempts: 0,
        });
        batch.messages.extend(messages);
        batch.due_after = batch.due_after.max(debounced);
        batch.clone()
    }

    /// Puts back a persisted batch (on open), unless its scope already waits.
    pub fn restore(&mut self, batch: Batch) {
        self.waiting.entry(batch.scope.key()).or_insert(batch);
    }

    /// Takes the batches due at `now`, oldest due first, as far as `concurrency` allows; they count as
    /// running until `settle`.
    pub fn take_due(&mut self, now: i64) -> Vec<Batch> {
        let free = self.settings.concurrency.saturating_sub(self.running.len());
        let mut due: Vec<(i64, String)> = self
            .waiting
            .iter()
            .filter(|(key, batch)| batch.due_after <= now && !self.running.contains_key(*key))
            .map(|(key, batch)| (batch.due_after, key.clone()))
            .collect();
        crate::core::sort::sort(&mut due);
        due.truncate(free);
        due.into_iter()
            .filter_map(|(_, key)| {
                let batch = self.waiting.remove(&key)?;
                self.running.insert(key, batch.clone());
                Some(batch)
            })
            .collect()
    }

    /// Records how `batch` ended at `now`. A failed one goes back to wait (merged before any turns that
    /// arrived meanwhile) with its retry delay, or is given up.
    pub fn settle(&mut self, mut batch: Batch, ran: Ran, now: i64) -> Settled {
        let key = batch.scope.key();
        self.running.remove(&key);
        if ran == Ran::Ok {
            return Settled::Done;
        }
        batch.attempts += 1;
        if ran == Ran::FailedForGood || batch.attempts > self.settings.max_retries {
            return Settled::GaveUp(batch.attempts);
        }
        let doubling = 1u64 << (batch.attempts - 1).min(20);
        let delay = (u64::from(self.settings.base_delay_ms) * doubling).min(u64::from(self.settings.max_delay_ms));
        batch.due_after = if ran == Ran::Spent { HELD } else { now + delay as i64 };
        if let Some(newer) = self.waiting.remove(&key) {
            // Turns flushed meanwhile: that flush is the next one, so a held batch goes with them.
            batch.messages.extend(newer.messages);
            batch.due_after = if ran == Ran::Spent { newer.due_after } else { batch.due_after.max(newer.due_after) };
        }
        let settled = if batch.due_after == HELD { Settled::Held } else { Settled::Retrying };
        self.waiting.insert(key, batch);
        settled
    }

    /// Every turn of `scope` not yet written — running, then waiting — as one batch: what to persist after a
    /// change (`None`: nothing left, delete the record).
    pub fn unwritten(&self, scope: &Scope) -> Option<Batch> {
        let key = scope.key();
        match (self.running.get(&key), self.waiting.get(&key)) {
            (None, None) => None,
            (Some(batch), None) | (None, Some(batch)) => Some(batch.clone()),
            (Some(running), Some(waiting)) => {
                let mut batch = running.clone();
                batch.messages.extend(waiting.messages.iter().cloned());
                batch.due_after = waiting.due_after;
                Some(batch)
            }
        }
    }

    /// When the next waiting batch is due (`None` when none waits but held ones).
    pub fn next_due(&self) -> Option<i64> {
        let waiting = self.waiting.iter().filter(|(key, _)| !self.running.contains_key(*key));
        waiting.map(|(_, b)| b.due_after).filter(|&due| due != HELD).min()
    }

    /// True when nothing runs and nothing waits but held batches (which wait for the next flush).
    pub fn is_idle(&self) -> bool {
        self.running.is_empty() && self.waiting.values().all(|batch| batch.due_after == HELD)
    }

    /// Scopes running now.
    pub fn running(&self) -> usize {
        self.running.len()
    }
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod tests;
