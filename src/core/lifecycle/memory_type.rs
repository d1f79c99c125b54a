//! What kind of memory a memory is (seed 004 §1.6 and seed 002), and the routing of new facts.

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

/// Words that mark a preference (seed 004 §1.5: "I prefer", "I always", "I hate", "my favorite", …), in the
/// first person and in the third person that extracted facts use ("User prefers …").
const PREFERENCE_WORDS: &[&str] = &[
    "prefer",
    "prefers",
    "preferred",
    "preference",
    "always",
    "never",
    "hate",
    "hates",
    "favorite",
    "favourite",
    "dislike",
    "dislikes",
];

/// True when `text` states a preference.
pub fn is_preference(text: &str) -> bool {
    let lower = text.lowercased();
    lower.split(|c: char| !c.is_alphanumeric() && c != '\'').any(|word| PREFERENCE_WORDS.contains(&word))
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
}
