//! The database layout and its versions. The IndexedDB version number is the schema version; `upgrade`
//! brings a database of any older version (0 = new) up to `VERSION` step by step, inside the browser's
//! upgrade transaction, so an interrupted upgrade leaves the old layout intact.
//!
//! - `memories`: one record per memory, keyed by `id` (see `records`).
//! - `history`: one record per event, keyed by an auto-incremented `seq` (so reads come back oldest
//!   first), with indexes `id` (unique), `memoryId` and `timestamp`.
//! - `graph` (version 2): graph memory's entities and relations, keyed by `GraphRecord::key()` (see `graph`).

use idb::{Database, IndexParams, KeyPath, ObjectStoreParams};

/// The schema version this library writes.
pub const VERSION: u32 = 2;
/// Memories, keyed by id.
pub const MEMORIES: &str = "memories";
/// History records, keyed by insertion order.
pub const HISTORY: &str = "history";
/// Graph records (entities and relations), keyed by their key (out of line).
pub const GRAPH: &str = "graph";
/// History index on the memory a record belongs to.
pub const BY_MEMORY: &str = "memoryId";

/// Creates or migrates the stores of `database`, which is at `old_version`.
pub fn upgrade(database: &Database, old_version: u32) -> Result<(), idb::Error> {
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
    // Later versions add `if old_version < 3 { … }` here.
    Ok(())
}
