//! What [`Read::keeps`] comes down to for a plain memory (see [`crate::core::vector_store::Count`]), so
//! the index can count a read's memories without testing each one.

use super::read::Read;
use super::vector_store::Plain;

impl Read {
    /// The scope and types that decide `keeps` for a plain memory; `None` when `keeps` looks further (a
    /// participant, an importance floor, a time range, a current time or a filter). A change to `keeps`
    /// must be mirrored here (`vector_store::count_tests` compares the two).
    pub fn plain(&self) -> Option<Plain<'_>> {
        let window = &self.window;
        let simple = self.participant.is_none()
            && self.importance_floor.is_none()
            && self.filter.is_none()
            && window.start.is_none()
            && window.end.is_none()
            && window.current.is_none();
        simple.then(|| Plain { scope: &self.scope, types: Plain::mask(self.memory_types.as_deref()) })
    }
}
