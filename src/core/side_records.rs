//! Side records: small keyed JSON documents kept beside the memories, in the same storage and written in
//! the same transaction — message buffers, conversation metadata, the embedding cache, journals, summaries.
//! Each has a `kind` (a namespace such as `"embedding-cache"`) and a key unique within it.

use serde_json::Value;

/// One write of a side record: `value: None` deletes it.
#[derive(Debug, Clone, PartialEq)]
pub struct SideWrite {
    pub kind: String,
    pub key: String,
    pub value: Option<Value>,
}

impl SideWrite {
    /// Writes `value` under `kind` / `key`.
    pub fn put(kind: &str, key: &str, value: Value) -> Self {
        Self { kind: kind.to_owned(), key: key.to_owned(), value: Some(value) }
    }

    /// Deletes `kind` / `key`.
    pub fn delete(kind: &str, key: &str) -> Self {
        Self { kind: kind.to_owned(), key: key.to_owned(), value: None }
    }
}

/// A stored side record.
#[derive(Debug, Clone, PartialEq)]
pub struct SideRecord {
    pub key: String,
    pub value: Value,
}

/// Side records in RAM, by kind then key: what the in-memory storages keep, and the engine's cache of the
/// kinds it has read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SideMap(std::collections::BTreeMap<String, std::collections::BTreeMap<String, Value>>);

impl SideMap {
    /// Applies `writes` in order (what a storage in RAM does with a commit).
    pub fn apply(&mut self, writes: &[SideWrite]) {
        self.write(writes, true);
    }

    /// Applies `writes` to the kinds already filled (what the engine's cache does with a commit): a kind
    /// not read yet stays unread, and storage, which has the writes too, fills it whole when it is first read.
    pub fn apply_to_filled(&mut self, writes: &[SideWrite]) {
        self.write(writes, false);
    }

    /// Applies `writes` in order; a put to a kind not held yet starts it when `start_kinds`, else is skipped.
    fn write(&mut self, writes: &[SideWrite], start_kinds: bool) {
        for write in writes {
            if start_kinds && write.value.is_some() {
                self.0.entry(write.kind.clone()).or_default();
            }
            let Some(kind) = self.0.get_mut(&write.kind) else { continue };
            match &write.value {
                Some(value) => kind.insert(write.key.clone(), value.clone()),
                None => kind.remove(&write.key),
            };
        }
    }

    /// The records of `kind`, in key order.
    pub fn records(&self, kind: &str) -> Vec<SideRecord> {
        let records = self.0.get(kind).into_iter().flatten();
        records.map(|(key, value)| SideRecord { key: key.clone(), value: value.clone() }).collect()
    }

    /// The records of `kind` whose key starts with `prefix`, in key order.
    pub fn records_under(&self, kind: &str, prefix: &str) -> Vec<SideRecord> {
        let Some(records) = self.0.get(kind) else { return Vec::new() };
        let from = records.range::<str, _>((std::ops::Bound::Included(prefix), std::ops::Bound::Unbounded));
        let under = from.take_while(|(key, _)| key.starts_with(prefix));
        under.map(|(key, value)| SideRecord { key: key.clone(), value: value.clone() }).collect()
    }

    /// Every record, as (kind, record), in kind then key order.
    pub fn all(&self) -> Vec<(String, SideRecord)> {
        self.0.keys().flat_map(|kind| self.records(kind).into_iter().map(|record| (kind.clone(), record))).collect()
    }

    /// True once `kind` was filled (by `fill`), even with nothing.
    pub fn has(&self, kind: &str) -> bool {
        self.0.contains_key(kind)
    }

    /// Sets the records of `kind` (as a storage returned them).
    pub fn fill(&mut self, kind: &str, records: Vec<SideRecord>) {
        self.0.insert(kind.to_owned(), records.into_iter().map(|r| (r.key, r.value)).collect());
    }

    /// The value of `kind` / `key`, if any.
    pub fn get(&self, kind: &str, key: &str) -> Option<&Value> {
        self.0.get(kind)?.get(key)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn writes_apply_in_order_and_deletes_remove() {
        let mut cache = SideMap::default();
        cache.apply_to_filled(&[SideWrite::put("k", "lost", json!(0))]);
        assert!(!cache.has("k"), "a cache write to an unread kind leaves it unread");
        cache.fill("k", Vec::new());
        cache.apply_to_filled(&[SideWrite::put("k", "kept", json!(1))]);
        assert_eq!(cache.get("k", "kept"), Some(&json!(1)));
        let mut map = SideMap::default();
        map.apply(&[
            SideWrite::put("k", "b", json!(2)),
            SideWrite::put("k", "a", json!(1)),
            SideWrite::put("j", "x", json!(0)),
        ]);
        assert_eq!(map.records("k").iter().map(|r| r.key.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        map.apply(&[SideWrite::delete("k", "a"), SideWrite::put("k", "b", json!(3))]);
        assert_eq!(map.records("k"), vec![SideRecord { key: "b".into(), value: json!(3) }]);
        assert_eq!(map.get("j", "x"), Some(&json!(0)));
        map.apply(&[SideWrite::put("k", "a/1", json!(4)), SideWrite::put("k", "a0", json!(5))]);
        assert_eq!(map.records_under("k", "a/").iter().map(|r| r.key.as_str()).collect::<Vec<_>>(), ["a/1"]);
        assert!(map.records_under("none", "a").is_empty());
        assert!(map.records("none").is_empty() && !map.has("none"));
        map.fill("none", Vec::new());
        assert!(map.has("none"));
    }
}
