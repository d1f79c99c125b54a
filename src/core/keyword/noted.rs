//! Texts noted for the first read to index (opening notes every memory's), or their terms counted ahead,
//! and the build that indexes them all at once.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::{Belongs, Terms};
use crate::core::keyword::CountedTexts;
use crate::core::model::scope::Scope;

/// A text noted but not indexed yet: insertion order, the text, where it belongs.
pub(super) type Pending = (u64, Noted, Option<Belongs>);

/// A noted text, or its terms counted ahead (text number `.1` of an open image's counted texts).
#[derive(Debug)]
pub(super) enum Noted {
    Text(String),
    Counted(Rc<CountedTexts>, usize),
}

/// What a document is indexed from: a text to tokenize, or its terms counted ahead.
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    Text(&'a str),
    Counted(&'a Rc<CountedTexts>, usize),
}

impl Noted {
    pub(super) fn source(&self) -> Source<'_> {
        match self {
            Noted::Text(text) => Source::Text(text),
            Noted::Counted(counted, at) => Source::Counted(counted, *at),
        }
    }
}

impl Terms {
    /// The index of the noted texts: every document placed (in insertion order), the turns ordered at once
    /// (not one tree insertion each), then linked in one pass over their order.
    pub(super) fn build(pending: FxHashMap<String, Pending>) -> Self {
        let mut terms = Terms::default();
        terms.docs.reserve(pending.len());
        terms.slots.reserve(pending.len());
        // Placed in insertion order. `core::sort` sorts positions and then moves each noted text once: an
        // in-place sort moved a hundred-odd bytes at every swap.
        let mut pending: Vec<(String, Pending)> = pending.into_iter().collect();
        crate::core::sort::sort_by(&mut pending, |(_, (a, ..)), (_, (b, ..))| a.cmp(b));
        for (id, (seq, noted, belongs)) in pending {
            terms.place(id, noted.source(), seq, belongs);
        }
        let turns = terms.docs.iter().flatten().filter_map(|doc| Some((doc.turn()?.clone(), doc.id.clone())));
        terms.turns = turns.collect();
        let mut links = Vec::new();
        let mut previous: Option<(&Scope, u32)> = None;
        for (conversation, id) in terms.turns.in_order() {
            let slot = terms.slots.get(id).copied();
            if let (Some((before, at)), Some(slot)) = (previous, slot) {
                if before == conversation {
                    links.push((at, slot));
                }
            }
            previous = slot.map(|slot| (conversation, slot));
        }
        for (before, after) in links {
            if let Some(doc) = terms.docs.get_mut(before as usize).and_then(Option::as_mut) {
                doc.linked.1 = Some(after);
            }
            if let Some(doc) = terms.docs.get_mut(after as usize).and_then(Option::as_mut) {
                doc.linked.0 = Some(before);
            }
        }
        terms
    }
}
