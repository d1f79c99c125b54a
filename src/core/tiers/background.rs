//! The background writer's engine side: `flush` journals the turns and queues them (both persisted in one
//! write), `run_batch` turns a due batch into one `add()` and reports how it went. The platform decides
//! *when* (timers, `waitUntil`); the queue decides *what*; `retry` decides whether a failure is run again.

use crate::core::limits::MAX_MESSAGES_PER_ADD;
use std::cell::RefCell;

use serde::Serialize;
use serde_json::Value;

use super::queue::{BackgroundSettings, Batch, Queue, Ran, Settled};
use super::QUEUE;
use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, AddWarning, Message, WarningCode};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pipeline_options::AddOptions;
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::tiers::Tiers;
use crate::core::vector_store::VectorStore;

/// Why a batch failed: the code of the error (or of the warning that made its `add()` store nothing), its
/// message and HTTP status.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
}

impl Failure {
    fn of_error(error: &MemoryError) -> Self {
        Self { code: error.code(), message: error.to_string(), status: error.http_status() }
    }

    fn of_warning(warning: &AddWarning) -> Self {
        let code = warning.cause.unwrap_or(warning.code.as_str());
        Self { code, message: warning.message.clone(), status: warning.status }
    }
}

/// What one batch did, for the `change` and `error` events.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchOutcome {
    /// The add ran: its events and warnings.
    Changed { scope: Scope, result: AddResult },
    /// It failed; `retrying` says whether a timer will run it again, `kept` whether its turns wait for the next
    /// flush (a model call that failed for now after its own retries); neither: `messages` were dropped.
    Failed { scope: Scope, failure: Failure, attempts: u32, retrying: bool, kept: bool, messages: Vec<Message> },
}

/// The queue of one memory's background writer.
#[derive(Debug, Default)]
pub struct Background {
    pub queue: RefCell<Queue>,
}

impl Background {
    pub fn new(settings: BackgroundSettings) -> Self {
        Self { queue: RefCell::new(Queue::new(settings)) }
    }

    /// The write that persists `scope`'s unwritten turns (or deletes the record when none are left).
    fn persist(&self, scope: &Scope) -> SideWrite {
        match self.queue.borrow().unwritten(scope) {
            Some(batch) => SideWrite::put(QUEUE, &scope.key(), serde_json::to_value(batch).unwrap_or(Value::Null)),
            None => SideWrite::delete(QUEUE, &scope.key()),
        }
    }
}

/// A failure that makes a batch worth retrying: the add stored nothing because a model call failed.
fn failed(result: &AddResult) -> Option<&AddWarning> {
    let fatal = [WarningCode::ExtractionFailed, WarningCode::DecisionFailed];
    result.warnings.iter().find(|w| fatal.contains(&w.code))
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Tiers<'_, L, E, S, V> {
    /// Journals `messages` for `scope` and queues them, in one write. Rejects only for bad input or a
    /// storage failure; the turns then stay queued in RAM for this session.
    pub async fn flush_turns(&self, background: &Background, scope: &Scope, messages: Vec<Message>) -> Result<()> {
        if messages.is_empty() {
            return Err(MemoryError::InvalidInput("flush needs at least one message".into()));
        }
        for part in messages.chunks(MAX_MESSAGES_PER_ADD) {
            crate::core::limits::check_messages(&part.iter().map(|m| m.content.as_str()).collect::<Vec<_>>())?;
        }
        let mut writes = self.journal_writes(scope, &messages).await?;
        background.queue.borrow_mut().push(scope, messages, self.now_ms());
        writes.push(background.persist(scope));
        self.write_side(writes).await
    }

    /// Puts the batches a previous session left unwritten back in the queue, due now (their debounce ended
    /// with that session; a retry keeps its count).
    pub async fn resume_background(&self, background: &Background) -> Result<usize> {
        let records = self.side_records(QUEUE).await?;
        let batches: Vec<Batch> =
            records.into_iter().filter_map(|r| crate::core::value_de::from_value(&r.value).ok()).collect();
        let (count, now) = (batches.len(), self.now_ms());
        for mut batch in batches {
            batch.due_after = batch.due_after.min(now);
            background.queue.borrow_mut().restore(batch);
        }
        Ok(count)
    }

    /// Runs one due batch as one `add()` into its scope, settles it in the queue and persists what is left.
    pub async fn run_batch(&self, background: &Background, batch: Batch) -> BatchOutcome {
        let scope = batch.scope.clone();
        let options = AddOptions { scope: scope.clone().into(), ..AddOptions::default() };
        let (mut all, mut failure) = (AddResult::default(), None);
        // One add() per `MAX_MESSAGES_PER_ADD` turns; a failed part fails the batch (a retry runs it all again,
        // and what the earlier parts stored comes back as exact duplicates, which are not stored twice).
        for part in batch.messages.chunks(MAX_MESSAGES_PER_ADD) {
            let messages = serde_json::to_value(part).unwrap_or(Value::Null);
            match self.add(&messages, &options).await {
                Err(error) => failure = Some(Failure::of_error(&error)),
                Ok(result) => match failed(&result) {
                    Some(warning) => failure = Some(Failure::of_warning(warning)),
                    None => {
                        all.results.extend(result.results);
                        all.warnings.extend(result.warnings);
                    }
                },
            }
            if failure.is_some() {
                break;
            }
        }
        let outcome = failure.map_or(Ok(all), Err);
        let turns = batch.messages.clone();
        let ran = match &outcome {
            Ok(_) => Ran::Ok,
            Err(failure) if super::worth_running_again(failure.code) => Ran::Failed,
            Err(failure) if super::failed_for_now(failure.code, failure.status) => Ran::Spent,
            Err(_) => Ran::FailedForGood,
        };
        let settled = background.queue.borrow_mut().settle(batch, ran, self.now_ms());
        // Best effort: if this write fails, the next flush or batch of the scope rewrites the record.
        let _ = self.commit(Changeset { side: vec![background.persist(&scope)], ..Changeset::default() }).await;
        match outcome {
            Ok(result) => BatchOutcome::Changed { scope, result },
            Err(failure) => {
                let attempts = match &settled {
                    Settled::GaveUp(attempts) => *attempts,
                    _ => background.queue.borrow().unwritten(&scope).map_or(0, |b| b.attempts),
                };
                let (retrying, kept) = (settled == Settled::Retrying, settled == Settled::Held);
                BatchOutcome::Failed { scope, failure, attempts, retrying, kept, messages: turns }
            }
        }
    }
}
