//! `recall()`: the memories worth putting in a prompt, as a `<memory>` block within a token
//! budget, preferences (`metadata.type: "procedural"`) first.

use crate::core::case::CaseExt;
use serde::Serialize;
use serde_json::Value;

use super::memory::MemoryEngine;
use super::search::OVERFETCH;
use crate::core::error::Result;
use crate::core::fusion::Method;
use crate::core::model::types::{AddWarning, MemoryItem};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::prompt_fence::{escape_tags, fence, Place};
use crate::core::read::{is_procedural, Read};
use crate::core::storage::Storage;
use crate::core::tokens::{estimate_tokens, TokenCounter};
use crate::core::vector_store::VectorStore;

/// The block's opening line and closing tag, shared with `formatForInjection`.
pub(crate) const OPEN: &str = "<memory>\n";
pub(crate) const CLOSE: &str = "</memory>";

/// What `recall()` returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecallResult {
    /// The memories in `text`, in its order.
    pub memories: Vec<MemoryItem>,
    /// Tokens of `text`; never more than the budget.
    pub total_tokens: usize,
    /// `total_tokens / token_budget`.
    pub budget_used: f64,
    /// The `<memory>` block, or `""` when nothing was recalled.
    pub text: String,
    /// How candidates were ranked.
    pub method: Method,
    /// Why the ranking was degraded (`EMBEDDING_UNAVAILABLE`, `VECTORS_PENDING`, see `degraded`); absent
    /// when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AddWarning>,
}

/// Estimated tokens of `text`: [`estimate_tokens`], under its former name.
pub fn approx_tokens(text: &str) -> usize {
    estimate_tokens(text)
}

/// Recall drops memories less important than this; pinned and procedural ones (which recall always
/// includes) excepted.
pub const MIN_RECALL_IMPORTANCE: f64 = 0.2;

/// The line label: `metadata.type` upper-cased when set (as before memory types existed),
/// else the memory's `memoryType` (`SEMANTIC`, `PROCEDURAL`, `EVENT_LOG`, …).
pub fn memory_type(item: &MemoryItem) -> String {
    match item.metadata.get("type").and_then(Value::as_str).map(str::trim) {
        Some(kind) if !kind.is_empty() => kind.uppercased(),
        _ => item.lifecycle.memory_type.as_str().uppercased(),
    }
}

/// One line of the block: `[TYPE] text`. Line breaks, control characters and runs of spaces of the label
/// and the text are single spaces, and the label has no `[` or `]` (see `prompt_fence`); `<`, `>` and `&`
/// of both are written as `&lt;`, `&gt;` and `&amp;`. So stored text (or a `metadata.type`) can never start
/// a line, close the `<memory>` block or open a tag of its own.
pub fn memory_line(item: &MemoryItem) -> String {
    let label = escape_tags(&fence(&memory_type(item), Place::Label));
    format!("[{label}] {}", escape_tags(&fence(&item.memory, Place::Line)))
}

/// Picks from `ranked` (procedural memories first, then pinned ones, each group in its order) while the
/// block stays within `budget` tokens by `counter`, up to `top_k` memories; a memory too long for what is
/// left is skipped. Every part of the block ends in a line break, which no token spans (in the estimate or
/// in OpenAI's tokenizers), so the block costs at most the sum of its parts.
pub fn assemble(
    ranked: Vec<MemoryItem>,
    top_k: usize,
    budget: usize,
    counter: &TokenCounter,
) -> (Vec<MemoryItem>, String) {
    let (preferences, others): (Vec<MemoryItem>, Vec<MemoryItem>) = ranked.into_iter().partition(is_procedural);
    let (pinned, others): (Vec<MemoryItem>, Vec<MemoryItem>) = others.into_iter().partition(|m| m.lifecycle.pinned);
    let mut used = counter.count(OPEN) + counter.count(CLOSE);
    let mut chosen = Vec::new();
    let mut lines = String::new();
    for item in preferences.into_iter().chain(pinned).chain(others) {
        if chosen.len() >= top_k {
            break;
        }
        let line = memory_line(&item) + "\n";
        let cost = counter.count(&line);
        if used + cost <= budget {
            used += cost;
            lines.push_str(&line);
            chosen.push(item);
        }
    }
    if chosen.is_empty() {
        return (chosen, String::new());
    }
    (chosen, format!("{OPEN}{lines}{CLOSE}"))
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The scope's memories most relevant to `query`, and every procedural memory of the scope, formatted
    /// for a prompt within the token budget.
    /// `read.limit` is the most memories recalled (default 5), `read.method` ranks them (default `hybrid`).
    pub async fn recall(&self, query: &str, read: &Read) -> Result<RecallResult> {
        let (top_k, budget) = (read.limit, read.token_budget);
        let search = Read {
            limit: top_k.saturating_mul(OVERFETCH),
            method: Some(read.method.unwrap_or(Method::Hybrid)),
            importance_floor: Some(MIN_RECALL_IMPORTANCE),
            ..read.clone()
        };
        let found = self.search(query, &search).await?;
        let mut ranked = found.results;
        ranked.extend(self.unranked_preferences(read, &ranked));
        let (memories, text) = assemble(ranked, top_k, budget, &self.tokens);
        let total_tokens = self.tokens.count(&text);
        Ok(RecallResult {
            memories,
            total_tokens,
            budget_used: total_tokens as f64 / budget as f64,
            text,
            method: found.method,
            warnings: found.warnings,
        })
    }

    /// Procedural memories of the scope (within `filters`) that the search did not return, newest first.
    fn unranked_preferences(&self, read: &Read, ranked: &[MemoryItem]) -> Vec<MemoryItem> {
        let now = self.now_iso();
        let keep = |item: &MemoryItem| {
            read.keeps(item, &now) && is_procedural(item) && !ranked.iter().any(|r| r.id == item.id)
        };
        let index = self.index.borrow();
        index.list(usize::MAX, &keep).into_iter().rev().map(|m| m.item.clone()).collect()
    }
}

#[cfg(test)]
#[path = "recall_tests.rs"]
mod tests;
