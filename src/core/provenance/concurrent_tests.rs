//! Two `add()`s with one `idempotencyKey` at once (a double-clicked import, a retry racing its original):
//! one runs, the other replays its result; nothing is stored twice.

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
