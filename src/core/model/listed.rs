//! `{results}`: what the calls that answer with a plain list resolve with (`reflections`, `getEntities`,
//! `getRelations`), serialised as every result is, so the memories in it carry mem0's ids as everywhere else.

use serde::Serialize;

/// A list result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listed<T> {
    pub results: Vec<T>,
}
