//! The additive extraction call: its system prompt, its user message (the related memories, then the new
//! messages) and its reply shape, mem0 v3's `{"memory": [{id, text, attributed_to}]}`.

use serde_json::{json, Value};

use crate::core::model::types::Message;
use crate::core::prompt_fence::{fence, fence_json, Place};
use crate::core::prompts::{render_conversation, FACT_EXTRACTION_PROMPT};
use crate::core::reply_schema::{parsed, ReplySchema};

/// System prompt of the additive extraction: every memorable fact, added, never an update or a delete.
pub const ADDITIVE_EXTRACTION_PROMPT: &str = r#"You are a memory extractor. From the new messages of a conversation, extract every piece of
information worth remembering, as self-contained factual statements. Your only operation is ADD: you never
update or delete memories.

Extract from both roles:
- user messages: personal facts, preferences, plans, experiences, opinions, requests;
- assistant messages: recommendations given, plans made, information provided, agreements reached.

You are also shown existing memories related to the conversation. Use them as context only:
- do not extract again what an existing memory already says in the same way;
- do extract what is new, including a change of a fact (a new city, a new job): state the new fact on its
  own, with its time where the messages give one ("As of 2024, user lives in Berlin"). Older memories are kept.

Rules:
- One fact per memory; cover every topic of the conversation, not only the first one.
- Write each memory in the third person ("User prefers …"), with the context needed to understand it alone.
- Only extract what is stated or clearly implied; no guesses.
- "attributed_to" is "user" for facts by or about the user, "assistant" for what the assistant provided.

Return only a JSON object of this shape:
{"memory": [{"id": "0", "text": "User's name is Alice", "attributed_to": "user"}]}
If nothing is worth remembering, return {"memory": []}."#;

/// The system prompt in use: the configured extraction prompt when it is a custom one, else the additive
/// prompt, keeping what the config appended to the default (custom instructions).
pub fn system_prompt(configured: &str) -> String {
    match configured.strip_prefix(FACT_EXTRACTION_PROMPT) {
        Some(appended) => format!("{ADDITIVE_EXTRACTION_PROMPT}{appended}"),
        None => configured.to_owned(),
    }
}

/// The user message: `existing` memories under temporary ids "0", "1", … as JSON, the new messages as
/// `role: content` lines (each in its own section, as mem0 v3 lays them out), and today's date.
pub fn additive_input(existing: &[String], messages: &[Message], today: &str) -> String {
    let shown: Vec<Value> =
        existing.iter().enumerate().map(|(i, text)| json!({"id": i.to_string(), "text": text})).collect();
    format!(
        "## Existing Memories\n{}\n\n## New Messages\n{}\n\n## Current Date\n{}",
        fence_json(&shown),
        render_conversation(messages),
        fence(today, Place::Line)
    )
}

/// The reply shape: `{"memory": [{id, text, attributed_to}]}`.
pub fn additive_reply() -> ReplySchema {
    let schema = parsed(
        r#"{"type": "object", "required": ["memory"], "properties": {"memory": {"type": "array", "items": {
            "type": "object", "required": ["text"], "properties": {"id": {"type": "string"}, "text": {"type": "string"},
            "attributed_to": {"type": "string", "enum": ["user", "assistant"]}}}}}}"#,
    );
    ReplySchema { name: "record_memories", description: "Record the memories extracted from the new messages.", schema }
}
