//! Where this instance last read or wrote each memory's vector: its chunk and its fingerprint, the hints a
//! commit reads (see `vectors`). An open from the image only notes each memory's place, in order, and the
//! map is built on the first lookup: a page that never writes never hashes its ids.

use std::collections::HashMap;

/// The fewest changes that may queue behind an open's noted places.
const QUEUED: usize = 1024;

/// Where a memory's vector is stored, as this instance last read or wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// The chunk's key.
    pub chunk: u32,
    /// The vector's fingerprint (`chunk::fingerprint`).
    pub print: u64,
}

/// Memory id → where its vector is stored (memories without a vector are absent).
#[derive(Debug, Default)]
pub struct Placement {
    placed: HashMap<String, Placed>,
    /// Changes not yet in `placed`, oldest first (`None`: the memory has no vector any more).
    noted: Vec<(String, Option<Placed>)>,
    /// How many places the open noted: later changes queue behind them up to as many again (another tab's
    /// writes, for a page that never commits), then everything goes into the map.
    opened: usize,
}

impl Placement {
    /// Where `id`'s vector is.
    pub fn get(&mut self, id: &str) -> Option<Placed> {
        self.settle();
        self.placed.get(id).copied()
    }

    /// `id`'s vector is at `placed`.
    pub fn insert(&mut self, id: String, placed: Placed) {
        if self.noted.is_empty() {
            self.placed.insert(id, placed);
        } else {
            self.queue(id, Some(placed));
        }
    }

    /// `id` has no vector (any more).
    pub fn remove(&mut self, id: &str) {
        if self.noted.is_empty() {
            self.placed.remove(id);
        } else {
            self.queue(id.to_owned(), None);
        }
    }

    /// Notes the places of an open, to be put in the map on the first lookup.
    pub fn note(&mut self, places: impl IntoIterator<Item = (String, Placed)>) {
        self.noted.extend(places.into_iter().map(|(id, placed)| (id, Some(placed))));
        self.opened = self.noted.len();
    }

    /// Forgets every place.
    pub fn clear(&mut self) {
        self.placed.clear();
        self.noted.clear();
    }

    /// How many changes wait to go into the map.
    pub fn queued(&self) -> usize {
        self.noted.len()
    }

    /// Makes room for `additional` more places in the map.
    pub fn reserve(&mut self, additional: usize) {
        self.placed.reserve(additional);
    }

    /// Queues `id`'s change behind the noted ones; past the bound, puts them all in the map.
    fn queue(&mut self, id: String, placed: Option<Placed>) {
        self.noted.push((id, placed));
        if self.noted.len() > 2 * self.opened.max(QUEUED) {
            self.settle();
        }
    }

    /// The noted places put in the map, in the order they were noted.
    fn settle(&mut self) {
        self.placed.reserve(self.noted.len());
        for (id, placed) in std::mem::take(&mut self.noted) {
            match placed {
                Some(placed) => self.placed.insert(id, placed),
                None => self.placed.remove(&id),
            };
        }
    }
}
