//! The additive pipeline's near-duplicate check keeps a fact whose numbers, dates or negation differ from the
//! memory it is close to: "User has 3 kids" after "User has 2 kids" is a change, not a duplicate, however
//! close their vectors.

use futures_executor::block_on;
use serde_json::json;

use crate::core::add_pipeline::Pipeline;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::model::types::EventKind;
use crate::core::pipeline_options::AddOptions;
use crate::core::testing::{Doubles, KeepingStorage, ScriptedLlm, TableEmbedder};

/// Kids, age, jazz and May each have their own direction, so each new fact is at cosine 1 from one memory.
fn embedder() -> TableEmbedder {
    TableEmbedder::new(
        &[
            ("kids", &[1.0, 0.0, 0.0, 0.0, 0.0]),
            ("years old", &[0.0, 1.0, 0.0, 0.0, 0.0]),
            ("jazz", &[0.0, 0.0, 1.0, 0.0, 0.0]),
            ("May", &[0.0, 0.0, 0.0, 1.0, 0.0]),
        ],
        &[0.0, 0.0, 0.0, 0.0, 1.0],
    )
}

#[test]
fn a_changed_number_date_or_negation_is_kept_and_a_restatement_is_not() {
    let doubles = Doubles { llm: ScriptedLlm::new(), embedder: embedder(), storage: KeepingStorage::new() };
    let engine = doubles.engine();
    let options =
        AddOptions { scope: ScopeFields::user("alice"), pipeline: Some(Pipeline::Additive), ..AddOptions::default() };
    let earlier = ["User has 2 kids", "User is 34 years old", "User likes jazz", "User flies to Lisbon on 12 May"];
    for text in earlier {
        block_on(engine.add(&json!(text), &AddOptions { infer: Some(false), ..options.clone() })).unwrap();
    }
    let changed = [
        "User has 3 kids",
        "User is 35 years old",
        "User does not like jazz",
        "User flies to Lisbon on 14 May",
        "User really has two kids", // the same count as a memory: a near duplicate
    ];
    let reply = json!({"memory": changed.iter().map(|text| json!({"text": text})).collect::<Vec<_>>()});
    doubles.llm.respond_with(move |_| reply.to_string());
    let result = block_on(engine.add(&json!("an update"), &options)).unwrap();
    let events: Vec<(EventKind, &str)> = result.results.iter().map(|e| (e.event, e.memory.as_str())).collect();
    let expected = [
        (EventKind::None, "User has 2 kids"),
        (EventKind::Add, "User has 3 kids"),
        (EventKind::Add, "User is 35 years old"),
        (EventKind::Add, "User does not like jazz"),
        (EventKind::Add, "User flies to Lisbon on 14 May"),
    ];
    assert_eq!(events, expected, "{result:?}");
}
