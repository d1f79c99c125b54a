//! The order of conversation turns: messages stored as they were said, in conversations (one per full
//! scope: user, agent and run), ordered by creation time, then by insertion. Within a searched scope each
//! turn has the turn before it and the turn after it in its own conversation, which keyword search reads
//! as context and fused search as neighbours; two users' turns are never neighbours.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use crate::core::model::scope::Scope;

/// A turn's neighbours in the searched scope.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Around<'a> {
    pub before: Option<&'a str>,
    pub after: Option<&'a str>,
}

/// Turn id → its neighbours in the searched scope.
pub type Neighbours<'a> = FxHashMap<&'a str, Around<'a>>;

/// A turn's place: its conversation (its full scope), then its creation time, then its insertion order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub conversation: Scope,
    pub created_at: String,
    pub seq: u64,
}

/// Every indexed turn by its place.
#[derive(Debug, Default)]
pub struct TurnOrder(BTreeSet<(Place, String)>);

impl TurnOrder {
    pub fn insert(&mut self, place: Place, id: &str) {
        self.0.insert((place, id.to_owned()));
    }

    pub fn remove(&mut self, place: Place, id: &str) {
        self.0.remove(&(place, id.to_owned()));
    }

    /// The id of the last turn of `conversation` (creation times are ISO strings, all below U+10FFFF).
    pub fn last_of(&self, conversation: &Scope) -> Option<&str> {
        let end = Place { conversation: conversation.clone(), created_at: "\u{10FFFF}".into(), seq: u64::MAX };
        let (place, id) = self.0.range(..=(end, "\u{10FFFF}".to_owned())).next_back()?;
        (&place.conversation == conversation).then_some(id.as_str())
    }

    /// The turns passing `corpus`, each with the one before and after it among them in its conversation.
    pub fn neighbours(&self, corpus: &dyn Fn(&str) -> bool) -> Neighbours<'_> {
        let order: Vec<(&Scope, &str)> =
            self.0.iter().filter(|(_, id)| corpus(id)).map(|(place, id)| (&place.conversation, id.as_str())).collect();
        let beside = |j: Option<usize>, conversation: &Scope| {
            j.and_then(|j| order.get(j)).filter(|(c, _)| *c == conversation).map(|&(_, id)| id)
        };
        order
            .iter()
            .enumerate()
            .map(|(i, &(conversation, id))| {
                let around =
                    Around { before: beside(i.checked_sub(1), conversation), after: beside(Some(i + 1), conversation) };
                (id, around)
            })
            .collect()
    }
}
