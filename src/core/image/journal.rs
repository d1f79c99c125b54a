//! An image brought up to date: the records deleted and changed after the image's `seq`, applied so that
//! the result equals reading every record in stored order (rowid order in SQLite).

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::Decoded;
use crate::core::model::types::StoredMemory;
use crate::core::packed::{CountedKeywords, Packed};

/// `image` with the ids in `gone` removed, then each of `changed` (in stored order, carrying its vector)
/// written: in place when the image holds it (an update keeps its place), else appended. A memory that
/// was deleted and written again is appended, as a new row is.
pub fn with_journal(image: Decoded, gone: &[String], changed: Vec<StoredMemory>) -> Packed {
    if gone.is_empty() && changed.is_empty() {
        return image.into_packed();
    }
    let Decoded { memories, mut rows, counted, .. } = image;
    let gone: FxHashSet<&str> = gone.iter().map(String::as_str).collect();
    let place: FxHashMap<String, usize> = memories.iter().enumerate().map(|(at, m)| (m.item.id.clone(), at)).collect();
    let mut slots: Vec<Option<StoredMemory>> = memories.into_iter().map(Some).collect();
    let mut replaced = vec![false; slots.len()];
    for (at, slot) in slots.iter_mut().enumerate() {
        if slot.as_ref().is_some_and(|memory| gone.contains(memory.item.id.as_str())) {
            *slot = None;
            replaced[at] = true;
        }
    }
    let mut appended = Vec::new();
    for memory in changed {
        match place.get(&memory.item.id).copied().filter(|at| slots[*at].is_some()) {
            Some(at) => {
                slots[at] = Some(memory);
                replaced[at] = true;
            }
            None => appended.push(memory),
        }
    }
    let mut renumbered = vec![None; slots.len()];
    let mut kept = Vec::with_capacity(slots.len() + appended.len());
    for (at, slot) in slots.into_iter().enumerate() {
        if let Some(memory) = slot {
            renumbered[at] = (!replaced[at]).then_some(kept.len() as u32);
            kept.push(memory);
        }
    }
    // A kept memory's counted terms are the image's; a changed or appended one's text is tokenized.
    let mut of_memory = vec![None; kept.len()];
    for (at, new) in renumbered.iter().enumerate() {
        if let Some(new) = new {
            of_memory[*new as usize] = Some(at as u32);
        }
    }
    kept.extend(appended);
    of_memory.resize(kept.len(), None);
    for owner in &mut rows.owners {
        *owner = owner.and_then(|at| renumbered.get(at as usize).copied().flatten());
    }
    let counted = Some(CountedKeywords { texts: Rc::new(counted), of_memory });
    Packed { memories: kept, rows: Box::new(rows), counted }
}
