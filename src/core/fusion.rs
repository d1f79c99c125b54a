//! Combining a vector ranking and a keyword ranking into one: a weighted sum of normalised scores
//! ("hybrid") or reciprocal rank fusion ("rrf").

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use serde::{Deserialize, Serialize};

use super::error::{MemoryError, Result};
use super::keyword::Neighbours;

/// The `k` of reciprocal rank fusion: a memory at rank r (from 1) earns 1 / (k + r) per list.
pub const RRF_K: f64 = 60.0;

/// How much of its best neighbour's fused score a conversation turn gains, from the turns right beside it
/// and from those two turns away (see [`with_neighbours`]).
pub const NEIGHBOUR_SHARE: Shares = Shares { next: 0.3, second: 0.2 };

/// The shares of a neighbour's score a turn gains: `next` from the turn right before or after it, `second`
/// from the turn two before or two after. They sum to at most 1, so a score stays in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shares {
    pub next: f64,
    pub second: f64,
}

/// How `search` ranks memories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Cosine similarity of embeddings.
    Vector,
    /// BM25 over the memory text.
    Keyword,
    /// Weighted sum of the normalised vector and keyword scores.
    Hybrid,
    /// Reciprocal rank fusion of the vector and keyword rankings.
    Rrf,
    /// LLM-guided retrieval: hybrid, an LLM's judgement of the results, and when they fall short
    /// a second round for refined queries, fused by RRF (`retrieval::agentic`).
    Agentic,
}

/// The weights of a hybrid search (normalised to sum to 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    pub vector: f64,
    pub keyword: f64,
}

impl Default for Weights {
    /// 0.7 vector, 0.3 keyword.
    fn default() -> Self {
        Self { vector: 0.7, keyword: 0.3 }
    }
}

impl Weights {
    /// Checks that both weights are finite and non-negative, and not both zero; scales them to sum to 1.
    pub fn normalised(vector: f64, keyword: f64) -> Result<Self> {
        let valid = |w: f64| w.is_finite() && w >= 0.0;
        if !valid(vector) || !valid(keyword) || vector + keyword <= 0.0 {
            return Err(MemoryError::InvalidInput(format!(
                "weights must be non-negative finite numbers, not both zero; got vector {vector}, keyword {keyword}"
            )));
        }
        let total = vector + keyword;
        Ok(Self { vector: vector / total, keyword: keyword / total })
    }
}

/// A ranking: (score, id), best first.
pub type Ranking<'a> = Vec<(f64, &'a str)>;

/// Every id of `lists`, each once, in order of first appearance.
fn union<'a>(lists: &[&Ranking<'a>]) -> Vec<&'a str> {
    let mut seen = HashSet::default();
    lists.iter().flat_map(|list| list.iter().map(|&(_, id)| id)).filter(|id| seen.insert(*id)).collect()
}

/// Each id of `list` with its score.
fn scores<'a>(list: &Ranking<'a>) -> HashMap<&'a str, f64> {
    list.iter().map(|&(score, id)| (id, score)).collect()
}

/// Sorts best first; equal scores keep the order of `ids`.
fn ranked<'a>(ids: Vec<&'a str>, score: impl Fn(&str) -> f64) -> Ranking<'a> {
    let mut fused: Ranking<'a> = ids.into_iter().map(|id| (score(id), id)).collect();
    crate::core::sort::sort_by(&mut fused, |a, b| b.0.total_cmp(&a.0));
    fused
}

/// Hybrid: `weights.vector · max(cosine, 0) + weights.keyword · bm25 / best bm25`. A memory missing from a
/// list scores 0 there, so every fused score lies in [0, 1].
pub fn weighted<'a>(vector: &Ranking<'a>, keyword: &Ranking<'a>, weights: Weights) -> Ranking<'a> {
    // Each id once, in order of first appearance, with its cosine and BM25: one look-up per entry of a list.
    let mut at: HashMap<&str, usize> = HashMap::default();
    at.reserve(vector.len() + keyword.len());
    let mut parts: Vec<(&'a str, [f64; 2])> = Vec::with_capacity(vector.len() + keyword.len());
    for (list, part) in [(vector, 0), (keyword, 1)] {
        for &(score, id) in list {
            let entry = *at.entry(id).or_insert_with(|| {
                parts.push((id, [0.0; 2]));
                parts.len() - 1
            });
            parts[entry].1[part] = score;
        }
    }
    weighted_parts(parts, weights)
}

/// [`weighted`] of `vector` and a keyword ranking whose scores of `vector`'s memories are known:
/// `keyword_of[i]` is the BM25 of `vector[i]` (0: none), `others` the keyword ranking's memories that are
/// not in `vector`, best first. The same ranking, without a look-up of any id.
pub fn weighted_known<'a>(
    vector: &Ranking<'a>,
    keyword_of: &[f64],
    others: &Ranking<'a>,
    weights: Weights,
) -> Ranking<'a> {
    let known = keyword_of.iter().copied().chain(std::iter::repeat(0.0));
    let parts = vector.iter().zip(known).map(|(&(cosine, id), bm25)| (id, [cosine, bm25]));
    weighted_parts(parts.chain(others.iter().map(|&(bm25, id)| (id, [0.0, bm25]))).collect(), weights)
}

/// Each memory's `[cosine, bm25]` fused by `weights`, best first (equal scores in the order given).
fn weighted_parts<'a>(parts: Vec<(&'a str, [f64; 2])>, weights: Weights) -> Ranking<'a> {
    let best_keyword = parts.iter().map(|(_, [_, bm25])| *bm25).fold(0.0, f64::max);
    let mut fused: Ranking<'a> = parts
        .into_iter()
        .map(|(id, [cosine, bm25])| {
            let bm25 = if best_keyword > 0.0 { bm25 / best_keyword } else { 0.0 };
            (weights.vector * cosine.max(0.0) + weights.keyword * bm25, id)
        })
        .collect();
    crate::core::sort::sort_by(&mut fused, |a, b| b.0.total_cmp(&a.0));
    fused
}

/// RRF: the sum over lists of 1 / (`k` + rank), ranks counted from 1; absent from a list adds nothing.
pub fn reciprocal_rank<'a>(lists: &[&Ranking<'a>], k: f64) -> Ranking<'a> {
    let mut fused: HashMap<&'a str, f64> = HashMap::default();
    for list in lists {
        for (position, &(_, id)) in list.iter().enumerate() {
            *fused.entry(id).or_default() += 1.0 / (k + position as f64 + 1.0);
        }
    }
    ranked(union(lists), |id| fused[id])
}

/// Raises each conversation turn of `ranking` towards its neighbours: a turn scoring `s` whose turn right
/// before or after scores at best `m`, and whose turn two before or two after scores at best `m2`, scores
/// `s + (shares.next · m + shares.second · m2) · (1 − s)`, so a fused score stays in [0, 1] and an answer is
/// found beside the turn that asked for it (or one turn further, after a reply). Memories that are not turns
/// keep their score.
pub fn with_neighbours<'a>(mut ranking: Ranking<'a>, neighbours: &Neighbours<'_>, shares: Shares) -> Ranking<'a> {
    if neighbours.is_empty() {
        // No turns: nothing is raised (and no map of the scores is built).
        crate::core::sort::sort_by(&mut ranking, |a, b| b.0.total_cmp(&a.0));
        return ranking;
    }
    let fused = scores(&ranking);
    let score = |id: Option<&str>| id.and_then(|id| fused.get(id)).copied().unwrap_or(0.0).max(0.0);
    let raise = |own: f64, id: &str| {
        let Some(around) = neighbours.get(id) else { return own };
        let further = |next: Option<&str>, before: bool| {
            let beyond = neighbours.get(next?)?;
            if before {
                beyond.before
            } else {
                beyond.after
            }
        };
        let next = score(around.before).max(score(around.after));
        let second = score(further(around.before, true)).max(score(further(around.after, false)));
        own + (shares.next * next + shares.second * second) * (1.0 - own).max(0.0)
    };
    let mut raised: Ranking<'a> = ranking.iter().map(|&(own, id)| (raise(own, id), id)).collect();
    crate::core::sort::sort_by(&mut raised, |a, b| b.0.total_cmp(&a.0));
    raised
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids<'a>(ranking: &Ranking<'a>) -> Vec<&'a str> {
        ranking.iter().map(|(_, id)| *id).collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    // Vector likes a > b > c; keyword likes c > b > d.
    fn lists() -> (Ranking<'static>, Ranking<'static>) {
        (vec![(0.9, "a"), (0.8, "b"), (0.1, "c")], vec![(6.0, "c"), (3.0, "b"), (1.5, "d")])
    }

    #[test]
    fn weighted_sum_of_normalised_scores() {
        let (vector, keyword) = lists();
        let fused = weighted(&vector, &keyword, Weights::default());
        // b: .7·.8 + .3·.5 = .71; a: .7·.9 = .63; c: .7·.1 + .3·1 = .37; d: .3·.25 = .075
        assert_eq!(ids(&fused), ["b", "a", "c", "d"]);
        for ((score, _), want) in fused.iter().zip([0.71, 0.63, 0.37, 0.075]) {
            assert!(close(*score, want), "{fused:?}");
        }
        // Keyword-heavy weights flip the order.
        let fused = weighted(&vector, &keyword, Weights::normalised(1.0, 3.0).unwrap());
        // c: .25·.1 + .75·1 = .775; b: .25·.8 + .75·.5 = .575; a: .225; d: .1875
        assert_eq!(ids(&fused), ["c", "b", "a", "d"]);
        assert!(close(fused[0].0, 0.775));
    }

    #[test]
    fn weighted_handles_empty_lists_and_negative_cosines() {
        let vector: Ranking = vec![(0.5, "a"), (-0.4, "b")];
        let fused = weighted(&vector, &Vec::new(), Weights::default());
        assert_eq!(ids(&fused), ["a", "b"]);
        assert!(close(fused[0].0, 0.35) && close(fused[1].0, 0.0));
        assert!(weighted(&Vec::new(), &Vec::new(), Weights::default()).is_empty());
    }

    #[test]
    fn weighted_of_known_keyword_scores_ranks_as_weighted_does() {
        // Vector likes a > b > c > e; keyword likes c > b > d, and knows nothing of a and e.
        let vector: Ranking = vec![(0.9, "a"), (0.8, "b"), (0.1, "c"), (0.05, "e")];
        let keyword: Ranking = vec![(6.0, "c"), (3.0, "b"), (1.5, "d")];
        for weights in
            [Weights::default(), Weights::normalised(1.0, 3.0).unwrap(), Weights::normalised(0.0, 1.0).unwrap()]
        {
            let known = weighted_known(&vector, &[0.0, 3.0, 6.0, 0.0], &vec![(1.5, "d")], weights);
            assert_eq!(known, weighted(&vector, &keyword, weights), "{weights:?}");
        }
        // Scores missing at the end count as 0; equal scores keep the order given (vector first).
        let tied: Ranking = vec![(0.5, "a"), (0.5, "b")];
        let fused = weighted_known(&tied, &[], &vec![(2.0, "z")], Weights::normalised(0.3, 0.35).unwrap());
        assert_eq!(ids(&fused), ["z", "a", "b"]);
        assert_eq!(fused, weighted(&tied, &vec![(2.0, "z")], Weights::normalised(0.3, 0.35).unwrap()));
    }

    #[test]
    fn weights_are_validated_and_normalised() {
        assert_eq!(Weights::normalised(7.0, 3.0).unwrap(), Weights { vector: 0.7, keyword: 0.3 });
        assert_eq!(Weights::normalised(0.0, 2.0).unwrap(), Weights { vector: 0.0, keyword: 1.0 });
        for (v, k) in [(0.0, 0.0), (-0.1, 1.0), (f64::NAN, 1.0), (1.0, f64::INFINITY)] {
            assert_eq!(Weights::normalised(v, k).unwrap_err().code(), "INVALID_INPUT");
        }
    }

    #[test]
    fn reciprocal_rank_fusion() {
        let (vector, keyword) = lists();
        let fused = reciprocal_rank(&[&vector, &keyword], RRF_K);
        // c: 1/63 + 1/61 = 124/3843 beats b: 1/62 + 1/62 = 2/62 (being first somewhere pays); a: 1/61; d: 1/63
        assert_eq!(ids(&fused), ["c", "b", "a", "d"]);
        let expected = [124.0 / 3843.0, 2.0 / 62.0, 1.0 / 61.0, 1.0 / 63.0];
        for ((score, _), want) in fused.iter().zip(expected) {
            assert!(close(*score, want), "{fused:?}");
        }
        // Only ranks matter, not score scales.
        let scaled: Ranking = keyword.iter().map(|(s, id)| (s * 1000.0, *id)).collect();
        assert_eq!(ids(&reciprocal_rank(&[&vector, &scaled], RRF_K)), ids(&fused));
    }

    #[test]
    fn ties_keep_first_appearance() {
        let fused = reciprocal_rank(&[&vec![(1.0, "x")], &vec![(1.0, "y")]], RRF_K);
        assert_eq!(ids(&fused), ["x", "y"]);
        assert!(close(fused[0].0, fused[1].0));
    }

    #[test]
    fn turns_rise_towards_their_best_neighbour() {
        use crate::core::keyword::Around;
        // t2 answers t1; t9 is a fact, not a turn.
        let ranking: Ranking = vec![(0.8, "t1"), (0.5, "t9"), (0.45, "t2"), (0.1, "t3")];
        let neighbours: Neighbours = [
            ("t1", Around { before: None, after: Some("t2") }),
            ("t2", Around { before: Some("t1"), after: Some("t3") }),
            ("t3", Around { before: Some("t2"), after: None }),
        ]
        .into_iter()
        .collect();
        let fused = with_neighbours(ranking.clone(), &neighbours, Shares { next: 0.2, second: 0.0 });
        // t2: .45 + .2·.8·.55 = .538 passes the fact; t1: .8 + .2·.45·.2 = .818; t3: .1 + .2·.45·.9 = .181
        assert_eq!(ids(&fused), ["t1", "t2", "t9", "t3"]);
        for ((score, _), want) in fused.iter().zip([0.818, 0.538, 0.5, 0.181]) {
            assert!(close(*score, want), "{fused:?}");
        }
        assert!(fused.iter().all(|(s, _)| (0.0..=1.0).contains(s)));
        // Two turns away: t3 gains from t1 (.8) too: .1 + (.2·.45 + .25·.8)·.9 = .361; t1 from t3.
        let fused = with_neighbours(ranking, &neighbours, Shares { next: 0.2, second: 0.25 });
        for ((score, id), want) in fused.iter().zip([0.823, 0.538, 0.5, 0.361]) {
            assert!(close(*score, want), "{id}: {fused:?}");
        }
        let all = with_neighbours(vec![(1.0, "t1"), (1.0, "t2"), (1.0, "t3")], &neighbours, NEIGHBOUR_SHARE);
        assert!(all.iter().all(|(s, _)| close(*s, 1.0)), "scores stay at most 1");
    }

    #[test]
    fn without_turns_nothing_is_raised_and_the_order_is_kept() {
        let ranking: Ranking = vec![(0.8, "a"), (0.5, "b"), (0.5, "c"), (-0.1, "d")];
        let fused = with_neighbours(ranking.clone(), &Neighbours::default(), NEIGHBOUR_SHARE);
        assert_eq!(fused, ranking);
        // An unsorted ranking comes back sorted, equal scores in the order given, as with turns.
        let fused = with_neighbours(vec![(0.1, "x"), (0.5, "y"), (0.1, "z")], &Neighbours::default(), NEIGHBOUR_SHARE);
        assert_eq!(fused, [(0.5, "y"), (0.1, "x"), (0.1, "z")]);
    }

    #[test]
    fn weighted_reads_a_memory_listed_twice_with_one_score_as_once() {
        let (vector, keyword) = lists();
        let mut twice = keyword.clone();
        twice.extend([(3.0, "b"), (6.0, "c")]);
        assert_eq!(weighted(&vector, &twice, Weights::default()), weighted(&vector, &keyword, Weights::default()));
    }

    #[test]
    fn method_names() {
        let parsed: Vec<Method> = serde_json::from_str(r#"["vector","keyword","hybrid","rrf","agentic"]"#).unwrap();
        assert_eq!(parsed, [Method::Vector, Method::Keyword, Method::Hybrid, Method::Rrf, Method::Agentic]);
        assert!(serde_json::from_str::<Method>(r#""bm25""#).is_err());
    }
}
