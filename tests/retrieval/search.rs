//! The four retrieve methods on one data set where each orders it differently.
//!
//! Query "car insurance" (vector e1). Alice's memories, cosine and BM25 (N = 4, average length 3.75):
//!   automobile  cos 1.0   —
//!   insurance   cos 0.6   bm25 1.669466 (car + insurance, 5 terms)
//!   racing      cos 0.8   bm25 0.674745 (car, 4 terms)
//!   gardening   cos 0.0   —
//! hybrid (0.7 · cos + 0.3 · bm25 / 1.669466): insurance .72, automobile .70, racing .68125, gardening 0
//! rrf (k = 60): insurance 1/63 + 1/61, racing 2/62, automobile 1/61, gardening 1/64

use futures_executor::block_on;
use memwasm::core::fusion::Method;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::MemoryItem;
use memwasm::core::read::{ReadOptions, WeightOptions};
use memwasm::core::testing::TableEmbedder;
use serde_json::json;

use crate::fixtures::*;

fn car_memory() -> (Engine<TableEmbedder>, Doubles<TableEmbedder>) {
    let doubles = doubles(car_embedder());
    let engine = doubles.engine();
    store(&engine, "alice", &[AUTOMOBILE, INSURANCE, RACING, GARDENING]);
    store(&engine, "bob", &["Bob needs car insurance, car insurance, car insurance"]);
    (engine, doubles)
}

fn texts(results: &[MemoryItem]) -> Vec<&str> {
    results.iter().map(|m| m.memory.as_str()).collect()
}

fn scores(results: &[MemoryItem]) -> Vec<f64> {
    results.iter().map(|m| m.score.unwrap()).collect()
}

fn assert_close(actual: Vec<f64>, expected: &[f64]) {
    assert_eq!(actual.len(), expected.len(), "{actual:?}");
    for (a, e) in actual.iter().zip(expected) {
        assert!((a - e).abs() < 1e-5, "{actual:?} != {expected:?}");
    }
}

#[test]
fn every_method_orders_the_same_data_as_documented() {
    let (engine, _) = car_memory();
    let run = |method| search_with(&engine, "car insurance", &search("alice", method)).unwrap();

    let vector = run("vector");
    assert_eq!(vector.method, Method::Vector);
    assert_eq!(texts(&vector.results), [AUTOMOBILE, RACING, INSURANCE, GARDENING]);
    assert_close(scores(&vector.results), &[1.0, 0.8, 0.6, 0.0]);

    let keyword = run("keyword");
    assert_eq!(keyword.method, Method::Keyword);
    assert_eq!(texts(&keyword.results), [INSURANCE, RACING], "only memories sharing a term");
    assert_close(scores(&keyword.results), &[1.669_465_6, 0.674_745_0]);

    let hybrid = run("hybrid");
    assert_eq!(hybrid.method, Method::Hybrid);
    assert_eq!(texts(&hybrid.results), [INSURANCE, AUTOMOBILE, RACING, GARDENING]);
    assert_close(scores(&hybrid.results), &[0.72, 0.70, 0.681_250_5, 0.0]);

    let rrf = run("rrf");
    assert_eq!(rrf.method, Method::Rrf);
    assert_eq!(texts(&rrf.results), [INSURANCE, RACING, AUTOMOBILE, GARDENING]);
    assert_close(scores(&rrf.results), &[1.0 / 63.0 + 1.0 / 61.0, 2.0 / 62.0, 1.0 / 61.0, 1.0 / 64.0]);

    // The plain `search` is the hybrid method.
    let plain = block_on(engine.search("car insurance", &read("alice"))).unwrap();
    assert_eq!((plain.method, plain.results), (Method::Hybrid, hybrid.results));
}

#[test]
fn turns_are_found_by_the_turn_before() {
    // Two conversations' turns: the answer ("Bilbao") shares no word with the question; the turn before
    // it does. As facts, keyword search finds only the question; as turns, it finds the answer too, and
    // the fused methods raise the answer towards the question's score.
    let lines = ["Where did you go on holiday?", "Bilbao, for the museum.", "The weather was grey."];
    let facts = doubles(car_embedder()).engine();
    store(&facts, "alice", &lines);
    let found = |engine: &Engine<TableEmbedder>, method| {
        texts(&search_with(engine, "holiday", &search("alice", method)).unwrap().results)
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(found(&facts, "keyword"), [lines[0]]);
    let turns = doubles(car_embedder()).engine();
    store_turns(&turns, "alice", &lines);
    assert_eq!(found(&turns, "keyword"), [lines[0], lines[1]], "the answer is read with the question before it");
    // The turn after the answer is not: context is only the turn before.
    assert!(!found(&turns, "keyword").contains(&lines[2].to_string()));
    // Another user's turns are not neighbours: bob's answer follows alice's question in time only.
    store_turns(&turns, "bob", &["Paris was lovely."]);
    assert_eq!(found(&turns, "keyword"), [lines[0], lines[1]]);
    let fused = search_with(&turns, "holiday", &search("alice", "hybrid")).unwrap();
    assert_eq!(texts(&fused.results)[..2], [lines[0], lines[1]]);
    assert!(fused.results.iter().all(|m| (0.0..=1.0).contains(&m.score.unwrap())));
}

#[test]
fn two_users_turns_are_never_neighbours() {
    // One agent serves two users; u2 speaks right after u1. Searching the agent's scope, u2's turn is not
    // read with u1's words, and each user's own conversation keeps its context.
    let engine = doubles(car_embedder()).engine();
    let said = |user: &str, texts: &[&str]| {
        let messages: Vec<_> = texts.iter().map(|t| json!({"role": "user", "content": t})).collect();
        let mut options = add_options(user);
        options.scope.agent_id = Some("shop".into());
        block_on(engine.add(&json!(messages), &options)).unwrap();
    };
    said("u1", &["I drink coffee every morning"]);
    said("u2", &["Hello there"]);
    said("u1", &["With oat milk, please."]);
    let shop = ScopeFields { agent_id: Some("shop".into()), ..ScopeFields::default() };
    let agent = ReadOptions { scope: shop, method: Some(Method::Keyword), ..ReadOptions::default() };
    let found = search_with(&engine, "coffee", &agent).unwrap();
    assert_eq!(texts(&found.results), ["I drink coffee every morning", "With oat milk, please."]);
}

#[test]
fn the_order_of_turns_stored_by_one_call_survives_a_reopen() {
    // Twelve turns in one call, each answer after its question; whatever order storage returns them in,
    // a reopened memory reads each answer with its question.
    let doubles = doubles(car_embedder());
    let engine = doubles.engine();
    let pairs: Vec<(String, String)> =
        (0..6).map(|i| (format!("Which colour is box{i}?"), format!("Shade number {i}, I think."))).collect();
    let said: Vec<&str> = pairs.iter().flat_map(|(q, a)| [q.as_str(), a.as_str()]).collect();
    store_turns(&engine, "alice", &said);
    let answers = |engine: &Engine<TableEmbedder>| -> Vec<String> {
        (0..6)
            .map(|i| {
                let hits = search_with(engine, &format!("box{i}"), &search("alice", "keyword")).unwrap();
                hits.results.iter().map(|m| m.memory.clone()).find(|t| t.starts_with("Shade")).unwrap_or_default()
            })
            .collect()
    };
    let expected: Vec<String> = pairs.iter().map(|(_, a)| a.clone()).collect();
    assert_eq!(answers(&engine), expected);
    let created: Vec<String> = {
        let all = block_on(engine.get_all(&read("alice"))).unwrap();
        let mut at: Vec<String> = all.results.iter().map(|m| m.created_at.clone()).collect();
        at.sort();
        at.dedup();
        at
    };
    assert_eq!(created.len(), said.len(), "each turn of the call has its own time");
    let reopened = block_on(doubles.open()).unwrap();
    assert_eq!(answers(&reopened), expected);
}

#[test]
fn scope_and_filters_apply_to_every_method() {
    let (engine, _) = car_memory();
    for method in ["vector", "keyword", "hybrid", "rrf"] {
        let found = search_with(&engine, "car insurance", &search("alice", method)).unwrap();
        assert!(found.results.iter().all(|m| m.scope.user_id.as_deref() == Some("alice")), "{method}");
        let bobs = search_with(&engine, "car insurance", &search("bob", method)).unwrap();
        assert_eq!(texts(&bobs.results), ["Bob needs car insurance, car insurance, car insurance"], "{method}");

        let mut filtered = search("alice", method);
        filtered.filters = Some(json!({"field": "memory", "operator": "icontains", "value": "racing"}));
        let found = search_with(&engine, "car insurance", &filtered).unwrap();
        assert_eq!(texts(&found.results), [RACING], "{method}");
    }
}

#[test]
fn limit_and_threshold_apply_to_the_final_ranking() {
    let (engine, _) = car_memory();
    let with = |method: &str, limit: Option<f64>, threshold: Option<f64>| {
        let mut options = search("alice", method);
        options.limit = limit;
        options.threshold = threshold;
        texts(&search_with(&engine, "car insurance", &options).unwrap().results)
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(with("hybrid", None, Some(0.7)), [INSURANCE, AUTOMOBILE]);
    assert_eq!(with("rrf", None, Some(0.02)), [INSURANCE, RACING]);
    assert_eq!(with("keyword", None, Some(1.0)), [INSURANCE]);
    assert_eq!(with("vector", None, Some(0.7)), [AUTOMOBILE, RACING]);
    assert_eq!(with("hybrid", Some(1.0), None), [INSURANCE]);
    assert_eq!(with("rrf", Some(2.0), None), [INSURANCE, RACING]);
}

#[test]
fn hybrid_weights_are_configurable_and_validated() {
    let (engine, _) = car_memory();
    let weighted = |vector: Option<f64>, keyword: Option<f64>| {
        let options = ReadOptions { weights: Some(WeightOptions { vector, keyword }), ..search("alice", "hybrid") };
        search_with(&engine, "car insurance", &options)
    };
    let keyword_only = weighted(Some(0.0), Some(5.0)).unwrap();
    assert_eq!(texts(&keyword_only.results)[..2], [INSURANCE, RACING]);
    assert_close(scores(&keyword_only.results)[..2].to_vec(), &[1.0, 0.674_745_0 / 1.669_465_6]);
    let vector_only = weighted(Some(1.0), Some(0.0)).unwrap();
    assert_eq!(texts(&vector_only.results), [AUTOMOBILE, RACING, INSURANCE, GARDENING]);
    for (v, k) in [(Some(0.0), Some(0.0)), (Some(-1.0), None), (None, Some(f64::INFINITY))] {
        assert_eq!(weighted(v, k).unwrap_err().code(), "INVALID_INPUT");
    }
}

#[test]
fn the_keyword_index_follows_updates_deletes_reset_and_open() {
    let (engine, doubles) = car_memory();
    let keyword = |engine: &Engine<TableEmbedder>, query: &str| {
        let found = search_with(engine, query, &search("alice", "keyword")).unwrap();
        texts(&found.results).into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let racing = block_on(engine.get_all(&read("alice"))).unwrap().results[2].clone();
    block_on(engine.update(&racing.id, "User likes sailing")).unwrap();
    assert_eq!(keyword(&engine, "racing"), Vec::<String>::new());
    assert_eq!(keyword(&engine, "sailing"), ["User likes sailing"]);
    let insurance = block_on(engine.get_all(&read("alice"))).unwrap().results[1].clone();
    block_on(engine.delete(&insurance.id, false)).unwrap();
    assert_eq!(keyword(&engine, "car insurance"), Vec::<String>::new());

    // A second engine over the same storage rebuilds the keyword index when it opens.
    let reopened = block_on(doubles.open()).unwrap();
    assert_eq!(keyword(&reopened, "sailing"), ["User likes sailing"]);
    assert_eq!(keyword(&reopened, "gardening"), [GARDENING]);

    block_on(engine.reset()).unwrap();
    assert_eq!(keyword(&engine, "sailing"), Vec::<String>::new());
    assert_eq!(keyword(&engine, "gardening"), Vec::<String>::new());
}
