//! The change journal (schema version 7). Every commit takes the next change number from one counter,
//! read and bumped inside the commit's own readwrite transaction (tabs writing at once never share a
//! number), stamps it on each memory record it writes (`changed`, under the index [`BY_CHANGE`]) and keeps
//! each id it deletes in `gone`, keyed `[change, id]`, until an open image covers that change (see
//! `image`). The counter is a record of the `image` store under [`COUNTER`]: `{last, cleared, imaged,
//! packed}`, the last change number, the change number of the last `clear()`, the one the stored image
//! covers and how many memories the `packs` store holds (schema version 8, see `packs`; absent before: 0).

use std::future::Future;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{IdbKeyRange, IdbObjectStore};

use super::outcome::{from_thrown, settled};
use crate::core::error::{MemoryError, Result};

/// The memory records' index on their change number.
pub const BY_CHANGE: &str = "changed";
/// The counter's key in the `image` store.
const COUNTER: &str = "changes";

/// The counter record (all zero before the first change).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changes {
    pub last: u64,
    pub cleared: u64,
    pub imaged: u64,
    pub packed: u64,
}

impl Changes {
    /// The counter as stored in `store`, the `image` store: read at once (the caller may issue other
    /// requests while it comes back).
    pub fn read(store: &IdbObjectStore, context: &'static str) -> impl Future<Output = Result<Self>> {
        let read = settled(store.get(&JsValue::from_str(COUNTER)), context);
        async move { Ok(Self::from_js(&read.await?)) }
    }

    fn from_js(value: &JsValue) -> Self {
        let field = |name: &str| {
            let number = Reflect::get(value, &name.into()).ok().and_then(|value| value.as_f64()).unwrap_or(0.0);
            if number.fract() == 0.0 && number >= 0.0 {
                number as u64
            } else {
                0
            }
        };
        Self { last: field("last"), cleared: field("cleared"), imaged: field("imaged"), packed: field("packed") }
    }

    /// Stores the counter in `store`, the `image` store of a readwrite transaction.
    pub fn write(&self, store: &IdbObjectStore, context: &'static str) -> Result<()> {
        let record = Object::new();
        let fields = [("last", self.last), ("cleared", self.cleared), ("imaged", self.imaged), ("packed", self.packed)];
        for (name, value) in fields {
            let _ = Reflect::set(&record, &name.into(), &JsValue::from(value as f64));
        }
        let key = JsValue::from_str(COUNTER);
        store.put_with_key(&record, &key).map(drop).map_err(|thrown| from_thrown(thrown, context))
    }
}

/// Takes the next change number from `store`, the `image` store of the caller's readwrite transaction;
/// `cleared` marks it as a `clear()` (which empties the packs too). The counter is read at once and bumped
/// when awaited; it comes back as bumped.
pub fn next_change(
    store: &IdbObjectStore,
    cleared: bool,
    context: &'static str,
) -> impl Future<Output = Result<Changes>> {
    let read = Changes::read(store, context);
    let store = store.clone();
    async move {
        let mut changes = read.await?;
        changes.last += 1;
        if cleared {
            changes.cleared = changes.last;
            changes.packed = 0;
        }
        changes.write(&store, context)?;
        Ok(changes)
    }
}

/// The `gone` key of memory `id`, deleted at change number `change`.
pub fn tombstone(change: u64, id: &str) -> JsValue {
    Array::of2(&JsValue::from(change as f64), &JsValue::from_str(id)).into()
}

/// The `gone` keys of the changes after `seq` (`after`), or of those up to it.
pub fn gone_keys(seq: u64, after: bool) -> Result<IdbKeyRange> {
    let bound = Array::of1(&JsValue::from((seq + 1) as f64));
    let range = if after { IdbKeyRange::lower_bound(&bound) } else { IdbKeyRange::upper_bound_with_open(&bound, true) };
    range.map_err(|_| MemoryError::Storage(format!("IndexedDB: no key range for change {seq}")))
}

/// The memory records' change numbers after `seq`.
pub fn changed_after(seq: u64) -> Result<IdbKeyRange> {
    IdbKeyRange::lower_bound_with_open(&JsValue::from(seq as f64), true)
        .map_err(|_| MemoryError::Storage(format!("IndexedDB: no key range for change {seq}")))
}

/// The ids `gone` keys name.
pub fn gone_ids(keys: &Array) -> Vec<String> {
    keys.iter().filter_map(|key| key.dyn_ref::<Array>().and_then(|key| key.get(1).as_string())).collect()
}
