//! Step 5 of ingestion: the memory type of a chunk. The caller's `memoryTypeHint` wins;
//! otherwise the first rule that holds, with no model behind any of them:
//!
//! 1. **procedural**: the chunk states a preference (the words `add()` routes on: *prefer*, *always*,
//!    *never*, *hate*, *favorite*, *dislike*, *can't stand*, *don't like*, …);
//! 2. **working**: it is explicitly about the present moment or the current session: one of the phrases
//!    in [`NOW_PHRASES`] (*right now*, *currently*, *today*, *this session*, *this conversation*, …); a
//!    bare *now* is not enough ("she now works at Acme" is a fact);
//! 3. **semantic**: it reads as a subject–predicate–object fact: some sentence has a present-tense verb of
//!    being, having or relation ([`FACT_VERBS`]: *is*, *are*, *has*, *uses*, *works*, *lives*, *contains*,
//!    …) with a word before it and a word after it, and the chunk shows none of the marks of a conversation
//!    or an event: no question, no speaker labels (`User:`, `Alice:` at the start of two lines, or one of
//!    `User:` / `Assistant:` / `Human:` / `AI:` / `Q:` / `A:`), no narrated past ([`EVENT_WORDS`]:
//!    *yesterday*, *ago*, *last week*, *we discussed*, *went*, *decided*, …);
//! 4. **episodic** otherwise: a conversation turn, an event, a question.

use super::sentences::sentences;
use crate::core::case::CaseExt;
use crate::core::model::memory_type::is_preference;
use crate::core::model::MemoryType;

/// Phrases that make a chunk about now (matched on whole words, case-insensitively).
pub const NOW_PHRASES: &[&str] = &[
    "right now",
    "for now",
    "just now",
    "as of now",
    "at the moment",
    "at present",
    "currently",
    "today",
    "tonight",
    "this morning",
    "this afternoon",
    "this evening",
    "this session",
    "current session",
    "this conversation",
    "this chat",
    "current task",
];

/// Verbs that state a fact: being, having, and relations, in the present tense.
pub const FACT_VERBS: &[&str] = &[
    "is",
    "are",
    "has",
    "have",
    "means",
    "contains",
    "includes",
    "uses",
    "use",
    "supports",
    "support",
    "requires",
    "require",
    "needs",
    "provides",
    "provide",
    "returns",
    "return",
    "stores",
    "store",
    "runs",
    "depends",
    "depend",
    "consists",
    "belongs",
    "works",
    "lives",
    "owns",
    "own",
    "equals",
    "costs",
    "defines",
    "describes",
    "represents",
    "holds",
    "lies",
    "speaks",
    "knows",
    "studies",
    "teaches",
    "manages",
    "leads",
];

/// Words of a narrated event or a past exchange.
pub const EVENT_WORDS: &[&str] = &[
    "yesterday",
    "ago",
    "last week",
    "last month",
    "last year",
    "last night",
    "last time",
    "earlier",
    "we discussed",
    "we talked",
    "happened",
    "went",
    "met",
    "said",
    "told",
    "asked",
    "decided",
    "visited",
];

/// Speaker labels that mark a conversation turn on their own.
const ROLES: &[&str] = &["user", "assistant", "human", "ai", "system", "q", "a"];

/// The memory type of `text`: `hint`, else the first rule of the module's list that holds.
pub fn route(text: &str, hint: Option<MemoryType>) -> MemoryType {
    if let Some(hint) = hint {
        return hint;
    }
    if is_preference(text) {
        MemoryType::Procedural
    } else if is_about_now(text) {
        MemoryType::Working
    } else if is_fact(text) {
        MemoryType::Semantic
    } else {
        MemoryType::Episodic
    }
}

/// The lower-cased words of `text` (letters, digits and apostrophes), with typographic apostrophes made plain.
fn words(text: &str) -> Vec<String> {
    let lower = text.lowercased().replace('’', "'");
    lower.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

/// True when the words of `phrase` occur in `words`, in order and next to each other.
fn has_phrase(words: &[String], phrase: &str) -> bool {
    let wanted: Vec<&str> = phrase.split(' ').collect();
    words.windows(wanted.len()).any(|window| window.iter().zip(&wanted).all(|(w, p)| w == p))
}

/// True when `text` is explicitly about the present moment or the current session.
pub fn is_about_now(text: &str) -> bool {
    let words = words(text);
    NOW_PHRASES.iter().any(|phrase| has_phrase(&words, phrase))
}

/// True when `text` reads as a subject–predicate–object fact and not as a conversation or an event.
pub fn is_fact(text: &str) -> bool {
    let all = words(text);
    if text.contains('?') || is_dialogue(text) || EVENT_WORDS.iter().any(|phrase| has_phrase(&all, phrase)) {
        return false;
    }
    sentences(text).into_iter().any(|(start, end)| {
        let words = words(&text[start..end]);
        words.iter().enumerate().any(|(i, w)| i > 0 && i + 1 < words.len() && FACT_VERBS.contains(&w.as_str()))
    })
}

/// True when lines start with speaker labels: one of `ROLES`, or any one-word label on two lines.
fn is_dialogue(text: &str) -> bool {
    let labels: Vec<String> = text
        .lines()
        .filter_map(|line| {
            let (label, rest) = line.trim_start().split_once(':')?;
            let one_word = !label.is_empty() && label.chars().count() <= 20 && label.chars().all(char::is_alphanumeric);
            (one_word && rest.starts_with(' ')).then(|| label.lowercased())
        })
        .collect();
    labels.len() >= 2 || labels.iter().any(|label| ROLES.contains(&label.as_str()))
}

#[cfg(test)]
#[path = "route_tests.rs"]
mod tests;
