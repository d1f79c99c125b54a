//! `getAll` pages: what a page reads of the index (a count of memories read, which the default index keeps
//! in tests), pages against the whole list sliced over random changes, expired memories purged with their
//! history, and counts after deletes.

use std::cell::Cell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::json;

use crate::core::config::Prompts;
use crate::core::engine::crud::Page;
use crate::core::engine::memory::MemoryEngine;
use crate::core::filter::Filter;
use crate::core::model::memory_type::MemoryType;
use crate::core::model::scope::Scope;
use crate::core::model::types::{EventKind, MemoryItem, StoredMemory};
use crate::core::read::Read;
use crate::core::retrieval::Window;
use crate::core::storage::{Changeset, InMemoryStorage};
use crate::core::testing::Seeded;
use crate::core::testing::{Letters, NoLlm};
use crate::core::time::{iso_from_millis, Clock};
use crate::core::vector_store::tests::{memory_in, scope};
use crate::core::vector_store::VectorStore;

/// 2026-01-01T00:00:00Z.
const T0: i64 = 1_767_225_600_000;
const MINUTE: i64 = 60_000;

type Engine = MemoryEngine<NoLlm, Letters, InMemoryStorage>;

/// An engine whose clock reads `now`.
fn engine(now: &Rc<Cell<i64>>) -> Engine {
    let mut engine = MemoryEngine::new(NoLlm, Letters::new(26), InMemoryStorage::default(), Prompts::default());
    let clock = now.clone();
    engine.set_clock(Clock::from_fn(move || clock.get()));
    engine
}

/// Memory `id` of `scope`, made at T0, with a vector.
fn memory(id: &str, scope: Scope) -> StoredMemory {
    let vector = (0..4).map(|d| 1.0 + (id.len() + d) as f32).collect();
    let mut memory = memory_in(id, scope, Some(vector));
    memory.item.created_at = iso_from_millis(T0);
    memory
}

fn write(engine: &Engine, upserts: Vec<StoredMemory>) {
    block_on(engine.commit(Changeset { upserts, ..Changeset::default() })).unwrap();
}

fn page(engine: &Engine, read: &Read) -> Page {
    block_on(engine.get_all(read)).unwrap()
}

fn ids(page: &Page) -> Vec<String> {
    page.results.iter().map(|item| item.id.clone()).collect()
}

fn paged(read: &Read, offset: usize, limit: usize) -> Read {
    Read { offset, limit, ..read.clone() }
}

#[test]
fn a_page_reads_its_own_memories_not_the_scope() {
    let now = Rc::new(Cell::new(T0));
    let engine = engine(&now);
    // Alice's 2,000 (one in ten expiring tomorrow, one in ten in her helper's scope) among Bob's 1,000.
    let upserts = (0..3_000).map(|i| {
        let mut memory = memory(&format!("m{i}"), if i % 3 == 2 { scope("bob", None) } else { scope("alice", None) });
        memory.item.metadata.insert("topic".into(), json!("tea"));
        if i % 10 == 0 {
            memory.item.lifecycle.expires_at = Some(iso_from_millis(T0 + 24 * 60 * MINUTE));
        }
        if i % 10 == 1 {
            memory.item.scope.agent_id = Some("helper".into());
        }
        memory
    });
    write(&engine, upserts.collect());
    let alice: Vec<String> = (0..3_000).filter(|i| i % 3 != 2).map(|i| format!("m{i}")).collect();
    let read = Read::of(scope("alice", None), 10);
    let before = engine.index.borrow().memories_read();
    let deep = page(&engine, &paged(&read, 1_500, 10));
    let read_by_a_page = engine.index.borrow().memories_read() - before;
    assert_eq!(ids(&deep), alice[1_500..1_510]);
    assert_eq!((deep.total_count, deep.has_more), (2_000, true));
    assert!(read_by_a_page <= 40, "a page of 10 read {read_by_a_page} memories");
    // A filtered read tests Alice's memories, not Bob's.
    let filter = Filter::parse(&json!({"topic": "tea"})).unwrap();
    let filtered = Read { filter: Some(filter), ..paged(&read, 1_990, 10) };
    let before = engine.index.borrow().memories_read();
    let last = page(&engine, &filtered);
    let read_by_a_page = engine.index.borrow().memories_read() - before;
    assert_eq!(ids(&last), alice[1_990..]);
    assert_eq!((last.total_count, last.has_more), (2_000, false));
    assert!(read_by_a_page <= 2_000 + 40, "a filtered page of 10 read {read_by_a_page} memories");
}

fn scopes() -> [Scope; 4] {
    let run = Scope { run_id: Some("r1".into()), ..Scope::default() };
    [scope("alice", None), scope("alice", Some("helper")), scope("bob", None), run]
}

/// Memory `id` with a random scope, type and state: an expiry (some past), soft-deleted, a mem0
/// `expirationDate`, compressed, a category.
fn random_memory(id: &str, rng: &mut Seeded, now: i64) -> StoredMemory {
    let mut memory = memory(id, scopes()[rng.below(4)].clone());
    let item = &mut memory.item;
    item.lifecycle.memory_type = MemoryType::ALL[rng.below(MemoryType::ALL.len())];
    match rng.below(12) {
        0 | 1 => item.lifecycle.expires_at = Some(iso_from_millis(now + (rng.below(40) as i64 - 5) * MINUTE)),
        2 => item.lifecycle.deleted_at = Some(iso_from_millis(now)),
        3 => drop(
            item.metadata
                .insert("expiration_date".into(), json!(if rng.below(2) == 0 { "2020-01-01" } else { "2099-01-01" })),
        ),
        4 => drop(item.metadata.insert("compressed".into(), json!(true))),
        _ => {}
    }
    if rng.below(3) == 0 {
        item.metadata.insert("category".into(), json!("work"));
    }
    memory
}

/// The reads a page is checked with: every scope, types, deleted, expired, compressed, a filter, a window.
fn reads() -> Vec<Read> {
    let mut reads = Vec::new();
    for scope in scopes().into_iter().chain([scope("carol", None)]) {
        let base = Read::of(scope, 10);
        reads.push(base.clone());
        reads.push(Read { memory_types: Some(vec![MemoryType::Episodic, MemoryType::Semantic]), ..base.clone() });
        reads.push(Read { include_deleted: true, show_expired: true, ..base.clone() });
        reads.push(Read { window: Window { include_compressed: true, ..Window::default() }, ..base.clone() });
        reads.push(Read { window: Window { start: Some(T0 - MINUTE), ..Window::default() }, ..base.clone() });
        let filter = Filter::parse(&json!({"category": "work"})).unwrap();
        reads.push(Read { filter: Some(filter), ..base });
    }
    reads
}

/// A page of `read` equals the whole list of what it keeps, sliced, and every expired memory of its scope
/// is purged with a DELETE record.
fn check_page(engine: &Engine, read: &Read) {
    let now = engine.now_iso();
    let (kept, expired): (Vec<String>, Vec<String>) = {
        let index = engine.index.borrow();
        let id = |m: &StoredMemory| m.item.id.clone();
        let expired = |item: &MemoryItem| read.scope.contains(&item.scope) && item.lifecycle.is_expired(&now);
        (
            index.list(usize::MAX, &|item| read.keeps(item, &now)).into_iter().map(id).collect(),
            index.list(usize::MAX, &expired).into_iter().map(id).collect(),
        )
    };
    let got = page(engine, read);
    let want: Vec<String> = kept.iter().skip(read.offset).take(read.limit).cloned().collect();
    assert_eq!(ids(&got), want, "{read:?}");
    assert_eq!(got.total_count, kept.len(), "{read:?}");
    assert_eq!(got.has_more, read.offset + want.len() < kept.len(), "{read:?}");
    for id in expired {
        assert!(engine.index.borrow().get(&id).is_none(), "{id} expired and was not purged");
        let history = block_on(engine.history(&id)).unwrap();
        assert_eq!(history.last().map(|record| record.event), Some(EventKind::Delete), "{id}");
    }
}

#[test]
fn pages_equal_the_whole_list_sliced_through_random_changes() {
    let now = Rc::new(Cell::new(T0));
    let engine = engine(&now);
    let reads = reads();
    let mut rng = Seeded(0x5eed_1234_abcd);
    let mut next_id = 0;
    for step in 0..1_500 {
        let live: Vec<String> =
            engine.index.borrow().list(usize::MAX, &|_| true).iter().map(|m| m.item.id.clone()).collect();
        let some = |rng: &mut Seeded| live.get(rng.below(live.len().max(1))).cloned();
        match rng.below(10) {
            0..=3 => {
                let added =
                    (0..1 + rng.below(6)).map(|k| random_memory(&format!("m{}", next_id + k), &mut rng, now.get()));
                let added: Vec<StoredMemory> = added.collect();
                next_id += added.len();
                write(&engine, added);
            }
            4 => {
                if let Some(id) = some(&mut rng) {
                    write(&engine, vec![random_memory(&id, &mut rng, now.get())]);
                }
            }
            5 | 6 => {
                if let Some(id) = some(&mut rng) {
                    let _ = block_on(engine.delete(&id, rng.below(2) == 0));
                }
            }
            7 => {
                if let Some(id) = some(&mut rng) {
                    let _ = block_on(engine.restore(&id));
                }
            }
            _ => now.set(now.get() + rng.below(4) as i64 * MINUTE),
        }
        let read = &reads[rng.below(reads.len())];
        let offset = if step % 4 == 0 { 0 } else { rng.below(40) };
        check_page(&engine, &paged(read, offset, 1 + rng.below(12)));
    }
    assert!(next_id > 1_000, "the changes added {next_id} memories");
}

#[test]
fn an_expired_memory_met_by_a_page_is_purged_with_its_history() {
    let now = Rc::new(Cell::new(T0));
    let engine = engine(&now);
    let mut soon = memory("soon", scope("alice", None));
    soon.item.lifecycle.expires_at = Some(iso_from_millis(T0 + MINUTE));
    let mut later = memory("later", scope("alice", Some("helper")));
    later.item.lifecycle.expires_at = Some(iso_from_millis(T0 + 10 * MINUTE));
    let mut bobs = memory("bobs", scope("bob", None));
    bobs.item.lifecycle.expires_at = Some(iso_from_millis(T0 + MINUTE));
    write(&engine, vec![memory("a", scope("alice", None)), soon, later, bobs, memory("b", scope("alice", None))]);
    let read = Read::of(scope("alice", None), 2);
    let first = page(&engine, &read);
    assert_eq!((ids(&first), first.total_count, first.has_more), (vec!["a".into(), "soon".into()], 4, true));
    now.set(T0 + 2 * MINUTE);
    let first = page(&engine, &read);
    assert_eq!((ids(&first), first.total_count, first.has_more), (vec!["a".into(), "later".into()], 3, true));
    assert!(engine.index.borrow().get("soon").is_none());
    let history = block_on(engine.history("soon")).unwrap();
    assert_eq!(history.iter().map(|record| record.event).collect::<Vec<_>>(), [EventKind::Delete]);
    // Bob's expired memory is his reads' to purge.
    assert!(engine.index.borrow().get("bobs").is_some());
    assert!(ids(&page(&engine, &Read::of(scope("bob", None), 10))).is_empty());
    assert!(engine.index.borrow().get("bobs").is_none());
}

#[test]
fn counts_are_right_right_after_deletes() {
    let now = Rc::new(Cell::new(T0));
    let engine = engine(&now);
    write(&engine, (0..30).map(|i| memory(&format!("m{i}"), scope("alice", None))).collect());
    let read = Read::of(scope("alice", None), 10);
    let counted = |read: &Read| {
        let page = page(&engine, read);
        (page.total_count, page.has_more, page.results.first().map(|item| item.id.clone()))
    };
    block_on(engine.delete("m0", false)).unwrap();
    block_on(engine.delete("m1", true)).unwrap();
    assert_eq!(counted(&read), (28, true, Some("m2".into())));
    assert_eq!(counted(&paged(&read, 20, 10)), (28, false, Some("m22".into())));
    let with_deleted = Read { include_deleted: true, ..read.clone() };
    assert_eq!(counted(&with_deleted), (29, true, Some("m1".into())));
    block_on(engine.restore("m1")).unwrap();
    assert_eq!(counted(&read), (29, true, Some("m1".into())));
    let soft_all = Read { soft: true, ..Read::of(scope("alice", None), 10) };
    assert_eq!(block_on(engine.delete_all(&soft_all)).unwrap(), 29);
    assert_eq!(counted(&read), (0, false, None));
    assert_eq!(counted(&with_deleted), (29, true, Some("m1".into())));
    assert_eq!(block_on(engine.delete_all(&read)).unwrap(), 0, "soft-deleted memories are not live");
    write(&engine, vec![memory("new", scope("alice", None))]);
    assert_eq!(counted(&read), (1, false, Some("new".into())));
    assert_eq!(counted(&paged(&read, 1, 10)), (1, false, None));
}
