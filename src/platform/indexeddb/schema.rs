//! The database layout and its versions. The IndexedDB version number is the schema version; `upgrade`
//! brings a database of any older version (0 = new) up to `VERSION` step by step, inside the browser's
//! upgrade transaction, so an interrupted upgrade leaves the old layout intact.
//!
//! - `memories`: one record per memory, keyed by `id` (see `records`), with index `key` (version 3).
//! - `history`: one record per event, keyed by an auto-incremented `seq` (so reads come back oldest
//!   first), with indexes `id` (unique), `memoryId` and `timestamp`.
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

use idb::{Database, IndexParams, KeyPath, ObjectStoreParams, Transaction};

/// The schema version this library writes.
pub const VERSION: u32 = 5;
/// Memories, keyed by id.
pub const MEMORIES: &str = "memories";
/// History records, keyed by insertion order.
pub const HISTORY: &str = "history";
/// Graph records (entities and relations), keyed by their key (out of line).
pub const GRAPH: &str = "graph";
/// Side records (buffers, caches, metadata), keyed by kind and key (out of line; see `side`).
pub const SIDE: &str = "side";
/// Memories' vectors in chunks, keyed by chunk number (in line, see `chunk`).
pub const VECTORS: &str = "vectors";
/// History index on the memory a record belongs to.
pub const BY_MEMORY: &str = "memoryId";
/// Memory index on the lifecycle `key` (unique per scope only, so not a unique index).
pub const BY_KEY: &str = "key";

/// Creates or migrates the stores of `database`, which is at `old_version`, inside its upgrade `transaction`.
pub fn upgrade(database: &Database, transaction: &Transaction, old_version: u32) -> Result<(), idb::Error> {
    if old_version < 1 {
        let mut memories = ObjectStoreParams::new();
        memories.key_path(Some(KeyPath::new_single("id")));
        database.create_object_store(MEMORIES, memories)?;

        let mut history = ObjectStoreParams::new();
        history.key_path(Some(KeyPath::new_single("seq"))).auto_increment(true);
        let history = database.create_object_store(HISTORY, history)?;
        let mut unique = IndexParams::new();
        unique.unique(true);
        history.create_index("id", KeyPath::new_single("id"), Some(unique))?;
        history.create_index(BY_MEMORY, KeyPath::new_single("memoryId"), None)?;
        history.create_index("timestamp", KeyPath::new_single("timestamp"), None)?;
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
    // Later versions add `if old_version < 6 { … }` here.
    Ok(())
}
