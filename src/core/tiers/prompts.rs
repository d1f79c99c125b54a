//! The tiers' prompts and reply shapes: the context tier's running summary and `dream`'s consolidation.

use crate::core::model::types::Message;
use crate::core::prompt_fence::{fence, Place};
use crate::core::prompts::speaker_label;
use crate::core::reply_schema::{parsed, ReplySchema};

/// The running-summary call: the previous summary plus the turns that left the window, never more.
pub const SUMMARY_PROMPT: &str = "You keep the running summary of a conversation between a user and an AI \
assistant. You are given the summary so far (possibly empty) and the turns that just left the context window. \
Write the new summary: the previous summary's content updated with what the new turns add or change — \
facts about the user, decisions, open tasks, names, numbers. Be concise and factual, third person, no \
preamble. Reply with the summary text only.";

/// `dream`: rewrite the core profile from the journals and propose facts for the memory.
pub const DREAM_PROMPT: &str = "You consolidate an AI assistant's memory about one user or agent. You are given \
the core profile (a Markdown document of durable knowledge; it may be empty) and journals of recent \
conversations. 1) Rewrite the core profile in Markdown: keep what is still true, add durable knowledge from \
the journals (identity, preferences, relationships, long-running goals, standing instructions), correct what \
the journals contradict, drop small talk and one-off details. Keep it short: headings and bullet points. \
2) List the atomic facts worth storing as separate memories (one short sentence each). 3) Say in one or two \
sentences what changed and why. Reply with JSON only: {\"profile\": \"...\", \"facts\": [\"...\"], \"reason\": \"...\"}";

/// The user part of a summary call: the previous summary (its further lines indented), then the turns.
pub fn summary_input(previous: Option<&str>, turns: &[Message]) -> String {
    let previous = fence(previous.unwrap_or("(none)"), Place::Block);
    let mut input = format!("Summary so far:\n{previous}\n\nTurns that left the window:\n");
    for turn in turns {
        input.push_str(&format!("{}: {}\n", speaker_label(turn), fence(&turn.content, Place::Block)));
    }
    input
}

/// The user part of a dream call: the profile (its further lines indented), then each journal (Markdown
/// whose every field is fenced, see `JournalRecord::markdown`).
pub fn dream_input(profile: Option<&str>, journals: &[String]) -> String {
    let profile = fence(profile.filter(|p| !p.trim().is_empty()).unwrap_or("(empty)"), Place::Block);
    format!("Core profile:\n{profile}\n\nJournals:\n\n{}", journals.join("\n"))
}

/// `dream`'s reply: `{"profile": string, "facts": [string], "reason": string}`.
pub fn dream_reply() -> ReplySchema {
    ReplySchema {
        name: "consolidate_memory",
        description: "Rewrite the core profile and list the facts to remember.",
        schema: parsed(
            r#"{"type": "object", "required": ["profile", "facts", "reason"], "properties": {
                "profile": {"type": "string"},
                "facts": {"type": "array", "items": {"type": "string"}},
                "reason": {"type": "string"}}}"#,
        ),
    }
}
