//! The database layout and its versions. The IndexedDB version number is the schema version; `upgrade`
//! brings a database of any older version (0 = new) up to `VERSION` step by step, inside the browser's
//! upgrade transaction, so an interrupted upgrade leaves the old layout intact.
//!
//! - `memories`: one record per memory, keyed by `id` (see `records`), with indexes `key` (version 3) and
//!   `changed` (version 7).
//! - `history` (version 6): the history entries in batches, one record per write's batch, keyed by an
//!   auto-incremented `seq` (so reads come back oldest first), with the `multiEntry` index `memoryIds`
//!   (see `history`; versions 6 to 8 also had a unique one on the entries' `ids`). Before version 6 it held
//!   one record per entry, with indexes `id` (unique), `memoryId` and `timestamp`.
//! - `graph` (version 2): graph memory's entities and relations, keyed by `GraphRecord::key()` (see `graph`).
//! - `side` (version 4): side records (message buffers, the embedding cache, conversation metadata, …),
//!   keyed by kind and key (see `side`).
//! - `vectors` (version 5): memories' vectors, a few hundred per record, keyed by chunk number (see
//!   `chunk`). Memory records no longer carry their vector, only the number of the chunk that does.
//!
//! Version 3 (memory lifecycle) adds no store: the lifecycle fields (`memoryType`, `importance`, `pinned`,
//! `expiresAt`, `key`, `deletedAt`, `lastAccessedAt`, `decayedAt`) ride inside each memory record, and
//! records of versions 1 and 2 read back with their defaults, so nothing is rewritten. The version number
//! changes so that an older memwasm, which would drop those fields when it rewrites a record (bringing
//! soft-deleted memories back, unpinning, forgetting expiries), refuses the database instead. It also adds
//! the non-unique `key` index on `memories` (`store(key, value)` keys; records without a key stay out of it).
//!
//! Version 5 (cold start) moves every vector out of its memory record into `vectors` chunks, within the
//! upgrade transaction (see `migrate`): all of them or, should the upgrade fail, none.
//!
//! Version 6 (import speed) stores history in batches: writing one record per entry, under three indexes,
//! was most of an import's time. The old entries are copied into batches within the upgrade transaction
//! (see `migrate_history`), all or none, and the unread `timestamp` index goes with the old store.
//!
//! Version 7 (open image) adds the `image` store (the open image and the change counter, see `image` and
//! `journal`), the `gone` store (ids deleted since the image, keyed `[change, id]`) and the `changed` index
//! on `memories` (each record's change number). Records written before it have no `changed`: the first open
//! reads every record and writes an image covering them.
//!
//! Version 8 (import speed) adds the `packs` store (see `packs`), keyed by an auto-incremented `pack`, with
//! the `multiEntry` index `ids` and the index `changed`. Only bulk writes fill it; no record moves on the
//! upgrade, so it cannot fail half-way.
//!
//! Version 9 (import speed) drops the unique `multiEntry` index `ids` of `history` (nothing reads it, and
//! keeping 10,000 unique index entries was a sixth of a 10k import) and makes the `ids` index of `packs`
//! non-unique (half the cost). Neither was what kept an id in one place: the import skips the history
//! entries already stored, reading history keeps the first entry of an id (see `history`), and a commit
//! takes the memories it touches out of their packs (see `packs`). Only indexes change on the upgrade.

use idb::{Database, IndexParams, KeyPath, ObjectStoreParams, Transaction};
use web_sys::IdbObjectStore;

use super::history::BY_MEMORY;

/// The schema version this library writes.
pub const VERSION: u32 = 9;
/// Memories, keyed by id.
pub const MEMORIES: &str = "memories";
/// History batches, keyed by insertion order (see `history`).
pub const HISTORY: &str = "history";
/// Graph records (entities and relations), keyed by their key (out of line).
pub const GRAPH: &str = "graph";
/// Side records (buffers, caches, metadata), keyed by kind and key (out of line; see `side`).
pub const SIDE: &str = "side";
/// Memories' vectors in chunks, keyed by chunk number (in line, see `chunk`).
pub const VECTORS: &str = "vectors";
/// The open image and the change counter, keyed by name (out of line; see `image`, `journal`).
pub const IMAGE: &str = "image";
/// Ids deleted since the image, keyed `[change, id]` (out of line; see `journal`).
pub const GONE: &str = "gone";
/// Memories packed by bulk writes, keyed by pack number (in line, see `packs`).
pub const PACKS: &str = "packs";
/// Memory index on the lifecycle `key` (unique per scope only, so not a unique index).
pub const BY_KEY: &str = "key";

/// Creates or migrates the stores of `database`, which is at `old_version`, inside its upgrade `transaction`.
pub fn upgrade(database: &Database, transaction: &Transaction, old_version: u32) -> Result<(), idb::Error> {
    if old_version < 1 {
        let mut memories = ObjectStoreParams::new();
        memories.key_path(Some(KeyPath::new_single("id")));
        database.create_object_store(MEMORIES, memories)?;
        // `history` comes with version 6 below (a version 1 to 5 database has the old one).
    }
    if old_version < 2 {
        database.create_object_store(GRAPH, ObjectStoreParams::new())?;
    }
    if old_version < 3 {
        // Built over the records already stored (those with a `key`), within this same transaction.
        transaction.object_store(MEMORIES)?.create_index(BY_KEY, KeyPath::new_single("key"), None)?;
    }
    if old_version < 4 {
        database.create_object_store(SIDE, ObjectStoreParams::new())?;
    }
    if old_version < 5 {
        let mut vectors = ObjectStoreParams::new();
        vectors.key_path(Some(KeyPath::new_single(super::chunk::KEY)));
        database.create_object_store(VECTORS, vectors)?;
        if old_version >= 1 {
            super::migrate::vectors_out_of_records(
                transaction.object_store(MEMORIES)?,
                transaction.object_store(VECTORS)?,
            )?;
        }
    }
    if old_version < 6 {
        let old = (old_version >= 1).then(|| transaction.object_store(HISTORY).map(IdbObjectStore::from));
        let old = old.transpose()?;
        if let Some(old) = &old {
            old.set_name(super::migrate_history::OLD);
        }
        let new = IdbObjectStore::from(history_store(database)?);
        if let Some(old) = old {
            super::migrate_history::history_into_batches(old, new);
        }
    }
    if old_version < 7 {
        database.create_object_store(IMAGE, ObjectStoreParams::new())?;
        database.create_object_store(GONE, ObjectStoreParams::new())?;
        let by_change = KeyPath::new_single(super::journal::BY_CHANGE);
        transaction.object_store(MEMORIES)?.create_index(super::journal::BY_CHANGE, by_change, None)?;
    }
    if old_version < 8 {
        let mut params = ObjectStoreParams::new();
        params.key_path(Some(KeyPath::new_single(super::packs::KEY))).auto_increment(true);
        let packs = database.create_object_store(PACKS, params)?;
        packs_members(&packs)?;
        let by_change = KeyPath::new_single(super::journal::BY_CHANGE);
        packs.create_index(super::journal::BY_CHANGE, by_change, None)?;
    }
    if old_version < 9 {
        if (6..9).contains(&old_version) {
            transaction.object_store(HISTORY)?.delete_index(OLD_HISTORY_IDS)?;
        }
        if old_version == 8 {
            let packs = transaction.object_store(PACKS)?;
            packs.delete_index(super::packs::MEMBERS)?;
            packs_members(&packs)?;
        }
    }
    // Later versions add `if old_version < 10 { … }` here.
    Ok(())
}

/// The unique `multiEntry` index of history entry ids, versions 6 to 8.
const OLD_HISTORY_IDS: &str = "ids";

/// Creates the non-unique `multiEntry` index of `packs` on its memories' ids.
fn packs_members(packs: &idb::ObjectStore) -> Result<(), idb::Error> {
    let mut members = IndexParams::new();
    members.multi_entry(true);
    packs.create_index(super::packs::MEMBERS, KeyPath::new_single(super::packs::MEMBERS), Some(members)).map(drop)
}

/// Creates the `history` store of batches with its `multiEntry` index of memory ids.
fn history_store(database: &Database) -> Result<idb::ObjectStore, idb::Error> {
    let mut params = ObjectStoreParams::new();
    params.key_path(Some(KeyPath::new_single("seq"))).auto_increment(true);
    let history = database.create_object_store(HISTORY, params)?;
    let mut by_memory = IndexParams::new();
    by_memory.multi_entry(true);
    history.create_index(BY_MEMORY, KeyPath::new_single(BY_MEMORY), Some(by_memory))?;
    Ok(history)
}
