use std::cell::RefCell;

use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::engine::embedding_model::EmbeddingModel;
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::{Read, DEFAULT_LIMIT};
use crate::core::testing::{KeepingStorage, Letters, NoLlm};

type Device = MemoryEngine<NoLlm, Letters, KeepingStorage>;

/// The server's part, as the Worker does it: one ordered log, each client's entries stored once.
#[derive(Default)]
pub(super) struct Log {
    pub(super) id: String,
    entries: RefCell<Vec<Pulled>>,
}

impl Log {
    pub(super) fn new(id: &str) -> Self {
        Self { id: id.into(), ..Self::default() }
    }

    /// Stores the entries not stored yet (known by client and number); the numbers pushed, by client.
    fn push(&self, pending: &[Pending]) -> Vec<(String, Vec<u64>)> {
        let mut entries = self.entries.borrow_mut();
        let mut pushed: Vec<(String, Vec<u64>)> = Vec::new();
        for entry in pending {
            if !entries.iter().any(|e| e.client_id == entry.client_id && e.n == entry.n) {
                let seq = entries.len() as u64 + 1;
                let data = Some(entry.data.clone());
                entries.push(Pulled { seq, client_id: entry.client_id.clone(), n: entry.n, data });
            }
            match pushed.iter_mut().find(|(client, _)| *client == entry.client_id) {
                Some((_, numbers)) => numbers.push(entry.n),
                None => pushed.push((entry.client_id.clone(), vec![entry.n])),
            }
        }
        pushed
    }

    fn pull(&self, since: u64) -> Vec<Pulled> {
        self.entries.borrow().iter().filter(|entry| entry.seq > since).cloned().collect()
    }

    /// Like `pull`, as the Worker answers `client`: its own entries without their data.
    fn pull_for(&self, since: u64, client: &str) -> Vec<Pulled> {
        let strip = |mut entry: Pulled| {
            if entry.client_id == client {
                entry.data = None;
            }
            entry
        };
        self.pull(since).into_iter().map(strip).collect()
    }
}

fn device(storage: &KeepingStorage) -> Device {
    let engine = block_on(MemoryEngine::open(NoLlm, Letters::new(26), storage.clone(), Default::default())).unwrap();
    block_on(engine.sync_start()).unwrap();
    engine
}

/// What `memory.sync()` does: push the outbox, acknowledge, pull and apply.
pub(super) fn sync<L: Llm>(device: &MemoryEngine<L, Letters, KeepingStorage>, log: &Log) -> Applied {
    let pending = block_on(device.sync_pending(usize::MAX)).unwrap();
    for (client, numbers) in log.push(&pending) {
        block_on(device.sync_acknowledge(&client, &numbers)).unwrap();
    }
    let status = block_on(device.sync_status()).unwrap();
    if status.log_id.as_deref().is_some_and(|id| id != log.id) {
        block_on(device.sync_rebase(&log.id)).unwrap();
        return sync(device, log);
    }
    block_on(device.sync_apply(&log.id, log.pull_for(status.checkpoint, &status.client_id))).unwrap()
}

fn add(device: &Device, text: &str) -> String {
    let options = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    block_on(device.add(&json!(text), &options)).unwrap().results[0].id.clone()
}

pub(super) fn texts<L: Llm>(device: &MemoryEngine<L, Letters, KeepingStorage>) -> Vec<String> {
    let all = Read::of(Scope { user_id: Some("alice".into()), ..Scope::default() }, DEFAULT_LIMIT);
    let mut texts: Vec<String> =
        block_on(device.get_all(&all)).unwrap().results.into_iter().map(|m| m.memory).collect();
    texts.sort();
    texts
}

/// The excerpts of memory `id`'s sources (provenance's side records, which sync entries carry).
fn source_excerpts(device: &Device, id: &str) -> Vec<String> {
    block_on(device.provenance().sources(id)).unwrap().into_iter().map(|source| source.excerpt).collect()
}

fn history_ids(device: &Device, id: &str) -> Vec<String> {
    let mut ids: Vec<String> = block_on(device.history(id)).unwrap().into_iter().map(|r| r.id).collect();
    ids.sort();
    ids
}

#[test]
fn two_devices_end_with_the_same_memories_and_history() {
    let log = Log::new("log-1");
    let (laptop, phone) = (device(&KeepingStorage::new()), device(&KeepingStorage::new()));
    let tea = add(&laptop, "likes tea");
    add(&phone, "has a cat");
    sync(&laptop, &log);
    let applied = sync(&phone, &log);
    assert_eq!((applied.entries, applied.memories, applied.history), (2, 1, 1), "its own entry and the laptop's add");
    sync(&laptop, &log);
    assert_eq!(texts(&laptop), ["has a cat", "likes tea"]);
    assert_eq!(texts(&laptop), texts(&phone));
    assert_eq!(history_ids(&laptop, &tea), history_ids(&phone, &tea));
    assert_eq!(source_excerpts(&phone, &tea), ["likes tea"], "the add's source travels with it");
    assert_eq!(
        block_on(phone.provenance().sources(&tea)).unwrap(),
        block_on(laptop.provenance().sources(&tea)).unwrap()
    );
    assert_eq!(block_on(laptop.sync_status()).unwrap().pending, 0, "everything pushed was acknowledged");
    assert_eq!(sync(&laptop, &log).entries, 0, "a second sync applies nothing");
}

#[test]
fn a_memory_changed_on_two_devices_ends_as_the_log_orders_it_and_the_loser_stays_in_history() {
    let log = Log::new("log-1");
    let (laptop, phone) = (device(&KeepingStorage::new()), device(&KeepingStorage::new()));
    let job = add(&laptop, "works at Acme");
    sync(&laptop, &log);
    sync(&phone, &log);
    block_on(laptop.update(&job, "works at Globex")).unwrap();
    block_on(phone.update(&job, "works at Initech")).unwrap();
    sync(&phone, &log); // the phone's update reaches the log first
    let applied = sync(&laptop, &log);
    assert_eq!(applied.memories, 0, "the laptop's own update, not pushed before this pull, is kept");
    sync(&phone, &log);
    assert_eq!(texts(&laptop), ["works at Globex"]);
    assert_eq!(texts(&phone), ["works at Globex"], "the last in the log wins everywhere");
    let history = block_on(phone.history(&job)).unwrap();
    let said: Vec<_> = history.iter().filter_map(|record| record.new_value.clone()).collect();
    assert!(said.contains(&"works at Initech".to_owned()), "the losing version stays in history: {said:?}");
    assert_eq!(history_ids(&laptop, &job), history_ids(&phone, &job));
}

#[test]
fn deletes_travel_and_a_pull_applied_twice_changes_nothing() {
    let log = Log::new("log-1");
    let (laptop, phone) = (device(&KeepingStorage::new()), device(&KeepingStorage::new()));
    let tea = add(&laptop, "likes tea");
    sync(&laptop, &log);
    sync(&phone, &log);
    block_on(phone.delete(&tea, false)).unwrap();
    sync(&phone, &log);
    let before = block_on(laptop.sync_status()).unwrap().checkpoint;
    let pulled = log.pull(before);
    assert_eq!(block_on(laptop.sync_apply(&log.id, pulled.clone())).unwrap().deletes, 1);
    assert!(texts(&laptop).is_empty());
    let again = block_on(laptop.sync_apply(&log.id, pulled)).unwrap();
    assert_eq!((again.entries, again.deletes), (0, 0), "entries at or before the checkpoint are skipped");
}

#[test]
fn the_outbox_and_the_checkpoint_survive_a_restart_and_the_reopened_store_records_again() {
    let log = Log::new("log-1");
    let storage = KeepingStorage::new();
    let laptop = device(&storage);
    add(&laptop, "likes tea");
    drop(laptop);
    let reopened = block_on(MemoryEngine::open(NoLlm, Letters::new(26), storage.clone(), Default::default())).unwrap();
    add(&reopened, "has a cat");
    assert_eq!(block_on(reopened.sync_pending(10)).unwrap().len(), 2, "both writes wait to be pushed");
    let phone = device(&KeepingStorage::new());
    sync(&reopened, &log);
    sync(&phone, &log);
    assert_eq!(texts(&phone), ["has a cat", "likes tea"]);
}

#[test]
fn what_a_store_held_before_sync_started_is_pushed_first() {
    let log = Log::new("log-1");
    let storage = KeepingStorage::new();
    let plain = block_on(MemoryEngine::open(NoLlm, Letters::new(26), storage.clone(), Default::default())).unwrap();
    let tea = add(&plain, "likes tea");
    drop(plain);
    let laptop = device(&storage);
    add(&laptop, "has a cat");
    let pending = block_on(laptop.sync_pending(10)).unwrap();
    assert!(pending[0].n < pending[1].n && pending[0].data.contains("likes tea"), "the snapshot goes first");
    let phone = device(&KeepingStorage::new());
    sync(&laptop, &log);
    sync(&phone, &log);
    assert_eq!(texts(&phone), ["has a cat", "likes tea"]);
    assert_eq!(source_excerpts(&phone, &tea), ["likes tea"], "the snapshot carries the sources");
}

#[test]
fn an_entry_that_does_not_read_applies_nothing() {
    let log = Log::new("log-1");
    let (laptop, phone) = (device(&KeepingStorage::new()), device(&KeepingStorage::new()));
    add(&laptop, "likes tea");
    sync(&laptop, &log);
    let mut pulled = log.pull(0);
    pulled.push(Pulled { seq: 2, client_id: "x".into(), n: 1, data: Some("garbage".into()) });
    let error = block_on(phone.sync_apply(&log.id, pulled)).unwrap_err();
    assert_eq!(error.code(), "SYNC_ENTRY_INVALID");
    assert!(error.to_string().contains("entry 2"), "{error}");
    assert!(texts(&phone).is_empty());
    assert_eq!(block_on(phone.sync_status()).unwrap().checkpoint, 0);
    let newer = Pulled { seq: 1, client_id: "x".into(), n: 1, data: Some(json!({"v": 9}).to_string()) };
    let error = block_on(phone.sync_apply(&log.id, vec![newer])).unwrap_err();
    assert!(error.to_string().contains("upgrade memwasm"), "{error}");
}

#[test]
fn a_new_log_gets_everything_the_store_holds() {
    let (old, new) = (Log::new("log-1"), Log::new("log-2"));
    let laptop = device(&KeepingStorage::new());
    add(&laptop, "likes tea");
    sync(&laptop, &old);
    add(&laptop, "has a cat");
    sync(&laptop, &new); // the server was wiped: its log has another id
    assert_eq!(block_on(laptop.sync_status()).unwrap().log_id.as_deref(), Some("log-2"));
    let phone = device(&KeepingStorage::new());
    sync(&phone, &new);
    assert_eq!(texts(&phone), ["has a cat", "likes tea"]);
}

#[test]
fn vectors_of_another_model_are_embedded_again() {
    let log = Log::new("log-1");
    let mut laptop =
        block_on(MemoryEngine::open(NoLlm, Letters::new(26), KeepingStorage::new(), Default::default())).unwrap();
    laptop.set_embedding_model(EmbeddingModel::new("letters", "a", Some(26)));
    block_on(laptop.sync_start()).unwrap();
    let mut phone =
        block_on(MemoryEngine::open(NoLlm, Letters::new(26), KeepingStorage::new(), Default::default())).unwrap();
    phone.set_embedding_model(EmbeddingModel::new("letters", "b", Some(26)));
    block_on(phone.sync_start()).unwrap();
    add(&laptop, "likes tea");
    sync(&laptop, &log);
    assert_eq!(sync(&phone, &log).reembedded, 1);
    let third = device(&KeepingStorage::new());
    assert_eq!(sync(&third, &log).reembedded, 0, "a store with no model recorded takes the vectors as they are");
}

#[test]
fn a_reset_device_gets_everything_back_from_the_log_with_its_own_entries_data() {
    let log = Log::new("log-1");
    let laptop = device(&KeepingStorage::new());
    add(&laptop, "likes tea");
    sync(&laptop, &log);
    let before = block_on(laptop.sync_status()).unwrap().client_id;
    block_on(laptop.reset()).unwrap();
    assert!(texts(&laptop).is_empty());
    assert_ne!(block_on(laptop.sync_status()).unwrap().client_id, before, "a new client after the reset");
    sync(&laptop, &log);
    assert_eq!(texts(&laptop), ["likes tea"]);
}

#[test]
fn a_tab_that_wrote_before_another_started_sync_records_its_writes_after() {
    let storage = KeepingStorage::new();
    let open = || block_on(MemoryEngine::open(NoLlm, Letters::new(26), storage.clone(), Default::default())).unwrap();
    let early = std::rc::Rc::new(open());
    early.follow_remote();
    add(&early, "likes tea"); // before sync was started anywhere: nothing to record
    let other = open();
    block_on(other.sync_start()).unwrap();
    storage.notify(Default::default()); // the other tab's commit, as its notice reaches this one
    add(&early, "likes figs");
    let pending = block_on(other.sync_pending(usize::MAX)).unwrap();
    let recorded: Vec<&str> =
        pending.iter().filter(|p| p.data.contains("likes figs")).map(|p| p.client_id.as_str()).collect();
    assert_eq!(recorded.len(), 1, "the early tab's write after sync started is in the outbox: {pending:?}");
    assert_ne!(recorded[0], block_on(other.sync_status()).unwrap().client_id, "as a client of its own");
}
