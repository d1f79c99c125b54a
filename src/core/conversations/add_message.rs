//! `addMessage` and `flushGroup`. A message joins its group's buffer unless its id was seen; then the
//! boundary rules run in this order:
//!
//! 1. a gap longer than `maxGapMinutes` since the buffer's last message closes the buffer before the new
//!    message;
//! 2. otherwise, a buffer that reaches `maxMessages` or `maxTokens` with the new message closes with it;
//! 3. otherwise, with `boundary.llm` on, an LLM, and at least one buffered message before the new one (two
//!    in all), one small call asks whether the new message starts a new episode; `true` closes the buffer
//!    before it. A failed call is a `BOUNDARY_FAILED` warning, and the message simply joins the buffer.
//!
//! After a gap or an LLM boundary the new message starts the next buffer, and the size limits are checked on
//! it again. Each closed episode is extracted and committed together with the buffer that remains, so the
//! storage never holds a message both pending and extracted. A failed extraction keeps the messages pending
//! (`flushGroup` retries); nothing is lost.

use serde::Serialize;

use super::boundary::Cause;
use super::buffer::{GroupBuffer, BUFFER_KIND};
use super::episode::{Episode, EpisodeReport};
use super::extract::ExtractedMemory;
use super::message::{GroupRef, MessageInput, PendingMessage};
use super::prompts::{boundary_input, BOUNDARY_PROMPT};
use super::reply::parse_boundary;
use crate::core::conversations::Conversations;
use crate::core::error::Result;
use crate::core::identity::new_id;
use crate::core::model::types::{AddWarning, EventKind, WarningCode};
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::reply_schema;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// Whether a call extracted memories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The messages wait for a boundary.
    Accumulated,
    /// At least one episode was closed and extracted.
    Extracted,
}

/// What `addMessage` and `flushGroup` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageOutcome {
    pub status: Status,
    pub group_id: String,
    /// True when the message's id was seen before in its group: nothing changed.
    pub duplicate: bool,
    /// Every memory event of the extractions (ADD, UPDATE, DELETE, NONE), with the memory's type.
    pub memories: Vec<ExtractedMemory>,
    /// How many memories were added or updated.
    pub count: usize,
    /// The episodes closed, oldest first.
    pub episodes: Vec<EpisodeReport>,
    /// The group's messages still waiting for a boundary, oldest first.
    pub pending_messages: Vec<PendingMessage>,
    pub warnings: Vec<AddWarning>,
}

impl MessageOutcome {
    fn new(group_id: &str) -> Self {
        Self {
            status: Status::Accumulated,
            group_id: group_id.to_owned(),
            duplicate: false,
            memories: Vec::new(),
            count: 0,
            episodes: Vec::new(),
            pending_messages: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// Adds one message to its group's buffer, closing and extracting episodes as the boundary rules say.
    pub async fn add_message(&self, input: MessageInput) -> Result<MessageOutcome> {
        let (group, message) = input.check()?;
        let _guard = self.locks.lock(&format!("group:{}", group.group_id)).await;
        let mut buffer = self.group_buffer(&group).await?;
        let mut outcome = MessageOutcome::new(&buffer.group_id);
        if buffer.has_seen(&message.message_id) {
            outcome.duplicate = true;
            outcome.pending_messages = buffer.messages;
            return Ok(outcome);
        }
        let settings = self.conversation_state().boundary.get();
        let mut before =
            buffer.messages.last().filter(|last| settings.gap_between(last, &message)).map(|_| (Cause::Gap, None));
        let with_new = [buffer.messages.as_slice(), std::slice::from_ref(&message)].concat();
        let asks = settings.llm && self.llm.is_configured() && !buffer.messages.is_empty();
        if before.is_none() && settings.full(&with_new, &|text| self.count_tokens(text)).is_none() && asks {
            let (input, shape) = (boundary_input(&buffer.messages, &message), reply_schema::boundary());
            let reply = self.llm.generate(&LlmRequest::json(BOUNDARY_PROMPT, &input, &shape)).await;
            match reply.and_then(|text| parse_boundary(&text)) {
                Ok(reason) => before = reason.map(|reason| (Cause::Llm, Some(reason))),
                Err(why) => outcome.warnings.push(AddWarning::caused_by(WarningCode::BoundaryFailed, &why)),
            }
        }
        let mut written = false;
        let mut failed = false;
        if let Some(cause) = before {
            let episode = std::mem::take(&mut buffer.messages);
            buffer.messages.push(message);
            written = self.close(&mut buffer, episode, cause, &mut outcome).await?;
            failed = !written;
        } else {
            buffer.messages.push(message);
        }
        if let Some(cause) = settings.full(&buffer.messages, &|text| self.count_tokens(text)).filter(|_| !failed) {
            let episode = std::mem::take(&mut buffer.messages);
            written = self.close(&mut buffer, episode, (cause, None), &mut outcome).await?;
        }
        if !written {
            self.commit(Changeset { side: vec![buffer.write()], ..Changeset::default() }).await?;
        }
        outcome.pending_messages = buffer.messages;
        Ok(outcome)
    }

    /// Closes the group's buffer now and extracts it (nothing happens for an empty or unknown group).
    pub async fn flush_group(&self, group_id: &str) -> Result<MessageOutcome> {
        let group_id = crate::core::pipeline_options::required_text("groupId", Some(group_id))?.trim();
        let _guard = self.locks.lock(&format!("group:{group_id}")).await;
        let group = GroupRef { group_id: group_id.to_owned(), group_name: None, default_sender: None };
        let mut buffer = self.group_buffer(&group).await?;
        let mut outcome = MessageOutcome::new(group_id);
        if !buffer.messages.is_empty() {
            let episode = std::mem::take(&mut buffer.messages);
            self.close(&mut buffer, episode, (Cause::Flush, None), &mut outcome).await?;
        }
        outcome.pending_messages = buffer.messages;
        Ok(outcome)
    }

    /// The stored buffer of `group`, or a new one.
    async fn group_buffer(&self, group: &GroupRef) -> Result<GroupBuffer> {
        GroupBuffer::load(group, self.side_record(BUFFER_KIND, &group.group_id).await?)
    }

    /// Extracts `episode` from `buffer`'s group and commits its memories with the buffer (which no longer
    /// holds the episode); true when done. When the extraction fails, the episode's messages go back to the
    /// front of the buffer, nothing is written, and it returns false.
    async fn close(
        &self,
        buffer: &mut GroupBuffer,
        messages: Vec<PendingMessage>,
        cause: (Cause, Option<String>),
        outcome: &mut MessageOutcome,
    ) -> Result<bool> {
        let meta = self.conversation_meta(Some(&buffer.group_id)).await?.map(|view| view.meta);
        let episode = Episode::new(new_id(), buffer, messages, meta.as_ref(), cause);
        let Some(mut extracted) = self.extract_episode(&episode, &mut outcome.warnings).await? else {
            buffer.messages.splice(0..0, episode.messages);
            return Ok(false);
        };
        buffer.remember(&episode.messages);
        extracted.changes.side.push(buffer.write());
        self.commit(extracted.changes).await?;
        let changed = |m: &&ExtractedMemory| matches!(m.event.event, EventKind::Add | EventKind::Update);
        outcome.count += extracted.memories.iter().filter(changed).count();
        outcome.memories.extend(extracted.memories);
        outcome.episodes.push(episode.report());
        outcome.status = Status::Extracted;
        Ok(true)
    }
}
