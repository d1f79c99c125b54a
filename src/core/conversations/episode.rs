//! An episode: the messages a boundary closed, with who took part, when, and the metadata every memory
//! extracted from it carries (the messages' times, not the clock's).

use crate::core::case::CaseExt;
use crate::core::prompt_fence::{fence, Place};
use serde::Serialize;
use serde_json::Value;

use super::boundary::Cause;
use super::buffer::GroupBuffer;
use super::membership::join;
use super::message::{PendingMessage, Role};
use super::meta::{ConversationMeta, Scene};
use crate::core::model::scope::Scope;
use crate::core::model::types::Metadata;

/// Someone who wrote in the episode.
#[derive(Debug, Clone, PartialEq)]
pub struct Participant {
    /// The sender id.
    pub user_id: String,
    /// `userDetails[id].fullName`, else the latest `senderName`, else the id.
    pub name: String,
    /// `userDetails[id].customRole` (a job title).
    pub custom_role: Option<String>,
    /// An AI: `userDetails` says so, or every message of theirs has `role: "assistant"`. No profile is built.
    pub assistant: bool,
}

/// The messages of one episode and what the extraction needs to know about them.
#[derive(Debug, Clone)]
pub struct Episode {
    /// Every memory extracted from the episode carries it as `metadata.sessionId`.
    pub session_id: String,
    pub group_id: String,
    pub group_name: Option<String>,
    /// Where the group's memories go.
    pub scope: Scope,
    pub messages: Vec<PendingMessage>,
    pub participants: Vec<Participant>,
    pub cause: Cause,
    /// The LLM's reason, for a `Cause::Llm` boundary.
    pub reason: Option<String>,
    pub scene: Option<Scene>,
    /// `sceneDesc.description` of the conversation metadata.
    pub scene_description: Option<String>,
}

/// What `addMessage` / `flushGroup` report about an episode they closed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeReport {
    pub session_id: String,
    pub cause: Cause,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub start_time: String,
    pub end_time: String,
    pub message_ids: Vec<String>,
}

impl Episode {
    /// The episode of `messages` (non-empty) from `buffer`'s group, described by `meta` when the group has
    /// conversation metadata.
    pub fn new(
        session_id: String,
        buffer: &GroupBuffer,
        messages: Vec<PendingMessage>,
        meta: Option<&ConversationMeta>,
        (cause, reason): (Cause, Option<String>),
    ) -> Self {
        let mut participants: Vec<Participant> = Vec::new();
        for message in &messages {
            let detail = meta.and_then(|m| m.user_details.get(&message.sender));
            let human = message.role != Some(Role::Assistant);
            match participants.iter_mut().find(|p| p.user_id == message.sender) {
                Some(known) => {
                    known.assistant &= !human;
                    let latest =
                        message.sender_name.as_ref().filter(|_| detail.and_then(|d| d.full_name.as_ref()).is_none());
                    if let Some(name) = latest {
                        known.name = name.clone();
                    }
                }
                None => participants.push(Participant {
                    user_id: message.sender.clone(),
                    name: detail.and_then(|d| d.full_name.clone()).unwrap_or_else(|| message.display_name().to_owned()),
                    custom_role: detail.and_then(|d| d.custom_role.clone()),
                    assistant: !human,
                }),
            }
        }
        for participant in &mut participants {
            let detail = meta.and_then(|m| m.user_details.get(&participant.user_id));
            participant.assistant |= detail.and_then(|d| d.role) == Some(Role::Assistant);
        }
        let description = meta.and_then(|m| m.scene_desc.get("description")).and_then(Value::as_str);
        Self {
            session_id,
            group_id: buffer.group_id.clone(),
            group_name: buffer.group_name.clone().or_else(|| meta.map(|m| m.name.clone())),
            scope: buffer.scope(),
            messages,
            participants,
            cause,
            reason,
            scene: meta.map(|m| m.scene),
            scene_description: description.map(str::to_owned),
        }
    }

    /// The earliest `createTime` (ISO 8601, UTC).
    pub fn start_time(&self) -> String {
        self.messages.iter().map(|m| m.create_time.clone()).min().unwrap_or_default()
    }

    /// The latest `createTime`.
    pub fn end_time(&self) -> String {
        self.messages.iter().map(|m| m.create_time.clone()).max().unwrap_or_default()
    }

    /// The participant `who` names: a user id, or a name (case-insensitive).
    pub fn participant(&self, who: &str) -> Option<&Participant> {
        let who = who.trim();
        self.participants.iter().find(|p| p.user_id == who).or_else(|| {
            let lower = who.lowercased();
            self.participants.iter().find(|p| p.name.lowercased() == lower || p.user_id.lowercased() == lower)
        })
    }

    /// `{groupId, groupName?, sessionId, startTime, endTime}`: what every memory of the episode carries.
    pub fn metadata(&self) -> Metadata {
        let mut metadata = Metadata::new();
        metadata.insert("groupId".into(), Value::from(self.group_id.as_str()));
        if let Some(name) = &self.group_name {
            metadata.insert("groupName".into(), Value::from(name.as_str()));
        }
        metadata.insert("sessionId".into(), Value::from(self.session_id.as_str()));
        metadata.insert("startTime".into(), Value::from(self.start_time()));
        metadata.insert("endTime".into(), Value::from(self.end_time()));
        metadata
    }

    /// The user ids of the participants.
    pub fn participant_ids(&self) -> Vec<String> {
        self.participants.iter().map(|p| p.user_id.clone()).collect()
    }

    /// What the group's shared memories of the episode carry: `metadata()` plus `participants` (user ids),
    /// who read them as theirs.
    pub fn shared_metadata(&self) -> Metadata {
        let mut metadata = self.metadata();
        join(&mut metadata, &self.participant_ids());
        metadata
    }

    /// The episodic memory's metadata: `shared_metadata()` plus `messageIds` and `title`.
    pub fn episodic_metadata(&self, title: Option<&str>) -> Metadata {
        let mut metadata = self.shared_metadata();
        let messages: Vec<&str> = self.messages.iter().map(|m| m.message_id.as_str()).collect();
        metadata.insert("messageIds".into(), Value::from(messages));
        if let Some(title) = title {
            metadata.insert("title".into(), Value::from(title));
        }
        metadata
    }

    /// The messages as prompt lines: `[createTime] name: content`, with each participant's name.
    pub fn transcript(&self) -> String {
        let name =
            |m: &PendingMessage| self.participant(&m.sender).map_or(m.display_name().to_owned(), |p| p.name.clone());
        self.messages.iter().map(|m| message_line(m, &name(m))).collect::<Vec<_>>().join("\n")
    }

    /// What to report about the episode.
    pub fn report(&self) -> EpisodeReport {
        EpisodeReport {
            session_id: self.session_id.clone(),
            cause: self.cause,
            reason: self.reason.clone(),
            start_time: self.start_time(),
            end_time: self.end_time(),
            message_ids: self.messages.iter().map(|m| m.message_id.clone()).collect(),
        }
    }
}

/// `[createTime] name: content`, one line per message, with each sender's display name.
pub fn render_lines(messages: &[PendingMessage]) -> String {
    messages.iter().map(|m| message_line(m, m.display_name())).collect::<Vec<_>>().join("\n")
}

/// `[createTime] name: content`: the time and the name on the line, the content's further lines indented.
fn message_line(message: &PendingMessage, name: &str) -> String {
    let time = fence(&message.create_time, Place::Line);
    format!("[{time}] {}: {}", fence(name, Place::Line), fence(&message.content, Place::Block))
}
