//! The tier routes' answers in the wire's snake_case (the library's tier types are camelCase, for JS).

use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::{AddWarning, Message};
use memwasm::core::tiers::{ContextResult, CoreProfile, DiaryEntry, DreamResult, Injection, JournalDay};
use serde::Serialize;

use crate::wire::{Event, Item};

/// `POST /v1/tiers/flush`: the messages queued and the journal day they went to.
#[derive(Serialize)]
pub struct Flushed {
    pub queued: usize,
    pub date: String,
}

/// `GET /v1/tiers/journal`.
#[derive(Serialize)]
pub struct Journal {
    pub date: String,
    pub markdown: String,
}

/// A window of the context tier.
#[derive(Serialize)]
pub struct Context {
    messages: Vec<Message>,
    summary: Option<String>,
    summarized: usize,
    total_tokens: usize,
    /// `TURN_TRUNCATED` when the newest turn alone was over `max_tokens` and was cut; absent when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<AddWarning>,
}

impl From<ContextResult> for Context {
    fn from(result: ContextResult) -> Self {
        let ContextResult { messages, summary, summarized, total_tokens, warnings } = result;
        Self { messages, summary, summarized, total_tokens, warnings }
    }
}

/// One day of `GET /v1/tiers/journals`.
#[derive(Serialize)]
pub struct Day {
    date: String,
    turns: usize,
    markdown: String,
    hash: String,
    consolidated: bool,
}

impl From<JournalDay> for Day {
    fn from(day: JournalDay) -> Self {
        let JournalDay { date, turns, markdown, hash, consolidated } = day;
        Self { date, turns, markdown, hash, consolidated }
    }
}

/// A core profile.
#[derive(Serialize)]
pub struct Profile {
    markdown: String,
    updated_at: String,
}

impl From<CoreProfile> for Profile {
    fn from(profile: CoreProfile) -> Self {
        Self { markdown: profile.markdown, updated_at: profile.updated_at }
    }
}

/// What a dream did.
#[derive(Serialize)]
pub struct Dream {
    dreamed: bool,
    journals: Vec<String>,
    profile: Option<Profile>,
    results: Vec<Event>,
    warnings: Vec<AddWarning>,
    reason: String,
}

impl From<DreamResult> for Dream {
    fn from(dream: DreamResult) -> Self {
        Self {
            dreamed: dream.dreamed,
            journals: dream.journals,
            profile: dream.profile.map(Profile::from),
            results: dream.results.into_iter().map(Event::from).collect(),
            warnings: dream.warnings,
            reason: dream.reason,
        }
    }
}

/// One entry of the dream diary.
#[derive(Serialize)]
pub struct Diary {
    at: String,
    journals: Vec<String>,
    reason: String,
    profile_changed: bool,
    events: Vec<Event>,
}

impl From<DiaryEntry> for Diary {
    fn from(entry: DiaryEntry) -> Self {
        Self {
            at: entry.at,
            journals: entry.journals,
            reason: entry.reason,
            profile_changed: entry.profile_changed,
            events: entry.events.into_iter().map(Event::from).collect(),
        }
    }
}

/// `GET /v1/tiers/inject`: the `<memory>` block and what is in it.
#[derive(Serialize)]
pub struct Injected {
    text: String,
    total_tokens: usize,
    profile: bool,
    memories: Vec<Item>,
}

impl From<Injection> for Injected {
    fn from(injection: Injection) -> Self {
        Self {
            text: injection.text,
            total_tokens: injection.total_tokens,
            profile: injection.profile,
            memories: injection.memories.into_iter().map(Item::from).collect(),
        }
    }
}

/// A scope for the logs: `user_id=alice agent_id=…`.
pub fn label(scope: &Scope) -> String {
    let ids = [("user_id", &scope.user_id), ("agent_id", &scope.agent_id), ("run_id", &scope.run_id)];
    let named: Vec<String> =
        ids.iter().filter_map(|(name, id)| id.as_ref().map(|id| format!("{name}={id:?}"))).collect();
    named.join(" ")
}
