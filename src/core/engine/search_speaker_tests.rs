//! A query that names a speaker of the conversation finds what that speaker said: it is embedded without
//! the name, once when the scope's turns are indexed already, and only in the scope the speaker talks in.

use futures_executor::block_on;
use serde_json::json;

use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::Read;
use crate::core::storage::InMemoryStorage;
use crate::core::testing::{NoLlm, TableEmbedder};
use crate::core::vector_store::tests::scope;

const ASKS: &str = "Caroline: Melanie, what did you paint today?";
const ANSWERS: &str = "Melanie: A lake at dawn, with my kids.";

/// Alice's conversation of Caroline and Melanie, and Bob's, where only Zed speaks. The query with the name
/// embeds close to the turn that mentions Melanie; without it, close to Melanie's answer.
fn engine() -> (MemoryEngine<NoLlm, TableEmbedder, InMemoryStorage>, TableEmbedder) {
    let rows: [(&str, &[f32]); 4] = [
        ("Melanie paint", &[1.0, 0.0, 0.0]),
        ("Caroline: Melanie", &[1.0, 0.0, 0.0]),
        ("did paint", &[0.0, 1.0, 0.0]),
        ("Melanie: A lake", &[0.0, 1.0, 0.0]),
    ];
    let embedder = TableEmbedder::new(&rows, &[0.0, 0.0, 1.0]);
    let engine = MemoryEngine::new(NoLlm, embedder.clone(), InMemoryStorage::default(), Prompts::default());
    let turns = |user: &str, texts: &[&str]| {
        let messages: Vec<_> = texts.iter().map(|text| json!({"role": "user", "content": text})).collect();
        let options = AddOptions { scope: ScopeFields::user(user), infer: Some(false), ..AddOptions::default() };
        block_on(engine.add(&json!(messages), &options)).unwrap();
    };
    turns("alice", &[ASKS, ANSWERS, "Caroline: Lovely! I went to the museum."]);
    turns("bob", &["Zed: Melanie, what did you paint today?", "Zed: I went to the museum."]);
    (engine, embedder)
}

/// An engine embedding by `rows` (anything else along the third axis) that stored `messages` for `user` as
/// they were said.
fn stored(
    rows: &[(&str, &[f32])],
    user: &str,
    messages: &serde_json::Value,
) -> MemoryEngine<NoLlm, TableEmbedder, InMemoryStorage> {
    let embedder = TableEmbedder::new(rows, &[0.0, 0.0, 1.0]);
    let engine = MemoryEngine::new(NoLlm, embedder, InMemoryStorage::default(), Prompts::default());
    let options = AddOptions { scope: ScopeFields::user(user), infer: Some(false), ..AddOptions::default() };
    block_on(engine.add(messages, &options)).unwrap();
    engine
}

fn first(engine: &MemoryEngine<NoLlm, TableEmbedder, InMemoryStorage>, user: &str, query: &str) -> String {
    block_on(engine.search(query, &Read::of(scope(user, None), 10))).unwrap().results[0].memory.clone()
}

#[test]
fn the_named_speakers_answer_comes_before_the_turn_that_mentions_the_name() {
    let (engine, embedder) = engine();
    assert_eq!(first(&engine, "alice", "What did Melanie paint?"), ANSWERS);
    // With the scope's turns indexed, the query is embedded once, without the name.
    let before = embedder.requests();
    assert_eq!(first(&engine, "alice", "What did Melanie paint?"), ANSWERS);
    assert_eq!(embedder.requests(), before + 1);
}

#[test]
fn a_query_typed_in_lower_case_names_the_speaker_too() {
    let (engine, _) = engine();
    // The query without the name embeds close to Melanie's answer ("did paint"), as it does capitalised.
    assert_eq!(first(&engine, "alice", "what did melanie paint?"), ANSWERS);
    let named = engine.speaker_named("what did melanie paint?", &scope("alice", None), true);
    assert_eq!(named.map(|n| (n.name, n.query)), Some(("Melanie".into(), "what did paint?".into())));
}

#[test]
fn a_turn_whose_message_named_its_speaker_is_that_speakers() {
    let rows: [(&str, &[f32]); 4] = [
        ("Melanie paint", &[1.0, 0.0, 0.0]),
        ("Melanie, what", &[1.0, 0.0, 0.0]),
        ("did paint", &[0.0, 1.0, 0.0]),
        ("A lake", &[0.0, 1.0, 0.0]),
    ];
    let messages = json!([
        {"role": "user", "name": "Caroline", "content": "Melanie, what did you paint today?"},
        {"role": "user", "name": "Melanie", "content": "A lake at dawn, with my kids."},
        {"role": "user", "name": "Caroline", "content": "Lovely! I went to the museum."},
    ]);
    let engine = stored(&rows, "carol", &messages);
    assert_eq!(first(&engine, "carol", "What did Melanie paint?"), "A lake at dawn, with my kids.");
    let named = engine.speaker_named("what did melanie paint?", &scope("carol", None), true);
    assert_eq!(named.map(|n| (n.name, n.query)), Some(("Melanie".into(), "what did paint?".into())));
}

#[test]
fn a_name_no_turn_of_the_scope_is_spoken_by_is_kept_in_the_query() {
    let (engine, _) = engine();
    let named = |user: &str| engine.speaker_named("What did Melanie paint?", &scope(user, None), true);
    assert_eq!(named("alice").map(|n| (n.name, n.query)), Some(("Melanie".into(), "What did paint?".into())));
    assert_eq!(named("bob"), None);
    // Bob's search reads the query as it is, so the turn that mentions Melanie comes first.
    assert_eq!(first(&engine, "bob", "What did Melanie paint?"), "Zed: Melanie, what did you paint today?");
    assert_eq!(engine.speaker_named("What did Caroline tell Melanie?", &scope("alice", None), true), None);
}

#[test]
fn a_query_that_could_not_be_embedded_is_not_embedded_again_without_the_name() {
    use crate::core::testing::Letters;
    let embedder = Letters::new(26).failing_on("paint");
    let engine: MemoryEngine<NoLlm, Letters, InMemoryStorage> =
        MemoryEngine::new(NoLlm, embedder.clone(), InMemoryStorage::default(), Prompts::default());
    let messages = json!([{"role": "user", "content": "Melanie: A lake at dawn"}, {"role": "user", "content": "Caroline: Lovely"}]);
    let options = AddOptions { scope: ScopeFields::user("alice"), infer: Some(false), ..AddOptions::default() };
    block_on(engine.add(&messages, &options)).unwrap();
    // The first search names Melanie only once the scope's turns are indexed, after its embedding failed.
    let before = embedder.requests();
    let failed = block_on(engine.search("What did Melanie paint?", &Read::of(scope("alice", None), 10))).unwrap_err();
    assert_eq!(failed.code(), "EMBEDDING_RESPONSE");
    assert_eq!(embedder.requests(), before + 1, "one request: a failed embedding is not asked again");
}

#[test]
fn a_speakers_name_the_conversation_writes_as_a_word_is_that_word_in_a_lower_case_query() {
    let rows: [(&str, &[f32]); 4] = [
        ("what art", &[1.0, 0.0, 0.0]),
        ("what do", &[0.0, 1.0, 0.0]),
        ("I love art", &[1.0, 0.0, 0.0]),
        ("pottery", &[0.0, 1.0, 0.0]),
    ];
    let texts = ["Art: I took a pottery class today.", "Melanie: I love art, painting most of all.", "Art: Nice!"];
    let messages: Vec<_> = texts.iter().map(|text| json!({"role": "user", "content": text})).collect();
    let engine = stored(&rows, "dana", &json!(messages));
    // "art" is a word this conversation writes in lower case: typed so, it asks about art, not about Art.
    assert_eq!(first(&engine, "dana", "what art do i love?"), texts[1]);
    assert_eq!(engine.speaker_named("what art do i love?", &scope("dana", None), true), None);
    // Capitalised, the name still names him.
    let named = engine.speaker_named("What did Art take?", &scope("dana", None), true);
    assert_eq!(named.map(|n| n.name), Some("Art".into()));
}
