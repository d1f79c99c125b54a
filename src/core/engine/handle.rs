//! Feature handles. Each feature (conversations, tiers, lifecycle and keys, documents, graph, remote vectors,
//! the fast and additive add pipelines) keeps its methods in its own folder, on a handle that borrows the
//! engine: `engine.conversations().add_message(…)`. The handle derefs to the engine, so a feature's code reads
//! the shared records, index, storage and models as `self.…`.

/// Declares a feature's handle type `$name` and the engine's method `$method` that returns it (see the
/// module doc). Each feature declares its own, in its folder: the engine names none.
macro_rules! feature_handle {
    ($(#[$doc:meta])* $name:ident, $(#[$method_doc:meta])* $method:ident) => {
        $(#[$doc])*
        pub struct $name<'e, L, E, S, V = $crate::core::vector_store::InMemoryVectorStore>(
            pub(crate) &'e $crate::core::engine::MemoryEngine<L, E, S, V>,
        );

        impl<L, E, S, V> ::std::ops::Deref for $name<'_, L, E, S, V> {
            type Target = $crate::core::engine::MemoryEngine<L, E, S, V>;

            fn deref(&self) -> &Self::Target {
                self.0
            }
        }

        impl<L, E, S, V> $crate::core::engine::MemoryEngine<L, E, S, V> {
            $(#[$method_doc])*
            pub fn $method(&self) -> $name<'_, L, E, S, V> {
                $name(self)
            }
        }
    };
}

pub(crate) use feature_handle;
