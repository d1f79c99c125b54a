//! Scope interning: each distinct (userId, agentId, runId) a memory is filed under gets a small id, so
//! a search checks a row's scope with one array lookup instead of string comparisons.

use rustc_hash::FxHashMap;

use crate::core::model::scope::Scope;

/// The distinct scopes of the stored memories.
#[derive(Debug, Default)]
pub struct ScopeTable {
    /// Fx-hashed, as the index's ids are: a load interns every memory's scope.
    ids: FxHashMap<Scope, u32>,
    scopes: Vec<Scope>,
}

impl ScopeTable {
    /// The id of `scope`, assigning the next one when it is new.
    pub fn intern(&mut self, scope: &Scope) -> u32 {
        if let Some(id) = self.ids.get(scope) {
            return *id;
        }
        let id = self.scopes.len() as u32;
        self.ids.insert(scope.clone(), id);
        self.scopes.push(scope.clone());
        id
    }

    /// The id of `scope`, when it is interned.
    pub fn get(&self, scope: &Scope) -> Option<u32> {
        self.ids.get(scope).copied()
    }

    /// For every interned id, whether a query in `query` may see memories filed under it.
    pub fn visible_from(&self, query: &Scope) -> Vec<bool> {
        self.scopes.iter().map(|scope| query.contains(scope)).collect()
    }

    /// The interned ids a query in `query` may see memories filed under, ascending.
    pub fn visible_ids(&self, query: &Scope) -> Vec<u32> {
        let mut ids = Vec::new();
        for (id, scope) in self.scopes.iter().enumerate() {
            if query.contains(scope) {
                ids.push(id as u32);
            }
        }
        ids
    }

    /// Every interned id visible (a search with no scope restriction).
    pub fn all_visible(&self) -> Vec<bool> {
        vec![true; self.scopes.len()]
    }

    /// Forgets every scope.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.scopes.clear();
    }
}
