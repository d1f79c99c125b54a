//! Graph memory's search step, with the access notes after it: the memories the graph adds to a search's
//! results are noted as accessed like the others.

use std::collections::BTreeSet;

use futures_executor::block_on;
use serde_json::json;

use crate::core::fusion::Method;
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::Read;
use crate::core::storage::InMemoryStorage;
use crate::core::testing::letter_engine;

#[test]
fn memories_the_graph_adds_to_a_search_are_noted_as_accessed() {
    let engine = letter_engine(InMemoryStorage::default());
    engine.graph().set_graph(Vec::new());
    let options = AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() };
    let add = |text: &str| block_on(engine.add(&json!(text), &options)).unwrap().results[0].id.clone();
    let linked = add("plays the violin");
    for spacer in ["zzz", "yyy", "xxx"] {
        add(spacer); // not next to the memory the query names (a hit's neighbours join keyword results)
    }
    let named = add("Alice likes hiking");
    let scope = Scope { user_id: Some("u".into()), ..Scope::default() };
    let graph = json!({"entities": [{"name": "Alice", "type": "person"}], "memoryIds": [linked]});
    block_on(engine.graph().write_graph(&graph, scope.clone())).unwrap();

    let read = Read { method: Some(Method::Keyword), ..Read::of(scope, 10) };
    let plain = block_on(engine.search("Alice", &Read { graph: Some(false), ..read.clone() })).unwrap();
    assert_eq!(plain.results.len(), 1, "without the graph, the keyword hit alone");
    engine.lifecycle().take_accesses();
    let response = block_on(engine.search("Alice", &read)).unwrap();
    let returned: BTreeSet<String> = response.results.iter().map(|item| item.id.clone()).collect();
    assert_eq!(returned, BTreeSet::from([named, linked]), "the keyword hit and the memory the graph links");

    let noted: BTreeSet<String> = engine.lifecycle().take_accesses().into_iter().map(|memory| memory.item.id).collect();
    assert_eq!(noted, returned, "every memory returned is noted, the graph's too");
}
