//! `asOf` reads: `search` and `getAll` over the memories as they were at a past time, read from history, on
//! an engine whose clock the test sets (add → update → delete at known times).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::{json, Value};

use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::engine::search::SearchResponse;
use crate::core::error::{MemoryError, Result, UpstreamError};
use crate::core::model::scope_fields::ScopeFields;
use crate::core::model::types::{HistoryRecord, StoredMemory, WarningCode};
use crate::core::model_traits::Embedder;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::{Read, ReadCall, ReadOptions};
use crate::core::side_records::SideRecord;
use crate::core::storage::{Changeset, InMemoryStorage, Storage};
use crate::core::testing::{KeepingStorage, Letters, NoLlm};
use crate::core::time::{iso_from_millis, Clock};
use crate::core::vector_store::normalized;

/// 2026-01-01T00:00:00Z; the events below happen an hour apart after it.
const T0: i64 = 1_767_225_600_000;
const HOUR: i64 = 3_600_000;

/// Letters that logs each request's texts, and is unavailable (HTTP 503) for any request with a text
/// holding `word` while `down` is set.
#[derive(Clone, Default)]
struct Flaky {
    word: &'static str,
    down: Rc<Cell<bool>>,
    requests: Rc<RefCell<Vec<Vec<String>>>>,
}

impl Embedder for Flaky {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.requests.borrow_mut().push(texts.to_vec());
        if self.down.get() && texts.iter().any(|text| text.contains(self.word)) {
            return Err(MemoryError::Embedding(UpstreamError::new(Some(503), "the embedding service is down")));
        }
        Letters::new(26).embed(texts).await
    }
}

/// A storage that keeps history but cannot list all of it (`all_history` is the trait's `None`).
#[derive(Clone, Default)]
struct Unlisted(KeepingStorage);

impl Storage for Unlisted {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        self.0.load_memories().await
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        self.0.commit(changes).await
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        self.0.history(memory_id).await
    }

    async fn clear(&self) -> Result<()> {
        self.0.clear().await
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        self.0.load_side(kind).await
    }
}

/// An engine whose clock reads `now`.
struct Clocked<E: Embedder, S: Storage> {
    engine: MemoryEngine<NoLlm, E, S>,
    now: Rc<Cell<i64>>,
}

impl<E: Embedder, S: Storage> Clocked<E, S> {
    fn new(embedder: E, storage: S) -> Self {
        let now = Rc::new(Cell::new(T0));
        let mut engine = MemoryEngine::new(NoLlm, embedder, storage, Prompts::default());
        let clock = now.clone();
        engine.set_clock(Clock::from_fn(move || clock.get()));
        Self { engine, now }
    }

    /// Stores `text` for `user` as it is, at `at`; its id.
    fn add(&self, user: &str, text: &str, at: i64) -> String {
        self.now.set(at);
        let options = AddOptions { scope: ScopeFields::user(user), infer: Some(false), ..AddOptions::default() };
        block_on(self.engine.add(&json!(text), &options)).unwrap().results[0].id.clone()
    }

    fn update(&self, id: &str, text: &str, at: i64) {
        self.now.set(at);
        block_on(self.engine.update(id, text)).unwrap();
    }

    fn delete(&self, id: &str, soft: bool, at: i64) {
        self.now.set(at);
        block_on(self.engine.delete(id, soft)).unwrap();
    }

    fn search(&self, query: &str, options: Value) -> Result<SearchResponse> {
        block_on(self.engine.search(query, &read(options, ReadCall::Search)?))
    }

    /// The texts a search finds.
    fn found(&self, query: &str, options: Value) -> Vec<String> {
        self.search(query, options).unwrap().results.into_iter().map(|item| item.memory).collect()
    }

    /// The texts `getAll` lists, in order.
    fn listed(&self, options: Value) -> Vec<String> {
        let page = block_on(self.engine.get_all(&read(options, ReadCall::GetAll).unwrap())).unwrap();
        page.results.into_iter().map(|item| item.memory).collect()
    }
}

fn read(options: Value, call: ReadCall) -> Result<Read> {
    let options: ReadOptions = serde_json::from_value(options).map_err(|e| MemoryError::InvalidInput(e.to_string()))?;
    options.check(call)
}

/// Alice's read as of `at`, with `more` options.
fn alice_at(at: i64, more: Value) -> Value {
    let mut options = json!({"userId": "alice", "asOf": iso_from_millis(at)});
    options.as_object_mut().unwrap().extend(more.as_object().cloned().unwrap_or_default());
    options
}

/// Alice's tea (T0+1h) became coffee (T0+2h) and was deleted (T0+3h); her bicycle (T0+1.5h) is unchanged;
/// Bob's tea (T0+1h) is his. Now is T0+4h.
fn story<E: Embedder, S: Storage>(clocked: &Clocked<E, S>) -> String {
    let tea = clocked.add("alice", "User likes tea", T0 + HOUR);
    clocked.add("bob", "User likes green tea", T0 + HOUR);
    clocked.add("alice", "User owns a bicycle", T0 + 3 * HOUR / 2);
    clocked.update(&tea, "User likes coffee", T0 + 2 * HOUR);
    clocked.delete(&tea, false, T0 + 3 * HOUR);
    clocked.now.set(T0 + 4 * HOUR);
    tea
}

fn keyword() -> Value {
    json!({"method": "keyword"})
}

#[test]
fn as_of_before_the_add_holds_nothing() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    story(&clocked);
    assert!(clocked.found("tea", alice_at(T0 + HOUR / 2, keyword())).is_empty());
    assert!(clocked.found("bicycle", alice_at(T0 + HOUR / 2, json!({}))).is_empty());
    assert!(clocked.listed(alice_at(T0 + HOUR / 2, json!({}))).is_empty());
}

#[test]
fn between_the_add_and_the_update_the_old_text_is_found_by_its_words_and_not_by_the_new() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    let tea = story(&clocked);
    let at = T0 + 7 * HOUR / 4;
    let found = clocked.search("tea", alice_at(at, keyword())).unwrap().results;
    assert_eq!(found.iter().map(|item| item.id.as_str()).collect::<Vec<_>>(), [tea.as_str()]);
    assert_eq!(found[0].memory, "User likes tea");
    assert_eq!(found[0].updated_at, iso_from_millis(T0 + HOUR), "the time of the event that gave it this text");
    assert!(clocked.found("coffee", alice_at(at, keyword())).is_empty());
    assert_eq!(clocked.listed(alice_at(at, json!({}))), ["User likes tea", "User owns a bicycle"]);
}

#[test]
fn after_the_update_the_new_text_and_after_the_delete_nothing() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    story(&clocked);
    let updated = T0 + 5 * HOUR / 2;
    assert_eq!(clocked.found("coffee", alice_at(updated, keyword())), ["User likes coffee"]);
    assert!(clocked.found("tea", alice_at(updated, keyword())).is_empty(), "Bob's tea is not Alice's");
    assert_eq!(clocked.listed(alice_at(updated, json!({}))), ["User likes coffee", "User owns a bicycle"]);
    let deleted = T0 + 3 * HOUR;
    assert!(clocked.found("coffee", alice_at(deleted, keyword())).is_empty());
    assert_eq!(clocked.listed(alice_at(deleted, json!({}))), ["User owns a bicycle"]);
    assert!(clocked.found("coffee", json!({"userId": "alice", "method": "keyword"})).is_empty(), "gone now");
}

#[test]
fn a_soft_deleted_memory_is_there_before_its_delete() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    let tea = clocked.add("alice", "User likes tea", T0 + HOUR);
    clocked.delete(&tea, true, T0 + 2 * HOUR);
    clocked.now.set(T0 + 3 * HOUR);
    assert_eq!(clocked.found("tea", alice_at(T0 + HOUR, keyword())), ["User likes tea"]);
    assert!(clocked.listed(alice_at(T0 + 2 * HOUR, json!({}))).is_empty());
}

#[test]
fn the_vector_ranking_reads_texts_changed_since_embedded_in_one_batch_and_the_others_by_their_stored_vectors() {
    let embedder = Flaky::default();
    let clocked = Clocked::new(embedder.clone(), InMemoryStorage::default());
    story(&clocked);
    let renamed = clocked.add("alice", "User rides a scooter", T0 + HOUR);
    clocked.update(&renamed, "User rides a horse", T0 + 2 * HOUR);
    clocked.now.set(T0 + 4 * HOUR);
    let before = embedder.requests.borrow().len();
    let found = clocked.search("tea", alice_at(T0 + 7 * HOUR / 4, json!({"method": "vector"}))).unwrap();
    let mut requests = embedder.requests.borrow()[before..].to_vec();
    requests.iter_mut().for_each(|texts| texts.sort());
    requests.sort();
    assert_eq!(requests, [vec!["User likes tea", "User rides a scooter"], vec!["tea"]], "the bicycle keeps its vector");
    let letters = Letters::new(26);
    let unit = |text: &str| normalized(block_on(letters.embed(&[text.to_owned()])).unwrap().remove(0)).unwrap();
    let cosine = |a: &str, b: &str| f64::from(unit(a).iter().zip(unit(b)).map(|(x, y)| x * y).sum::<f32>());
    for item in &found.results {
        let score = item.score.unwrap();
        assert!((score - cosine("tea", &item.memory)).abs() < 1e-4, "{}: {score}", item.memory);
    }
    let mut texts: Vec<&str> = found.results.iter().map(|item| item.memory.as_str()).collect();
    texts.sort();
    assert_eq!(texts, ["User likes tea", "User owns a bicycle", "User rides a scooter"]);
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
}

#[test]
fn as_of_now_ranks_as_a_search_without_it() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    story(&clocked);
    for (i, text) in
        ["User likes hiking", "User likes green tea", "User cycles to work", "User likes cats"].iter().enumerate()
    {
        clocked.add("alice", text, T0 + 2 * HOUR + i as i64);
    }
    clocked.now.set(T0 + 4 * HOUR);
    for method in ["hybrid", "rrf", "vector", "keyword"] {
        let ranked = |options: Value| -> Vec<(String, f64)> {
            let found = clocked.search("likes tea bicycle", options).unwrap().results;
            found.into_iter().map(|item| (item.memory, (item.score.unwrap() * 1e6).round())).collect()
        };
        let now = ranked(json!({"userId": "alice", "method": method}));
        assert_eq!(ranked(alice_at(T0 + 4 * HOUR, json!({"method": method}))), now, "{method}");
        assert!(now.len() >= 3, "{method}: {now:?}");
    }
}

#[test]
fn changed_texts_that_cannot_be_embedded_rank_by_keywords_with_the_usual_warning() {
    let down = Rc::new(Cell::new(false));
    let flaky = Flaky { word: "Darjeeling", down: down.clone(), ..Flaky::default() };
    let clocked = Clocked::new(flaky, InMemoryStorage::default());
    let tea = clocked.add("alice", "User drinks Darjeeling", T0 + HOUR);
    clocked.update(&tea, "User drinks coffee", T0 + 2 * HOUR);
    clocked.now.set(T0 + 3 * HOUR);
    down.set(true);
    let found = clocked.search("drinks", alice_at(T0 + HOUR, json!({"method": "hybrid"}))).unwrap();
    assert_eq!(found.results.iter().map(|item| item.memory.as_str()).collect::<Vec<_>>(), ["User drinks Darjeeling"]);
    let codes: Vec<WarningCode> = found.warnings.iter().map(|warning| warning.code).collect();
    assert_eq!(codes, [WarningCode::VectorsPending], "{:?}", found.warnings);
    // The query itself unembeddable: the whole search by keywords, as any search.
    let found = clocked.search("Darjeeling", alice_at(T0 + HOUR, json!({"method": "hybrid"}))).unwrap();
    assert_eq!(found.results.len(), 1);
    assert_eq!(found.warnings[0].code, WarningCode::EmbeddingUnavailable, "{:?}", found.warnings);
}

#[test]
fn get_all_pages_the_memories_as_of_oldest_first() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    let ids: Vec<String> = (0..5).map(|i| clocked.add("alice", &format!("Fact number {i}"), T0 + i * HOUR)).collect();
    clocked.delete(&ids[1], false, T0 + 5 * HOUR);
    clocked.update(&ids[3], "Fact number three, revised", T0 + 6 * HOUR);
    clocked.add("alice", "Fact added later", T0 + 7 * HOUR);
    clocked.now.set(T0 + 8 * HOUR);
    let options = alice_at(T0 + 11 * HOUR / 2, json!({"limit": 2, "offset": 1}));
    let page = block_on(clocked.engine.get_all(&read(options, ReadCall::GetAll).unwrap())).unwrap();
    let texts: Vec<&str> = page.results.iter().map(|item| item.memory.as_str()).collect();
    assert_eq!(texts, ["Fact number 2", "Fact number 3"]);
    assert_eq!((page.total_count, page.has_more), (4, true));
    let last = alice_at(T0 + 9 * HOUR / 2, json!({"limit": 2, "offset": 4}));
    let page = block_on(clocked.engine.get_all(&read(last, ReadCall::GetAll).unwrap())).unwrap();
    assert_eq!(page.results.iter().map(|item| item.memory.as_str()).collect::<Vec<_>>(), ["Fact number 4"]);
    assert_eq!((page.total_count, page.has_more), (5, false), "the deleted one still there");
}

#[test]
fn a_memory_without_history_counts_from_its_last_update() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    let mut engine = clocked.engine;
    engine.set_keep_history(false);
    let clocked = Clocked { engine, now: clocked.now };
    clocked.add("alice", "User likes tea", T0 + HOUR);
    clocked.now.set(T0 + 2 * HOUR);
    assert!(clocked.listed(alice_at(T0 + HOUR - 1, json!({}))).is_empty());
    assert_eq!(clocked.listed(alice_at(T0 + HOUR, json!({}))), ["User likes tea"]);
}

#[test]
fn a_storage_that_cannot_list_its_history_refuses_as_of_with_a_coded_error() {
    let clocked = Clocked::new(Letters::new(26), Unlisted::default());
    clocked.add("alice", "User likes tea", T0 + HOUR);
    let error = clocked.search("tea", alice_at(T0 + HOUR, json!({}))).unwrap_err();
    assert_eq!(error.code(), "INVALID_CONFIG", "{error}");
    assert!(error.to_string().contains("asOf") && error.to_string().contains("history"), "{error}");
    let options = read(alice_at(T0 + HOUR, json!({})), ReadCall::GetAll).unwrap();
    assert_eq!(block_on(clocked.engine.get_all(&options)).unwrap_err().code(), "INVALID_CONFIG");
    assert_eq!(clocked.listed(json!({"userId": "alice"})), ["User likes tea"], "nothing lost");
}

#[test]
fn an_invalid_as_of_is_invalid_input() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    for at in ["2026-01-01", "2026-01-01T10:00:00", "yesterday"] {
        let error = clocked.search("tea", json!({"userId": "alice", "asOf": at})).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT", "{at}: {error}");
        assert!(error.to_string().contains("asOf"), "{error}");
    }
}

#[test]
fn as_of_with_agentic_or_a_vector_query_is_refused() {
    let clocked = Clocked::new(Letters::new(26), InMemoryStorage::default());
    clocked.add("alice", "User likes tea", T0 + HOUR);
    let error = clocked.search("tea", alice_at(T0 + HOUR, json!({"method": "agentic"}))).unwrap_err();
    assert_eq!(error.code(), "INVALID_INPUT", "{error}");
    assert!(error.to_string().contains("asOf"), "{error}");
    let by_vector = read(alice_at(T0 + HOUR, json!({})), ReadCall::Search).unwrap();
    let error = block_on(clocked.engine.search_by_vector(vec![1.0; 26], &by_vector)).unwrap_err();
    assert_eq!(error.code(), "INVALID_INPUT", "{error}");
    assert!(error.to_string().contains("asOf"), "{error}");
}

#[test]
fn one_search_embeds_at_most_most_embedded_changed_texts_and_warns_of_the_rest() {
    use crate::core::engine::as_of_search::MOST_EMBEDDED;
    let embedder = Flaky::default();
    let clocked = Clocked::new(embedder.clone(), InMemoryStorage::default());
    for i in 0..=MOST_EMBEDDED {
        let id = clocked.add("alice", &format!("Old fact {i}"), T0 + HOUR);
        clocked.update(&id, &format!("New fact {i}"), T0 + 2 * HOUR);
    }
    clocked.now.set(T0 + 3 * HOUR);
    let before = embedder.requests.borrow().len();
    // Turns said at one time are stamped a millisecond apart: all of them are there a minute later.
    let at = T0 + HOUR + 60_000;
    let found = clocked.search("old fact", alice_at(at, json!({"method": "hybrid", "limit": 3}))).unwrap();
    let sizes: Vec<usize> = embedder.requests.borrow()[before..].iter().map(Vec::len).collect();
    assert_eq!(sizes, [1, MOST_EMBEDDED], "the query, then one batch");
    assert_eq!(found.results.len(), 3);
    assert!(found.results.iter().all(|item| item.memory.starts_with("Old fact")));
    assert_eq!(found.warnings.len(), 1, "{:?}", found.warnings);
    assert_eq!(found.warnings[0].code, WarningCode::VectorsPending);
    assert!(found.warnings[0].message.starts_with("1 memory without a vector"), "{:?}", found.warnings);
}
