//! What the retrieval tests share: the car data set, engines over the shared test doubles, and the read
//! calls with their options checked first, as the JS binding runs them (so the tests see its errors too).

use futures_executor::block_on;
use memwasm::core::engine::recall::RecallResult;
use memwasm::core::engine::search::SearchResponse;
use memwasm::core::error::Result;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model_traits::Embedder;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, ReadCall, ReadOptions};
use memwasm::core::testing::{KeepingStorage, ScriptedLlm, TableEmbedder};
use memwasm::MemoryEngine;

pub type Engine<E> = MemoryEngine<ScriptedLlm, E, KeepingStorage>;
pub type Doubles<E> = memwasm::core::testing::Doubles<ScriptedLlm, E, KeepingStorage>;

/// A scripted model (answering `{}` until scripted), `embedder` and a storage that keeps its memories.
pub fn doubles<E: Embedder>(embedder: E) -> Doubles<E> {
    Doubles { llm: ScriptedLlm::new(), embedder, storage: KeepingStorage::new() }
}

/// The car data set: vectors chosen so that every method orders it differently (see `search.rs`).
pub fn car_embedder() -> TableEmbedder {
    TableEmbedder::new(
        &[
            ("automobile", &[1.0, 0.0, 0.0, 0.0]),
            ("pays car insurance", &[0.6, 0.8, 0.0, 0.0]),
            ("car racing", &[0.8, 0.0, 0.6, 0.0]),
            ("gardening", &[0.0, 0.0, 1.0, 0.0]),
            ("car insurance", &[1.0, 0.0, 0.0, 0.0]),
        ],
        &[0.0, 0.0, 0.0, 1.0],
    )
}

pub const AUTOMOBILE: &str = "User owns an automobile";
pub const INSURANCE: &str = "User pays car insurance monthly";
pub const RACING: &str = "User likes car racing";
pub const GARDENING: &str = "User enjoys gardening";

pub fn add_options(user: &str) -> AddOptions {
    AddOptions { scope: ScopeFields::user(user), infer: Some(false), ..AddOptions::default() }
}

/// The options `{userId: user}`.
pub fn user_options(user: &str) -> ReadOptions {
    ReadOptions { scope: ScopeFields::user(user), ..ReadOptions::default() }
}

/// A read of `user`'s memories with the defaults (`getAll`'s first 100; `search`'s default method).
pub fn read(user: &str) -> Read {
    user_options(user).check(ReadCall::GetAll).unwrap()
}

/// The options `{userId: user, method}`.
pub fn search(user: &str, method: &str) -> ReadOptions {
    ReadOptions { method: Some(serde_json::from_value(method.into()).unwrap()), ..user_options(user) }
}

/// `memory.search(query, options)`.
pub fn search_with<E: Embedder>(engine: &Engine<E>, query: &str, options: &ReadOptions) -> Result<SearchResponse> {
    block_on(engine.search(query, &options.check(ReadCall::Search)?))
}

/// `memory.recall(query, options)`.
pub fn recall_with<E: Embedder>(engine: &Engine<E>, query: &str, options: &ReadOptions) -> Result<RecallResult> {
    block_on(engine.recall(query, &options.check(ReadCall::Recall)?))
}

/// Stores `texts` verbatim (no LLM) for `user`, as facts: without the `role` that marks a conversation
/// turn (a turn is searched together with the turn before it; see `turns_are_found_by_the_turn_before`).
pub fn store<E: Embedder>(engine: &Engine<E>, user: &str, texts: &[&str]) {
    store_turns(engine, user, texts);
    let jsonl = block_on(engine.export(Scope { user_id: Some(user.into()), ..Scope::default() })).unwrap();
    let facts =
        jsonl.replace(r#"{"role":"user","#, "{").replace(r#","role":"user""#, "").replace(r#""role":"user""#, "");
    block_on(engine.import(&facts)).unwrap();
}

/// Stores `texts` verbatim (no LLM) for `user`, as the turns of one conversation.
pub fn store_turns<E: Embedder>(engine: &Engine<E>, user: &str, texts: &[&str]) {
    let messages: Vec<_> = texts.iter().map(|t| serde_json::json!({"role": "user", "content": t})).collect();
    let added = block_on(engine.add(&serde_json::json!(messages), &add_options(user))).unwrap();
    assert_eq!(added.results.len(), texts.len(), "{added:?}");
}
