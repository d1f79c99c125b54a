//! Open images in KV storage: an image and its journal open to exactly what reading every memory gives;
//! an unusable image (torn, missing a part, another version, a large or unreadable journal, a journal out of
//! creation order) is read in full with a warning; an image read before a newer image or a clear is never written.

use futures_executor::block_on;
use serde_json::json;

use super::KvStorage;
use crate::core::codec::{bytes_from_base64, bytes_to_base64};
use crate::core::model::scope::Scope;
use crate::core::model::types::{EventKind, HistoryRecord, MemoryItem, StoredMemory};
use crate::core::storage::{Changeset, Storage};
use crate::core::testing::MapKv;

const PREFIX: &str = "t/x/";

fn user(user: &str, agent: Option<&str>) -> Scope {
    Scope { user_id: Some(user.into()), agent_id: agent.map(Into::into), run_id: None }
}

/// Memory `n` of `scope`, created at millisecond `n`, its vector made of `n`.
fn memory(n: u32, text: &str, scope: Scope) -> StoredMemory {
    let created = format!("2024-01-01T00:00:{:02}.{:03}Z", n / 1000, n % 1000);
    StoredMemory {
        item: MemoryItem {
            id: format!("m{n}"),
            memory: text.into(),
            hash: format!("hash of {text}"),
            metadata: json!({"n": n}).as_object().unwrap().clone().into(),
            score: None,
            fused_score: None,
            created_at: created.clone(),
            updated_at: created,
            scope,
            lifecycle: Default::default(),
        },
        embedding: Some(vec![n as f32, 0.5, -1.0]),
    }
}

fn history(memory: &StoredMemory, event: EventKind) -> HistoryRecord {
    HistoryRecord {
        id: format!("h-{}-{}-{}", memory.item.id, event.name(), memory.item.memory),
        memory_id: memory.item.id.clone(),
        event,
        old_value: None,
        new_value: Some(memory.item.memory.clone()),
        timestamp: memory.item.updated_at.clone(),
        is_deleted: event == EventKind::Delete,
        scope: memory.item.scope.clone(),
    }
}

fn write(kv: &MapKv, memories: &[StoredMemory], event: EventKind) {
    let history = memories.iter().map(|m| history(m, event)).collect();
    let changes = Changeset { upserts: memories.to_vec(), history, ..Default::default() };
    block_on(KvStorage::new(kv.clone(), PREFIX).commit(&changes)).unwrap();
}

fn delete(kv: &MapKv, memory: &StoredMemory) {
    let changes = Changeset {
        deletes: vec![memory.item.id.clone()],
        history: vec![history(memory, EventKind::Delete)],
        ..Default::default()
    };
    block_on(KvStorage::new(kv.clone(), PREFIX).commit(&changes)).unwrap();
}

/// A fresh storage's load of `scope`, and how it loaded.
fn open(kv: &MapKv, scope: &Scope) -> (Vec<StoredMemory>, String) {
    let storage = KvStorage::new(kv.clone(), PREFIX);
    let memories = block_on(storage.load_scope(scope)).unwrap().unwrap().into_memories();
    block_on(storage.write_images()).unwrap();
    (memories, storage.scope_loads().join(", "))
}

/// What reading every memory of `scope` gives.
fn records(kv: &MapKv, scope: &Scope) -> Vec<StoredMemory> {
    block_on(KvStorage::new(kv.clone(), PREFIX).read_scope(scope)).unwrap()
}

fn same(a: &[StoredMemory], b: &[StoredMemory]) {
    let shape = |m: &[StoredMemory]| {
        m.iter().map(|m| (m.item.id.clone(), m.item.memory.clone(), m.embedding.clone())).collect::<Vec<_>>()
    };
    assert_eq!(shape(a), shape(b));
}

/// A store with memories 1..=n of user a (agent b for the even ones) and one of user z, whose image of
/// user a is written.
fn imaged(n: u32) -> MapKv {
    let kv = MapKv::new(1000).atomic();
    let alice: Vec<StoredMemory> =
        (1..=n).map(|i| memory(i, &format!("fact {i}"), user("a", (i % 2 == 0).then_some("b")))).collect();
    write(&kv, &alice, EventKind::Add);
    write(&kv, &[memory(900, "other user", user("z", None))], EventKind::Add);
    assert_eq!(open(&kv, &user("a", None)).1, "full (no image)");
    kv
}

#[test]
fn an_image_and_its_journal_open_to_what_every_record_gives() {
    let kv = imaged(6);
    let a = user("a", None);
    let (first, how) = open(&kv, &a);
    assert_eq!(how, "image journal=0");
    same(&first, &records(&kv, &a));
    assert_eq!(first.len(), 6);
    write(&kv, &[memory(10, "added later", user("a", Some("b")))], EventKind::Add);
    write(&kv, &[memory(2, "fact 2, updated", user("a", Some("b")))], EventKind::Update);
    delete(&kv, &memory(3, "fact 3", user("a", None)));
    delete(&kv, &memory(4, "fact 4", user("a", Some("b"))));
    let mut again = memory(4, "fact 4, added again", user("a", Some("b")));
    again.item.created_at = "2024-01-01T00:00:00.020Z".into();
    write(&kv, &[again], EventKind::Add);
    write(&kv, &[memory(901, "other user again", user("z", None))], EventKind::Add);
    let (opened, how) = open(&kv, &a);
    assert_eq!(how, "image journal=5");
    let full = records(&kv, &a);
    same(&opened, &full);
    let ids: Vec<&str> = opened.iter().map(|m| m.item.id.as_str()).collect();
    assert_eq!(ids, ["m1", "m2", "m5", "m6", "m10", "m4"]);
    assert_eq!(opened[1].item.memory, "fact 2, updated");
    assert!(kv.warnings().is_empty(), "{:?}", kv.warnings());
}

/// Rewrites the stored image of `scope` with `change` applied to its bytes.
fn alter(kv: &MapKv, scope: &Scope, change: impl FnOnce(&mut Vec<u8>)) {
    let keys = super::keys::KvKeys::new(PREFIX);
    let head = kv.value(&keys.image_head(scope)).unwrap();
    let token = head.split(' ').next().unwrap();
    let part = keys.image_part(scope, token, 0);
    let mut bytes = bytes_from_base64(&kv.value(&part).unwrap()).unwrap();
    change(&mut bytes);
    kv.set_value(&part, &bytes_to_base64(&bytes));
}

fn reads_in_full_with_a_warning(kv: &MapKv, reason: &str) {
    let a = user("a", None);
    let (opened, how) = open(kv, &a);
    assert!(how.starts_with("full (") && how.contains(reason), "{how}");
    same(&opened, &records(kv, &a));
    assert!(kv.warnings().iter().any(|w| w.contains(reason)), "{:?}", kv.warnings());
    assert_eq!(open(kv, &a).1, "image journal=0", "the image is written again");
}

#[test]
fn a_torn_image_reads_every_memory_with_a_warning_and_is_written_again() {
    let kv = imaged(4);
    alter(&kv, &user("a", None), |bytes| {
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
    });
    reads_in_full_with_a_warning(&kv, "checksum");
}

#[test]
fn an_image_of_another_version_reads_every_memory_with_a_warning() {
    let kv = imaged(4);
    alter(&kv, &user("a", None), |bytes| {
        let at = bytes.windows(env!("CARGO_PKG_VERSION").len()).position(|w| w == env!("CARGO_PKG_VERSION").as_bytes());
        bytes[at.unwrap()] = b'9';
    });
    reads_in_full_with_a_warning(&kv, "written by memwasm 9");
}

#[test]
fn an_image_missing_a_part_reads_every_memory_with_a_warning() {
    let kv = imaged(4);
    let keys = super::keys::KvKeys::new(PREFIX);
    let head = kv.value(&keys.image_head(&user("a", None))).unwrap();
    kv.set_value(&keys.image_head(&user("a", None)), &head.replace(" 1", " 2"));
    reads_in_full_with_a_warning(&kv, "a part of it is missing");
}

#[test]
fn an_image_in_more_parts_than_one_bulk_read_takes_opens_from_them_in_order() {
    let kv = imaged(40);
    let (a, keys) = (user("a", None), super::keys::KvKeys::new(PREFIX));
    let head = kv.value(&keys.image_head(&a)).unwrap();
    let fields: Vec<&str> = head.split(' ').collect();
    let bytes = bytes_from_base64(&kv.value(&keys.image_part(&a, fields[0], 0)).unwrap()).unwrap();
    // Re-split into tiny parts: more than two bulk reads, the last one partial.
    let size = bytes.len().div_ceil(2 * super::BULK_READ_KEYS + 7);
    let parts: Vec<&[u8]> = bytes.chunks(size).collect();
    assert!(parts.len() > 2 * super::BULK_READ_KEYS, "{} parts", parts.len());
    for (at, part) in parts.iter().enumerate() {
        kv.set_value(&keys.image_part(&a, fields[0], at), &bytes_to_base64(part));
    }
    kv.set_value(&keys.image_head(&a), &format!("{} {} {}", fields[0], parts.len(), fields[2]));
    let (opened, how) = open(&kv, &a);
    assert_eq!(how, "image journal=0");
    same(&opened, &records(&kv, &a));
    assert_eq!(opened.len(), 40);
    assert!(kv.warnings().is_empty(), "{:?}", kv.warnings());
}

#[test]
fn a_journal_that_places_a_memory_out_of_creation_order_reads_every_memory() {
    let kv = imaged(4);
    let mut early = memory(3, "fact 3, moved earlier", user("a", None));
    early.item.created_at = "2023-12-31T00:00:00.000Z".into();
    write(&kv, &[early], EventKind::Update);
    reads_in_full_with_a_warning(&kv, "out of creation order");
}

#[test]
fn an_unreadable_journal_entry_reads_every_memory_with_a_warning() {
    let kv = imaged(4);
    write(&kv, &[memory(7, "one more", user("a", None))], EventKind::Add);
    let entry = kv.keys().into_iter().find(|key| key.starts_with(&format!("{PREFIX}jr/a/"))).unwrap();
    kv.set_value(&entry, "{not json");
    reads_in_full_with_a_warning(&kv, &format!("the journal entry {entry} is unreadable"));
}

#[test]
fn a_large_journal_reads_every_memory() {
    let kv = imaged(4);
    for n in 0..257 {
        write(&kv, &[memory(100 + n, "one more", user("a", None))], EventKind::Add);
    }
    reads_in_full_with_a_warning(&kv, "its journal has 257 entries");
    let left = kv.keys().into_iter().filter(|key| key.starts_with(&format!("{PREFIX}jr/a/"))).count();
    assert_eq!(left, 0, "the image's write deletes the entries it covers");
}

#[test]
fn a_journal_naming_many_memories_reads_every_memory() {
    let kv = imaged(4);
    let many: Vec<StoredMemory> = (0..257).map(|n| memory(100 + n, "imported", user("a", None))).collect();
    write(&kv, &many, EventKind::Add);
    reads_in_full_with_a_warning(&kv, "its journal names 257 memories");
}

#[test]
fn a_journal_over_a_quarter_of_the_most_used_asks_for_a_fresh_image() {
    let kv = imaged(4);
    let a = user("a", None);
    let some: Vec<StoredMemory> = (0..65).map(|n| memory(100 + n, "imported", a.clone())).collect();
    write(&kv, &some, EventKind::Add);
    let (opened, how) = open(&kv, &a);
    assert_eq!(how, "image journal=1");
    same(&opened, &records(&kv, &a));
    assert_eq!(open(&kv, &a).1, "image journal=0");
    write(&kv, &some[..64], EventKind::Update);
    assert_eq!(open(&kv, &a).1, "image journal=1");
    assert_eq!(open(&kv, &a).1, "image journal=1", "64 memories named: the image stays");
}

#[test]
fn an_image_read_before_a_commit_keeps_the_commit_in_its_journal() {
    let kv = imaged(3);
    let a = user("a", None);
    let storage = KvStorage::new(kv.clone(), PREFIX);
    let read = block_on(storage.snapshot(&a)).unwrap();
    write(&kv, &[memory(7, "written during the read", user("a", None))], EventKind::Add);
    assert!(block_on(storage.store(read)).unwrap());
    let (opened, how) = open(&kv, &a);
    assert_eq!(how, "image journal=1");
    same(&opened, &records(&kv, &a));
    assert_eq!(opened.len(), 4);
}

#[test]
fn an_image_read_before_a_newer_image_is_not_written() {
    let kv = imaged(3);
    let a = user("a", None);
    let storage = KvStorage::new(kv.clone(), PREFIX);
    let older = block_on(storage.snapshot(&a)).unwrap();
    write(&kv, &[memory(7, "written between the reads", user("a", None))], EventKind::Add);
    let newer = block_on(storage.snapshot(&a)).unwrap();
    assert!(block_on(storage.store(newer)).unwrap());
    assert!(!block_on(storage.store(older)).unwrap(), "the older read must not replace the newer image");
    let (opened, how) = open(&kv, &a);
    assert_eq!(how, "image journal=0");
    assert_eq!(opened.len(), 4);
    same(&opened, &records(&kv, &a));
}

#[test]
fn clear_removes_images_and_journals_and_refuses_an_image_read_before() {
    let kv = imaged(3);
    let a = user("a", None);
    let storage = KvStorage::new(kv.clone(), PREFIX);
    let before = block_on(storage.snapshot(&a)).unwrap();
    block_on(storage.clear()).unwrap();
    assert_eq!(kv.keys(), [format!("{PREFIX}imggen")]);
    assert!(!block_on(storage.store(before)).unwrap());
    assert_eq!(kv.keys(), [format!("{PREFIX}imggen")]);
    assert!(open(&kv, &a).0.is_empty());
}

#[test]
fn an_image_of_an_overlapping_scope_replaces_the_other() {
    let kv = imaged(4);
    let (a, ab) = (user("a", None), user("a", Some("b")));
    assert_eq!(open(&kv, &ab).1, "full (no image)");
    write(&kv, &[memory(8, "agent b again", ab.clone())], EventKind::Add);
    let (opened, how) = open(&kv, &ab);
    assert_eq!(how, "image journal=1");
    same(&opened, &records(&kv, &ab));
    let (opened, how) = open(&kv, &a);
    assert_eq!(how, "full (no image)", "user a's image was dropped with the journal it needed");
    same(&opened, &records(&kv, &a));
    let z = user("z", None);
    assert_eq!(open(&kv, &z).1, "full (no image)");
    assert_eq!(open(&kv, &z).1, "image journal=0");
}

#[test]
fn a_journal_grown_while_warm_gets_a_fresh_image_when_the_host_is_idle() {
    let kv = imaged(4);
    let a = user("a", None);
    let warm = KvStorage::new(kv.clone(), PREFIX);
    block_on(warm.load_scope(&a)).unwrap();
    // 65 memories named (more than a quarter of the 256 an image of 4 takes), written through the warm storage.
    for n in 0..65 {
        let added = memory(200 + n, "added while warm", a.clone());
        let changes = Changeset {
            upserts: vec![added.clone()],
            history: vec![history(&added, EventKind::Add)],
            ..Default::default()
        };
        block_on(warm.commit(&changes)).unwrap();
    }
    // How a fresh storage (a restarted object) loads the scope, writing nothing.
    let how_it_loads = || {
        let storage = KvStorage::new(kv.clone(), PREFIX);
        block_on(storage.load_scope(&a)).unwrap();
        storage.scope_loads().join(", ")
    };
    block_on(warm.settle(false)).unwrap();
    assert_eq!(how_it_loads(), "image journal=65", "a busy host writes no image for a grown journal");
    block_on(warm.settle(true)).unwrap();
    assert_eq!(how_it_loads(), "image journal=0", "an idle host rewrote the image");
    let (opened, _) = open(&kv, &a);
    same(&opened, &records(&kv, &a));
    assert_eq!(opened.len(), 69);
}

#[test]
fn an_empty_scope_writes_no_image_and_drops_the_one_it_had() {
    // A scope read in full with nothing in it (a tenant just reset, a user's first list) leaves no image
    // behind: reading nothing is already as fast as an image, and a reset store stays empty.
    let kv = MapKv::new(1000).atomic();
    let a = user("a", None);
    assert!(open(&kv, &a).0.is_empty());
    assert_eq!(kv.keys(), [format!("{PREFIX}imggen")]);
    // An image of a scope that was since emptied goes when the scope is imaged again.
    let kv = imaged(2);
    for n in 1..=2 {
        delete(&kv, &memory(n, &format!("fact {n}"), user("a", (n % 2 == 0).then_some("b"))));
    }
    let storage = KvStorage::new(kv.clone(), PREFIX);
    block_on(storage.store(block_on(storage.snapshot(&a)).unwrap())).unwrap();
    assert!(kv.keys().iter().all(|key| !key.contains("/imgh/") && !key.contains("/imgp/")), "{:?}", kv.keys());
    assert!(open(&kv, &a).0.is_empty());
}
