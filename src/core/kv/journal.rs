//! The journal beside a scope's open image: one key per commit and scope (`jr/{scope}/{stamp}`) naming the
//! memories the commit wrote (`c`) and deleted (`g`), written with the commit (in the same atomic write in
//! a Durable Object). Opening reads the image, then the memories the journal names, and applies them
//! (`core::image::with_journal`). An image write deletes the entries that existed when its read began, so
//! an entry left is one the image may not cover.

use serde::{Deserialize, Serialize};

use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;

/// The memories one commit wrote and deleted in one scope.
#[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Entry {
    /// Written (added or updated).
    #[serde(default, rename = "c")]
    pub changed: Vec<String>,
    /// Deleted.
    #[serde(default, rename = "g")]
    pub gone: Vec<String>,
}

/// A commit's entries, one per scope it touched, in the order the scopes first appear.
#[derive(Default)]
pub struct Entries(pub Vec<(Scope, Entry)>);

impl Entries {
    /// The entry of `scope`, made on first use.
    fn of(&mut self, scope: &Scope) -> &mut Entry {
        let at = match self.0.iter().position(|(known, _)| known == scope) {
            Some(at) => at,
            None => {
                self.0.push((scope.clone(), Entry::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    /// Notes that memory `id` of `scope` was written.
    pub fn wrote(&mut self, scope: &Scope, id: &str) {
        self.of(scope).changed.push(id.to_owned());
    }

    /// Notes that memory `id` of `scope` was deleted.
    pub fn deleted(&mut self, scope: &Scope, id: &str) {
        self.of(scope).gone.push(id.to_owned());
    }
}

/// The stored value of an entry.
pub fn encode(entry: &Entry) -> Result<String> {
    serde_json::to_string(entry).map_err(|e| MemoryError::Storage(format!("cannot encode a journal entry: {e}")))
}

/// The entry stored at `key`; `None` for a value this library did not write (the image is then not used).
pub fn decode(value: &str) -> Option<Entry> {
    serde_json::from_str(value).ok()
}

/// What the journal says about the memories of a scope: every id it names, and those deleted at some point
/// (a deleted id that exists now was written again: it goes after every memory of the image, as a new one).
#[derive(Default)]
pub struct Named {
    pub ids: Vec<String>,
    pub deleted: rustc_hash::FxHashSet<String>,
}

impl Named {
    /// The ids of `entries`, each once, in the order first named.
    pub fn of<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Self {
        let mut named = Self::default();
        let mut seen = rustc_hash::FxHashSet::default();
        for entry in entries {
            for id in entry.changed.iter().chain(&entry.gone) {
                if seen.insert(id.clone()) {
                    named.ids.push(id.clone());
                }
            }
            named.deleted.extend(entry.gone.iter().cloned());
        }
        named
    }
}
