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
    /// The id interned last: a load's memories come scope by scope, and comparing with the last one
    /// spares hashing the scope of each.
    last: u32,
}

impl ScopeTable {
    /// The id of `scope`, assigning the next one when it is new.
    pub fn intern(&mut self, scope: &Scope) -> u32 {
        if self.scopes.get(self.last as usize) == Some(scope) {
            return self.last;
        }
        let id = match self.ids.get(scope) {
            Some(id) => *id,
            None => {
                let id = self.scopes.len() as u32;
                self.ids.insert(scope.clone(), id);
                self.scopes.push(scope.clone());
                id
            }
        };
        self.last = id;
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
        self.last = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: &str) -> Scope {
        Scope { user_id: Some(id.into()), ..Scope::default() }
    }

    #[test]
    fn a_scope_keeps_its_id_whatever_was_interned_before_it() {
        let mut table = ScopeTable::default();
        let ids: Vec<u32> = ["a", "a", "b", "a", "b", "b", "c", "a"].iter().map(|id| table.intern(&user(id))).collect();
        assert_eq!(ids, [0, 0, 1, 0, 1, 1, 2, 0]);
        assert_eq!(table.get(&user("c")), Some(2));
        table.clear();
        assert_eq!(table.intern(&user("c")), 0);
        assert_eq!(table.intern(&user("a")), 1);
        assert_eq!(table.intern(&user("c")), 0);
    }
}
