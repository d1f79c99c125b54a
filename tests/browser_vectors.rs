//! Vectors in the `vectors` store (schema version 5), in headless Chromium: they follow adds, vector
//! changes, metadata-only updates and deletes across reopens (chunks rewritten in place, emptied ones
//! dropped, a rolled-back write leaving none), and a version 4 database, vectors inside its records, is
//! migrated on open and searches as before. 1024-d vectors, so a few hundred memories span several chunks.
//! Each test deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use std::cell::Cell;
use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;

use browser_support::*;
use memwasm::core::config::IndexedDbSettings;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::{EventKind, HistoryRecord, StoredMemory};
use memwasm::core::storage::{Changeset, Storage};
use memwasm::core::testing::Sabotaged;
use memwasm::platform::indexeddb::{IndexedDbStorage, SCHEMA_VERSION, VECTORS_STORE};
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const DIM: usize = 1024;

fn storage(db: &str) -> IndexedDbStorage {
    IndexedDbStorage::new(&IndexedDbSettings { db_name: db.into(), persist: false })
}

/// Vector `k`: small integers (exact in f32 and in JS), distinct for every `k` < 1009. The same formula is in
/// `V4_VECTOR` for the JS side.
fn vector(k: usize) -> Vec<f32> {
    (0..DIM).map(|j| ((k * 7919 + j * j * 31 + j * k) % 1009) as f32 - 504.0).collect()
}
const V4_VECTOR: &str =
    "(k) => Float32Array.from({length: 1024}, (_, j) => ((k * 7919 + j * j * 31 + j * k) % 1009) - 504)";

fn memory(n: usize, embedding: Option<Vec<f32>>) -> StoredMemory {
    alices_memory(n, format!("2025-01-01T00:{:02}:{:02}.000Z", n / 60, n % 60), embedding)
}

fn history(id: &str) -> HistoryRecord {
    HistoryRecord {
        id: format!("h-{id}-{}", js_sys::Math::random()),
        memory_id: id.into(),
        event: EventKind::Update,
        old_value: None,
        new_value: None,
        timestamp: "2025-01-01T00:00:00.000Z".into(),
        is_deleted: false,
        scope: Scope { user_id: Some("alice".into()), ..Scope::default() },
    }
}

/// What a fresh storage loads, by id.
async fn loaded(db: &str) -> BTreeMap<String, StoredMemory> {
    let memories = storage(db).load_memories().await.expect("loads");
    memories.into_iter().map(|m| (m.item.id.clone(), m)).collect()
}

/// The `vectors` store as `[chunk, ids]` pairs, read without the library.
async fn chunks(db: &str) -> Vec<(u64, Vec<String>)> {
    let open = open_current_js(db);
    let raw = run_js(&format!(
        "{open}
         const all = await new Promise((ok, no) => {{ const r = db.transaction('{VECTORS_STORE}').objectStore('{VECTORS_STORE}').getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
         db.close();
         return all.map((c) => [c.chunk, JSON.parse(c.ids), c.vectors.length / c.dim]);"
    ))
    .await;
    let rows: Vec<(u64, Vec<String>, usize)> = serde_json::from_value(json_of(raw)).expect("chunks");
    for (key, ids, length) in &rows {
        assert_eq!(ids.len(), *length, "chunk {key}: one row of values per id");
    }
    rows.into_iter().map(|(key, ids, _)| (key, ids)).collect()
}

/// Every stored vector's id, once each, and no chunk left empty.
async fn assert_one_row_each(db: &str, expected: &BTreeMap<String, StoredMemory>) {
    let chunks = chunks(db).await;
    assert!(chunks.iter().all(|(_, ids)| !ids.is_empty()), "no empty chunk is kept: {chunks:?}");
    let rows: Vec<&String> = chunks.iter().flat_map(|(_, ids)| ids).collect();
    let distinct: HashSet<&String> = rows.iter().copied().collect();
    assert_eq!(rows.len(), distinct.len(), "no id twice");
    let with_vectors: HashSet<&String> =
        expected.values().filter(|m| m.embedding.is_some()).map(|m| &m.item.id).collect();
    assert_eq!(distinct, with_vectors, "a row for exactly the memories that have a vector");
}

#[wasm_bindgen_test]
async fn vectors_follow_adds_updates_and_deletes_across_reopens() {
    let db = "vectors-writes";
    delete_database(db).await;
    let mut expected: BTreeMap<String, StoredMemory> = BTreeMap::new();
    let first: Vec<StoredMemory> = (0..300).map(|n| memory(n, (n % 100 != 7).then(|| vector(n)))).collect();
    expected.extend(first.iter().map(|m| (m.item.id.clone(), m.clone())));
    storage(db).commit(&Changeset { upserts: first, ..Changeset::default() }).await.unwrap();
    assert_eq!(loaded(db).await, expected, "every vector back exactly, none for the memories without one");
    assert_eq!(chunks(db).await.len(), 3, "297 vectors of 1024 values: chunks of 128");
    assert_one_row_each(db, &expected).await;

    // One instance, loaded first (it knows where each vector is), writes the changes in three commits.
    let writer = storage(db);
    writer.load_memories().await.unwrap();
    let mut changes = Changeset::default();
    let mut moved = memory(5, Some(vector(1005)));
    moved.item.memory = "a new text, a new vector".into();
    let mut tagged = expected["m006"].clone();
    tagged.item.metadata.insert("tag".into(), json!("same vector"));
    let unvectored = memory(8, None);
    let vectored = memory(7, Some(vector(7))); // had none
    changes.upserts = vec![moved, tagged, unvectored, vectored, memory(300, Some(vector(300)))];
    changes.deletes = (10..20).map(|n| format!("m{n:03}")).collect();
    changes.history = vec![history("m005")];
    writer.commit(&changes).await.unwrap();
    for m in &changes.upserts {
        expected.insert(m.item.id.clone(), m.clone());
    }
    for id in &changes.deletes {
        expected.remove(id);
    }
    let (_, last_chunk) = chunks(db).await.pop().expect("a chunk");
    writer.commit(&Changeset { deletes: last_chunk.clone(), ..Changeset::default() }).await.unwrap();
    last_chunk.iter().for_each(|id| drop(expected.remove(id)));
    assert_eq!(chunks(db).await.len(), 2, "the emptied chunk is deleted");
    let again = memory(301, Some(vector(301)));
    writer.commit(&Changeset { upserts: vec![again.clone()], ..Changeset::default() }).await.unwrap();
    expected.insert(again.item.id.clone(), again);
    assert_eq!(chunks(db).await.len(), 3, "the last chunk is full: a new one");

    assert_eq!(loaded(db).await, expected, "after the writes, read by a fresh instance");
    assert_one_row_each(db, &expected).await;

    // A write rolled back after its chunk writes were issued leaves the vectors as they were.
    let armed = Rc::new(Cell::new(true));
    let sabotaged = Sabotaged { inner: storage(db), armed };
    sabotaged.inner.load_memories().await.unwrap();
    let doomed = Changeset {
        upserts: vec![memory(0, Some(vector(5000))), memory(400, Some(vector(400)))],
        deletes: vec!["m001".into()],
        history: vec![history("m000")],
        ..Changeset::default()
    };
    assert_eq!(sabotaged.commit(&doomed).await.unwrap_err().code(), "STORAGE");
    assert_eq!(loaded(db).await, expected, "nothing of the rolled-back write");
    assert_one_row_each(db, &expected).await;
    // The same instance writes on correctly after the failure.
    sabotaged.armed.set(false);
    sabotaged.commit(&doomed).await.unwrap();
    expected.insert("m000".into(), doomed.upserts[0].clone());
    expected.insert("m400".into(), doomed.upserts[1].clone());
    expected.remove("m001");
    assert_eq!(loaded(db).await, expected);
    assert_one_row_each(db, &expected).await;

    writer.clear().await.unwrap();
    assert!(chunks(db).await.is_empty(), "reset clears the vectors too");
    delete_database(db).await;
}

/// A database as version 4 wrote it: `n` memories with their vector inside the record, one without a
/// vector, one whose vector does not decode.
async fn version_4_database(db: &str, n: usize) {
    let open = open_old_schema_js(db, 4);
    run_js(&format!(
        "const vector = {V4_VECTOR};
         {open}
         await new Promise((ok, no) => {{
           const t = db.transaction(['memories'], 'readwrite');
           const record = (k, embedding) => ({{id: 'm' + String(k).padStart(3, '0'), memory: 'memory ' + k, hash: 'h' + k,
             metadata: {{k}}, createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, k)).toISOString(),
             updatedAt: '2025-01-01T00:00:00.000Z', userId: 'alice', embedding, order: 0}});
           for (let k = 0; k < {n}; k++) t.objectStore('memories').put(record(k, new Uint8Array(vector(k).buffer)));
           t.objectStore('memories').put(record({n}, null));
           t.objectStore('memories').put({{...record({n} + 1, new Uint8Array(3)), id: 'ragged'}});
           t.oncomplete = ok; t.onerror = () => no(t.error); }});
         db.close();"
    ))
    .await;
}

/// `[version, stores, memory records still carrying an embedding, migrated records naming a chunk]`.
async fn layout(db: &str) -> Value {
    let open = open_current_js(db);
    json_of(
        run_js(&format!(
            "{open}
             const all = await new Promise((ok, no) => {{ const r = db.transaction('memories').objectStore('memories').getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
             const found = [db.version, [...db.objectStoreNames], all.filter((m) => m.embedding != null).map((m) => m.id),
               all.filter((m) => typeof m.chunk === 'number').length];
             db.close(); return found;"
        ))
        .await,
    )
}

/// The top 3 of a search by vector `k`: `(id, score)`.
async fn nearest(memory: &memwasm::Memory, k: usize) -> Vec<(String, f64)> {
    let found =
        ok(memory.search(js(&json!({"embedding": vector(k)})), js(&json!({"userId": "alice", "limit": 3})))).await;
    let results = found["results"].as_array().cloned().unwrap_or_default();
    results.iter().map(|r| (r["id"].as_str().unwrap_or("").to_owned(), r["score"].as_f64().unwrap_or(0.0))).collect()
}

#[wasm_bindgen_test]
async fn a_version_4_database_is_migrated_on_open_and_searches_as_before() {
    let db = "vectors-v4";
    delete_database(db).await;
    version_4_database(db, 300).await;

    let memory = open(db).await;
    let mut first = Vec::new();
    for k in [0, 127, 128, 299] {
        let hits = nearest(&memory, k).await;
        assert_eq!(hits[0].0, format!("m{k:03}"), "vector {k} finds its own memory first: {hits:?}");
        assert!(hits[0].1 > 0.9999 && hits[1].1 < hits[0].1, "{hits:?}");
        first.push(hits);
    }
    let items = all_of(&memory, "alice").await;
    assert_eq!(items.len(), 301, "300 with vectors and the one without; the undecodable one skipped");
    assert_eq!(items[0]["metadata"], json!({"k": 0}), "the rest of each record came through");
    drop(memory);
    assert_eq!(
        layout(db).await,
        json!([
            SCHEMA_VERSION,
            ["gone", "graph", "history", "image", "memories", "packs", "side", "vectors"],
            ["ragged"],
            300
        ]),
        "vectors moved out of the 300 readable records; the corrupt one is left as it was"
    );
    assert_eq!(chunks(db).await.iter().map(|(_, ids)| ids.len()).sum::<usize>(), 300);

    let memory = open(db).await;
    for (k, hits) in [0, 127, 128, 299].into_iter().zip(first) {
        assert_eq!(nearest(&memory, k).await, hits, "the same results after reopening the new layout");
    }
    delete_database(db).await;
}

/// The int8 codes SIMD128 writes (`kernels::quantize`) are the ones the portable code the native tests
/// check would write: each vector read back from an int8 index equals the reference dequantised here.
#[wasm_bindgen_test]
fn simd_int8_codes_match_the_scalar_reference() {
    use memwasm::core::vector_store::{normalized, InMemoryVectorStore, Quantization, VectorStore};
    let mut index = InMemoryVectorStore::new(Quantization::Int8);
    for k in 0..40 {
        let unit = normalized(vector(k)).unwrap();
        index.upsert(memory(k, Some(unit.clone()))).unwrap();
        let scale = unit.iter().fold(0.0f32, |max, x| max.max(x.abs())) / 127.0;
        let decoded = unit.iter().map(|x| (x / scale).round_ties_even().clamp(-127.0, 127.0) as i8 as f32 * scale);
        let expected = normalized(decoded.collect()).unwrap();
        assert_eq!(index.vector(&format!("m{k:03}")), Some(expected), "vector {k}");
    }
}

/// The largest magnitude SIMD128 finds (`kernels::max_abs`, four lanes and a remainder) sets the same
/// scale as the portable code at every length, the largest value in any lane or in the remainder.
#[wasm_bindgen_test]
fn simd_int8_scales_match_the_scalar_reference_at_any_length() {
    use memwasm::core::vector_store::{normalized, InMemoryVectorStore, Quantization, VectorStore};
    for (dim, peak) in [(1, 0), (3, 2), (5, 4), (7, 1), (17, 16), (33, 6)] {
        let mut index = InMemoryVectorStore::new(Quantization::Int8);
        let raw = (0..dim).map(|j| if j == peak { -9.5 } else { ((j * 37 % 11) as f32) - 5.25 });
        let unit = normalized(raw.collect()).unwrap();
        index.upsert(memory(0, Some(unit.clone()))).unwrap();
        let scale = unit.iter().fold(0.0f32, |max, x| max.max(x.abs())) / 127.0;
        let decoded = unit.iter().map(|x| (x / scale).round_ties_even().clamp(-127.0, 127.0) as i8 as f32 * scale);
        let expected = normalized(decoded.collect()).unwrap();
        assert_eq!(index.vector("m000"), Some(expected), "dimension {dim}");
    }
}

/// The rescoring of an `auto` index above its threshold (`kernels::dot_f32_pair`, two rows a pass in
/// SIMD128) gives each hit the very score an f32 index's scan gives it (`kernels::dot_f32`, one row).
#[wasm_bindgen_test]
fn simd_paired_rescoring_matches_the_f32_scan() {
    use memwasm::core::vector_store::{normalized, InMemoryVectorStore, Quantization, VectorStore};
    let mut auto = InMemoryVectorStore::new(Quantization::Auto).with_int8_from(50);
    let mut exact = InMemoryVectorStore::new(Quantization::None);
    for k in 0..301 {
        let unit = normalized(vector(k)).unwrap();
        auto.upsert(memory(k, Some(unit.clone()))).unwrap();
        exact.upsert(memory(k, Some(unit))).unwrap();
    }
    let mut compared = 0;
    for (q, limit) in [(3, 7), (150, 40), (299, 101)] {
        let query = normalized(vector(q + 1000)).unwrap();
        let truth: Vec<(f32, String)> =
            exact.search(&query, 301, &|_| true).unwrap().into_iter().map(|(s, m)| (s, m.item.id.clone())).collect();
        for (score, memory) in auto.search(&query, limit, &|_| true).unwrap() {
            let (want, _) = truth.iter().find(|(_, id)| *id == memory.item.id).unwrap();
            assert_eq!(score.to_bits(), want.to_bits(), "{}: {score} against {want}", memory.item.id);
            compared += 1;
        }
    }
    assert_eq!(compared, 7 + 40 + 101);
}
