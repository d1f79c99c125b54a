// The tests of the memory lifecycle's keys, pins and decay need the core features; without them their imports rest.
#![cfg_attr(not(feature = "core-features"), allow(unused_imports, dead_code))]

use crate::core::model::scope_fields::ScopeFields;
use futures_executor::block_on;
use serde_json::json;

use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::engine::update::UpdatePatch;
use crate::core::error::MemoryError;
use crate::core::kv::KvStorage;
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model_traits::Embedder;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::{Read, DEFAULT_LIMIT};
use crate::core::storage::{InMemoryStorage, Storage};
use crate::core::testing::{letter_engine, KeepingStorage, Letters, MapKv, MapRemote, NoLlm};
use crate::core::vector_store::{normalized, VectorStore};

type Engine<S> = MemoryEngine<NoLlm, Letters, S>;

fn scope(user: &str) -> Scope {
    Scope { user_id: Some(user.into()), ..Scope::default() }
}

fn with_remote<S: Storage>(storage: S, remote: &MapRemote) -> Engine<S> {
    let mut engine = letter_engine(storage);
    engine.set_remote_vectors(remote.clone());
    engine
}

fn add<S: Storage>(engine: &Engine<S>, text: &str) -> String {
    let options = AddOptions { scope: ScopeFields::user("alice"), infer: Some(false), ..AddOptions::default() };
    block_on(engine.add(&json!(text), &options)).unwrap().results[0].id.clone()
}

fn unit(text: &str) -> Vec<f32> {
    normalized(block_on(Letters::new(26).embed_one(text)).unwrap()).unwrap()
}

fn found<S: Storage>(engine: &Engine<S>, query: &str) -> Vec<String> {
    let read = Read::of(scope("alice"), DEFAULT_LIMIT);
    block_on(engine.search(query, &read)).unwrap().results.into_iter().map(|m| m.memory).collect()
}

#[test]
fn vectors_live_in_the_remote_index_only() {
    let remote = MapRemote::default();
    let engine = with_remote(InMemoryStorage::default(), &remote);
    let ids: Vec<String> = ["likes tea", "walks the dog", "zzz"].iter().map(|text| add(&engine, text)).collect();
    let index = engine.index.borrow();
    assert!(ids.iter().all(|id| index.get(id).is_some() && index.vector(id).is_none()));
    assert_eq!(index.dimension(), None, "no vector row is allocated");
    drop(index);
    assert_eq!(remote.points()[&ids[0]].vector, unit("likes tea"));
    assert_eq!(found(&engine, "likes tea")[0], "likes tea");
    assert!(remote.calls().contains(&"query"));
    let read = Read::of(scope("alice"), DEFAULT_LIMIT);
    let error = block_on(engine.search_by_vector(vec![1.0, 2.0], &read)).unwrap_err();
    assert!(matches!(error, MemoryError::DimensionMismatch { expected: 26, actual: 2 }), "{error:?}");
}

#[cfg(feature = "core-features")]
#[test]
fn write_backs_keep_their_vector_in_storage_and_in_the_remote_index() {
    let (storage, remote) = (KeepingStorage::new(), MapRemote::default());
    let engine = with_remote(storage.clone(), &remote);
    let tea = add(&engine, "likes tea");
    let stored = |id: &str| storage.memories().into_iter().find(|m| m.item.id == id).unwrap();
    block_on(engine.lifecycle().pin(&tea, true)).unwrap();
    assert_eq!(stored(&tea).embedding, Some(unit("likes tea")), "a pin writes the vector back to storage");
    let patch =
        UpdatePatch { metadata: Some(json!({"mood": "calm"}).as_object().unwrap().clone()), ..Default::default() };
    block_on(engine.update_with(&tea, &patch)).unwrap();
    assert_eq!(remote.points()[&tea].metadata["mood"], json!("calm"), "the remote copy's metadata follows");
    assert_eq!(stored(&tea).embedding, Some(unit("likes tea")));
    block_on(engine.update_with(&tea, &UpdatePatch::text("likes green tea"))).unwrap();
    assert_eq!(remote.points()[&tea].vector, unit("likes green tea"));
    assert_eq!(stored(&tea).embedding, Some(unit("likes green tea")));
    assert!(engine.index.borrow().vector(&tea).is_none());
}

#[cfg(feature = "core-features")]
#[test]
fn without_persisted_memories_a_write_back_needs_no_remote_call() {
    let remote = MapRemote::default();
    let engine = with_remote(InMemoryStorage::default(), &remote);
    let tea = add(&engine, "likes tea");
    let calls = remote.calls().len();
    remote.set_down(true);
    block_on(engine.lifecycle().pin(&tea, true)).unwrap();
    assert_eq!(remote.calls().len(), calls);
    let patch =
        UpdatePatch { metadata: Some(json!({"mood": "calm"}).as_object().unwrap().clone()), ..Default::default() };
    let error = block_on(engine.update_with(&tea, &patch)).unwrap_err();
    assert_eq!(error.code(), "VECTOR_STORE_UNAVAILABLE", "the remote copy's metadata must change");
    remote.set_down(false);
    assert!(remote.points()[&tea].metadata.get("mood").is_none(), "nothing of the failed update");
    assert_eq!(found(&engine, "likes tea"), ["likes tea"]);
}

#[cfg(feature = "core-features")]
#[test]
fn export_share_and_novelty_read_vectors_from_the_remote_index() {
    let remote = MapRemote::default();
    let engine = with_remote(InMemoryStorage::default(), &remote);
    let tea = add(&engine, "likes tea");
    let exported = block_on(engine.export(scope("alice"))).unwrap();
    let line: serde_json::Value = serde_json::from_str(exported.lines().find(|l| l.contains(&tea)).unwrap()).unwrap();
    assert!(line["embedding"].as_str().is_some_and(|text| !text.is_empty()), "{line}");
    let write = WriteLifecycle::default();
    block_on(engine.lifecycle().store("drink", "likes coffee", &scope("alice"), None, Default::default(), &write))
        .unwrap();
    assert_eq!(block_on(engine.lifecycle().share(&scope("alice"), &scope("bob"), "*")).unwrap(), 1);
    let shared = remote.points().into_values().find(|p| p.scope == scope("bob")).expect("shared with its vector");
    assert_eq!(shared.vector, unit("likes coffee"));
    let centroid = engine.centroid(&scope("alice")).expect("a running mean of the vectors seen");
    let mean: Vec<f64> =
        unit("likes tea").iter().zip(unit("likes coffee")).map(|(a, b)| f64::from(a + b) / 2.0).collect();
    assert!(centroid.iter().zip(&mean).all(|(c, m)| (c - m).abs() < 1e-6), "{centroid:?}");
    assert_eq!(engine.centroid(&scope("carol")), None);
}

#[test]
fn a_delete_made_while_the_remote_index_is_down_is_replayed_by_the_next_instance() {
    let (storage, remote) = (KeepingStorage::new(), MapRemote::default());
    let first = with_remote(storage.clone(), &remote);
    let tea = add(&first, "likes tea");
    add(&first, "walks the dog");
    remote.set_down(true);
    block_on(first.delete(&tea, false)).unwrap();
    remote.set_down(false);
    drop(first);
    assert!(remote.points().contains_key(&tea), "still there while pending");

    let mut second: Engine<_> =
        block_on(MemoryEngine::open(NoLlm, Letters::new(26), storage.clone(), Prompts::default())).unwrap();
    second.set_remote_vectors(remote.clone());
    assert_eq!(block_on(second.remote_vectors().backfill_remote()).unwrap(), 0);
    add(&second, "plays chess");
    assert!(!remote.points().contains_key(&tea), "replayed before the next write");
    assert_eq!(block_on(second.side_record("vector-store-pending", "pending")).unwrap(), None);
    let mut left = found(&second, "likes");
    left.sort();
    assert_eq!(left, ["plays chess", "walks the dog"]);
}

#[test]
fn opening_uploads_what_storage_held_and_drops_the_vectors() {
    let storage = KeepingStorage::new();
    let plain = letter_engine(storage.clone());
    let tea = add(&plain, "likes tea");
    drop(plain);
    let remote = MapRemote::default();
    let mut engine: Engine<_> =
        block_on(MemoryEngine::open(NoLlm, Letters::new(26), storage, Prompts::default())).unwrap();
    assert!(engine.index.borrow().vector(&tea).is_some());
    engine.set_remote_vectors(remote.clone());
    assert_eq!(block_on(engine.remote_vectors().backfill_remote()).unwrap(), 1);
    assert!(engine.index.borrow().vector(&tea).is_none());
    assert_eq!(engine.index.borrow().dimension(), None);
    assert_eq!(remote.points()[&tea].vector, unit("likes tea"));
    assert_eq!(found(&engine, "tea"), ["likes tea"]);
}

#[test]
fn a_scope_loaded_from_its_open_image_uploads_the_vectors_the_remote_index_lacks() {
    let kv = MapKv::new(1000).atomic();
    let before = letter_engine(KvStorage::new(kv.clone(), "t/x/"));
    let ids: Vec<String> = ["likes tea", "walks the dog"].iter().map(|text| add(&before, text)).collect();
    block_on(before.settle_storage(false)).unwrap();
    let remote = MapRemote::default();
    let engine = with_remote(KvStorage::new(kv, "t/x/"), &remote);
    assert_eq!(found(&engine, "likes tea")[0], "likes tea");
    assert_eq!(engine.scope_loads(), ["image journal=0"]);
    assert_eq!(remote.points()[&ids[0]].vector, unit("likes tea"), "stored before the switch: uploaded");
    assert_eq!(remote.points()[&ids[1]].vector, unit("walks the dog"));
    assert!(ids.iter().all(|id| engine.index.borrow().vector(id).is_none()), "kept in the remote index only");
}
