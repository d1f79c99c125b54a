//! Sync across devices: every commit of a store that started sync also writes what it changed as entries
//! of an outbox (`recorder`), which the app pushes to a server that orders them in one log per user; entries
//! pulled from that log are applied in its order (`apply`), so every device converges on the same memories,
//! history and graph. The entries are plain JSON (`entry`): the app encrypts them before they leave the device,
//! and the transport (HTTP, keys, retries) is the app's (the package's `memory.sync()`). Recording is in every
//! build (a store's writes are recorded from its open); pushing and applying are in the `extras` build (the
//! browser's full module).

#[cfg(feature = "extras")]
pub mod apply;
#[cfg(all(test, feature = "extras"))]
mod apply_tests;
#[cfg(feature = "extras")]
pub mod curate;
#[cfg(all(test, feature = "extras"))]
mod curate_tests;
#[cfg(feature = "extras")]
pub mod entry;
pub mod entry_write;
#[cfg(feature = "extras")]
pub mod outbox;
pub mod recorder;
pub mod state;
#[cfg(all(test, feature = "extras"))]
mod tests;

#[cfg(feature = "extras")]
pub use apply::{Applied, Pulled};
#[cfg(feature = "extras")]
pub use curate::Curated;
#[cfg(feature = "extras")]
pub use outbox::SyncStatus;
pub use state::Pending;

use std::rc::Rc;

use self::recorder::SyncRecorder;
use self::state::{LogState, LOG_KIND};

use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The sync feature's state (attached when the engine is assembled).
    pub(crate) fn sync_recorder(&self) -> Rc<SyncRecorder> {
        self.extensions.get_or_attach()
    }

    /// The log state stored here; `None` until sync is started on this store.
    pub(crate) async fn sync_log(&self) -> Result<Option<LogState>> {
        Ok(LogState::of(&self.storage.load_side(LOG_KIND).await?))
    }
}
