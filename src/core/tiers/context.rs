//! The context tier (after LangMem's `summarize_messages`): a conversation kept within a token budget.
//! While it fits, it is returned as is; when a push makes it overflow, the oldest turns are folded into a
//! running summary with one LLM call that sees the previous summary and the turns leaving the window — never
//! the whole history again — and the window becomes `[summary as a system message, …the last turns]`.
//! The summary and the turns kept are a side record per scope, so a reload continues where it stopped.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::prompts::{summary_input, SUMMARY_PROMPT};
use super::CONTEXT;
use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddWarning, Message, WarningCode};
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::prompt_fence::{fence, Place};
use crate::core::side_records::SideWrite;
use crate::core::storage::Storage;
use crate::core::tiers::Tiers;
use crate::core::vector_store::VectorStore;

/// Tokens a chat message costs beyond its role and content (OpenAI's chat format: about 4).
pub const MESSAGE_OVERHEAD: usize = 4;

/// A context window: whose it is, its budget and how many turns it always keeps verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextWindow {
    pub scope: Scope,
    pub max_tokens: usize,
    pub keep_last: usize,
}

/// What a window holds, as stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContextState {
    pub summary: Option<String>,
    /// The turns not yet folded into the summary.
    pub messages: Vec<Message>,
    /// Turns folded into the summary so far.
    pub summarized: usize,
}

/// What `push` returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextResult {
    /// What to send to the model: the summary as a system message (once there is one), then the turns.
    pub messages: Vec<Message>,
    pub summary: Option<String>,
    /// Turns this push folded into the summary (0 when everything fitted).
    pub summarized: usize,
    /// Tokens of `messages`, as the memory counts them.
    pub total_tokens: usize,
    /// `TURN_TRUNCATED` when the newest turn alone was over the budget and was cut; absent when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AddWarning>,
}

/// The summary as the system message that opens the window (its further lines indented).
pub fn summary_message(summary: &str) -> Message {
    let summary = fence(summary, Place::Block);
    Message::new("system", format!("Summary of the conversation so far:\n{summary}"))
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Tiers<'_, L, E, S, V> {
    /// Tokens of one chat message: its role, its content, its name (and one more, as the chat format
    /// counts a name) and the format's overhead.
    pub fn message_tokens(&self, message: &Message) -> usize {
        let name = message.name.as_deref().map_or(0, |name| self.count_tokens(name) + 1);
        self.count_tokens(&message.role) + self.count_tokens(&message.content) + name + MESSAGE_OVERHEAD
    }

    fn window_tokens(&self, summary: Option<&str>, messages: &[Message]) -> usize {
        let opening = summary.map_or(0, |s| self.message_tokens(&summary_message(s)));
        opening + messages.iter().map(|m| self.message_tokens(m)).sum::<usize>()
    }

    /// What `window` holds now (empty before its first push).
    pub async fn context_state(&self, scope: &Scope) -> Result<ContextState> {
        let value = self.side_record(CONTEXT, &scope.key()).await?;
        Ok(value.and_then(|value| crate::core::value_de::from_value(&value).ok()).unwrap_or_default())
    }

    /// Adds `turns` to `window` and returns it within budget, folding the oldest turns into the running
    /// summary when it overflows. A failed summary call rejects with the model's coded error and changes
    /// nothing. The newest turn is always kept; when it alone is over the budget it is cut to fit, with a
    /// `TURN_TRUNCATED` warning. The window never exceeds `max_tokens`: a summary that has no room left is
    /// kept for the next fold but not sent.
    pub async fn context_push(&self, window: &ContextWindow, turns: Vec<Message>) -> Result<ContextResult> {
        if let Some(index) = turns.iter().position(|t| t.role.trim().is_empty()) {
            return Err(MemoryError::InvalidInput(format!("messages[{index}].role must be a non-empty string")));
        }
        let _guard = self.locks.lock(&format!("context:{}", window.scope.key())).await;
        let mut state = self.context_state(&window.scope).await?;
        state.messages.extend(turns);
        let mut warnings = Vec::new();
        if let Some(newest) = state.messages.last_mut() {
            if self.message_tokens(newest) > window.max_tokens {
                if self.message_tokens(newest) - self.count_tokens(&newest.content) > window.max_tokens {
                    newest.name = None; // a name longer than the whole window goes before the text does
                }
                if self.message_tokens(newest) > window.max_tokens {
                    newest.content = self.cut_to(newest, window.max_tokens);
                }
                let why = format!("the newest turn was over the window's {} tokens and was cut", window.max_tokens);
                warnings.push(AddWarning::new(WarningCode::TurnTruncated, why));
            }
        }
        let mut folded = 0;
        if self.window_tokens(state.summary.as_deref(), &state.messages) > window.max_tokens {
            folded = self.fold(window, &mut state).await?;
        }
        let value = serde_json::to_value(&state).unwrap_or(Value::Null);
        self.write_side(vec![SideWrite::put(CONTEXT, &window.scope.key(), value)]).await?;
        let mut summary = state.summary.as_deref();
        if self.window_tokens(summary, &state.messages) > window.max_tokens {
            summary = None;
        }
        let total_tokens = self.window_tokens(summary, &state.messages);
        let mut messages: Vec<Message> = summary.iter().map(|s| summary_message(s)).collect();
        messages.extend(state.messages);
        Ok(ContextResult { messages, summary: state.summary, summarized: folded, total_tokens, warnings })
    }

    /// Folds the oldest turns of an overflowing `state` into its summary; returns how many. The turns kept
    /// take at most half the budget and the summary at most a quarter (less when the turns leave less), so
    /// the next pushes have room before another fold.
    async fn fold(&self, window: &ContextWindow, state: &mut ContextState) -> Result<usize> {
        let summary_share = window.max_tokens / 4;
        let turns_budget = window.max_tokens / 2;
        let last = state.messages.len().saturating_sub(1);
        let mut split = state.messages.len().saturating_sub(window.keep_last).min(last);
        while split < last && self.window_tokens(None, &state.messages[split..]) > turns_budget {
            split += 1;
        }
        if split == 0 {
            return Ok(0);
        }
        let input = summary_input(state.summary.as_deref(), &state.messages[..split]);
        let reply = self.llm.generate(&LlmRequest::text(SUMMARY_PROMPT, &input)).await?;
        if reply.trim().is_empty() {
            return Err(MemoryError::LlmResponse("the summary reply was empty".into()));
        }
        let room = window.max_tokens.saturating_sub(self.window_tokens(None, &state.messages[split..]));
        state.summary = Some(self.fit_summary(reply.trim(), room.min(summary_share)));
        state.messages.drain(..split);
        state.summarized += split;
        Ok(split)
    }

    /// `message`'s content cut at a word boundary (marked `…`, or at a character when it has one word) so
    /// that the message with it takes at most `budget` tokens.
    fn cut_to(&self, message: &Message, budget: usize) -> String {
        let content = message.content.as_str();
        // What the message costs besides its content: its role, its name and the format's overhead.
        let fixed = self.message_tokens(message) - self.count_tokens(content);
        let fits = |text: &str| fixed + self.count_tokens(text) <= budget;
        let words: Vec<&str> = content.split_whitespace().collect();
        match longest(words.len(), |n| fits(&cut_words(&words, n))) {
            0 => {
                let chars: Vec<char> = content.chars().collect();
                let n = longest(chars.len(), |n| fits(&chars[..n].iter().collect::<String>()));
                chars[..n].iter().collect()
            }
            n => cut_words(&words, n),
        }
    }

    /// `summary`, cut at a word boundary (marked `…`) so that its system message takes at most `room` tokens
    /// (just `…` when not even one word fits).
    fn fit_summary(&self, summary: &str, room: usize) -> String {
        if self.message_tokens(&summary_message(summary)) <= room {
            return summary.to_owned();
        }
        let words: Vec<&str> = summary.split_whitespace().collect();
        let fits = |n: usize| self.message_tokens(&summary_message(&cut_words(&words, n))) <= room;
        match longest(words.len(), fits) {
            0 => "…".to_owned(),
            n => cut_words(&words, n),
        }
    }
}

/// The first `n` of `words`, then ` …`.
fn cut_words(words: &[&str], n: usize) -> String {
    words[..n].join(" ") + " …"
}

/// The largest `n` in `0..=most` for which `fits(n)` holds (0 when only none fits), by binary search: `fits`
/// must hold for every number below one for which it holds.
fn longest(most: usize, fits: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, most);
    while low < high {
        let middle = (low + high).div_ceil(2);
        match fits(middle) {
            true => low = middle,
            false => high = middle - 1,
        }
    }
    low
}
