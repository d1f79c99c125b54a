//! `storage_backends!`: the one table of storage backends. Each row names a backend's variant, its type, its
//! `storage.provider` name and the function that opens it; the macro writes the enum, the dispatch of every
//! `Storage` method, the list of names and the opening by name (docs/dev/extending.md, "A storage backend").

/// Writes an enum with one variant per row, `impl Storage` forwarding every method to the variant's
/// backend, `NAMES` (the `storage.provider` names, in row order) and `open(provider, args…)`, which calls
/// the row's opener with `args` and answers `INVALID_CONFIG` listing `NAMES` for an unknown provider.
///
/// ```ignore
/// storage_backends! {
///     /// Every storage this build can persist to.
///     pub enum AnyStorage, opened with (config: &ResolvedConfig, live: &LiveValues) {
///         Memory(InMemoryStorage) = "memory" => open_memory,
///         Sqlite(SqliteBackend) = "sqlite" => open_sqlite,
///     }
/// }
/// ```
// Used by the wasm32 platform's `AnyStorage` and by the tests.
#[cfg_attr(not(any(target_arch = "wasm32", test)), allow(unused_macros))]
macro_rules! storage_backends {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident, opened with ($($arg:ident: $arg_type:ty),* $(,)?) {
            $($(#[$row_meta:meta])* $variant:ident($backend:ty) = $provider:literal => $open:path,)+
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$row_meta])* $variant($backend),)+
        }

        impl $name {
            /// The `storage.provider` names, in the order errors list them.
            pub const NAMES: &'static [&'static str] = &[$($provider),+];

            /// The backend `provider` names, opened by its row's function.
            pub fn open(provider: &str, $($arg: $arg_type),*) -> $crate::core::error::Result<Self> {
                $crate::providers::registry::storage::storage_backends!(
                    @open provider; ($($arg),*); $($variant $provider $open),+
                )
            }
        }

        $crate::providers::registry::storage::storage_backends!(@dispatch $name; $($variant),+);
    };
    (@open $provider:ident; $call:tt; $($variant:ident $name:literal $open:path),+) => {
        match $provider {
            $($name => $open $call.map(Self::$variant),)+
            other => Err($crate::core::config::unknown_provider("storage.provider", other, Self::NAMES)),
        }
    };
    (@dispatch $name:ident; $($variant:ident),+) => {
        impl $crate::core::storage::Storage for $name {
            async fn load_memories(&self) -> $crate::core::error::Result<Vec<$crate::core::model::types::StoredMemory>> {
                match self { $(Self::$variant(storage) => storage.load_memories().await,)+ }
            }

            async fn load_packed(&self) -> $crate::core::error::Result<$crate::core::packed::Packed> {
                match self { $(Self::$variant(storage) => storage.load_packed().await,)+ }
            }

            async fn commit(&self, changes: &$crate::core::storage::Changeset) -> $crate::core::error::Result<()> {
                match self { $(Self::$variant(storage) => storage.commit(changes).await,)+ }
            }

            async fn commit_paced(
                &self,
                changes: &$crate::core::storage::Changeset,
                pace: &dyn $crate::core::pace::Pace,
            ) -> $crate::core::error::Result<()> {
                match self { $(Self::$variant(storage) => storage.commit_paced(changes, pace).await,)+ }
            }

            async fn history(
                &self,
                memory_id: &str,
            ) -> $crate::core::error::Result<Vec<$crate::core::model::types::HistoryRecord>> {
                match self { $(Self::$variant(storage) => storage.history(memory_id).await,)+ }
            }

            async fn clear(&self) -> $crate::core::error::Result<()> {
                match self { $(Self::$variant(storage) => storage.clear().await,)+ }
            }

            async fn load_scope(
                &self,
                scope: &$crate::core::model::scope::Scope,
            ) -> $crate::core::error::Result<Option<$crate::core::packed::Packed>> {
                match self { $(Self::$variant(storage) => storage.load_scope(scope).await,)+ }
            }

            async fn load_memory(
                &self,
                id: &str,
            ) -> $crate::core::error::Result<Option<$crate::core::model::types::StoredMemory>> {
                match self { $(Self::$variant(storage) => storage.load_memory(id).await,)+ }
            }

            async fn all_history(
                &self,
            ) -> $crate::core::error::Result<Option<Vec<$crate::core::model::types::HistoryRecord>>> {
                match self { $(Self::$variant(storage) => storage.all_history().await,)+ }
            }

            async fn load_graph(
                &self,
            ) -> $crate::core::error::Result<Option<Vec<$crate::core::model::graph::GraphRecord>>> {
                match self { $(Self::$variant(storage) => storage.load_graph().await,)+ }
            }

            async fn load_scope_graph(
                &self,
                scope: &$crate::core::model::scope::Scope,
            ) -> $crate::core::error::Result<Vec<$crate::core::model::graph::GraphRecord>> {
                match self { $(Self::$variant(storage) => storage.load_scope_graph(scope).await,)+ }
            }

            async fn load_side(
                &self,
                kind: &str,
            ) -> $crate::core::error::Result<Vec<$crate::core::side_records::SideRecord>> {
                match self { $(Self::$variant(storage) => storage.load_side(kind).await,)+ }
            }

            async fn all_side(
                &self,
            ) -> $crate::core::error::Result<Option<Vec<(String, $crate::core::side_records::SideRecord)>>> {
                match self { $(Self::$variant(storage) => storage.all_side().await,)+ }
            }

            async fn hold(&self, key: &str) -> $crate::core::error::Result<Option<$crate::core::storage::SharedTurn>> {
                match self { $(Self::$variant(storage) => storage.hold(key).await,)+ }
            }

            fn keeps_memories(&self) -> bool {
                match self { $(Self::$variant(storage) => storage.keeps_memories(),)+ }
            }

            async fn settle(&self, idle: bool) -> $crate::core::error::Result<()> {
                match self { $(Self::$variant(storage) => storage.settle(idle).await,)+ }
            }

            fn scope_loads(&self) -> Vec<String> {
                match self { $(Self::$variant(storage) => storage.scope_loads(),)+ }
            }

            fn close(&self) {
                match self { $(Self::$variant(storage) => storage.close(),)+ }
            }

            fn watch(&self, listener: $crate::core::storage::RemoteListener) {
                match self { $(Self::$variant(storage) => storage.watch(listener),)+ }
            }
        }
    };
}

#[cfg_attr(not(any(target_arch = "wasm32", test)), allow(unused_imports))]
pub(crate) use storage_backends;

#[cfg(test)]
#[path = "storage_tests.rs"]
mod tests;
