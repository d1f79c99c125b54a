//! Agent tools: definitions in both formats, and calls that stay inside the scope they were made for.

use futures_executor::block_on;
use memwasm::core::engine::tools::{tool_definitions, ToolFormat};
use memwasm::core::model::scope::Scope;
use memwasm::core::testing::TableEmbedder;
use serde_json::{json, Value};

use crate::fixtures::*;

fn alice() -> Scope {
    Scope { user_id: Some("alice".into()), ..Scope::default() }
}

fn run(engine: &Engine<TableEmbedder>, name: &str, args: Value) -> Result<Value, String> {
    block_on(engine.run_tool(&alice(), name, &args)).map_err(|e| e.code().to_owned())
}

#[test]
fn definitions_in_openai_and_anthropic_format() {
    let openai = tool_definitions(ToolFormat::OpenAi);
    let names: Vec<&str> = openai.iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search_memory", "manage_memory"]);
    assert!(openai.iter().all(|t| t["type"] == "function"));
    assert_eq!(openai[0]["function"]["parameters"]["required"], json!(["query"]));
    assert_eq!(
        openai[1]["function"]["parameters"]["properties"]["action"]["enum"],
        json!(["create", "update", "delete"])
    );

    let anthropic = tool_definitions(ToolFormat::Anthropic);
    assert_eq!(anthropic[0]["name"], "search_memory");
    assert_eq!(anthropic[1]["input_schema"], openai[1]["function"]["parameters"]);
    assert!(anthropic.iter().all(|t| t.get("type").is_none() && t["description"].is_string()));
}

#[test]
fn search_and_manage_within_the_scope() {
    let doubles = doubles(car_embedder());
    let engine = doubles.engine();
    store(&engine, "alice", &[AUTOMOBILE, INSURANCE]);
    store(&engine, "bob", &["Bob pays car insurance yearly"]);

    let found = run(&engine, "search_memory", json!({"query": "car insurance", "limit": 5})).unwrap();
    let texts: Vec<&str> = found["results"].as_array().unwrap().iter().map(|r| r["memory"].as_str().unwrap()).collect();
    assert_eq!(texts, [INSURANCE, AUTOMOBILE], "ranked by the hybrid method");
    // OpenAI sends arguments as a JSON string.
    let limited = run(&engine, "search_memory", json!(r#"{"query": "car insurance", "limit": 1}"#)).unwrap();
    assert_eq!(limited["results"].as_array().unwrap().len(), 1);

    let created = run(&engine, "manage_memory", json!({"action": "create", "content": "User likes jazz"})).unwrap();
    assert_eq!(created["event"], "ADD");
    let id = created["id"].as_str().unwrap().to_owned();
    let item = block_on(engine.get(&id)).unwrap().unwrap();
    assert_eq!((item.memory.as_str(), item.scope), ("User likes jazz", alice()));
    let again = run(&engine, "manage_memory", json!({"action": "create", "content": "User likes jazz"})).unwrap();
    assert_eq!((again["event"].as_str(), again["id"].as_str()), (Some("NONE"), Some(id.as_str())));

    let updated = run(&engine, "manage_memory", json!({"action": "update", "id": id, "content": "User loves jazz"}));
    assert_eq!(updated.unwrap()["event"], "UPDATE");
    assert_eq!(block_on(engine.get(&id)).unwrap().unwrap().memory, "User loves jazz");
    assert_eq!(run(&engine, "manage_memory", json!({"action": "delete", "id": id})).unwrap()["event"], "DELETE");
    assert!(block_on(engine.get(&id)).unwrap().is_none());
    let history: Vec<_> = block_on(engine.history(&id)).unwrap().iter().map(|h| h.event.name()).collect();
    assert_eq!(history, ["ADD", "UPDATE", "DELETE"]);
}

#[test]
fn another_scope_is_out_of_reach() {
    let doubles = doubles(car_embedder());
    let engine = doubles.engine();
    store(&engine, "alice", &[AUTOMOBILE]);
    store(&engine, "bob", &["Bob pays car insurance yearly"]);
    let bobs = block_on(engine.get_all(&read("bob"))).unwrap().results[0].clone();

    let found = run(&engine, "search_memory", json!({"query": "Bob pays car insurance yearly"})).unwrap();
    assert!(found["results"].as_array().unwrap().iter().all(|r| r["id"] != json!(bobs.id)));
    for args in [
        json!({"action": "update", "id": bobs.id, "content": "hijacked"}),
        json!({"action": "delete", "id": bobs.id}),
        json!({"action": "delete", "id": "no-such-id"}),
    ] {
        assert_eq!(run(&engine, "manage_memory", args), Err("NOT_FOUND".into()));
    }
    // A scope in the arguments is refused, not obeyed.
    let widened = json!({"action": "create", "content": "x", "userId": "bob"});
    assert_eq!(run(&engine, "manage_memory", widened), Err("INVALID_INPUT".into()));
    assert_eq!(run(&engine, "search_memory", json!({"query": "car", "user_id": "bob"})), Err("INVALID_INPUT".into()));
    assert_eq!(block_on(engine.get(&bobs.id)).unwrap().unwrap(), bobs);
    assert_eq!(block_on(engine.get_all(&read("bob"))).unwrap().results.len(), 1);
}

#[test]
fn bad_calls_are_coded_errors() {
    let doubles = doubles(car_embedder());
    let engine = doubles.engine();
    let cases = [
        ("forget_everything", json!({})),
        ("search_memory", json!({})),
        ("search_memory", json!({"query": "x", "limit": 0})),
        ("search_memory", json!({"query": "x", "limit": 51})),
        ("search_memory", json!({"query": "x", "limit": 2.5})),
        ("search_memory", json!("{not json")),
        ("manage_memory", json!({"action": "rename"})),
        ("manage_memory", json!({"action": "create"})),
        ("manage_memory", json!({"action": "create", "content": "  "})),
        ("manage_memory", json!({"action": "update", "content": "x"})),
        ("manage_memory", json!({"action": "delete"})),
        ("manage_memory", json!(42)),
    ];
    for (name, args) in cases {
        assert_eq!(run(&engine, name, args.clone()), Err("INVALID_INPUT".into()), "{name} {args}");
    }
    assert_eq!(
        block_on(engine.run_tool(&Scope::default(), "search_memory", &json!({"query": "x"}))).unwrap_err().code(),
        "SCOPE_REQUIRED"
    );
    assert_eq!(doubles.embedder.requests(), 0, "nothing reached the embedder");
}
