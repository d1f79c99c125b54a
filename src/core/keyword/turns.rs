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

/// Finds a turn's neighbours by its id (`None` for a memory that is no turn of the corpus).
type Lookup<'a> = Box<dyn Fn(&str) -> Option<Around<'a>> + 'a>;

/// Turn id → its neighbours in the searched scope: listed for a corpus, or looked up one turn at a time
/// (`lookup`) when the corpus is a scope, whose turns the keyword index keeps linked.
#[derive(Default)]
pub struct Neighbours<'a> {
    listed: FxHashMap<&'a str, Around<'a>>,
    lookup: Option<Lookup<'a>>,
}

impl<'a> Neighbours<'a> {
    /// Neighbours found by `lookup`, a turn at a time.
    pub fn lookup(lookup: impl Fn(&str) -> Option<Around<'a>> + 'a) -> Self {
        Self { listed: FxHashMap::default(), lookup: Some(Box::new(lookup)) }
    }

    /// The neighbours of turn `id`; `None` for a memory that is no turn of the corpus.
    pub fn get(&self, id: &str) -> Option<Around<'a>> {
        self.listed.get(id).copied().or_else(|| self.lookup.as_ref().and_then(|lookup| lookup(id)))
    }

    /// True when there are no turns.
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty() && self.lookup.is_none()
    }
}

impl<'a> FromIterator<(&'a str, Around<'a>)> for Neighbours<'a> {
    fn from_iter<I: IntoIterator<Item = (&'a str, Around<'a>)>>(pairs: I) -> Self {
        Self { listed: pairs.into_iter().collect(), lookup: None }
    }
}

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

impl FromIterator<(Place, String)> for TurnOrder {
    /// Every turn at once: sorted, then built bottom-up (a tree insertion per turn compared strings at
    /// every level).
    fn from_iter<I: IntoIterator<Item = (Place, String)>>(turns: I) -> Self {
        Self(turns.into_iter().collect())
    }
}

impl TurnOrder {
    pub fn insert(&mut self, place: Place, id: &str) {
        self.0.insert((place, id.to_owned()));
    }

    pub fn remove(&mut self, place: Place, id: &str) {
        self.0.remove(&(place, id.to_owned()));
    }

    /// Every turn's conversation and id, in order.
    pub fn in_order(&self) -> impl Iterator<Item = (&Scope, &str)> {
        self.0.iter().map(|(place, id)| (&place.conversation, id.as_str()))
    }

    /// True when no turn is indexed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The turns right before and right after the turn `id` at `place`, in its conversation.
    pub fn around(&self, place: &Place, id: &str) -> (Option<&str>, Option<&str>) {
        use std::ops::Bound::{Excluded, Unbounded};
        let key = (place.clone(), id.to_owned());
        let same = |entry: &&(Place, String)| entry.0.conversation == place.conversation;
        let before = self.0.range(..key.clone()).next_back().filter(same).map(|(_, id)| id.as_str());
        let after = self.0.range((Excluded(key), Unbounded)).next().filter(same).map(|(_, id)| id.as_str());
        (before, after)
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
