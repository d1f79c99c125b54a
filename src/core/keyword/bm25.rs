//! An inverted index over memory texts, ranked with Okapi BM25. It is updated one memory at a time
//! (every commit) and its corpus statistics are taken over the searched scope at query time, so one
//! user's memories never shift another user's scores. A conversation turn (a message stored as it was
//! said) is searched together with the turn before it in the searched scope: an answer is found by the
//! words of the question it answers (see `turns`).

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::counted::CountedTexts;
use super::scope_tally::ScopeTallies;
use super::tokenizer::each_term;
use super::turns::{Around, Neighbours, Place, TurnOrder};
use crate::core::model::scope::Scope;

#[path = "holders.rs"]
mod holders;
#[path = "noted.rs"]
mod noted;
use noted::{Noted, Pending, Source};
#[path = "posting.rs"]
mod posting;
#[path = "prepared.rs"]
mod prepared;
pub use prepared::KeywordQuery;
#[path = "rank.rs"]
mod rank;
#[cfg(test)]
pub(crate) use rank::Ranking;
#[path = "top_k.rs"]
mod top_k;
#[path = "vocabulary.rs"]
mod vocabulary;

/// Term-frequency saturation.
pub const K1: f64 = 1.2;
/// Document-length normalisation.
pub const B: f64 = 0.75;
/// How much the turn before a conversation turn counts in its keyword document (terms and length).
pub const CONTEXT_SHARE: f64 = 0.75;

/// The scope number of a document whose scope is not known, and of a free slot.
const NO_SCOPE: u32 = u32::MAX;

/// A predicate over memory ids.
pub type IdPredicate<'a> = &'a dyn Fn(&str) -> bool;

/// One indexed memory text.
#[derive(Debug)]
struct Doc {
    /// The memory's id.
    id: String,
    /// Insertion order, kept across updates: ties rank older memories first.
    seq: u64,
    /// The numbers of its distinct terms (their counts are in the postings).
    terms: Box<[u32]>,
    /// How many terms the text has.
    len: u32,
    /// Where the memory belongs, when the index was told it (see `scope_tally`).
    at: At,
    /// The number `scope_tally` gave its scope, when known.
    scope_number: Option<u32>,
    /// A conversation turn's neighbours in its conversation: the slots of the turns before and after it.
    linked: (Option<u32>, Option<u32>),
}

/// Where an indexed memory belongs.
#[derive(Debug)]
enum At {
    /// Not told (its statistics need a visit of every document).
    Unknown,
    /// A memory of this scope that is no conversation turn.
    Scope(Scope),
    /// A conversation turn at this place (its conversation is its scope).
    Turn(Place),
}

impl Doc {
    fn turn(&self) -> Option<&Place> {
        match &self.at {
            At::Turn(place) => Some(place),
            _ => None,
        }
    }

    fn scope(&self) -> Option<&Scope> {
        match &self.at {
            At::Unknown => None,
            At::Scope(scope) => Some(scope),
            At::Turn(place) => Some(&place.conversation),
        }
    }
}

/// The keyword index: memory id → terms, and term → ids of the memories containing it. Texts are only
/// noted until the first read ([`KeywordIndex::search`], `len`, …), which tokenizes them all: opening a
/// large memory costs no tokenizing until a keyword search needs it.
#[derive(Debug, Default)]
pub struct KeywordIndex {
    /// Texts not indexed yet: id → (insertion order, text, where it belongs).
    pending: RefCell<FxHashMap<String, Pending>>,
    terms: OnceCell<Terms>,
    next_seq: u64,
}

/// Where a memory belongs: its scope, and for a conversation turn its creation time (a turn's conversation
/// is its full scope).
type Belongs = (Scope, Option<String>);

/// The inverted index itself. Documents live in numbered slots, so postings and scores key on a number,
/// not on the id's text.
#[derive(Debug, Default)]
struct Terms {
    /// Memory id → slot.
    slots: FxHashMap<String, u32>,
    /// Slot → document (`None`: free, listed in `free`).
    docs: Vec<Option<Doc>>,
    free: Vec<u32>,
    /// Term → slot of each document holding it → how often it occurs there.
    vocabulary: vocabulary::Vocabulary,
    turns: TurnOrder,
    /// The corpus statistics per exact scope.
    tallies: ScopeTallies,
    /// The ranking's working arrays, kept between searches.
    scratch: rank::Scratch,
    /// Slot → its document's length and scope number ([`NO_SCOPE`]: none, or a free slot), packed so that
    /// ranking reads them for many postings without visiting the documents.
    shapes: Vec<(u32, u32)>,
}

impl KeywordIndex {
    /// Indexes (or re-indexes) the text of memory `id`.
    pub fn upsert(&mut self, id: &str, text: &str) {
        self.upsert_as(id, Source::Text(text), None);
    }

    /// Indexes (or re-indexes) the text of memory `id` of `scope`: searches that name the scope they cover
    /// ([`search_in`](Self::search_in)) then take their statistics from per-scope tallies.
    pub fn upsert_in(&mut self, id: &str, text: &str, scope: &Scope) {
        self.upsert_as(id, Source::Text(text), Some((scope.clone(), None)));
    }

    /// Indexes (or re-indexes) `id` as a turn of the conversation of `scope`, created at `created_at` (an
    /// ISO time: a conversation's turns are ordered by it, then by insertion).
    pub fn upsert_turn(&mut self, id: &str, text: &str, scope: &Scope, created_at: &str) {
        self.upsert_as(id, Source::Text(text), Some((scope.clone(), Some(created_at.to_owned()))));
    }

    /// Like [`upsert_in`](Self::upsert_in), or [`upsert_turn`](Self::upsert_turn) when `created_at` is
    /// given, from the terms counted ahead for text `text` of `counted` (an open image keeps them): the
    /// same document as indexing that text, without tokenizing it.
    pub fn upsert_counted(
        &mut self,
        id: &str,
        (counted, text): (&Rc<CountedTexts>, usize),
        scope: &Scope,
        created_at: Option<&str>,
    ) {
        let belongs = Some((scope.clone(), created_at.map(str::to_owned)));
        self.upsert_as(id, Source::Counted(counted, text), belongs);
    }

    fn upsert_as(&mut self, id: &str, source: Source, belongs: Option<Belongs>) {
        let Some(terms) = self.terms.get_mut() else {
            let noted = match (source, self.pending.get_mut().get_mut(id)) {
                // A text noted again reuses the buffer of the one noted before.
                (Source::Text(text), Some((_, Noted::Text(held), _))) => {
                    text.clone_into(held);
                    Noted::Text(std::mem::take(held))
                }
                (Source::Text(text), _) => Noted::Text(text.to_owned()),
                (Source::Counted(counted, at), _) => Noted::Counted(counted.clone(), at),
            };
            return self.note(id, noted, belongs);
        };
        let seq = terms.upsert(id, source, self.next_seq + 1, belongs);
        self.next_seq = self.next_seq.max(seq);
    }

    /// Notes `noted` for the first read to index (keeping the insertion order of a memory noted before).
    fn note(&mut self, id: &str, noted: Noted, belongs: Option<Belongs>) {
        let seq = match self.pending.get_mut().get_mut(id) {
            Some((kept, held, was)) => {
                (*held, *was) = (noted, belongs);
                *kept
            }
            None => {
                let seq = self.next_seq + 1;
                self.pending.get_mut().insert(id.to_owned(), (seq, noted, belongs));
                seq
            }
        };
        self.next_seq = self.next_seq.max(seq);
    }

    /// Makes room for `additional` more noted texts (opening the memory notes every one).
    pub fn reserve(&mut self, additional: usize) {
        if self.terms.get().is_none() {
            self.pending.get_mut().reserve(additional);
        }
    }

    /// Forgets memory `id`.
    pub fn remove(&mut self, id: &str) {
        match self.terms.get_mut() {
            Some(terms) => drop(terms.remove_doc(id)),
            None => drop(self.pending.get_mut().remove(id)),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// The index, built from the noted texts on first use.
    fn terms(&self) -> &Terms {
        self.terms.get_or_init(|| Terms::build(self.pending.take()))
    }

    /// Indexes the noted texts now, as the first read would.
    pub fn build(&self) {
        self.terms();
    }

    /// How many noted texts wait for the first read to index them (none once the index is built).
    pub fn unindexed(&self) -> usize {
        match self.terms.get() {
            Some(_) => 0,
            None => self.pending.borrow().len(),
        }
    }

    /// How many memories are indexed.
    pub fn len(&self) -> usize {
        self.terms().slots.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many documents the last search scored (0 before the first).
    #[cfg(test)]
    pub(crate) fn scored_by_last_search(&self) -> usize {
        self.terms().scratch.0.borrow().scored_last
    }

    /// How many distinct terms are indexed.
    pub fn term_count(&self) -> usize {
        self.terms().vocabulary.len()
    }

    /// Up to `limit` memories passing `keep` that share a term with `query`, best BM25 score first.
    /// Document count, average length and document frequencies are those of the memories passing
    /// `corpus` (the scope searched); `keep` (scope and filters) should be narrower.
    pub fn search(&self, query: &str, limit: usize, corpus: IdPredicate, keep: IdPredicate) -> Vec<(f64, &str)> {
        self.search_around(query, limit, corpus, keep, &self.neighbours(corpus))
    }

    /// Like [`search`](Self::search), with the turns' `neighbours` in `corpus` already found (a fused
    /// search needs them twice).
    pub fn search_around<'a>(
        &'a self,
        query: &str,
        limit: usize,
        corpus: IdPredicate,
        keep: IdPredicate,
        neighbours: &Neighbours<'a>,
    ) -> Vec<(f64, &'a str)> {
        self.terms().search(query, (limit, rank::Ranking::ByLimit), (corpus, None), keep, neighbours)
    }

    /// Like [`search_around`](Self::search_around) where `corpus` passes exactly the memories whose scope
    /// `scope` contains: the document count and mean length come from the per-scope tallies when every
    /// document's scope is known, the same figures without visiting every document.
    pub fn search_in<'a>(
        &'a self,
        query: &str,
        limit: usize,
        (corpus, scope): (IdPredicate, &Scope),
        keep: IdPredicate,
        neighbours: &Neighbours<'a>,
    ) -> Vec<(f64, &'a str)> {
        self.query_in(query, (corpus, scope), neighbours).top(limit, keep)
    }

    /// Like [`search_in`](Self::search_in), ranking the way `ranking` says whatever the limit: `Every`
    /// scores every document that holds a query term (the ranking the top-k search must give), `Top`
    /// ranks with `top_k`.
    #[cfg(test)]
    pub(crate) fn search_by<'a>(
        &'a self,
        ranking: rank::Ranking,
        query: &str,
        limit: usize,
        (corpus, scope): (IdPredicate, Option<&Scope>),
        keep: IdPredicate,
        neighbours: &Neighbours<'a>,
    ) -> Vec<(f64, &'a str)> {
        self.terms().search(query, (limit, ranking), (corpus, scope), keep, neighbours)
    }

    /// Each conversation turn passing `corpus`, with the turns before and after it there.
    pub fn neighbours(&self, corpus: IdPredicate) -> Neighbours<'_> {
        self.terms().turns.neighbours(corpus)
    }

    /// Like [`neighbours`](Self::neighbours) where `corpus` passes exactly the memories whose scope `scope`
    /// contains: with every document's scope known, a turn's neighbours are read from its links when asked,
    /// instead of listing every turn of the index.
    pub fn neighbours_in<'a>(&'a self, corpus: IdPredicate, scope: &Scope) -> Neighbours<'a> {
        let terms = self.terms();
        if terms.turns.is_empty() {
            return Neighbours::default();
        }
        if !terms.tallies.cover_every_document() {
            return terms.turns.neighbours(corpus);
        }
        let contained = terms.tallies.contained_in(scope);
        Neighbours::lookup(move |id| {
            let doc = terms.doc(id)?;
            doc.turn()?;
            contained.get(doc.scope_number? as usize).copied().filter(|inside| *inside)?;
            let id_of = |slot: Option<u32>| Some(terms.docs.get(slot? as usize)?.as_ref()?.id.as_str());
            Some(Around { before: id_of(doc.linked.0), after: id_of(doc.linked.1) })
        })
    }
}

impl Terms {
    /// Indexes the text of memory `id`; a new one gets insertion order `seq`. Returns the order it has.
    fn upsert(&mut self, id: &str, source: Source, seq: u64, belongs: Option<Belongs>) -> u64 {
        let seq = self.remove_doc(id).map_or(seq, |doc| doc.seq);
        let slot = self.place(id.to_owned(), source, seq, belongs);
        if let Some(place) = self.docs[slot as usize].as_ref().and_then(Doc::turn) {
            self.turns.insert(place.clone(), id);
        }
        self.link(slot);
        seq
    }

    /// Puts the document of memory `id` (not indexed) in a free slot, unlinked and out of the turn order;
    /// returns the slot.
    fn place(&mut self, id: String, source: Source, seq: u64, belongs: Option<Belongs>) -> u32 {
        let at = match belongs {
            None => At::Unknown,
            Some((scope, None)) => At::Scope(scope),
            Some((conversation, Some(created_at))) => At::Turn(Place { conversation, created_at, seq }),
        };
        // Each term's number and count, looked up as the text is read (a known term allocates nothing).
        let (mut counts, mut len) = (Vec::new(), 0u32);
        self.vocabulary.next_text();
        match source {
            Source::Text(text) => each_term(text, &mut |term| {
                len = len.saturating_add(1);
                self.vocabulary.count(term, 1, &mut counts);
            }),
            Source::Counted(counted, at) => {
                if let Some((length, pairs)) = counted.text(at) {
                    len = length;
                    pairs.for_each(|(term, tf)| self.vocabulary.count(term, tf, &mut counts));
                }
            }
        }
        let slot = self.free.pop().unwrap_or(self.docs.len() as u32);
        let mut doc = Doc { id, seq, terms: Box::default(), len, at, scope_number: None, linked: (None, None) };
        doc.scope_number = self.tallies.count(doc.scope(), len, doc.turn().is_some(), true);
        for &(number, tf) in &counts {
            if let Some(posting) = self.vocabulary.postings_mut(number) {
                posting.add(slot, (tf, len), doc.scope_number);
            }
        }
        doc.terms = counts.into_iter().map(|(number, _)| number).collect();
        self.set_shape(slot, (len, doc.scope_number.unwrap_or(NO_SCOPE)));
        self.slots.insert(doc.id.clone(), slot);
        match self.docs.get_mut(slot as usize) {
            Some(free) => *free = Some(doc),
            None => self.docs.push(Some(doc)),
        }
        slot
    }

    /// Links the turn in `slot` with the turns before and after it in its conversation.
    fn link(&mut self, slot: u32) {
        let Some(place) =
            self.docs[slot as usize].as_ref().and_then(|doc| doc.turn().map(|p| (p.clone(), doc.id.clone())))
        else {
            return;
        };
        let (before, after) = self.turns.around(&place.0, &place.1);
        let (before, after) =
            (before.and_then(|id| self.slots.get(id).copied()), after.and_then(|id| self.slots.get(id).copied()));
        self.set_link(Some(slot), (before, after));
        if let Some(doc) = before.and_then(|b| self.docs.get_mut(b as usize)?.as_mut()) {
            doc.linked.1 = Some(slot);
        }
        if let Some(doc) = after.and_then(|a| self.docs.get_mut(a as usize)?.as_mut()) {
            doc.linked.0 = Some(slot);
        }
    }

    fn set_link(&mut self, slot: Option<u32>, linked: (Option<u32>, Option<u32>)) {
        if let Some(doc) = slot.and_then(|s| self.docs.get_mut(s as usize)?.as_mut()) {
            doc.linked = linked;
        }
    }

    fn set_shape(&mut self, slot: u32, shape: (u32, u32)) {
        if self.shapes.len() <= slot as usize {
            self.shapes.resize(slot as usize + 1, (0, NO_SCOPE));
        }
        self.shapes[slot as usize] = shape;
    }

    /// The document of memory `id`.
    fn doc(&self, id: &str) -> Option<&Doc> {
        self.docs.get(*self.slots.get(id)? as usize)?.as_ref()
    }

    fn remove_doc(&mut self, id: &str) -> Option<Doc> {
        let slot = self.slots.remove(id)?;
        let doc = self.docs.get_mut(slot as usize)?.take()?;
        self.set_shape(slot, (0, NO_SCOPE));
        self.free.push(slot);
        // The turns around it now neighbour each other.
        let (before, after) = doc.linked;
        if let Some(b) = before.and_then(|b| self.docs.get_mut(b as usize)?.as_mut()) {
            b.linked.1 = after;
        }
        if let Some(a) = after.and_then(|a| self.docs.get_mut(a as usize)?.as_mut()) {
            a.linked.0 = before;
        }
        if let Some(place) = doc.turn() {
            self.turns.remove(place.clone(), id);
        }
        self.tallies.count(doc.scope(), doc.len, doc.turn().is_some(), false);
        for &number in &doc.terms {
            if let Some(posting) = self.vocabulary.postings_mut(number) {
                posting.remove(slot, doc.scope_number);
            }
            self.vocabulary.release_if_unheld(number);
        }
        Some(doc)
    }
}
