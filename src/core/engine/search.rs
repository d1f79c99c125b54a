//! `search()` by retrieve method: `vector` (cosine), `keyword` (BM25), `hybrid` (weighted sum) or `rrf`
//! (reciprocal rank fusion). With no embedder configured every method is answered by keywords, and the
//! response says so; with the embedder unavailable, the fused methods are too (see `degraded`).

use super::memory::MemoryEngine;
pub use super::search_response::SearchResponse;
use super::search_window::{with_window_members, EventTimes};
use crate::core::error::Result;
use crate::core::fusion::{reciprocal_rank, weighted_known, with_neighbours, Method, Ranking, NEIGHBOUR_SHARE, RRF_K};
use crate::core::keyword::Neighbours;
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pipeline_options::required_text;
use crate::core::query_speaker::{raise_speaker, turn_speaker};
use crate::core::query_time::{event_span, query_window, raise_answers, raise_in, within, TIME_SHARE, WHEN_SHARE};
use crate::core::read::Read;
use crate::core::storage::Storage;
use crate::core::vector_store::{cosine, Count, Predicate, VectorStore};

/// Candidates each ranking contributes per wanted result before fusion (at least [`FUSION_POOL`]).
pub const OVERFETCH: usize = 4;

/// The fewest candidates the vector ranking (and each ranking of `rrf`) contributes to a fused search: in a
/// scope of up to this many memories every memory is scored by both rankings, so one that only one ranking
/// finds is not lost. `hybrid`'s keyword ranking adds its best `limit × 4` to the vector's, each of which gets
/// its keyword score.
pub const FUSION_POOL: usize = 1000;

/// A ranking with owned ids: (score, memory id), best first.
pub(crate) type Ranked = Vec<(f64, String)>;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The method a search really uses: `keyword` when no embedder is configured, else the one asked
    /// for (default `hybrid`: it finds most of what was said, measured by `bench/locomo`).
    pub fn effective_method(&self, requested: Option<Method>) -> Method {
        match requested {
            _ if !self.embedder.is_configured() => Method::Keyword,
            Some(method) => method,
            None => Method::Hybrid,
        }
    }

    /// The scope's memories that best match `query`, ranked by `read.method` (default `hybrid`). Every
    /// ranking honours scope and filters; fused methods take `max(limit × 4, FUSION_POOL)` candidates from
    /// the vector ranking (see [`FUSION_POOL`] for the keyword side) and raise conversation turns towards
    /// their neighbours;
    /// `threshold` applies to the final score, `radius` to the cosines of the vector ranking. `agentic` is
    /// answered by `retrieval::agentic`.
    pub async fn search(&self, query: &str, read: &Read) -> Result<SearchResponse> {
        let text = required_text("query", Some(query))?;
        self.check_rerank(read)?;
        if let Some(at) = read.window.as_of {
            return self.search_as_of(text, read, at).await;
        }
        let method = self.effective_method(read.method);
        if method == Method::Agentic {
            return self.agentic_search(text, read).await;
        }
        // The query is embedded while the scope loads; vectors `add()` left to settle are embedded once it
        // has loaded, beside the query, so no result ranks without one.
        let scope = async {
            self.load_scope(&read.scope).await?;
            self.settle_quietly().await;
            Ok::<_, crate::core::error::MemoryError>(())
        };
        // A speaker the query names is ranked without the name (`query_speaker`): known before the scope
        // loads when its turns are indexed already, so the query is embedded once, else after it loads.
        let hybrid = method == Method::Hybrid;
        let named_early = hybrid.then(|| self.speaker_named(text, &read.scope, false)).flatten();
        let embedded_text = named_early.as_ref().map_or(text, |named| named.query.as_str());
        let query = async {
            match method {
                Method::Keyword => None,
                _ => Some(self.embedder.embed_one(embedded_text).await),
            }
        };
        let (loaded, embedded) = futures_util::future::join(scope, query).await;
        loaded?;
        let named = hybrid.then(|| self.speaker_named(text, &read.scope, true)).flatten();
        let ranked_text = named.as_ref().map_or(text, |named| named.query.as_str());
        // Embedded again for the text ranked, unless the embedding failed: a dead host is not asked twice.
        let embedded = match embedded {
            Some(Ok(_)) if ranked_text != embedded_text => Some(self.embedder.embed_one(ranked_text).await),
            embedded => embedded,
        };
        // Checked against the loaded index's vector length.
        let vector = embedded.map(|embedded| embedded.and_then(|vector| self.fit_index(vector)));
        let (vector, method, fell_back) = self.query_vector(vector, method)?;
        let remote = self.remote_vectors().remote_ranking(vector.as_deref(), method, read).await?;
        let speaker = named.as_ref().map(|named| named.name.as_str());
        // Only the page's ids are copied out of the index, unless a reranker or a remote index reads on.
        let owned = match remote.is_none() && self.reranks(read) == 0 {
            true => read.limit,
            false => usize::MAX,
        };
        let query = (ranked_text, speaker);
        let (ranking, matched) = self.rank_owning(query, vector.as_deref(), remote.as_ref(), (method, read), owned)?;
        let (ranking, reranked) = self.reranked(text, ranking, read).await;
        let mut response = self.respond(text, (ranking, matched), method, read);
        reranked.mark(&mut response);
        response.warnings.extend(fell_back.into_iter().chain(self.vectors_pending(method, read)));
        Ok(response)
    }

    /// One query's ranking by `method` (not `agentic`) over the scope's memories that `read` keeps, best
    /// first, with `threshold` and `radius` applied: every match among `max(limit × 4, FUSION_POOL)`
    /// candidates per ranking (`limit × 4` for `vector` or `keyword` alone, unless `read.count_matches`; see
    /// [`FUSION_POOL`] for `hybrid`), whatever the limit (`respond` keeps the first `read.limit`). `vector` is the query's unit
    /// vector (`None` for `keyword`); `remote` is the vector ranking a remote index gave (see
    /// `remote_ranking`), used instead of the in-RAM one. `speaker`: the speaker the query names, whose
    /// turns rise in a fused ranking (`query_speaker`).
    pub(crate) fn rank(
        &self,
        query: (&str, Option<&str>),
        vector: Option<&[f32]>,
        remote: Option<&Ranked>,
        method: Method,
        read: &Read,
    ) -> Result<Ranked> {
        Ok(self.rank_owning(query, vector, remote, (method, read), usize::MAX)?.0)
    }

    /// [`rank`](Self::rank) with only the first `owned` ids of the ranking copied out of the index (a page
    /// needs no more: at 100,000 memories copying the fused pool's thousand cost 4% of a search), and how
    /// many it ranked in all.
    pub(crate) fn rank_owning(
        &self,
        (text, speaker): (&str, Option<&str>),
        vector: Option<&[f32]>,
        remote: Option<&Ranked>,
        (method, read): (Method, &Read),
        owned: usize,
    ) -> Result<(Ranked, usize)> {
        let now = self.now_iso();
        let in_scope = |item: &MemoryItem| read.scope.contains(&item.scope);
        let keep = |item: &MemoryItem| read.keeps(item, &now);
        let index = self.index.borrow();
        let keywords = self.keywords.borrow();
        let close = |score: f64| read.radius.is_none_or(|radius| score >= radius);
        // The best `limit` by vector, the first `exact` of them with their exact similarity (see
        // `VectorStore::search_pool`).
        let by_vector = |(limit, exact): (usize, usize)| -> Result<Ranking> {
            if let Some(remote) = remote {
                let hits = remote.iter().take(limit).map(|(score, id)| (*score, id.as_str()));
                return Ok(hits.filter(|(s, _)| close(*s)).collect());
            }
            let query = vector.unwrap_or_default();
            let hits = index.search_pool(query, (limit, exact), &read.scope, (&keep, read.plain()))?;
            Ok(hits
                .into_iter()
                .map(|(score, m)| (f64::from(score), m.item.id.as_str()))
                .filter(|(s, _)| close(*s))
                .collect())
        };
        let corpus = |id: &str| index.get(id).is_some_and(|m| in_scope(&m.item));
        // The scope's turns and their neighbours, found once: keyword search reads them, fusion raises them.
        let turns = match method {
            Method::Vector => Neighbours::default(),
            _ => keywords.neighbours_in(&corpus, &read.scope),
        };
        let passes = |id: &str| index.get(id).is_some_and(|m| keep(&m.item));
        let keyword_query = || keywords.query_in(text, (&corpus, &read.scope), &turns);
        let by_keyword = |limit: usize| -> Ranking { keyword_query().top(limit, &passes) };
        let page = read.limit.saturating_mul(OVERFETCH);
        let candidates = page.max(FUSION_POOL);
        let alone = drawn_alone(read);
        // A time the query names raises the memories of that time in the fused rankings.
        // Relative times count from `referenceDate`, else the time an `asOf` read looks at, else now.
        let reference = read.window.reference.or(read.window.as_of).unwrap_or_else(|| self.clock.now_ms());
        let window = query_window(text, reference);
        let time_of = |id: &str| index.get(id).map(|m| event_span(&m.item));
        // The vector candidates, with the scope's memories of the query's time that are not among them.
        let drawn = |wanted: usize| -> Result<Ranking> {
            let similarity = |memory: &StoredMemory| {
                let score = f64::from(cosine(vector?, &index.vector(&memory.item.id)?));
                close(score).then_some(score)
            };
            let members = || {
                let window = window?;
                let times = self.extensions.get_or_attach::<EventTimes>();
                times.within(&*index, window, |item| in_scope(item) && keep(item))
            };
            // The page's candidates get exact cosines, the pool's others the index's estimate. A radius or
            // a threshold is a bound on a score, so with one every candidate's cosine is exact.
            let bounded = read.radius.is_some() || read.threshold.is_some();
            let exact = if bounded { wanted } else { page };
            Ok(with_window_members(by_vector((wanted, exact))?, wanted, members, similarity))
        };
        let ranking = match method {
            Method::Vector => by_vector((alone, alone))?,
            Method::Keyword => by_keyword(alone),
            Method::Hybrid | Method::Agentic => {
                // The keyword list needs only its best for the page; every vector candidate gets its own score.
                let vector = drawn(candidates)?;
                let ids: Vec<&str> = vector.iter().map(|(_, id)| *id).collect();
                let (keyword_of, others) = keyword_query().scores_and_others(&ids, page, &passes);
                let fused = weighted_known(&vector, &keyword_of, &others, read.weights);
                let fused = raise_in(with_neighbours(fused, &turns, NEIGHBOUR_SHARE), window, time_of, TIME_SHARE, 1.0);
                // A question that asks when raises the memories that say a time.
                let text_of = |id: &str| index.get(id).map(|m| m.item.memory.as_str());
                let fused = raise_answers(fused, text, text_of, WHEN_SHARE, 1.0);
                match speaker {
                    Some(name) => raise_speaker(fused, name, |id| {
                        turns.get(id).and(index.get(id)).and_then(|m| turn_speaker(&m.item))
                    }),
                    None => fused,
                }
            }
            Method::Rrf => {
                let lists = [drawn(candidates)?, by_keyword(candidates)];
                let fused = reciprocal_rank(&[&lists[0], &lists[1]], RRF_K);
                // The memories of the query's time are a third list, in the order the two gave them.
                let fused = match within(&fused, window, time_of) {
                    timed if timed.is_empty() => fused,
                    timed => reciprocal_rank(&[&lists[0], &lists[1], &timed], RRF_K),
                };
                with_neighbours(fused, &turns, NEIGHBOUR_SHARE)
            }
        };
        let kept = ranking.into_iter().filter(|(score, _)| read.threshold.is_none_or(|t| *score >= t));
        let (mut ranked, mut matched) = (Vec::new(), 0);
        for (score, id) in kept {
            if matched < owned {
                ranked.push((score, id.to_owned()));
            }
            matched += 1;
        }
        Ok((ranked, matched))
    }

    /// The response for `ranking`, of `matched` memories in all (its head at least): its first `read.limit`
    /// memories (then what the features add for `text`, see `EngineHooks::after_search`), how many it matched,
    /// the size of the pool they were ranked from, and `method`.
    pub(crate) fn respond(
        &self,
        text: &str,
        (ranking, matched): (Ranked, usize),
        method: Method,
        read: &Read,
    ) -> SearchResponse {
        let now = self.now_iso();
        let keep = |item: &MemoryItem| read.keeps(item, &now);
        let index = self.index.borrow();
        let results: Vec<MemoryItem> = ranking
            .into_iter()
            .filter_map(|(score, id)| index.get(&id).map(|m| MemoryItem { score: Some(score), ..m.item.clone() }))
            .take(read.limit)
            .collect();
        let total_count = index.count(&Count { keep: &keep, vectorless: false, plain: read.plain() });
        drop(index);
        let mut response = SearchResponse {
            results,
            method,
            total_count,
            matched,
            relations: None,
            queries: None,
            warnings: Vec::new(),
        };
        self.after_search(Some(text), read, &mut response);
        response
    }

    /// The scope's memories most similar to a caller's `embedding`, by cosine;
    /// its length must match the stored vectors (`DIMENSION_MISMATCH`).
    pub async fn search_by_vector(&self, embedding: Vec<f32>, read: &Read) -> Result<SearchResponse> {
        if read.window.as_of.is_some() {
            return Err(super::as_of_search::not_as_of("a search by vector"));
        }
        let vector = self.fit_given(embedding)?;
        self.load_scope(&read.scope).await?;
        self.settle_quietly().await;
        let remote = self.remote_vectors().remote_ranking(Some(&vector), Method::Vector, read).await?;
        let now = self.now_iso();
        let keep = |item: &MemoryItem| read.keeps(item, &now);
        let index = self.index.borrow();
        let candidates = drawn_by_vector(read);
        let hits: Vec<(f64, &MemoryItem)> = match remote {
            Some(ranked) => ranked.into_iter().filter_map(|(s, id)| Some((s, &index.get(&id)?.item))).collect(),
            None => index
                .search_in_scope(&vector, candidates, &read.scope, (&keep, read.plain()))?
                .into_iter()
                .map(|(score, memory)| (f64::from(score), &memory.item))
                .collect(),
        };
        let passes = |score: f64| read.threshold.into_iter().chain(read.radius).all(|t| score >= t);
        let matching: Vec<(f64, &MemoryItem)> = hits.into_iter().filter(|(score, _)| passes(*score)).collect();
        let matched = matching.len();
        // Only the page kept is cloned: the other matches are only counted.
        let results: Vec<MemoryItem> = matching
            .into_iter()
            .take(read.limit)
            .map(|(score, item)| MemoryItem { score: Some(score), ..item.clone() })
            .collect();
        let total_count = index.count(&Count { keep: &keep, vectorless: false, plain: read.plain() });
        drop(index);
        let warnings = self.vectors_pending(Method::Vector, read).into_iter().collect();
        let mut response = SearchResponse {
            results,
            method: Method::Vector,
            total_count,
            matched,
            relations: None,
            queries: None,
            warnings,
        };
        self.after_search(None, read, &mut response);
        Ok(response)
    }

    /// Runs the features' search steps on `response`, a search for `text` (`None`: by vector).
    fn after_search(&self, text: Option<&str>, read: &Read, response: &mut SearchResponse) {
        for hooks in self.extensions.hooks() {
            hooks.after_search(self, text, read, response);
        }
    }

    /// Up to `limit` memories passing `keep` most like a text: by its unit `vector`, or by BM25 on `text`
    /// when it has none (a memory without an embedder).
    /// `scope` narrows a remote index's query (`keep` must check it too).
    pub(crate) async fn similar(
        &self,
        text: &str,
        vector: Option<&[f32]>,
        limit: usize,
        scope: &Scope,
        keep: Predicate<'_>,
    ) -> Result<Vec<StoredMemory>> {
        if let Some(vector) = vector {
            if let Some(ranked) = self.remote_vectors().remote_hits(vector, limit, scope, None, keep).await? {
                return Ok(ranked.into_iter().filter_map(|(_, id)| self.indexed(&id)).collect());
            }
        }
        let index = self.index.borrow();
        if let Some(vector) = vector {
            return Ok(index.search(vector, limit, keep)?.into_iter().map(|(_, memory)| memory.clone()).collect());
        }
        let passes = |id: &str| index.get(id).is_some_and(|m| keep(&m.item));
        let keywords = self.keywords.borrow();
        let hits = keywords.search(text, limit, &passes, &passes);
        Ok(hits.into_iter().filter_map(|(_, id)| index.get(id).cloned()).collect())
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "search_time_tests.rs"]
mod time_tests;

/// How many candidates a ranking used alone (`vector` or `keyword`, not fused) draws: about the page
/// (`limit × 4`), or the fusion pool when `read.count_matches` asks for the matches to be counted.
fn drawn_alone(read: &Read) -> usize {
    let page = read.limit.saturating_mul(OVERFETCH);
    if read.count_matches {
        page.max(FUSION_POOL)
    } else {
        page
    }
}

/// How many candidates a search by a caller's vector draws: the page, as nothing reorders them after the
/// ranking (a threshold only cuts its tail), or the fusion pool when `read.count_matches` asks for the count.
fn drawn_by_vector(read: &Read) -> usize {
    if read.count_matches {
        drawn_alone(read)
    } else {
        read.limit
    }
}

#[cfg(test)]
#[path = "search_pool_tests.rs"]
mod pool_tests;
