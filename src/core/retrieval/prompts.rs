//! The two prompts of agentic retrieval: the judgement (do the first round's memories answer the query?)
//! and, only when they do not, the refinement (up to 3 queries that would find what is missing), with the
//! user messages that go with them.

use crate::core::model::types::MemoryItem;
use crate::core::prompt_fence::{fence, Place};

use super::window::span;
use crate::core::time::iso_from_millis;

/// The most first-round memories either call is shown (the best ones).
pub const SHOWN: usize = 10;

/// System prompt of the judgement.
pub const JUDGE_PROMPT: &str = r#"You are a memory retrieval expert. A user's query was run against a memory store, and you are
shown the memories it found, best first. Decide whether these memories contain enough information to
answer the query.

- "sufficient": true when the memories answer the query, or when the query asks for nothing the store
  could hold; false when key facts, people, times or events the query asks about are missing.
- "reasoning": one short sentence.
- "missing_information": when not sufficient, the specific pieces of information that are missing
  (e.g. "the date of the launch review"); otherwise an empty list.

Judge only by the memories shown; do not answer the query.

Return a JSON object: {"sufficient": true or false, "reasoning": "...", "missing_information": ["..."]}"#;

/// System prompt of the refinement.
pub const REFINE_PROMPT: &str = r#"You are a memory retrieval expert. A query run against a memory store did not find enough to
answer it. You are shown the query, the memories it found, and what is missing. Write up to 3 new search
queries that would find the missing memories.

- Each query targets one missing piece, in other words than the original query: synonyms, the names of
  the people or things involved, related events, or the time it happened.
- Keep each query short (at most 12 words), in the language of the original query.
- Do not repeat the original query.

Return a JSON object: {"queries": ["...", "..."]}"#;

/// The memories, one line each: `[n] (type, date of its time span) text`.
fn memory_lines(memories: &[MemoryItem]) -> String {
    if memories.is_empty() {
        return "(none)".into();
    }
    let line = |(n, m): (usize, &MemoryItem)| {
        let date = iso_from_millis(span(m).0);
        format!("[{}] ({}, {}) {}", n + 1, m.lifecycle.memory_type.as_str(), &date[..10], fence(&m.memory, Place::Line))
    };
    memories.iter().take(SHOWN).enumerate().map(line).collect::<Vec<_>>().join("\n")
}

/// The user message of the judgement.
pub fn judge_input(query: &str, memories: &[MemoryItem]) -> String {
    format!(
        "Query: {}\n\nRetrieved memories:\n{}\n\nReturn the JSON object described above.",
        fence(query, Place::Line),
        memory_lines(memories)
    )
}

/// The user message of the refinement; `missing` is what the judgement said is missing.
pub fn refine_input(query: &str, memories: &[MemoryItem], missing: &[String]) -> String {
    let missing: Vec<String> = missing.iter().map(|piece| fence(piece, Place::Line)).collect();
    let missing = if missing.is_empty() { "(not said)".to_owned() } else { missing.join("\n- ") };
    format!(
        "Original query: {}\n\nRetrieved memories:\n{}\n\nMissing information:\n- {missing}\n\nReturn the JSON object described above.",
        fence(query, Place::Line),
        memory_lines(memories)
    )
}
