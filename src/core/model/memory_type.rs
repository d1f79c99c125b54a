//! What kind of memory a memory is (facts, documents and conversation memories each have theirs), and the
//! routing of new facts.

use crate::core::case::CaseExt;
use serde::{Deserialize, Serialize};

/// The kind of a memory. `recall()` labels each line with it (`[PROCEDURAL] …`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryType {
    /// A fact about the world or the user (the default for facts).
    #[default]
    Semantic,
    /// Something that happened: a conversation turn, an episode's narrative.
    Episodic,
    /// A preference or a way of working ("User prefers short answers").
    Procedural,
    /// About the current session only.
    Working,
    /// A participant's profile.
    Profile,
    /// A plan or intention, possibly with a validity window.
    Foresight,
    /// An atomic, time-stamped event.
    EventLog,
}

impl MemoryType {
    /// Every type, in documentation order.
    pub const ALL: &'static [MemoryType] = &[
        Self::Semantic,
        Self::Episodic,
        Self::Procedural,
        Self::Working,
        Self::Profile,
        Self::Foresight,
        Self::EventLog,
    ];

    /// The name callers use, e.g. `event_log`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Semantic => "semantic",
            Self::Episodic => "episodic",
            Self::Procedural => "procedural",
            Self::Working => "working",
            Self::Profile => "profile",
            Self::Foresight => "foresight",
            Self::EventLog => "event_log",
        }
    }

    /// The type called `name`, if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|kind| kind.as_str() == name)
    }
}

/// Words that mark a preference on their own (the signals "I prefer", "I hate", "my favorite", …), in the
/// first person and in the third person that extracted facts use ("User prefers …").
const PREFERENCE_WORDS: &[&str] =
    &["prefer", "prefers", "preferred", "preference", "hate", "hates", "favorite", "favourite", "dislike", "dislikes"];

/// Words after which "always" or "never" marks a habit of the speaker ("I always …", "I'm never …",
/// "User always …"); anywhere else ("It always rains", "Support never answered") they mark nothing.
const HABIT_SUBJECTS: &[&str] = &["i", "i'm", "am", "user"];

/// Past forms that make "I never …" an event rather than a habit ("I never got the email").
const IRREGULAR_PAST: &[&str] = &[
    "got", "had", "did", "was", "were", "saw", "heard", "went", "came", "made", "knew", "took", "told", "said",
    "found", "thought", "gave", "sent", "paid", "left", "met", "read", "bought", "became", "forgot",
];

/// True for "I always take …", "User never eats …": a subject, "always"/"never", then no past form.
fn states_habit(words: &[&str]) -> bool {
    words.windows(3).any(|w| {
        let past = w[2].ends_with("ed") || IRREGULAR_PAST.contains(&w[2]);
        HABIT_SUBJECTS.contains(&w[0]) && matches!(w[1], "always" | "never") && !past
    })
}

/// True when `text` states a preference.
pub fn is_preference(text: &str) -> bool {
    let lower = text.lowercased();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).collect();
    words.iter().any(|word| PREFERENCE_WORDS.contains(word))
        || states_habit(&words)
        || lower.contains("can't stand")
        || lower.contains("do not like")
        || lower.contains("don't like")
}

/// The type of a new fact from `add()`: the caller's, else procedural for a preference, else semantic.
pub fn route_fact(text: &str, given: Option<MemoryType>) -> MemoryType {
    given.unwrap_or(if is_preference(text) { MemoryType::Procedural } else { MemoryType::Semantic })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_ones_are_refused() {
        for kind in MemoryType::ALL {
            assert_eq!(MemoryType::parse(kind.as_str()), Some(*kind));
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
        assert_eq!(MemoryType::parse("eventlog"), None);
        assert!(serde_json::from_str::<MemoryType>("\"Semantic\"").is_err());
        assert_eq!(MemoryType::default(), MemoryType::Semantic);
    }

    #[test]
    fn preferences_are_procedural_and_other_facts_semantic() {
        for text in [
            "I prefer dark mode",
            "User always writes tests first",
            "I hate long meetings",
            "My favorite editor is Helix",
            "User's favourite colour is green",
            "User dislikes emoji",
            "I can't stand spam",
        ] {
            assert_eq!(route_fact(text, None), MemoryType::Procedural, "{text}");
        }
        for text in ["User works at Acme", "User lives in Berlin", "Alwaysland is a town"] {
            assert_eq!(route_fact(text, None), MemoryType::Semantic, "{text}");
        }
        assert_eq!(route_fact("I prefer tea", Some(MemoryType::Episodic)), MemoryType::Episodic);
    }

    #[test]
    fn always_and_never_alone_are_no_preference() {
        for text in [
            "I never received the invoice email.",
            "I never got a reply",
            "The build never finished",
            "It always rains in Bergen",
            "Support never answered the ticket",
        ] {
            assert_eq!(route_fact(text, None), MemoryType::Semantic, "{text}");
        }
        for text in [
            "I always take the stairs",
            "User always replies in French",
            "I'm always up by six",
            "User never eats meat",
        ] {
            assert_eq!(route_fact(text, None), MemoryType::Procedural, "{text}");
        }
    }
}
