//! Agentic retrieval through the engine with a scripted LLM whose calls are counted: one judgement when the
//! first round answers the query, a judgement and a refinement (never more) when it does not, RRF over every
//! round, and a hybrid search with an `AGENTIC_FAILED` warning whenever the LLM is missing or fails.

use futures_executor::block_on;
use memwasm::core::fusion::Method;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::WarningCode;
use memwasm::core::read::{ReadCall, ReadOptions};
use memwasm::core::retrieval::prompts::{JUDGE_PROMPT, REFINE_PROMPT};
use memwasm::core::testing::{letter_engine, KeepingStorage};
use serde_json::json;

use super::rig::*;

/// Episodes of g1: two about coffee, one tea party.
fn three_episodes() -> Rig {
    let rig = Rig::new();
    rig.episode("m0", 0, "coffee beans");
    rig.episode("m1", DAY, "the coffee machine");
    rig.episode("m2", 2 * DAY, "a tea party");
    rig
}

fn ids(response: &memwasm::core::engine::search::SearchResponse) -> Vec<String> {
    response.results.iter().map(|m| m.id.clone()).collect()
}

/// The LLM calls agentic retrieval made.
fn agentic_calls(rig: &Rig) -> (usize, usize) {
    (rig.calls_to(JUDGE_PROMPT).len(), rig.calls_to(REFINE_PROMPT).len())
}

#[test]
fn results_that_answer_the_query_cost_one_call() {
    let rig = three_episodes();
    let before = rig.doubles.llm.calls().len();
    let agentic = rig.search("coffee", json!({"groupId": "g1", "method": "agentic"})).unwrap();
    assert_eq!(rig.doubles.llm.calls().len() - before, 1, "exactly one LLM call");
    assert_eq!(agentic_calls(&rig), (1, 0));
    assert_eq!((agentic.method, agentic.queries.clone()), (Method::Agentic, Some(vec!["coffee".to_owned()])));
    assert!(agentic.warnings.is_empty());
    let hybrid = rig.search("coffee", json!({"groupId": "g1", "method": "hybrid"})).unwrap();
    assert_eq!(ids(&agentic), ids(&hybrid), "round one is a hybrid search");
    let judged = &rig.calls_to(JUDGE_PROMPT)[0];
    assert!(
        judged.user.contains("Query: coffee") && judged.user.contains("Chat about coffee beans"),
        "{}",
        judged.user
    );
    assert_eq!(judged.reply, Some("judge_retrieval"));
}

#[test]
fn results_that_fall_short_are_refined_once_and_fused() {
    let rig = three_episodes();
    rig.script.borrow_mut().judgements.push_back(
        json!({"sufficient": false, "reasoning": "no tea", "missing_information": ["what was drunk at the party"]}),
    );
    rig.script.borrow_mut().refinements.push_back(json!({"queries": ["tea party", "COFFEE", " ", "tea party"]}));
    let before = rig.doubles.llm.calls().len();
    // radius 1 leaves only keyword hits in each round, so the tea party can only come from round two.
    let options = json!({"groupId": "g1", "method": "agentic", "radius": 1.0});
    let agentic = rig.search("coffee", options).unwrap();
    assert_eq!(rig.doubles.llm.calls().len() - before, 2, "a judgement and a refinement, nothing more");
    assert_eq!(agentic_calls(&rig), (1, 1));
    assert!(rig.calls_to(REFINE_PROMPT)[0].user.contains("what was drunk at the party"));
    assert_eq!(
        agentic.queries,
        Some(vec!["coffee".to_owned(), "tea party".to_owned()]),
        "the original query is not run twice"
    );
    assert_eq!(agentic.method, Method::Agentic);
    let texts: Vec<&str> = agentic.results.iter().map(|m| m.memory.as_str()).collect();
    assert!(texts.contains(&"Chat about a tea party"), "{texts:?}");
    assert!(texts.contains(&"Chat about coffee beans") && texts.len() == 3, "{texts:?}");
    assert!(agentic.results.iter().all(|m| m.score.unwrap() <= 2.0 / 61.0 + 1e-9), "RRF scores");
    let plain = rig.search("coffee", json!({"groupId": "g1", "method": "hybrid", "radius": 1.0})).unwrap();
    assert_eq!(plain.results.len(), 2, "round one alone has no tea party");
}

#[test]
fn a_failing_or_missing_llm_falls_back_to_hybrid_with_a_warning() {
    let rig = three_episodes();
    let hybrid = rig.search("coffee", json!({"groupId": "g1", "method": "hybrid"})).unwrap();
    rig.doubles.llm.fail_when(|request| request.system == JUDGE_PROMPT);
    let failed = rig.search("coffee", json!({"groupId": "g1", "method": "agentic"})).unwrap();
    assert_eq!((failed.method, ids(&failed)), (Method::Hybrid, ids(&hybrid)));
    assert_eq!(failed.queries, Some(vec!["coffee".to_owned()]));
    assert_eq!(failed.warnings.len(), 1);
    assert_eq!((failed.warnings[0].code, failed.warnings[0].cause), (WarningCode::AgenticFailed, Some("LLM_HTTP")));

    // The refinement failing, and a judgement without `sufficient`, fall back the same way.
    rig.doubles.llm.fail_when(|request| request.system == REFINE_PROMPT);
    rig.script
        .borrow_mut()
        .judgements
        .push_back(json!({"sufficient": false, "reasoning": "x", "missing_information": []}));
    let failed = rig.search("coffee", json!({"groupId": "g1", "method": "agentic"})).unwrap();
    assert_eq!((failed.method, failed.warnings[0].cause), (Method::Hybrid, Some("LLM_HTTP")));
    assert_eq!(agentic_calls(&rig), (2, 1));
    rig.script.borrow_mut().judgements.push_back(json!({"reasoning": "maybe"}));
    let unusable = rig.search("coffee", json!({"groupId": "g1", "method": "agentic"})).unwrap();
    assert_eq!((unusable.method, unusable.warnings[0].cause), (Method::Hybrid, Some("LLM_RESPONSE")));

    // Without an LLM: hybrid (keyword-weighted letters here), a warning, no error.
    let engine = letter_engine(KeepingStorage::new());
    let options = memwasm::core::pipeline_options::AddOptions {
        scope: ScopeFields::user("u"),
        infer: Some(false),
        ..Default::default()
    };
    block_on(engine.add(&json!("coffee beans"), &options)).unwrap();
    let read = serde_json::from_value::<ReadOptions>(json!({"userId": "u", "method": "agentic"})).unwrap();
    let response = block_on(engine.search("coffee", &read.check(ReadCall::Search).unwrap())).unwrap();
    assert_eq!((response.method, response.results.len()), (Method::Hybrid, 1));
    assert_eq!(response.warnings[0].code, WarningCode::AgenticFailed);
}
