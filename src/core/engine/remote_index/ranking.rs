//! Vector rankings from the remote index, over-fetching until enough hits pass the exact local checks.

use super::VectorQuery;
use crate::core::engine::remote_index::RemoteIndex;
use crate::core::engine::search::{Ranked, OVERFETCH};
use crate::core::error::Result;
use crate::core::filter::Filter;
use crate::core::fusion::Method;
use crate::core::model::scope::Scope;
use crate::core::model::types::MemoryItem;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::Read;
use crate::core::storage::Storage;
use crate::core::vector_store::{Predicate, VectorStore};

/// The most hits one remote query asks for while over-fetching.
const MAX_ASKED: usize = 100_000;

/// How many hits to ask for first when `wanted` must pass the local checks.
pub(crate) fn first_ask(wanted: usize) -> usize {
    wanted.saturating_mul(2).saturating_add(10).min(MAX_ASKED)
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> RemoteIndex<'_, L, E, S, V> {
    /// The vector ranking `method` needs from the remote index (`None` without one, or without `vector`).
    pub(crate) async fn remote_ranking(
        &self,
        vector: Option<&[f32]>,
        method: Method,
        read: &Read,
    ) -> Result<Option<Ranked>> {
        let (Some(vector), true) = (vector, method != Method::Keyword) else { return Ok(None) };
        let wanted = match method {
            Method::Vector => read.limit,
            _ => read.limit.saturating_mul(OVERFETCH),
        };
        let now = self.now_iso();
        let keep = |item: &MemoryItem| read.scope.contains(&item.scope) && read.keeps(item, &now);
        self.remote_hits(vector, wanted, &read.scope, read.filter.as_ref(), &keep).await
    }

    /// Up to `wanted` (cosine, id) of memories passing `keep`, best first, from the remote index: asks for
    /// more (×4) while too few of its hits pass and it had more to give. `None` without a remote index.
    pub(crate) async fn remote_hits(
        &self,
        vector: &[f32],
        wanted: usize,
        scope: &Scope,
        filter: Option<&Filter>,
        keep: Predicate<'_>,
    ) -> Result<Option<Ranked>> {
        let Some(remote) = self.remote.index() else { return Ok(None) };
        if wanted == 0 {
            return Ok(Some(Vec::new()));
        }
        let mut asked = first_ask(wanted);
        loop {
            let hits = remote.query(VectorQuery { vector, limit: asked, scope, filter }).await?;
            let complete = hits.len() < asked || asked >= MAX_ASKED;
            let index = self.index.borrow();
            let mut kept: Ranked = hits
                .into_iter()
                .filter(|(id, _)| index.get(id).is_some_and(|memory| keep(&memory.item)))
                .map(|(id, score)| (f64::from(score), id))
                .collect();
            if kept.len() >= wanted || complete {
                kept.truncate(wanted);
                return Ok(Some(kept));
            }
            asked = asked.saturating_mul(4).min(MAX_ASKED);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_ask;

    #[test]
    fn first_ask_over_fetches_and_is_bounded() {
        assert_eq!(first_ask(1), 12);
        assert_eq!(first_ask(100), 210);
        assert_eq!(first_ask(usize::MAX), 100_000);
    }
}
