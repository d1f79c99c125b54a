//! Merging what the graph found into search results (BM25 re-ranking of graph-retrieved memories).

use crate::core::model::types::MemoryItem;

/// `results` plus the memories `linked` by the graph (looked up with `lookup`, which also applies scope and
/// filters), re-ranked by their BM25 score against the query (`bm25`, best first). Ties keep the earlier order:
/// the search's own ranking, then the graph's. A memory found only by the graph gets its BM25 score as `score`.
pub fn merge_by_bm25(
    mut results: Vec<MemoryItem>,
    bm25: &[(f64, &str)],
    linked: &[String],
    lookup: &dyn Fn(&str) -> Option<MemoryItem>,
) -> Vec<MemoryItem> {
    let keyword_score = |id: &str| bm25.iter().find(|(_, hit)| *hit == id).map_or(0.0, |(score, _)| *score);
    for id in linked {
        if results.iter().any(|item| &item.id == id) {
            continue;
        }
        if let Some(item) = lookup(id) {
            results.push(MemoryItem { score: Some(keyword_score(id)), ..item });
        }
    }
    let mut ranked: Vec<(f64, usize, MemoryItem)> =
        results.into_iter().enumerate().map(|(at, item)| (keyword_score(&item.id), at, item)).collect();
    crate::core::sort::sort_by(&mut ranked, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.into_iter().map(|(_, _, item)| item).collect()
}
