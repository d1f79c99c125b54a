//! Graph memory's step of `search()`: the entities the query names, one hop along their relations, and the
//! memories they came from, merged into the results by BM25; the relations walked join the response.

use std::collections::HashSet;

use crate::core::engine::search::SearchResponse;
use crate::core::engine::MemoryEngine;
use crate::core::graph::{merge_by_bm25, Graph};
use crate::core::keyword::tokenize;
use crate::core::model::graph::{Relation, RelationTriple};
use crate::core::model::scope::Scope;
use crate::core::model::types::MemoryItem;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::Read;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// What a graph-enhanced search found: memory ids linked to the entities of the query (and their
/// neighbours), and the relations walked.
#[derive(Debug, Default)]
struct GraphHits {
    memory_ids: Vec<String>,
    relations: Vec<Relation>,
}

/// `response` for `text` with what `graph` finds (unless `read` says `graph: false`): the memories linked to
/// the entities `text` names, re-ranked with the results by BM25, and `relations` (empty when none is named).
pub(super) fn graph_search<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default>(
    graph: &Graph,
    engine: &MemoryEngine<L, E, S, V>,
    text: &str,
    read: &Read,
    response: &mut SearchResponse,
) {
    if !read.graph.unwrap_or(true) {
        return;
    }
    let hits = graph_hits(graph, text, &read.scope).unwrap_or_default();
    if !hits.memory_ids.is_empty() {
        let now = engine.now_iso();
        let keep = |item: &MemoryItem| read.keeps(item, &now);
        let (index, keywords) = (engine.index.borrow(), engine.keywords.borrow());
        let results = std::mem::take(&mut response.results);
        let linked = |id: &str| hits.memory_ids.iter().any(|m| m == id);
        let shown = |id: &str| results.iter().any(|item| item.id == id);
        let passes = |id: &str| (linked(id) || shown(id)) && index.get(id).is_some_and(|m| keep(&m.item));
        let corpus = |id: &str| index.get(id).is_some_and(|m| read.scope.contains(&m.item.scope));
        let bm25: Vec<(f64, &str)> = keywords.search(text, usize::MAX, &corpus, &passes);
        response.results = merge_by_bm25(results, &bm25, &hits.memory_ids, &|id| {
            index.get(id).filter(|m| keep(&m.item)).map(|m| m.item.clone())
        });
        response.results.truncate(read.limit);
    }
    response.relations = Some(hits.relations.iter().map(RelationTriple::from).collect());
}

/// The entities of `scope` named in `query` (whole words, any case), one hop along relations, and the
/// memories all of them came from; `None` when the query names no entity.
fn graph_hits(graph: &Graph, query: &str, scope: &Scope) -> Option<GraphHits> {
    let words = format!(" {} ", tokenize(query).join(" "));
    let named: HashSet<String> = graph
        .entities(scope)
        .into_iter()
        .filter(|e| {
            let name = tokenize(&e.name).join(" ");
            !name.is_empty() && words.contains(&format!(" {name} "))
        })
        .map(|e| e.name.clone())
        .collect();
    if named.is_empty() {
        return None;
    }
    let relations: Vec<Relation> = graph
        .relations(scope)
        .into_iter()
        .filter(|r| named.contains(&r.source) || named.contains(&r.target))
        .cloned()
        .collect();
    let reached: HashSet<&String> = named.iter().chain(relations.iter().flat_map(|r| [&r.source, &r.target])).collect();
    let mut memory_ids: Vec<String> = Vec::new();
    let entities = graph.entities(scope);
    let sources = entities.iter().filter(|e| reached.contains(&e.name)).flat_map(|e| e.memory_ids.iter());
    for id in sources.chain(relations.iter().flat_map(|r| r.memory_ids.iter())) {
        if !memory_ids.contains(id) {
            memory_ids.push(id.clone());
        }
    }
    Some(GraphHits { memory_ids, relations })
}
