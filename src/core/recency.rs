//! Newest first at equal relevance: among search results with the same score, the memory written last
//! ranks first, so of two facts that contradict each other and match a query alike (the additive pipeline
//! keeps both), the current one comes first.

use super::model::types::MemoryItem;
use super::sort::sort_by;

/// Reorders each run of adjacent `results` with the same score by `updatedAt`, then `createdAt`, newest
/// first. Results without a score, and the order between different scores, are left as they are.
pub fn newest_first_at_equal_score(results: &mut [MemoryItem]) {
    let mut start = 0;
    while start < results.len() {
        let score = results[start].score;
        let run = results[start..].iter().take_while(|item| score.is_some() && item.score == score).count().max(1);
        sort_by(&mut results[start..start + run], |a, b| {
            (&b.updated_at, &b.created_at).cmp(&(&a.updated_at, &a.created_at))
        });
        start += run;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: &str, score: Option<f64>, at: &str) -> MemoryItem {
        MemoryItem {
            id: id.into(),
            memory: String::new(),
            hash: String::new(),
            metadata: Default::default(),
            score,
            fused_score: None,
            created_at: at.into(),
            updated_at: at.into(),
            scope: Default::default(),
            lifecycle: Default::default(),
        }
    }

    #[test]
    fn only_ties_are_reordered_newest_first() {
        let mut results = vec![
            item("a", Some(0.9), "2024-01-01"),
            item("b", Some(0.5), "2024-01-01"),
            item("c", Some(0.5), "2024-03-01"),
            item("d", Some(0.5), "2024-02-01"),
            item("e", Some(0.4), "2025-01-01"),
            item("f", None, "2024-01-01"),
            item("g", None, "2025-01-01"),
        ];
        newest_first_at_equal_score(&mut results);
        let order: String = results.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(order, "acdbefg");
    }
}
