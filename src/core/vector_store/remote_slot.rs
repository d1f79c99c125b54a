//! What the engine keeps about its remote index: the index itself, which memories have a vector there
//! (the in-RAM index keeps none of them), their length, a running sum of them per scope (for novelty),
//! and the deletes it still owes it.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use super::remote::DynRemote;
#[cfg(feature = "extras")]
use super::remote::RemoteVectors;
use crate::core::model::scope::Scope;
use crate::core::model::types::StoredMemory;

/// Deletes and clears that reached storage but not yet the remote index.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Pending {
    pub clear: bool,
    pub deletes: Vec<String>,
}

impl Pending {
    pub fn is_empty(&self) -> bool {
        !self.clear && self.deletes.is_empty()
    }
}

/// The engine's remote index, if one is configured. Only a build with `extras` holds one (the browser's
/// core module does not), so without it every use of the index compiles away.
#[derive(Default)]
pub(crate) struct RemoteSlot {
    #[cfg(feature = "extras")]
    index: Option<Box<dyn DynRemote>>,
    /// The ids of the indexed memories whose vector the remote index holds.
    pub held: RefCell<HashSet<String>>,
    /// The length of those vectors, once one was seen.
    pub dimension: Cell<Option<usize>>,
    /// Per scope, the sum and count of the vectors that went through this instance (written or loaded).
    pub sums: RefCell<HashMap<Scope, (Vec<f64>, usize)>>,
    pub pending: RefCell<Pending>,
    /// True once the pending deletes storage kept (from earlier instances) were read.
    pub pending_loaded: Cell<bool>,
}

impl RemoteSlot {
    /// A slot holding `remote`.
    #[cfg(feature = "extras")]
    pub fn new(remote: impl RemoteVectors + 'static) -> Self {
        Self { index: Some(Box::new(remote)), ..Self::default() }
    }

    /// The remote index, if one is configured (never in a build without `extras`).
    pub fn index(&self) -> Option<&dyn DynRemote> {
        #[cfg(feature = "extras")]
        return self.index.as_deref();
        #[cfg(not(feature = "extras"))]
        None
    }

    /// Takes the vector out of a memory about to enter the in-RAM index, noting that it has one (nothing
    /// without a remote index). A memory written without a vector keeps what was noted: the commit that
    /// wrote it decides (see `forget`).
    pub fn take_vector(&self, memory: &mut StoredMemory) {
        if self.index().is_none() {
            return;
        }
        if let Some(vector) = memory.embedding.take() {
            self.dimension.set(self.dimension.get().or(Some(vector.len())));
            self.held.borrow_mut().insert(memory.item.id.clone());
            let mut sums = self.sums.borrow_mut();
            let (sum, count) = sums.entry(memory.item.scope.clone()).or_insert_with(|| (vec![0.0; vector.len()], 0));
            if sum.len() == vector.len() {
                sum.iter_mut().zip(&vector).for_each(|(s, x)| *s += f64::from(*x));
                *count += 1;
            }
        }
    }

    /// Notes that `id` has no vector anymore.
    pub fn forget(&self, id: &str) {
        let mut held = self.held.borrow_mut();
        // Without a remote index nothing is held: a scope's load forgets each of its ids, unhashed.
        if !held.is_empty() {
            held.remove(id);
        }
    }

    /// Notes that no memory has a vector (the index was cleared).
    pub fn forget_all(&self) {
        self.held.borrow_mut().clear();
        self.sums.borrow_mut().clear();
        self.dimension.set(None);
    }

    /// The mean of the vectors this instance saw for the scopes `scope` contains: a running mean, so
    /// vectors since deleted or replaced still count (novelty's estimate of "where this scope points").
    pub fn centroid(&self, scope: &Scope) -> Option<Vec<f64>> {
        let sums = self.sums.borrow();
        let mut total: Vec<f64> = Vec::new();
        let mut count = 0;
        for (sum, n) in sums.iter().filter(|(held, _)| scope.contains(held)).map(|(_, entry)| entry) {
            if total.is_empty() {
                total = vec![0.0; sum.len()];
            }
            if sum.len() == total.len() {
                total.iter_mut().zip(sum).for_each(|(t, s)| *t += s);
                count += n;
            }
        }
        (count > 0).then(|| total.into_iter().map(|t| t / count as f64).collect())
    }

    /// True when `id` has a vector in the remote index.
    pub fn holds(&self, id: &str) -> bool {
        self.held.borrow().contains(id)
    }
}
