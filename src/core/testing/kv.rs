//! A KV namespace in RAM, for `KvStorage` without Workers KV.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use crate::core::error::{MemoryError, Result};
use crate::core::kv::keys::MAX_KEY_BYTES;
use crate::core::kv::{KvBackend, KvPage, BULK_READ_KEYS};

#[derive(Default)]
struct Map {
    data: RefCell<BTreeMap<String, String>>,
    page: Cell<usize>,
    puts_left: Cell<Option<usize>>,
    log: RefCell<Vec<String>>,
    writes: RefCell<HashMap<String, usize>>,
    atomic: Cell<bool>,
    warnings: RefCell<Vec<String>>,
}

/// An ordered map with KV's operations: `list` returns pages of `page` keys with a cursor, bulk reads
/// refuse more than [`BULK_READ_KEYS`] keys (a panic: the caller broke KV's limit), a key or prefix longer
/// than [`MAX_KEY_BYTES`] fails with `STORAGE` (as Workers KV answers 414), puts can be made to
/// fail, and every operation is logged (`"get KEY"`, `"get_many N"`, `"put KEY"`, `"delete KEY"`,
/// `"list PREFIX"`). Clones share the map and the log.
#[derive(Clone)]
pub struct MapKv(Rc<Map>);

impl MapKv {
    /// An empty namespace listing `page` keys per page.
    pub fn new(page: usize) -> Self {
        let kv = Self(Rc::default());
        kv.0.page.set(page);
        kv
    }

    /// The same namespace, its commits taken as atomic (as a Durable Object's): scopes keep open images.
    pub fn atomic(self) -> Self {
        self.0.atomic.set(true);
        self
    }

    /// The warnings given so far.
    pub fn warnings(&self) -> Vec<String> {
        self.0.warnings.borrow().clone()
    }

    /// Every key, in order.
    pub fn keys(&self) -> Vec<String> {
        self.0.data.borrow().keys().cloned().collect()
    }

    /// The value at `key`, read without logging.
    pub fn value(&self, key: &str) -> Option<String> {
        self.0.data.borrow().get(key).cloned()
    }

    /// Writes `value` at `key` behind the storage's back (not logged).
    pub fn set_value(&self, key: &str, value: &str) {
        self.0.data.borrow_mut().insert(key.to_owned(), value.to_owned());
    }

    /// Removes `key` behind the storage's back (not logged).
    pub fn remove_value(&self, key: &str) {
        self.0.data.borrow_mut().remove(key);
    }

    /// With `Some(n)`, the next `n` puts succeed and every later one fails with `STORAGE`; `None` lifts it.
    pub fn fail_puts_after(&self, puts: Option<usize>) {
        self.0.puts_left.set(puts);
    }

    /// The operations logged so far.
    pub fn log(&self) -> Vec<String> {
        self.0.log.borrow().clone()
    }

    /// The logged operations of one kind (e.g. `"list"`; `"get"` also matches `get_many`).
    pub fn ops(&self, kind: &str) -> Vec<String> {
        self.0.log.borrow().iter().filter(|op| op.starts_with(kind)).cloned().collect()
    }

    /// Empties the log.
    pub fn clear_log(&self) {
        self.0.log.borrow_mut().clear();
    }

    /// How many times each key was written.
    pub fn writes(&self) -> HashMap<String, usize> {
        self.0.writes.borrow().clone()
    }

    fn record(&self, op: String) {
        self.0.log.borrow_mut().push(op);
    }
}

/// `STORAGE` for a key longer than KV takes, as Workers KV refuses it.
fn fits(operation: &str, key: &str) -> Result<()> {
    if key.len() > MAX_KEY_BYTES {
        let why = format!(
            "KV {operation} failed: 414 UTF-8 encoded length of {} exceeds key length limit of {MAX_KEY_BYTES}",
            key.len()
        );
        return Err(MemoryError::Storage(why));
    }
    Ok(())
}

impl KvBackend for MapKv {
    async fn get(&self, key: &str) -> Result<Option<String>> {
        fits("GET", key)?;
        self.record(format!("get {key}"));
        Ok(self.value(key))
    }

    async fn get_many(&self, keys: &[String]) -> Result<Vec<Option<String>>> {
        assert!(keys.len() <= BULK_READ_KEYS, "bulk reads take at most {BULK_READ_KEYS} keys");
        keys.iter().try_for_each(|key| fits("GET", key))?;
        self.record(format!("get_many {}", keys.len()));
        Ok(keys.iter().map(|key| self.value(key)).collect())
    }

    async fn put(&self, key: &str, value: &str) -> Result<()> {
        fits("PUT", key)?;
        match self.0.puts_left.get() {
            Some(0) => return Err(MemoryError::Storage(format!("put {key}: KV write failed"))),
            Some(left) => self.0.puts_left.set(Some(left - 1)),
            None => {}
        }
        self.record(format!("put {key}"));
        *self.0.writes.borrow_mut().entry(key.to_owned()).or_default() += 1;
        self.set_value(key, value);
        Ok(())
    }

    async fn delete(&self, key: &str) -> Result<()> {
        fits("DELETE", key)?;
        self.record(format!("delete {key}"));
        self.remove_value(key);
        Ok(())
    }

    fn atomic(&self) -> bool {
        self.0.atomic.get()
    }

    fn warn(&self, text: &str) {
        self.0.warnings.borrow_mut().push(text.to_owned());
    }

    async fn list(&self, prefix: &str, cursor: Option<&str>) -> Result<KvPage> {
        fits("LIST", prefix)?;
        self.record(format!("list {prefix}"));
        let (data, page) = (self.0.data.borrow(), self.0.page.get());
        let start = cursor.unwrap_or(prefix).to_owned();
        let mut keys: Vec<String> = data
            .range(start..)
            .map(|(key, _)| key.clone())
            .filter(|key| cursor != Some(key.as_str()))
            .take_while(|key| key.starts_with(prefix))
            .take(page + 1)
            .collect();
        let more = keys.len() > page;
        keys.truncate(page);
        Ok(KvPage { cursor: more.then(|| keys.last().cloned()).flatten(), keys })
    }
}
