//! Schema version 9 of IndexedDB storage, in headless Chromium: it drops the unique index on history
//! entry ids and makes the packs' index on memory ids non-unique (both were most of a bulk write's index
//! upkeep). A version 8 database upgrades with every memory, vector and history entry kept, and takes a
//! bulk write after; a history entry id stored twice (two writes racing) reads back once. Each test
//! deletes its databases first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use browser_support::*;
use memwasm::core::config::IndexedDbSettings;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::{EventKind, HistoryRecord, StoredMemory};
use memwasm::core::storage::{Changeset, Storage};
use memwasm::platform::indexeddb::{IndexedDbStorage, SCHEMA_VERSION};
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage(db: &str) -> IndexedDbStorage {
    IndexedDbStorage::new(&IndexedDbSettings { db_name: db.into(), persist: false })
}

/// Memory `n` with an 8-d vector, created at second `n`.
fn memory(n: usize) -> StoredMemory {
    let created_at = format!("2025-01-01T00:{:02}:{:02}.000Z", n / 60 % 60, n % 60);
    alices_memory(n, created_at, Some((0..8).map(|j| ((n * 31 + j * 7) % 17) as f32 - 8.0).collect()))
}

fn entry(id: &str, memory: usize, new_value: &str) -> HistoryRecord {
    HistoryRecord {
        id: id.into(),
        memory_id: format!("m{memory:03}"),
        event: EventKind::Add,
        old_value: None,
        new_value: Some(new_value.into()),
        timestamp: format!("2025-01-01T00:00:{:02}.000Z", memory % 60),
        is_deleted: false,
        scope: Scope { user_id: Some("alice".into()), ..Scope::default() },
    }
}

/// A bulk write (packed) of memories 0..300 with one history entry each.
fn bulk() -> Changeset {
    let history = (0..300).map(|n| entry(&format!("e{n}"), n, &format!("memory {n}"))).collect();
    Changeset { upserts: (0..300).map(memory).collect(), history, ..Changeset::default() }
}

/// Copies every record of database `from` into a new database `to` laid out as version 8 had it (history
/// batches with their entries' `ids` under a unique `multiEntry` index, packs under a unique one).
async fn copy_as_version_8(from: &str, to: &str) {
    let open = open_current_js(from);
    run_js(&format!(
        "{open}
         const names = [...db.objectStoreNames];
         const read = (name, what) => new Promise((ok, no) => {{ const r = db.transaction(name).objectStore(name)[what](); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
         const copied = {{}};
         for (const name of names) copied[name] = [await read(name, 'getAllKeys'), await read(name, 'getAll')];
         db.close();
         const old = await new Promise((ok, no) => {{
           const r = indexedDB.open('{to}', 8);
           r.onupgradeneeded = () => {{
             const d = r.result;
             const m = d.createObjectStore('memories', {{keyPath: 'id'}}); m.createIndex('key', 'key'); m.createIndex('changed', 'changed');
             const h = d.createObjectStore('history', {{keyPath: 'seq', autoIncrement: true}});
             h.createIndex('memoryIds', 'memoryIds', {{multiEntry: true}}); h.createIndex('ids', 'ids', {{multiEntry: true, unique: true}});
             d.createObjectStore('graph'); d.createObjectStore('side'); d.createObjectStore('vectors', {{keyPath: 'chunk'}});
             d.createObjectStore('image'); d.createObjectStore('gone');
             const p = d.createObjectStore('packs', {{keyPath: 'pack', autoIncrement: true}});
             p.createIndex('ids', 'ids', {{multiEntry: true, unique: true}}); p.createIndex('changed', 'changed');
           }};
           r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
         const t = old.transaction(names, 'readwrite');
         for (const name of names) {{
           const [keys, values] = copied[name];
           const store = t.objectStore(name);
           values.forEach((value, i) => {{
             if (name === 'history') value.ids = JSON.parse(value.records).map((e) => e.id);
             store.keyPath === null ? store.put(value, keys[i]) : store.put(value);
           }});
         }}
         await new Promise((ok, no) => {{ t.oncomplete = ok; t.onerror = () => no(t.error); }});
         old.close();"
    ))
    .await;
}

/// `{version, history: [index, multiEntry, unique]…, packs: …}` of database `db`, read without the library.
async fn layout(db: &str) -> Value {
    let body = "const t = db.transaction(['history', 'packs']);
        const indexes = (name) => { const s = t.objectStore(name); return [...s.indexNames].map((i) => [i, s.index(i).multiEntry, s.index(i).unique]); };
        const found = { version: db.version, history: indexes('history'), packs: indexes('packs') };
        db.close();
        return found;";
    read_raw(db, body).await
}

#[wasm_bindgen_test]
async fn a_version_8_database_upgrades_with_everything_kept_and_takes_a_bulk_write() {
    let (source, db) = ("v9-source", "v9-from-8");
    delete_database(source).await;
    delete_database(db).await;
    storage(source).commit(&bulk()).await.expect("bulk write");
    let memories = storage(source).load_memories().await.expect("read");
    let history = storage(source).all_history().await.expect("read").expect("kept");
    assert_eq!((memories.len(), history.len()), (300, 300));
    copy_as_version_8(source, db).await;

    let upgraded = storage(db);
    assert_eq!(upgraded.load_memories().await.expect("read"), memories, "every memory and vector kept");
    assert_eq!(upgraded.all_history().await.expect("read").expect("kept"), history);
    assert_eq!(upgraded.history("m007").await.expect("read"), vec![entry("e7", 7, "memory 7")]);
    assert_eq!(
        layout(db).await,
        json!({"version": SCHEMA_VERSION, "history": [["memoryIds", true, false]],
               "packs": [["changed", false, false], ["ids", true, false]]}),
    );

    let mut again = bulk();
    again.upserts.iter_mut().for_each(|memory| memory.item.memory.push_str(" again"));
    again.history = vec![entry("e-again", 3, "memory 3 again")];
    upgraded.commit(&again).await.expect("a bulk write over the packed memories");
    let read = storage(db).load_memories().await.expect("read");
    assert_eq!(read.len(), 300);
    assert!(read.iter().all(|memory| memory.item.memory.ends_with(" again")), "each memory once, rewritten");
    let history = storage(db).history("m003").await.expect("read");
    assert_eq!(history, vec![entry("e3", 3, "memory 3"), entry("e-again", 3, "memory 3 again")]);
    delete_database(source).await;
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_history_entry_id_stored_twice_reads_back_once_the_first() {
    let db = "v9-history-twice";
    delete_database(db).await;
    let writer = storage(db);
    let first = Changeset { history: vec![entry("same", 1, "first")], ..Changeset::default() };
    writer.commit(&first).await.expect("written");
    let second =
        Changeset { history: vec![entry("same", 1, "second"), entry("other", 1, "x")], ..Changeset::default() };
    writer.commit(&second).await.expect("no index refuses the id a second time");

    let expected = vec![entry("same", 1, "first"), entry("other", 1, "x")];
    assert_eq!(storage(db).history("m001").await.expect("read"), expected);
    assert_eq!(storage(db).all_history().await.expect("read").expect("kept"), expected);
    delete_database(db).await;
}
