//! Conversation memories, message by message: chat messages arrive one at a time (`addMessage`) and wait
//! in a persisted buffer per group; boundary rules (a time gap, size limits, an LLM's judgement) close the buffer
//! into an episode, and one LLM call turns the episode into typed memories: an `episodic` narrative,
//! `event_log` facts (through `add()`'s dedup and update decision), `foresight` items (a changed plan ends
//! the one it replaces), and one `profile` per participant and group, merged across episodes.
//! Conversation metadata and soft delete by filter complete the conversation API; `compress` summarises a
//! scope's oldest sessions. The reads of these memories (fetch by type, time ranges, agentic search)
//! are in `retrieval`.
//!
//! Scope contract: a group's memories live under `{runId: groupId}` (plus `userId: sender` for the default
//! group a message without `groupId` goes to), profiles under `{userId: participant, runId: groupId}`.
//! Everything a message changes — memories, history, the buffer — is written in one `Changeset`.

mod add_message;
pub mod boundary;
pub mod buffer;
mod compress;
pub mod compress_options;
mod delete;
pub mod episode;
mod extract;
pub mod foresight;
pub mod membership;
pub mod message;
pub mod meta;
pub mod meta_patch;
mod meta_store;
pub mod profile;
mod profile_stage;
pub mod prompts;
pub mod reply;
pub mod sessions;
pub(crate) mod state;
mod uncover;

pub use add_message::{MessageOutcome, Status};
pub use boundary::{BoundaryOptions, BoundarySettings, Cause};
pub use compress::parse_summary;
pub use compress_options::{CompressOptions, CompressOutcome, CompressPlan, CompressedSession};
pub use delete::{DeleteFilter, DeleteOutcome};
pub use episode::EpisodeReport;
pub use extract::ExtractedMemory;
pub use message::{MessageInput, PendingMessage, Role};
pub use meta::{ConversationMeta, MetaInput, MetaView, Scene, UserDetail};
pub use meta_patch::{MetaPatch, MetaUpdate};

crate::core::engine::handle::feature_handle!(
    /// Conversation memories, reached with `engine.conversations()`.
    Conversations,
    /// Conversation memories: messages, episodes, profiles, conversation metadata, compression.
    conversations
);
