//! `idempotencyKey` at the seams: two `add()`s with one key at once (a double-clicked import, a retry racing
//! its original) run once, the other replays; an add that a failed model call stopped keeps no key, so the
//! same add later runs (a dead model host during an import does not mark its chunks done).

use futures_executor::block_on;
use futures_util::future::join;
use serde_json::json;

use crate::core::error::Result;
use crate::core::model_traits::Embedder;
use crate::core::pipeline_options::AddOptions;
use crate::core::testing::{yield_once, Doubles, KeepingStorage, Letters, ScriptedLlm};

/// `Letters` answering after a few turns of the executor, as a network call would, so adds interleave.
#[derive(Clone)]
struct Slow(Letters);

impl Embedder for Slow {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        for _ in 0..3 {
            yield_once().await;
        }
        self.0.embed(texts).await
    }
}

#[test]
fn two_adds_with_one_key_at_once_store_once_and_one_replays() {
    for infer in [false, true] {
        let doubles =
            Doubles { llm: ScriptedLlm::new(), embedder: Slow(Letters::new(26)), storage: KeepingStorage::new() };
        doubles.llm.respond_with(|request| match request.reply.map(|shape| shape.name) {
            Some("record_facts") => json!({"facts": ["User likes tea"]}).to_string(),
            _ => json!({"memory": [{"id": "new", "event": "ADD", "text": "User likes tea"}]}).to_string(),
        });
        let engine = doubles.engine();
        let keyed: AddOptions =
            serde_json::from_value(json!({"userId": "alice", "idempotencyKey": "k", "infer": infer})).unwrap();
        let (a, b) = block_on(join(engine.add(&json!("I like tea"), &keyed), engine.add(&json!("I like tea"), &keyed)));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(doubles.storage.memories().len(), 1, "infer {infer}: stored once");
        assert_eq!([a.replayed, b.replayed], [false, true], "infer {infer}: the second replays the first");
        assert_eq!(a.results, b.results, "infer {infer}");
    }
}

#[test]
fn an_add_a_failed_model_call_stopped_keeps_no_key_and_runs_again() {
    for failing in ["record_facts", "record_memory_operations"] {
        let doubles = Doubles { llm: ScriptedLlm::new(), embedder: Letters::new(26), storage: KeepingStorage::new() };
        doubles.llm.respond_with(|request| match request.reply.map(|shape| shape.name) {
            Some("record_facts") => json!({"facts": ["User likes tea"]}).to_string(),
            _ => json!({"memory": [{"id": "new", "event": "ADD", "text": "User likes tea"}]}).to_string(),
        });
        doubles.llm.fail_when(move |request| request.reply.map(|shape| shape.name) == Some(failing));
        let engine = doubles.engine();
        let keyed: AddOptions = serde_json::from_value(json!({"userId": "alice", "idempotencyKey": "k"})).unwrap();
        let stopped = block_on(engine.add(&json!("I like tea"), &keyed)).unwrap();
        assert!(!stopped.warnings.is_empty() && stopped.results.is_empty(), "{failing}: {stopped:?}");
        doubles.llm.fail_when(|_| false);
        let again = block_on(engine.add(&json!("I like tea"), &keyed)).unwrap();
        assert!(!again.replayed, "{failing}: the stopped add is not replayed");
        assert_eq!(doubles.storage.memories().len(), 1, "{failing}: the second add stored the fact");
        assert!(block_on(engine.add(&json!("I like tea"), &keyed)).unwrap().replayed, "{failing}: now it is kept");
    }
}
