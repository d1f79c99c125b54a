//! `embedder: {provider: "none"}`: memories without vectors, BM25 neighbours for the update decision,
//! every search answered by keywords, and never an embedding call.

use futures_executor::block_on;
use memwasm::core::fusion::Method;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::EventKind;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::testing::NoEmbedder;
use serde_json::json;

use crate::fixtures::*;

fn inferring(user: &str) -> AddOptions {
    AddOptions { scope: ScopeFields::user(user), ..AddOptions::default() }
}

#[test]
fn add_update_search_recall_and_tools_work_without_vectors() {
    let doubles = doubles(NoEmbedder::new());
    let engine = doubles.engine();
    store(&engine, "alice", &["User likes tea", "User lives in Paris", "User owns a cat"]);
    store(&engine, "bob", &["User likes tea with milk"]);
    assert!(block_on(engine.get_all(&read("alice"))).unwrap().results.iter().all(|m| m.score.is_none()));

    // The update decision is shown the BM25 neighbours of the new fact, from the caller's scope only.
    doubles.llm.queue(json!({"facts": ["User likes green tea"]}));
    doubles.llm.queue(
        json!({"memory": [{"id": "0", "event": "UPDATE", "text": "User likes green tea", "old_memory": "User likes tea"}]}),
    );
    let result = block_on(engine.add(&json!("Actually I prefer green tea"), &inferring("alice"))).unwrap();
    let decision_prompt = doubles.llm.calls()[1].user.clone();
    assert!(decision_prompt.contains("User likes tea"), "{decision_prompt}");
    assert!(!decision_prompt.contains("with milk"), "bob's memory is not a neighbour");
    let rank = |text: &str| decision_prompt.find(text).unwrap_or(usize::MAX);
    assert!(rank("\"User likes tea\"") < rank("Paris"), "the best match is shown first: {decision_prompt}");
    assert_eq!(result.results.len(), 1);
    assert_eq!(result.results[0].event, EventKind::Update);
    assert_eq!(result.results[0].new_memory.as_deref(), Some("User likes green tea"));

    // Exact duplicates are still caught, by hash.
    doubles.llm.queue(json!({"facts": ["User owns a cat"]}));
    let again = block_on(engine.add(&json!("I have a cat"), &inferring("alice"))).unwrap();
    assert_eq!(again.results[0].event, EventKind::None);

    // Every method degrades to keyword, and says so.
    for method in ["vector", "keyword", "hybrid", "rrf"] {
        let found = search_with(&engine, "green tea", &search("alice", method)).unwrap();
        assert_eq!(found.method, Method::Keyword, "{method}");
        assert_eq!(found.results[0].memory, "User likes green tea", "{method}");
    }
    assert_eq!(block_on(engine.search("cat", &read("alice"))).unwrap().results[0].memory, "User owns a cat");

    // update() without re-embedding.
    let cat = block_on(engine.get_all(&read("alice")))
        .unwrap()
        .results
        .into_iter()
        .find(|m| m.memory.contains("cat"))
        .unwrap();
    block_on(engine.update(&cat.id, "User owns two cats")).unwrap();
    let found = search_with(&engine, "cats", &search("alice", "hybrid")).unwrap();
    assert_eq!(found.results[0].memory, "User owns two cats");

    let recalled = recall_with(&engine, "tea", &user_options("alice")).unwrap();
    assert_eq!(recalled.method, Method::Keyword);
    assert_eq!(recalled.text, "<memory>\n[SEMANTIC] User likes green tea\n</memory>");

    let scope = Scope { user_id: Some("alice".into()), ..Scope::default() };
    let created =
        block_on(engine.run_tool(&scope, "manage_memory", &json!({"action": "create", "content": "User plays chess"})));
    assert_eq!(created.unwrap()["event"], "ADD");
    let found = block_on(engine.run_tool(&scope, "search_memory", &json!({"query": "chess"}))).unwrap();
    assert_eq!(found["results"][0]["memory"], "User plays chess");

    assert_eq!(doubles.embedder.requests(), 0, "no embedding request, ever");
}
