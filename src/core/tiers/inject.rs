//! `formatForInjection()`: what an agent puts in its system prompt at the start of a session, no
//! query needed — the scope's core profile, then its pinned and procedural memories, then the most important
//! others, as one `<memory>` block (as `recall` writes it) that never exceeds the token budget. Every line is escaped
//! and kept on its line (see `prompt_fence`), so stored text can never close the block, open a tag or start a line.

use serde::Serialize;

use crate::core::engine::recall::{memory_line, CLOSE, MIN_RECALL_IMPORTANCE, OPEN};
use crate::core::error::Result;
use crate::core::model::scope::Scope;
use crate::core::model::types::MemoryItem;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::prompt_fence::{escape_tags, fence, Place};
use crate::core::read::is_procedural;
use crate::core::storage::Storage;
use crate::core::tiers::Tiers;
use crate::core::vector_store::VectorStore;

/// What `formatForInjection()` returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Injection {
    /// The `<memory>` block, or `""` when there is nothing to inject.
    pub text: String,
    /// Tokens of `text`; never more than the budget.
    pub total_tokens: usize,
    /// True when (part of) the core profile is in `text`.
    pub profile: bool,
    /// The memories in `text`, in its order.
    pub memories: Vec<MemoryItem>,
}

/// `items` in injection order: pinned and procedural first, then the rest; each group most important first,
/// newest first among equals. Others below the recall importance floor are left out.
fn ranked(mut items: Vec<MemoryItem>) -> Vec<MemoryItem> {
    let first = |item: &MemoryItem| item.lifecycle.pinned || is_procedural(item);
    items.retain(|item| first(item) || item.lifecycle.importance >= MIN_RECALL_IMPORTANCE);
    crate::core::sort::sort_by(&mut items, |a, b| {
        let group = first(b).cmp(&first(a));
        let importance = b.lifecycle.importance.total_cmp(&a.lifecycle.importance);
        group.then(importance).then_with(|| b.created_at.cmp(&a.created_at))
    });
    items
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Tiers<'_, L, E, S, V> {
    /// The scope's core profile and memories as a `<memory>` block of at most `max_tokens` tokens. Lines that
    /// do not fit in what is left are skipped (the profile is cut at a line).
    pub async fn format_for_injection(&self, scope: &Scope, max_tokens: usize) -> Result<Injection> {
        let profile = self.core_profile(scope).await?;
        self.load_scope(scope).await?;
        let now = self.now_iso();
        let items: Vec<MemoryItem> = {
            let index = self.index.borrow();
            let live = index.list(usize::MAX, &|item| scope.contains(&item.scope) && item.lifecycle.is_live(&now));
            live.into_iter().map(|m| m.item.clone()).collect()
        };
        let mut used = self.count_tokens(OPEN) + self.count_tokens(CLOSE);
        let mut lines = String::new();
        let mut fits = |line: String, lines: &mut String| {
            let cost = self.count_tokens(&line);
            let fitted = used + cost <= max_tokens;
            if fitted {
                used += cost;
                lines.push_str(&line);
            }
            fitted
        };
        let mut with_profile = false;
        for line in profile.iter().flat_map(|p| p.markdown.lines()).filter(|l| !l.trim().is_empty()) {
            if !fits(escape_tags(&fence(line.trim_end(), Place::Spaced)) + "\n", &mut lines) {
                break;
            }
            with_profile = true;
        }
        let mut memories = Vec::new();
        for item in ranked(items) {
            if fits(memory_line(&item) + "\n", &mut lines) {
                memories.push(item);
            }
        }
        if lines.is_empty() {
            return Ok(Injection { text: String::new(), total_tokens: 0, profile: false, memories });
        }
        let text = format!("{OPEN}{lines}{CLOSE}");
        let total_tokens = self.count_tokens(&text);
        Ok(Injection { text, total_tokens, profile: with_profile, memories })
    }
}
