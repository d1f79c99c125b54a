//! `POST /api/v1/memories` (store a message): one message into its group's buffer. When a
//! boundary closes the buffer, the episode is extracted and the answer lists the memories saved.

use memwasm::core::conversations::{Cause, EpisodeReport, ExtractedMemory, MessageInput, MessageOutcome, Status};
use memwasm::core::model::types::{AddWarning, EventKind, Metadata};
use memwasm::platform::compose::Engine;
use serde::Serialize;
use worker::Response;

use super::envelope::{ok, Failure};
use super::items::{pending, PendingOut};
use super::params::type_name;
use crate::requests::parse;

/// A memory an extraction added or updated.
#[derive(Serialize)]
pub struct SavedMemory {
    id: String,
    /// `ADD` or `UPDATE`.
    event: EventKind,
    memory_type: &'static str,
    memory: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    old_memory: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Metadata>,
}

/// The memories of `memories` that were added or updated.
pub fn saved(memories: Vec<ExtractedMemory>) -> Vec<SavedMemory> {
    memories
        .into_iter()
        .filter(|m| matches!(m.event.event, EventKind::Add | EventKind::Update))
        .map(|m| SavedMemory {
            memory_type: type_name(m.memory_type),
            id: m.event.id,
            event: m.event.event,
            memory: m.event.memory,
            old_memory: m.event.old_memory,
            metadata: m.event.metadata,
        })
        .collect()
}

/// An episode a boundary closed.
#[derive(Serialize)]
pub struct EpisodeOut {
    /// The `event_id` of its memories.
    event_id: String,
    /// `gap`, `maxMessages`, `maxTokens`, `llm` or `flush`.
    cause: Cause,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    start_time: String,
    end_time: String,
    message_ids: Vec<String>,
}

/// `episodes` on the wire.
pub fn episodes(reports: Vec<EpisodeReport>) -> Vec<EpisodeOut> {
    reports
        .into_iter()
        .map(|report| EpisodeOut {
            cause: report.cause,
            event_id: report.session_id,
            reason: report.reason,
            start_time: report.start_time,
            end_time: report.end_time,
            message_ids: report.message_ids,
        })
        .collect()
}

/// `result` of a stored message.
#[derive(Serialize)]
pub struct Stored {
    saved_memories: Vec<SavedMemory>,
    count: usize,
    /// `extracted` or `accumulated`.
    status_info: Status,
    group_id: String,
    /// The message's id was seen before in its group: nothing changed.
    duplicate: bool,
    episodes: Vec<EpisodeOut>,
    /// The group's messages still waiting for a boundary, oldest first.
    pending_messages: Vec<PendingOut>,
    warnings: Vec<AddWarning>,
}

/// The conversation API's message for an outcome.
pub fn headline(status: Status, count: usize) -> String {
    match status {
        Status::Extracted => format!("Extracted {count} memories"),
        Status::Accumulated => "Message queued, awaiting boundary detection".to_owned(),
    }
}

/// `POST /api/v1/memories`.
pub async fn store(engine: &Engine, body: &[u8]) -> Result<Response, Failure> {
    let input: MessageInput = parse(body)?;
    let outcome: MessageOutcome = engine.conversations().add_message(input).await?;
    let message = match outcome.duplicate {
        true => "Message already received; nothing changed".to_owned(),
        false => headline(outcome.status, outcome.count),
    };
    let stored = Stored {
        saved_memories: saved(outcome.memories),
        count: outcome.count,
        status_info: outcome.status,
        group_id: outcome.group_id,
        duplicate: outcome.duplicate,
        episodes: episodes(outcome.episodes),
        pending_messages: pending(outcome.pending_messages),
        warnings: outcome.warnings,
    };
    ok(&message, stored)
}
