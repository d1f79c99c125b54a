//! IndexedDB storage for browsers: memories (one record each, or packed by bulk writes, see `packs`), their
//! vectors (in chunks, see `chunk`), history and the graph (graph memory) in one database. Each call writes
//! in one readwrite transaction over all the stores (see `commit`), so it is kept whole or not at all; the
//! memory reads everything once when it opens (see `load`); other tabs hear about each write and re-read the
//! memories it changed (not the graph: another tab's graph writes show after a reopen).

mod blocked;
mod chunk;
mod commit;
mod connection;
mod graph;
mod history;
mod image;
mod journal;
mod load;
mod migrate;
mod migrate_history;
mod outcome;
mod paced;
mod packed;
mod packs;
mod pages;
mod persist;
pub mod placement;
mod records;
mod schema;
mod side;
mod stored_json;
mod tab_sync;
mod turns;
mod vectors;

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

use idb::{ObjectStore, Query, TransactionMode};
use wasm_bindgen::JsValue;
use web_sys::{IdbObjectStore, IdbTransaction};

use self::connection::Connection;
use self::graph::graph_from_js;
use self::history::{entries_from_js, first_of_each_id, BY_MEMORY};
use self::outcome::{abandon, committed, from_idb};
use self::placement::Placement;
use self::schema::{GONE, GRAPH, HISTORY, IMAGE, MEMORIES, PACKS, SIDE, VECTORS};
use self::side::{kind_range, side_from_js};
use self::tab_sync::{Notice, TabSync};
use crate::core::config::IndexedDbSettings;
use crate::core::error::Result;
use crate::core::model::graph::GraphRecord;
use crate::core::model::types::{HistoryRecord, StoredMemory};
use crate::core::pace::{Pace, Unpaced};
use crate::core::packed::Packed;
use crate::core::side_records::SideRecord;
use crate::core::storage::{Changeset, RemoteChange, RemoteListener, SharedTurn, Storage};
use crate::core::watermark::Watermark;

pub use self::connection::open as open_database;
pub use self::outcome::from_dom as error_from_dom_exception;
pub use self::schema::{
    BY_KEY as KEY_INDEX, GRAPH as GRAPH_STORE, HISTORY as HISTORY_STORE, MEMORIES as MEMORIES_STORE,
    VECTORS as VECTORS_STORE, VERSION as SCHEMA_VERSION,
};

/// A `Storage` in one IndexedDB database (`storage: {provider: "indexeddb", config: {dbName}}`).
pub struct IndexedDbStorage {
    shared: Rc<Shared>,
    sync: TabSync,
    db_name: String,
}

/// What the storage and its channel listener share.
struct Shared {
    connection: Connection,
    persist: Cell<bool>,
    listener: RefCell<Option<RemoteListener>>,
    inbox: RefCell<VecDeque<Notice>>,
    reading: Cell<bool>,
    /// Which chunk holds each memory's vector (see `vectors`).
    placement: RefCell<Placement>,
    /// Tasks waiting for the notices received so far to be read (see `read_notices`).
    drained: RefCell<Vec<std::task::Waker>>,
    /// The changes read into the index so far (see `turns`).
    seen: RefCell<Watermark>,
    /// The memories the last load found, grown by this instance's writes since: a write of more changes
    /// than their image's journal may hold calls for a fresh image (see `image::after_commit`).
    stored: Cell<usize>,
}

impl IndexedDbStorage {
    /// A storage for `settings.db_name`; the database opens on first use.
    pub fn new(settings: &IndexedDbSettings) -> Self {
        let shared = Rc::new(Shared {
            connection: Connection::new(&settings.db_name),
            persist: Cell::new(settings.persist),
            listener: RefCell::new(None),
            inbox: RefCell::new(VecDeque::new()),
            reading: Cell::new(false),
            placement: RefCell::default(),
            drained: RefCell::default(),
            seen: RefCell::default(),
            stored: Cell::new(0),
        });
        let weak = Rc::downgrade(&shared);
        let sync = TabSync::join(&settings.db_name, move |notice| receive(&weak, notice));
        Self { shared, sync, db_name: settings.db_name.clone() }
    }
}

impl Storage for IndexedDbStorage {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        self.load_packed().await.map(Packed::into_memories)
    }

    async fn load_packed(&self) -> Result<Packed> {
        if self.shared.persist.replace(false) {
            persist::request_persistence().await;
        }
        image::load(self.shared.clone()).await
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        self.commit_paced(changes, &Unpaced).await
    }

    /// One readwrite transaction over every store, its requests issued in turns (see `commit`).
    async fn commit_paced(&self, changes: &Changeset, pace: &dyn Pace) -> Result<()> {
        commit::commit(&self.shared, &self.sync, changes, pace).await
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        read_history(&self.shared.connection, Some(memory_id)).await
    }

    /// Empties every store but the change counter, which notes the clear (see `image::forget`).
    async fn clear(&self) -> Result<()> {
        let names = [MEMORIES, HISTORY, GRAPH, SIDE, VECTORS, GONE, PACKS, IMAGE];
        let transaction = self.shared.connection.transaction(&names, TransactionMode::ReadWrite).await?;
        let stores: Vec<_> = names.iter().map(|name| transaction.object_store(name)).collect();
        let raw = IdbTransaction::from(transaction);
        let stores: Vec<ObjectStore> = match stores.into_iter().collect() {
            Ok(stores) => stores,
            Err(error) => return Err(abandon(&raw, &error)),
        };
        let Some((image_store, emptied)) = stores.split_last() else { return Ok(()) };
        if let Some(Err(error)) = emptied.iter().map(ObjectStore::clear).find(Result::is_err) {
            return Err(abandon(&raw, &error));
        }
        let change = match image::forget(&IdbObjectStore::from(image_store.clone())).await {
            Ok(change) => change,
            Err(error) => {
                let _ = raw.abort();
                return Err(error);
            }
        };
        committed(&raw).await?;
        self.shared.placement.borrow_mut().clear();
        self.shared.seen.borrow_mut().note(change);
        self.sync.announce(&Notice { cleared: true, ids: Vec::new(), change });
        Ok(())
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        read_history(&self.shared.connection, None).await.map(Some)
    }

    async fn load_graph(&self) -> Result<Option<Vec<GraphRecord>>> {
        let failed = |error: idb::Error| from_idb(&error, "nothing was read");
        let transaction = self.shared.connection.transaction(&[GRAPH], TransactionMode::ReadOnly).await?;
        let records = transaction.object_store(GRAPH).map_err(failed)?.get_all(None, None).map_err(failed)?.await;
        let records = records.map_err(failed)?.into_iter();
        Ok(Some(records.filter_map(|record| skip_corrupt(GRAPH, graph_from_js(record))).collect()))
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        let failed = |error: idb::Error| from_idb(&error, "nothing was read");
        let transaction = self.shared.connection.transaction(&[SIDE], TransactionMode::ReadOnly).await?;
        let store = transaction.object_store(SIDE).map_err(failed)?;
        let records = store.get_all(Some(kind_range(kind)?), None).map_err(failed)?.await.map_err(failed)?;
        Ok(records.into_iter().filter_map(|record| skip_corrupt(SIDE, side_from_js(record))).collect())
    }

    fn watch(&self, listener: RemoteListener) {
        self.shared.listener.replace(Some(listener));
    }

    async fn hold(&self, key: &str) -> Result<Option<SharedTurn>> {
        turns::hold(&self.shared, &self.db_name, key).await
    }
}

/// History entries, oldest first: all of them, or those of one memory (read through the batches holding
/// any of its entries), each id once. An entry or batch that does not decode is skipped with a warning.
async fn read_history(connection: &Connection, memory_id: Option<&str>) -> Result<Vec<HistoryRecord>> {
    let failed = |error: idb::Error| from_idb(&error, "nothing was read");
    let transaction = connection.transaction(&[HISTORY], TransactionMode::ReadOnly).await?;
    let store = transaction.object_store(HISTORY).map_err(failed)?;
    let batches = match memory_id {
        Some(id) => {
            let key = Query::Key(JsValue::from_str(id));
            store.index(BY_MEMORY).map_err(failed)?.get_all(Some(key), None).map_err(failed)?.await
        }
        None => store.get_all(None, None).map_err(failed)?.await,
    };
    let batches = batches.map_err(failed)?;
    let entries = batches.iter().flat_map(|batch| entries_from_js(batch, memory_id));
    Ok(first_of_each_id(entries.filter_map(|entry| skip_corrupt(HISTORY, entry))))
}

/// A decoded record, or `None` with a console warning for one that does not decode (it stays stored).
fn skip_corrupt<T>(store: &str, decoded: std::result::Result<T, String>) -> Option<T> {
    decoded.map_err(|why| warn_corrupt(store, &why)).ok()
}

/// Warns that a stored value of `store` does not decode (it stays stored).
fn warn_corrupt(store: &str, why: &str) {
    warn(&format!("memwasm: skipped a corrupt record in IndexedDB store \"{store}\": {why}"));
}

fn warn(text: &str) {
    web_sys::console::warn_1(&JsValue::from_str(text));
}

/// Queues a notice from another instance and starts reading if no read is under way (one at a time, in order).
fn receive(shared: &Weak<Shared>, notice: Notice) {
    let Some(shared) = shared.upgrade() else { return };
    shared.inbox.borrow_mut().push_back(notice);
    if shared.reading.replace(true) {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            let next = shared.inbox.borrow_mut().pop_front();
            let Some(notice) = next else { break };
            let change = notice.change;
            let reread = reread(&shared, notice).await;
            shared.seen.borrow_mut().note(change);
            match reread {
                Ok(change) => {
                    if let Some(listener) = shared.listener.borrow().as_ref() {
                        listener(change);
                    }
                }
                Err(error) => warn(&format!("memwasm: another tab's write could not be re-read: {error}")),
            }
        }
        shared.reading.set(false);
        std::mem::take(&mut *shared.drained.borrow_mut()).into_iter().for_each(std::task::Waker::wake);
    });
}

/// Waits until every notice received so far has been read and handed to the listener.
async fn read_notices(shared: &Shared) {
    std::future::poll_fn(|cx| {
        if !shared.reading.get() {
            return std::task::Poll::Ready(());
        }
        shared.drained.borrow_mut().push(cx.waker().clone());
        std::task::Poll::Pending
    })
    .await;
}

/// What a notice means for this instance: the memories it names as stored now.
async fn reread(shared: &Rc<Shared>, notice: Notice) -> Result<RemoteChange> {
    let mut change = RemoteChange { cleared: notice.cleared, ..RemoteChange::default() };
    if notice.cleared {
        shared.placement.borrow_mut().clear();
    }
    if notice.ids.is_empty() {
        return Ok(change);
    }
    (change.upserts, change.deletes) = load::load_some(shared, notice.ids, notice.change).await?;
    Ok(change)
}
