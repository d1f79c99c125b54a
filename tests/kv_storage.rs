//! KV storage natively: its key layout (one key per memory and per history record, scopes listed by prefix,
//! tenants by prefix), paging, failure handling, the engine loading scopes on demand, and versioned memory
//! records (lifecycle fields kept exactly, old records read with defaults, newer ones refused). The backend
//! here is `MapKv` (`core::testing`), an ordered map with KV's paging; the real Workers KV runs in tests/workerd.
#![cfg(not(target_arch = "wasm32"))]

use futures_executor::block_on;
use memwasm::core::config::Prompts;
use memwasm::core::identity::content_hash;
use memwasm::core::kv::keys::{decode, encode, KvKeys};
use memwasm::core::kv::record::{decode_vector, encode_vector, RECORD_VERSION};
use memwasm::core::kv::KvStorage;
use memwasm::core::lifecycle::write::WriteLifecycle;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::{EventKind, HistoryRecord, MemoryItem, StoredMemory};
use memwasm::core::model::{Lifecycle, MemoryType};
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::storage::{Changeset, Storage};
use memwasm::core::testing::{Letters, MapKv, NoLlm};
use memwasm::MemoryEngine;
use serde_json::json;

fn scope(user: Option<&str>, agent: Option<&str>, run: Option<&str>) -> Scope {
    Scope { user_id: user.map(Into::into), agent_id: agent.map(Into::into), run_id: run.map(Into::into) }
}

fn memory(id: &str, text: &str, scope: Scope, created: &str, vector: Vec<f32>) -> StoredMemory {
    StoredMemory {
        item: MemoryItem {
            id: id.into(),
            memory: text.into(),
            hash: format!("hash of {text}"),
            metadata: json!({"tag": "t"}).as_object().unwrap().clone().into(),
            score: None,
            fused_score: None,
            created_at: created.into(),
            updated_at: created.into(),
            scope,
            lifecycle: Default::default(),
        },
        embedding: Some(vector),
    }
}

fn record(memory: &StoredMemory, event: EventKind, timestamp: &str) -> HistoryRecord {
    HistoryRecord {
        id: format!("h-{}-{}", memory.item.id, event.name()),
        memory_id: memory.item.id.clone(),
        event,
        old_value: None,
        new_value: Some(memory.item.memory.clone()),
        timestamp: timestamp.into(),
        is_deleted: event == EventKind::Delete,
        scope: memory.item.scope.clone(),
    }
}

fn adds(memories: &[StoredMemory]) -> Changeset {
    Changeset {
        upserts: memories.to_vec(),
        deletes: vec![],
        history: memories.iter().map(|m| record(m, EventKind::Add, &m.item.created_at)).collect(),
        graph: Default::default(),
        side: vec![],
    }
}

fn ids(memories: &[StoredMemory]) -> Vec<&str> {
    memories.iter().map(|m| m.item.id.as_str()).collect()
}

const T1: &str = "2024-01-01T00:00:00.001Z";
const T2: &str = "2024-01-01T00:00:00.002Z";

#[test]
fn key_segments_escape_slashes_and_round_trip() {
    for text in ["alice", "a/b", "50%", "ünï code", "", "x y\n", "../.."] {
        let segment = encode(text);
        assert!(!segment.contains('/') && !segment.contains(' ') && segment != "..", "{segment}");
        assert_eq!(decode(&segment).as_deref(), Some(text));
    }
    assert_eq!(decode("%zz"), None);
    assert_eq!(decode("%4"), None);
    let keys = KvKeys::new("t/acme/");
    let marker = keys.scope_marker(&scope(Some("a/b"), None, Some("r")), "id-1");
    assert_eq!(marker, "t/acme/scope/a%2Fb//r/id-1");
    assert_eq!(keys.parse_scope_marker(&marker), Some((scope(Some("a/b"), None, Some("r")), "id-1".into())));
    assert_eq!(keys.parse_scope_marker("t/other/scope/a///id"), None);
    assert_eq!(keys.scope_prefix(&scope(Some("a"), Some("h"), None)), "t/acme/scope/a/h/");
    assert_eq!(keys.scope_prefix(&scope(Some("a"), None, Some("r"))), "t/acme/scope/a/");
    assert_eq!(keys.scope_prefix(&scope(None, Some("h"), None)), "t/acme/scope/");
}

#[test]
fn vectors_are_stored_as_exact_little_endian_base64() {
    let vector = vec![0.0, -1.5, 1e-30, f32::MAX, 0.123_456_79, -0.0];
    let text = encode_vector(&vector);
    assert_eq!(text.len(), (vector.len() * 4).div_ceil(3) * 4);
    let back = decode_vector(&text).unwrap();
    assert_eq!(
        back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        vector.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(encode_vector(&[1.0]), "AACAPw==");
    assert_eq!(decode_vector("AACAPw==").unwrap(), vec![1.0]);
    assert_eq!(decode_vector("not base64!"), None);
    assert_eq!(decode_vector("AACA"), None, "3 bytes are not a whole f32");
}

#[test]
fn one_key_per_memory_one_per_history_record_and_one_marker_per_scope_entry() {
    let kv = MapKv::new(1000);
    let storage = KvStorage::new(kv.clone(), "p/");
    let a = memory("m1", "likes tea", scope(Some("alice"), None, None), T1, vec![0.6, 0.8]);
    let b = memory("m2", "likes jazz", scope(Some("alice"), Some("helper"), None), T2, vec![1.0, 0.0]);
    block_on(storage.commit(&adds(&[a.clone(), b.clone()]))).unwrap();
    assert_eq!(
        kv.keys(),
        [
            format!("p/hist/m1/{}/h-m1-ADD", encode(T1)),
            format!("p/hist/m2/{}/h-m2-ADD", encode(T2)),
            "p/mem/m1".into(),
            "p/mem/m2".into(),
            "p/scope/alice///m1".into(),
            "p/scope/alice/helper//m2".into(),
        ]
    );
    let stored: serde_json::Value = serde_json::from_str(&kv.value("p/mem/m1").unwrap()).unwrap();
    assert_eq!(stored["memory"], "likes tea");
    assert_eq!(stored["userId"], "alice");
    assert_eq!(stored["embedding"], encode_vector(&[0.6, 0.8]));
    assert_eq!(kv.value("p/scope/alice///m1").as_deref(), Some(""));
    assert_eq!(block_on(storage.load_memory("m1")).unwrap(), Some(a));
    assert_eq!(block_on(storage.load_memory("nope")).unwrap(), None);
}

#[test]
fn a_scope_loads_by_prefix_without_reading_other_scopes() {
    let kv = MapKv::new(1000);
    let storage = KvStorage::new(kv.clone(), "p/");
    let alice = memory("a1", "alice's", scope(Some("alice"), None, None), T2, vec![1.0]);
    let alice_helper = memory("a2", "alice+helper", scope(Some("alice"), Some("helper"), None), T1, vec![1.0]);
    let bob = memory("b1", "bob's", scope(Some("bob"), Some("helper"), None), T1, vec![1.0]);
    block_on(storage.commit(&adds(&[alice.clone(), alice_helper.clone(), bob.clone()]))).unwrap();
    kv.clear_log();

    let loaded = block_on(storage.load_scope(&scope(Some("alice"), None, None))).unwrap().unwrap();
    assert_eq!(ids(&loaded.memories), ["a2", "a1"], "oldest first");
    assert_eq!(kv.ops("list"), ["list p/scope/alice/"]);
    assert_eq!(kv.ops("get"), ["get_many 2"], "only alice's memories are read, in one bulk read");
    assert!(block_on(storage.load_scope(&scope(Some("alice"), Some("helper"), None))).unwrap().is_none(), "covered");

    let storage = KvStorage::new(kv.clone(), "p/");
    let helper = block_on(storage.load_scope(&scope(None, Some("helper"), None))).unwrap().unwrap();
    assert_eq!(ids(&helper.memories), ["a2", "b1"], "a scope without userId lists every marker but reads only its own");
    let run = block_on(storage.load_scope(&scope(Some("alice"), None, Some("r1")))).unwrap().unwrap();
    assert!(run.memories.is_empty());
}

#[test]
fn listing_follows_cursors_and_bulk_reads_take_100_keys() {
    let kv = MapKv::new(7);
    let storage = KvStorage::new(kv.clone(), "");
    let many: Vec<StoredMemory> = (0..250)
        .map(|i| memory(&format!("m{i:03}"), &format!("fact {i}"), scope(Some("u"), None, None), T1, vec![1.0]))
        .collect();
    block_on(storage.commit(&adds(&many))).unwrap();
    kv.clear_log();
    let loaded = block_on(storage.load_scope(&scope(Some("u"), None, None))).unwrap().unwrap();
    assert_eq!(loaded.memories.len(), 250);
    assert_eq!(kv.ops("list").len(), 250usize.div_ceil(7));
    assert_eq!(kv.ops("get"), ["get_many 100", "get_many 100", "get_many 50"]);
}

#[test]
fn updates_rewrite_only_their_memory_and_nothing_is_rewritten_per_add() {
    let kv = MapKv::new(1000);
    let storage = KvStorage::new(kv.clone(), "p/");
    for i in 0..20 {
        let m = memory(&format!("m{i}"), "x", scope(Some("u"), None, None), T1, vec![1.0]);
        block_on(storage.commit(&adds(&[m]))).unwrap();
    }
    assert!(kv.writes().values().all(|n| *n == 1), "no key is written twice across 20 adds");
    let mut m = memory("m3", "y", scope(Some("u"), None, None), T1, vec![0.5]);
    m.item.updated_at = T2.into();
    kv.clear_log();
    let changes = Changeset {
        upserts: vec![m.clone()],
        deletes: vec![],
        history: vec![record(&m, EventKind::Update, T2)],
        ..Changeset::default()
    };
    block_on(storage.commit(&changes)).unwrap();
    let puts = kv.ops("put");
    assert_eq!(puts.len(), 3, "{puts:?}");
    assert!(puts.iter().all(|p| p.contains("m3")), "{puts:?}");
    assert_eq!(block_on(storage.load_memory("m3")).unwrap(), Some(m));
}

#[test]
fn memories_created_together_keep_their_order_when_rewritten() {
    let kv = MapKv::new(1000);
    let storage = KvStorage::new(kv.clone(), "");
    let together: Vec<StoredMemory> =
        ["a", "b", "c"].iter().map(|id| memory(id, id, scope(Some("u"), None, None), T1, vec![1.0])).collect();
    block_on(storage.commit(&adds(&together))).unwrap();
    let mut first = together[0].clone();
    first.item.memory = "a, rewritten".into();
    let update = Changeset {
        upserts: vec![first.clone()],
        deletes: vec![],
        history: vec![record(&first, EventKind::Update, T2)],
        graph: Default::default(),
        side: vec![],
    };
    block_on(storage.commit(&update)).unwrap();
    let loaded = block_on(KvStorage::new(kv.clone(), "").load_scope(&scope(Some("u"), None, None))).unwrap().unwrap();
    assert_eq!(ids(&loaded.memories), ["a", "b", "c"], "same created_at: creation order, not write order");
}

#[test]
fn deletes_remove_memory_and_marker_but_keep_history_in_order() {
    let kv = MapKv::new(1000);
    let storage = KvStorage::new(kv.clone(), "p/");
    let m = memory("m1", "x", scope(Some("u"), None, None), T1, vec![1.0]);
    block_on(storage.commit(&adds(std::slice::from_ref(&m)))).unwrap();
    let mut updated = m.clone();
    updated.item.memory = "y".into();
    let update = Changeset {
        upserts: vec![updated.clone()],
        deletes: vec![],
        history: vec![record(&updated, EventKind::Update, T2)],
        graph: Default::default(),
        side: vec![],
    };
    block_on(storage.commit(&update)).unwrap();
    // DELETE in the same millisecond as the UPDATE still sorts after it.
    let delete = Changeset {
        upserts: vec![],
        deletes: vec!["m1".into()],
        history: vec![record(&m, EventKind::Delete, T2)],
        ..Changeset::default()
    };
    kv.clear_log();
    block_on(storage.commit(&delete)).unwrap();
    assert!(kv.ops("get").is_empty(), "the DELETE record names the scope, so nothing is read");
    assert!(kv.keys().iter().all(|k| k.starts_with("p/hist/m1/")), "{:?}", kv.keys());
    assert_eq!(block_on(storage.load_memory("m1")).unwrap(), None);
    let events: Vec<EventKind> = block_on(storage.history("m1")).unwrap().iter().map(|r| r.event).collect();
    assert_eq!(events, [EventKind::Add, EventKind::Update, EventKind::Delete]);
    assert!(block_on(storage.history("unknown")).unwrap().is_empty());
    let everything = block_on(storage.all_history()).unwrap().unwrap();
    assert_eq!(
        everything.iter().map(|r| r.event).collect::<Vec<_>>(),
        [EventKind::Add, EventKind::Update, EventKind::Delete]
    );
    let orphan = memory("m2", "z", scope(Some("v"), None, None), T1, vec![1.0]);
    block_on(storage.commit(&adds(&[orphan]))).unwrap();
    let bare = Changeset { deletes: vec!["m2".into()], ..Changeset::default() };
    block_on(storage.commit(&bare)).unwrap();
    assert!(kv.keys().iter().all(|k| k.contains("/hist/")), "without a record the scope is read: {:?}", kv.keys());
}

#[test]
fn tenants_are_prefixes_and_reset_clears_only_its_own() {
    let kv = MapKv::new(3);
    let acme = KvStorage::new(kv.clone(), "t/acme/");
    let initech = KvStorage::new(kv.clone(), "t/initech/");
    let a = memory("shared-id", "acme's", scope(Some("alice"), None, None), T1, vec![1.0]);
    let b = memory("other", "initech's", scope(Some("alice"), None, None), T1, vec![1.0]);
    block_on(acme.commit(&adds(std::slice::from_ref(&a)))).unwrap();
    block_on(initech.commit(&adds(std::slice::from_ref(&b)))).unwrap();
    assert_eq!(block_on(initech.load_memory("shared-id")).unwrap(), None);
    assert!(block_on(initech.history("shared-id")).unwrap().is_empty());
    let seen = block_on(initech.load_scope(&scope(Some("alice"), None, None))).unwrap().unwrap();
    assert_eq!(ids(&seen.memories), ["other"]);
    block_on(initech.clear()).unwrap();
    assert!(kv.keys().iter().all(|k| k.starts_with("t/acme/")));
    assert_eq!(kv.keys().len(), 3);
    assert_eq!(block_on(acme.load_memory("shared-id")).unwrap(), Some(a));
}

#[test]
fn failed_writes_reject_with_storage_and_readers_skip_what_is_half_written() {
    let kv = MapKv::new(1000);
    let storage = KvStorage::new(kv.clone(), "");
    let m = memory("m1", "x", scope(Some("u"), None, None), T1, vec![1.0]);
    kv.fail_puts_after(Some(1));
    let error = block_on(storage.commit(&adds(std::slice::from_ref(&m)))).unwrap_err();
    assert_eq!(error.code(), "STORAGE");
    assert_eq!(kv.keys(), ["mem/m1"], "the value is written before the marker that lists it");
    kv.fail_puts_after(None);
    block_on(storage.commit(&adds(std::slice::from_ref(&m)))).unwrap();
    kv.remove_value("mem/m1");
    let loaded = block_on(KvStorage::new(kv.clone(), "").load_scope(&scope(Some("u"), None, None))).unwrap();
    assert!(loaded.unwrap().memories.is_empty(), "a marker whose memory is gone is skipped");
    kv.set_value("mem/m1", "{not json");
    let error = block_on(KvStorage::new(kv.clone(), "").load_scope(&scope(Some("u"), None, None))).unwrap_err();
    assert_eq!(error.code(), "STORAGE");
}

#[test]
fn ids_too_long_for_kv_keys_are_rejected_before_anything_is_written() {
    let kv = MapKv::new(1000);
    let storage = KvStorage::new(kv.clone(), "");
    let m = memory("m1", "x", scope(Some(&"u".repeat(600)), None, None), T1, vec![1.0]);
    let error = block_on(storage.commit(&adds(&[m]))).unwrap_err();
    assert_eq!(error.code(), "INVALID_INPUT");
    assert!(kv.keys().is_empty());
}

// ------------------------------------------------------------------ the engine over KV

type KvEngine = MemoryEngine<NoLlm, Letters, KvStorage<MapKv>>;

fn kv_engine(kv: &MapKv) -> KvEngine {
    let storage = KvStorage::new(kv.clone(), "t/x/");
    block_on(MemoryEngine::open(NoLlm, Letters::new(26).folding_case(), storage, Prompts::default())).unwrap()
}

fn add(engine: &KvEngine, text: &str, user: &str) -> String {
    let options = AddOptions { scope: ScopeFields::user(user), ..AddOptions::default() };
    block_on(engine.add(&json!(text), &options)).unwrap().results[0].id.clone()
}

fn user(user: &str) -> Read {
    Read::of(Scope { user_id: Some(user.into()), ..Scope::default() }, DEFAULT_LIMIT)
}

#[test]
fn the_engine_loads_each_scope_on_first_use_and_single_memories_by_id() {
    let kv = MapKv::new(2);
    let writer = kv_engine(&kv);
    let tea = add(&writer, "likes green tea", "alice");
    add(&writer, "plays chess", "alice");
    add(&writer, "plays the drums", "alice");
    let bob = add(&writer, "likes coffee", "bob");

    kv.clear_log();
    let reader = kv_engine(&kv);
    assert!(kv.log().is_empty(), "opening reads nothing");
    let all: Vec<String> =
        block_on(reader.get_all(&user("alice"))).unwrap().results.into_iter().map(|m| m.memory).collect();
    assert_eq!(all, ["likes green tea", "plays chess", "plays the drums"], "oldest first");
    assert!(kv.ops("list").iter().all(|op| op == "list t/x/scope/alice/"), "{:?}", kv.ops("list"));
    let listed = kv.ops("list").len();
    let hits = block_on(reader.search("green tea", &user("alice"))).unwrap().results;
    assert_eq!(hits[0].id, tea);
    assert_eq!(kv.ops("list").len(), listed, "the scope is loaded once");

    assert_eq!(block_on(reader.get(&bob)).unwrap().unwrap().memory, "likes coffee", "by id, without bob's scope");
    assert!(kv.ops("list").iter().all(|op| !op.contains("bob")));
    block_on(reader.update(&bob, "likes strong coffee")).unwrap();
    assert_eq!(block_on(writer.history(&bob)).unwrap().len(), 2);
    assert_eq!(block_on(kv_engine(&kv).get_all(&user("bob"))).unwrap().results[0].memory, "likes strong coffee");
    block_on(reader.delete(&tea, false)).unwrap();
    assert!(block_on(kv_engine(&kv).get(&tea)).unwrap().is_none());
    assert_eq!(block_on(kv_engine(&kv).delete(&tea, false)).unwrap_err().code(), "NOT_FOUND");

    let deleted = block_on(kv_engine(&kv).delete_all(&user("alice")));
    assert_eq!(deleted.unwrap(), 2, "delete_all loads the scope first");
    assert!(block_on(kv_engine(&kv).get_all(&user("alice"))).unwrap().results.is_empty());
    block_on(reader.reset()).unwrap();
    assert!(kv.keys().is_empty());
    assert!(block_on(reader.get_all(&user("bob"))).unwrap().results.is_empty(), "reset forgets loaded scopes too");
}

#[test]
fn a_verbatim_add_stores_again_what_a_scope_loaded_from_kv_holds() {
    let kv = MapKv::new(1000);
    add(&kv_engine(&kv), "likes green tea", "alice");
    let options = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    let again = block_on(kv_engine(&kv).add(&json!("likes green tea"), &options)).unwrap();
    assert_eq!(again.results[0].event, EventKind::Add, "without an LLM, texts are stored as given (as mem0 does)");
    assert_eq!(block_on(kv_engine(&kv).get_all(&user("alice"))).unwrap().results.len(), 2);
}

// ------------------------------------------------------------------ lifecycle fields and record versions

/// A memory with every lifecycle field set (an importance and a metadata number that need all 17 digits).
fn with_lifecycle() -> StoredMemory {
    let mut m = memory("m1", "likes tea", scope(Some("alice"), None, None), T1, vec![0.6, 0.8]);
    m.item.metadata.insert("ratio".into(), json!(0.205_996_777_083_423_45));
    m.item.lifecycle = Lifecycle {
        memory_type: MemoryType::Episodic,
        importance: 0.385_957_716_695_298_44,
        pinned: true,
        expires_at: Some("2030-01-01T00:00:00.000Z".into()),
        key: Some("drink".into()),
        deleted_at: Some(T2.into()),
        last_accessed_at: Some(T1.into()),
        decayed_at: Some(T2.into()),
        attributed_to: Some("user".into()),
    };
    m
}

#[test]
fn lifecycle_fields_persist_in_kv_and_reload_exactly() {
    let kv = MapKv::new(1000);
    let m = with_lifecycle();
    block_on(KvStorage::new(kv.clone(), "p/").commit(&adds(std::slice::from_ref(&m)))).unwrap();
    let stored: serde_json::Value = serde_json::from_str(&kv.value("p/mem/m1").unwrap()).unwrap();
    assert_eq!(stored["version"], RECORD_VERSION);
    assert_eq!(
        (&stored["memoryType"], &stored["key"], &stored["pinned"]),
        (&json!("episodic"), &json!("drink"), &json!(true))
    );
    let fresh = KvStorage::new(kv.clone(), "p/");
    assert_eq!(block_on(fresh.load_memory("m1")).unwrap(), Some(m.clone()), "bit for bit, floats included");
    assert_eq!(block_on(fresh.load_scope(&scope(Some("alice"), None, None))).unwrap().unwrap().into_memories(), [m]);

    let writer = kv_engine(&kv);
    let alice = scope(Some("alice"), None, None);
    let write = WriteLifecycle { memory_type: Some(MemoryType::Profile), pinned: true, ..WriteLifecycle::default() };
    block_on(writer.lifecycle().store("city", "lives in Lyon", &alice, None, Default::default(), &write)).unwrap();
    let reader = kv_engine(&kv);
    let item = block_on(reader.lifecycle().get_by_key("city", &alice)).unwrap();
    assert_eq!(
        (item.memory.as_str(), item.lifecycle.memory_type, item.lifecycle.pinned),
        ("lives in Lyon", MemoryType::Profile, true)
    );
}

#[test]
fn an_unversioned_kv_record_from_before_lifecycle_reads_with_defaults() {
    let kv = MapKv::new(1000);
    let old = json!({"id": "old", "memory": "likes tea", "hash": content_hash("likes tea"), "metadata": {},
        "createdAt": T1, "updatedAt": T1, "userId": "alice", "embedding": encode_vector(&[0.6, 0.8]), "seq": 7});
    kv.set_value("t/x/mem/old", &old.to_string());
    kv.set_value("t/x/scope/alice///old", "");
    let loaded = block_on(KvStorage::new(kv.clone(), "t/x/").load_memory("old")).unwrap().unwrap();
    assert_eq!(loaded.item.lifecycle, Lifecycle::default());
    assert_eq!(loaded.embedding, Some(vec![0.6, 0.8]));

    let engine = kv_engine(&kv);
    let page = block_on(engine.get_all(&user("alice"))).unwrap().results;
    assert_eq!(page.len(), 1);
    assert_eq!((page[0].lifecycle.importance, page[0].lifecycle.memory_type), (0.5, MemoryType::Semantic));
    block_on(engine.lifecycle().pin("old", true)).unwrap();
    let rewritten: serde_json::Value = serde_json::from_str(&kv.value("t/x/mem/old").unwrap()).unwrap();
    assert_eq!(
        (&rewritten["version"], &rewritten["pinned"], &rewritten["seq"]),
        (&json!(RECORD_VERSION), &json!(true), &json!(7))
    );
}

#[test]
fn a_kv_record_from_a_newer_version_is_refused_with_storage() {
    let kv = MapKv::new(1000);
    let newer = json!({"version": RECORD_VERSION + 1, "id": "new", "memory": "x", "hash": "h", "createdAt": T1,
        "updatedAt": T1, "userId": "alice", "memoryType": "dream", "seq": 1});
    kv.set_value("t/x/mem/new", &newer.to_string());
    kv.set_value("t/x/scope/alice///new", "");
    let storage = KvStorage::new(kv.clone(), "t/x/");
    let error = block_on(storage.load_memory("new")).unwrap_err();
    assert_eq!(error.code(), "STORAGE");
    assert!(error.to_string().contains("newer memwasm"), "{error}");
    assert_eq!(block_on(storage.load_scope(&scope(Some("alice"), None, None))).unwrap_err().code(), "STORAGE");
    assert_eq!(block_on(kv_engine(&kv).get_all(&user("alice"))).unwrap_err().code(), "STORAGE");
    let mut rewrite = memory("new", "y", scope(Some("alice"), None, None), T1, vec![1.0]);
    rewrite.item.updated_at = T2.into();
    let update = Changeset {
        upserts: vec![rewrite.clone()],
        history: vec![record(&rewrite, EventKind::Update, T2)],
        ..Changeset::default()
    };
    assert_eq!(
        block_on(storage.commit(&update)).unwrap_err().code(),
        "STORAGE",
        "never overwritten by an older library"
    );
    assert_eq!(kv.value("t/x/mem/new"), Some(newer.to_string()));
}

#[test]
fn side_records_live_under_their_own_prefix_and_reload() {
    use memwasm::core::side_records::SideWrite;
    let kv = MapKv::new(2);
    let storage = KvStorage::new(kv.clone(), "app/");
    let writes = vec![
        SideWrite::put("buffer", "group/1", json!({"messages": [1, 2]})),
        SideWrite::put("buffer", "group 2", json!(null)),
        SideWrite::put("cache", "h1", json!([0.5])),
    ];
    block_on(storage.commit(&Changeset { side: writes, ..Changeset::default() })).unwrap();
    block_on(storage.commit(&Changeset { side: vec![SideWrite::delete("buffer", "group 2")], ..Changeset::default() }))
        .unwrap();
    assert!(kv.keys().iter().all(|key| key.starts_with("app/side/")), "{:?}", kv.keys());
    let reader = KvStorage::new(kv.clone(), "app/");
    let buffers = block_on(reader.load_side("buffer")).unwrap();
    assert_eq!(buffers.len(), 1);
    assert_eq!((buffers[0].key.as_str(), &buffers[0].value), ("group/1", &json!({"messages": [1, 2]})));
    assert_eq!(block_on(reader.load_side("cache")).unwrap()[0].value, json!([0.5]));
    kv.set_value("app/side/cache/broken", "{not json");
    assert_eq!(block_on(reader.load_side("cache")).unwrap_err().code(), "STORAGE");
}
