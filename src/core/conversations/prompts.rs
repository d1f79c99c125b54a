//! The prompts of message-by-message memory: the boundary judgement (does the new message start a new
//! episode?), the episode extraction (one call: narrative, event log, foresight, profiles) and the
//! summary of a session by `compress()`, with the user messages that go with them.

use super::episode::{render_lines, Episode};
use super::message::PendingMessage;
use super::profile::Attributes;
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::core::prompt_fence::{fence, fence_json, Place};

/// The buffered messages the boundary call is shown at most (the latest ones), to keep it small.
pub const BOUNDARY_CONTEXT_MESSAGES: usize = 20;

/// System prompt of the boundary judgement.
pub const BOUNDARY_PROMPT: &str = r#"You are a conversation segmentation expert. The messages of a chat arrive one at a time.
You are shown the messages of the current episode so far and one new message. Decide whether the new
message starts a NEW episode, i.e. whether the conversation so far is complete and should be closed
before the new message.

The new message starts a new episode when:
- the topic or activity clearly changes (a new subject, task or question unrelated to what came before)
- the exchange so far reached a natural end (a goodbye, an answered question, a settled plan) and the
  new message opens something else
- its content implies a pause ("good morning", "back again", "about yesterday's meeting")

It does NOT start a new episode when:
- it continues, answers, elaborates on or reacts to the conversation so far
- it is a short acknowledgement ("ok", "thanks", "sounds good")
- the topic shifts only slightly within the same activity

When unsure, answer false: episodes also close after long pauses and at size limits.

Return a JSON object: {"boundary": true or false, "reason": "one short sentence"}"#;

/// System prompt of the episode extraction.
pub const EPISODE_PROMPT: &str = r#"You are a memory extraction expert. You are given one episode of a conversation: consecutive
messages with their times (ISO 8601, UTC) and senders. Turn it into memories of these kinds:

1. "summary": a narrative of the episode in the third person, 2 to 6 sentences. Name the participants,
   say when it happened (dates and times from the given time span) and what was discussed, decided or
   planned, so that it can be understood later without the messages.
2. "title": a short title of the episode (at most 10 words).
3. "event_log": atomic facts stated in the episode, each one self-contained sentence that names who it
   is about (names, never "I" or "you") and includes dates when known, e.g. "Alice moved the launch to
   2025-02-03". Only facts clearly stated; no duplicates.
4. "foresight": plans, intentions, promises, deadlines and predictions about the future, each with
   "text" and, when the episode makes them clear, "valid_from" and "valid_until" as ISO 8601 dates or
   times (resolve relative dates such as "next Friday" against the message times). When an item changes,
   postpones or replaces one of the "Current plans" of the input (a cancelled plan: an item saying so),
   give that plan's number in "replaces", e.g. ["1"]: the old plan then ends. Do not repeat a current
   plan that did not change.
5. "profiles": for each human participant about whom the episode reveals lasting traits (role, job,
   skills, location, preferences, habits, relationships, goals): their "user_id" as listed under
   Participants, and "attributes", a list of {"key", "value"} pairs with keys in snake_case (e.g.
   "occupation", "location", "skills", "likes"). Reuse the keys of a participant's current profile for
   the same trait, so that a changed value replaces the old one; give an empty value to remove a trait
   that is no longer true. Leave out participants with nothing new. Never profile AI assistants.

Write the texts in the language of the conversation. Use empty lists when there is nothing of a kind.

Return a JSON object of this shape:
{"title": "...", "summary": "...", "event_log": ["..."],
 "foresight": [{"text": "...", "valid_from": "2025-01-20", "valid_until": "2025-01-24", "replaces": []}],
 "profiles": [{"user_id": "alice", "attributes": [{"key": "occupation", "value": "tech lead"}]}]}"#;

/// The user message of the boundary call: the latest buffered messages and the new one.
pub fn boundary_input(buffered: &[PendingMessage], new: &PendingMessage) -> String {
    let shown = &buffered[buffered.len().saturating_sub(BOUNDARY_CONTEXT_MESSAGES)..];
    format!(
        "Conversation so far (oldest first):\n{}\n\nNew message:\n{}\n\nReturn the JSON object described above.",
        render_lines(shown),
        render_lines(std::slice::from_ref(new))
    )
}

/// The user message of the extraction call; `profiles` are the participants' current profile attributes,
/// `plans` the group's current foresight, numbered from 1 for `replaces`.
pub fn episode_input(episode: &Episode, profiles: &[(String, Attributes)], plans: &[StoredMemory]) -> String {
    let on_its_line = |text: &str| fence(text, Place::Line);
    let mut text = String::new();
    let group = match &episode.group_name {
        Some(name) => format!("{} ({})", on_its_line(name), on_its_line(&episode.group_id)),
        None => on_its_line(&episode.group_id),
    };
    text.push_str(&format!("Group: {group}\n"));
    if let Some(scene) = episode.scene {
        let scene = serde_json::to_value(scene).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        match &episode.scene_description {
            Some(description) => text.push_str(&format!("Scene: {scene} ({})\n", on_its_line(description))),
            None => text.push_str(&format!("Scene: {scene}\n")),
        }
    }
    text.push_str(&format!(
        "Time span: {} to {}\n",
        on_its_line(&episode.start_time()),
        on_its_line(&episode.end_time())
    ));
    text.push_str("Participants:\n");
    for p in &episode.participants {
        let mut about = vec![on_its_line(&p.name)];
        about.extend(p.custom_role.as_deref().map(&on_its_line));
        if p.assistant {
            about.push("AI assistant".into());
        }
        text.push_str(&format!("- {}: {}\n", on_its_line(&p.user_id), about.join(", ")));
    }
    if !profiles.is_empty() {
        text.push_str("Current profiles:\n");
        for (user, attributes) in profiles {
            text.push_str(&format!("- {}: {}\n", on_its_line(user), fence_json(attributes)));
        }
    }
    if !plans.is_empty() {
        text.push_str("Current plans:\n");
        for (number, plan) in plans.iter().enumerate() {
            text.push_str(&format!("- [{}] {}{}\n", number + 1, on_its_line(&plan.item.memory), validity(&plan.item)));
        }
    }
    text.push_str(&format!("\nMessages:\n{}\n\nReturn the JSON object described above.", episode.transcript()));
    text
}

/// ` (valid from X until Y)`, ` (valid until Y)`, ` (valid from X)` or nothing, from a plan's metadata.
fn validity(plan: &MemoryItem) -> String {
    let bound = |key: &str| plan.metadata.get(key).and_then(|v| v.as_str()).map(|v| fence(v, Place::Line));
    match (bound("validFrom"), bound("validUntil")) {
        (Some(from), Some(until)) => format!(" (valid from {from} until {until})"),
        (None, Some(until)) => format!(" (valid until {until})"),
        (Some(from), None) => format!(" (valid from {from})"),
        (None, None) => String::new(),
    }
}

/// System prompt of compression (plus the reply's JSON shape).
pub const COMPRESS_PROMPT: &str = r#"Summarize the following conversation into 2-3 sentences capturing key facts,
decisions, and topics discussed. Be specific and preserve names, numbers, and
technical details. Do not include pleasantries.

Return a JSON object: {"summary": "..."}"#;

/// The user message of one session's summary: its episodic memories, oldest first.
pub fn compress_input(session: &super::sessions::Session) -> String {
    format!("Conversation:\n{}", session.content())
}
