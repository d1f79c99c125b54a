//! A message's `name` (the OpenAI chat format's speaker of a turn) is kept as the memory's `actor_id`, as
//! mem0 keeps it: a turn stored as it was said remembers who said it, and a filter on `actor_id` finds it.

use futures_executor::block_on;
use serde_json::{json, Value};

use crate::core::filter::Filter;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::Read;
use crate::core::storage::InMemoryStorage;
use crate::core::testing::letter_engine;
use crate::core::vector_store::tests::scope;

fn verbatim() -> AddOptions {
    AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() }
}

#[test]
fn a_messages_name_is_kept_as_the_actor_of_its_memory() {
    let engine = letter_engine(InMemoryStorage::default());
    let turns = json!([
        {"role": "user", "name": "Melanie", "content": "I painted a lake"},
        {"role": "user", "name": "Caroline", "content": "I painted a lake"},
        {"role": "assistant", "content": "Both lovely"},
    ]);
    let added = block_on(engine.add(&turns, &verbatim())).unwrap();
    let actor = |nth: usize| added.results[nth].metadata.as_ref().and_then(|m| m.get("actor_id")).cloned();
    assert_eq!(actor(0), Some(json!("Melanie")));
    assert_eq!(actor(1), Some(json!("Caroline")), "the same text said by another keeps its own speaker");
    assert_eq!(actor(2), None);
    let stored = block_on(engine.get(&added.results[1].id)).unwrap().unwrap();
    assert_eq!(stored.metadata.get("actor_id"), Some(&json!("Caroline")));
    assert_eq!(stored.metadata.get("role"), Some(&json!("user")));

    let mut read = Read::of(scope("u", None), 10);
    read.filter = Some(Filter::parse(&json!({"actor_id": "Caroline"})).unwrap());
    let found = block_on(engine.search("lake", &read)).unwrap().results;
    assert_eq!(found.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), [added.results[1].id.as_str()]);
}

#[test]
fn a_name_that_is_not_a_short_line_of_text_is_a_coded_error_and_nothing_is_stored() {
    let engine = letter_engine(InMemoryStorage::default());
    for name in [json!(7), json!(" "), json!("n".repeat(257)), json!("Mel\nanie"), json!({})] {
        let turns = json!([{"role": "user", "content": "kept?"}, {"role": "user", "name": name, "content": "x"}]);
        let error = block_on(engine.add(&turns, &verbatim())).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT", "{name}");
        assert!(error.to_string().contains("messages[1].name"), "{error}");
    }
    assert_eq!(block_on(engine.get_all(&Read::of(scope("u", None), 10))).unwrap().results.len(), 0);
    // null is the same as no name.
    let turns = json!([{"role": "user", "name": Value::Null, "content": "kept"}]);
    let added = block_on(engine.add(&turns, &verbatim())).unwrap();
    assert_eq!(added.results[0].metadata.as_ref().and_then(|m| m.get("actor_id")), None);
}

#[test]
fn the_fact_extraction_is_told_who_said_each_message() {
    use crate::core::config::Prompts;
    use crate::core::engine::memory::MemoryEngine;
    use crate::core::testing::{Letters, ScriptedLlm};
    let llm = ScriptedLlm::new();
    let engine: MemoryEngine<_, _, _> =
        MemoryEngine::new(llm.clone(), Letters::new(26), InMemoryStorage::default(), Prompts::default());
    let turns = json!([
        {"role": "user", "name": "Alice", "content": "I am vegan"},
        {"role": "user", "name": "Bob", "content": "I love steak"},
        {"role": "assistant", "content": "Noted"},
    ]);
    let options = AddOptions { scope: ScopeFields::user("u"), ..AddOptions::default() };
    block_on(engine.add(&turns, &options)).unwrap();
    let extraction =
        llm.calls().into_iter().find(|call| call.reply == Some("record_facts")).expect("an extraction call");
    assert!(
        extraction.user.contains("user (Alice): I am vegan\nuser (Bob): I love steak\nassistant: Noted"),
        "{}",
        extraction.user
    );
}
