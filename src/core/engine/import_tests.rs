use crate::core::model::scope_fields::ScopeFields;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;

use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::codec::vector_to_base64;
use crate::core::config::Prompts;
use crate::core::engine::transfer::from_jsonl;
use crate::core::error::MemoryError;
use crate::core::identity::content_hash;
use crate::core::model::scope::Scope;
use crate::core::model::types::WarningCode;
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::InMemoryStorage;
use crate::core::testing::{Letters, NoLlm};

/// Letters whose dimension is configured (known before the first embedding), as an embedder's `dimensions`.
#[derive(Clone)]
struct Configured(Letters, usize);

impl Embedder for Configured {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.0.embed(texts).await
    }

    fn dimensions(&self) -> Option<usize> {
        Some(self.1)
    }
}

fn engine<E: Embedder>(embedder: E) -> MemoryEngine<NoLlm, E, InMemoryStorage> {
    MemoryEngine::new(NoLlm, embedder, InMemoryStorage::default(), Prompts::default())
}

/// An export of memories `m0…` (user "u") with unit vectors of these lengths, and one ADD record each.
fn export(dims: &[usize]) -> String {
    let at = "2026-01-01T00:00:00.000Z";
    let mut lines =
        vec![json!({"kind": "memwasm-export", "version": 2, "memories": dims.len(), "history": dims.len()})];
    for (i, dim) in dims.iter().enumerate() {
        let (text, mut vector) = (format!("fact {i}"), vec![0.0f32; *dim]);
        vector[i % dim] = 1.0;
        lines.push(json!({"kind": "memory", "id": format!("m{i}"), "memory": text, "hash": content_hash(&text),
            "metadata": {}, "createdAt": at, "updatedAt": at, "userId": "u", "embedding": vector_to_base64(&vector)}));
    }
    for i in 0..dims.len() {
        lines.push(json!({"kind": "history", "id": format!("h{i}"), "memoryId": format!("m{i}"), "event": "ADD",
            "oldValue": null, "newValue": format!("fact {i}"), "timestamp": at, "isDeleted": false, "userId": "u"}));
    }
    lines.iter().map(|line| line.to_string() + "\n").collect()
}

fn stored<E: Embedder>(engine: &MemoryEngine<NoLlm, E, InMemoryStorage>) -> usize {
    from_jsonl(&block_on(engine.export(Scope::default())).unwrap()).unwrap().memories.len()
}

/// A pace whose turns are always due: it records the reports and yields, and stops after `stop_after` yields.
#[derive(Default)]
struct Scripted {
    yields: Cell<usize>,
    stop_after: Option<usize>,
    reports: RefCell<Vec<Progress>>,
}

impl Pace for Scripted {
    fn due(&self) -> bool {
        true
    }

    fn yield_now(&self) -> Pin<Box<dyn Future<Output = ()> + '_>> {
        self.yields.set(self.yields.get() + 1);
        Box::pin(async {})
    }

    fn resumed(&self) {}

    fn aborted(&self) -> bool {
        self.stop_after.is_some_and(|after| self.yields.get() >= after)
    }

    fn report(&self, progress: Progress) {
        self.reports.borrow_mut().push(progress);
    }
}

#[test]
fn vectors_the_configured_embedder_does_not_make_are_refused_naming_the_line() {
    let target = engine(Configured(Letters::new(8), 8));
    let error = block_on(target.import(&export(&[26, 26]))).unwrap_err();
    assert_eq!(error.code(), "DIMENSION_MISMATCH");
    let message = error.to_string();
    for part in ["import line 2", "26 dimensions", "8 are expected", "embedder is configured for 8", "Re-embed"] {
        assert!(message.contains(part), "{message} should contain {part}");
    }
    assert_eq!(stored(&target), 0, "nothing was written");
}

#[test]
fn vectors_of_another_length_than_the_stored_ones_or_each_other_are_refused() {
    let target = engine(Letters::new(8));
    let add = AddOptions { scope: ScopeFields::user("carol"), ..AddOptions::default() };
    block_on(target.add(&json!("something"), &add)).unwrap();
    let error = block_on(target.import(&export(&[26]))).unwrap_err();
    assert_eq!(error.code(), "DIMENSION_MISMATCH");
    assert!(error.to_string().contains("the memories stored here have 8"), "{error}");

    let empty = engine(Letters::new(8));
    let error = block_on(empty.import(&export(&[4, 4, 6]))).unwrap_err();
    assert_eq!(
        error,
        MemoryError::ImportDimensionMismatch {
            line: 4,
            found: 6,
            expected: 4,
            basis: "the first embedding of this import, on line 2, has 4".into()
        }
    );
    assert_eq!((stored(&target), stored(&empty)), (1, 0));
}

#[test]
fn an_unconfigured_embedder_takes_the_first_vectors_length() {
    let target = engine(Letters::new(8));
    assert_eq!(
        block_on(target.import(&export(&[4, 4]))).unwrap(),
        ImportSummary { memories: 2, history: 2, warnings: vec![] }
    );
}

#[test]
fn progress_goes_through_read_write_index_up_to_each_total() {
    let target = engine(Configured(Letters::new(4), 4));
    let pace = Scripted::default();
    block_on(target.import_paced(&export(&[4, 4, 4]), &pace)).unwrap();
    let reports = pace.reports.into_inner();
    let phases = [Phase::Read, Phase::Write, Phase::Index];
    let order = |p: &Progress| phases.iter().position(|phase| *phase == p.phase).unwrap();
    assert!(reports.windows(2).all(|w| (order(&w[0]), w[0].done) <= (order(&w[1]), w[1].done)), "{reports:?}");
    assert!(reports.iter().all(|p| p.done <= p.total));
    for (phase, total) in [(Phase::Read, 6), (Phase::Write, 6), (Phase::Index, 3)] {
        assert!(reports.contains(&Progress { phase, done: total, total }), "{phase:?} reaches {total}: {reports:?}");
    }
    assert!(reports.contains(&Progress { phase: Phase::Read, done: 3, total: 6 }), "reports along the way");
    assert_eq!(stored(&target), 3);
}

#[test]
fn a_stopped_import_writes_nothing() {
    for stop_after in [0, 1, 4, 7] {
        let target = engine(Letters::new(4));
        let pace = Scripted { stop_after: Some(stop_after), ..Scripted::default() };
        let error = block_on(target.import_paced(&export(&[4, 4, 4]), &pace)).unwrap_err();
        assert_eq!(error.code(), "ABORTED", "stopped after {stop_after} turns");
        assert!(error.to_string().contains("nothing was written"), "{error}");
        assert_eq!(stored(&target), 0);
        assert!(block_on(target.history("m0")).unwrap().is_empty());
    }
}

/// An export of `n` memories `v0…` (user "u") with no vectors, and no history.
fn vectorless(n: usize) -> String {
    let at = "2026-01-01T00:00:00.000Z";
    let mut lines = vec![json!({"kind": "memwasm-export", "version": 2, "memories": n, "history": 0})];
    for i in 0..n {
        let text = format!("turn {i} {}", "about things ".repeat(i % 7));
        lines.push(json!({"kind": "memory", "id": format!("v{i}"), "memory": text, "hash": content_hash(&text),
            "metadata": {"dia_id": format!("D1:{i}")}, "createdAt": at, "updatedAt": at, "userId": "u"}));
    }
    lines.iter().map(|line| line.to_string() + "\n").collect()
}

fn with_vectors<E: Embedder>(engine: &MemoryEngine<NoLlm, E, InMemoryStorage>) -> usize {
    let bundle = from_jsonl(&block_on(engine.export(Scope::default())).unwrap()).unwrap();
    bundle.memories.iter().filter(|memory| memory.embedding.is_some()).count()
}

#[test]
fn memories_without_a_vector_are_embedded_in_batches() {
    let letters = Letters::new(8);
    let target = engine(letters.clone());
    let summary = block_on(target.import(&vectorless(200))).unwrap();
    assert_eq!(summary, ImportSummary { memories: 200, history: 0, warnings: vec![] });
    assert_eq!(letters.requests(), 4, "200 texts in requests of 64");
    assert_eq!(with_vectors(&target), 200);
    assert_eq!(block_on(target.get("v5")).unwrap().unwrap().metadata["dia_id"], "D1:5");
}

#[test]
fn a_failed_batch_is_retried_one_by_one_and_what_still_fails_is_kept_without_a_vector() {
    let letters = Letters::new(8).failing_on("turn 7 ");
    let target = engine(letters.clone());
    let summary = block_on(target.import(&vectorless(70))).unwrap();
    assert_eq!(summary.memories, 70);
    assert_eq!(letters.requests(), 2 + 64, "the failed batch is sent again one text at a time");
    assert_eq!(summary.warnings.len(), 1, "{:?}", summary.warnings);
    assert_eq!(summary.warnings[0].code, WarningCode::NotEmbedded);
    assert!(summary.warnings[0].message.contains("1 memory"), "{}", summary.warnings[0].message);
    assert_eq!(stored(&target), 70, "no memory is lost");
    assert_eq!(with_vectors(&target), 69);
}

#[test]
fn embedded_vectors_must_have_the_length_of_the_files_vectors() {
    let target = engine(Letters::new(8));
    let mut lines: Vec<String> = export(&[4]).lines().map(str::to_owned).collect();
    lines[0] = json!({"kind": "memwasm-export", "version": 2, "memories": 2, "history": 1}).to_string();
    lines.insert(2, vectorless(1).lines().nth(1).unwrap().to_owned());
    let error = block_on(target.import(&(lines.join("\n") + "\n"))).unwrap_err();
    assert_eq!(error.code(), "DIMENSION_MISMATCH", "{error}");
    assert!(error.to_string().contains("8 dimensions"), "{error}");
    assert_eq!(stored(&target), 0, "nothing was written");
}

#[test]
fn progress_has_an_embed_phase_and_a_stop_while_embedding_writes_nothing() {
    let target = engine(Letters::new(4));
    let pace = Scripted::default();
    block_on(target.import_paced(&vectorless(130), &pace)).unwrap();
    let reports = pace.reports.into_inner();
    assert!(reports.contains(&Progress { phase: Phase::Embed, done: 64, total: 130 }), "{reports:?}");
    assert!(reports.contains(&Progress { phase: Phase::Embed, done: 130, total: 130 }), "{reports:?}");
    let embed_then_write = reports.iter().position(|p| p.phase == Phase::Embed).unwrap()
        < reports.iter().position(|p| p.phase == Phase::Write).unwrap();
    assert!(embed_then_write, "{reports:?}");

    let letters = Letters::new(4);
    let target = engine(letters.clone());
    // read: 1 yield before the header, 130 between lines; then embed: the stop comes after the first batch
    let pace = Scripted { stop_after: Some(133), ..Scripted::default() };
    let error = block_on(target.import_paced(&vectorless(130), &pace)).unwrap_err();
    assert_eq!(error.code(), "ABORTED");
    assert!(letters.requests() >= 1 && letters.requests() < 3, "{} requests", letters.requests());
    assert_eq!(stored(&target), 0);
}
