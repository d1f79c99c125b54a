//! How many memories a search matched, whatever its limit: the count the conversation API reports as
//! `total_count`. Alice's four memories of `search.rs` ("car insurance": two share a term; cosines 1.0, 0.8,
//! 0.6 and 0.0), Bob's one beside them.

use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::read::ReadOptions;
use serde_json::json;

use crate::fixtures::*;

#[test]
fn a_search_counts_its_matches_whatever_the_limit() {
    let doubles = doubles(car_embedder());
    let engine = doubles.engine();
    store(&engine, "alice", &[AUTOMOBILE, INSURANCE, RACING, GARDENING]);
    store(&engine, "bob", &["Bob needs car insurance"]);
    let matched = |options: serde_json::Value| -> Vec<(usize, usize)> {
        (1..=6)
            .map(|limit| {
                let mut options = options.clone();
                options["limit"] = json!(limit);
                options["userId"] = json!("alice");
                let options: ReadOptions = serde_json::from_value(options).unwrap();
                let found = search_with(&engine, "car insurance", &options).unwrap();
                (found.results.len(), found.matched)
            })
            .collect()
    };
    let keyword = matched(json!({"method": "keyword"}));
    assert_eq!(keyword, [(1, 2), (2, 2), (2, 2), (2, 2), (2, 2), (2, 2)], "two share a term");
    let near = matched(json!({"method": "vector", "radius": 0.5}));
    assert_eq!(near, [(1, 3), (2, 3), (3, 3), (3, 3), (3, 3), (3, 3)], "three within the radius");
    for method in ["hybrid", "rrf"] {
        let fused = matched(json!({"method": method, "threshold": 0.01}));
        assert!(fused.iter().all(|(_, count)| *count == fused[5].1), "{method}: {fused:?}");
        assert_eq!(fused[0], (1, fused[5].0), "{method}");
    }
    let all = ReadOptions { scope: ScopeFields::user("alice"), ..ReadOptions::default() };
    assert_eq!(search_with(&engine, "car insurance", &all).unwrap().total_count, 4, "totalCount stays the pool");
}
