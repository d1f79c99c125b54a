//! A Durable Object's storage dressed as a KV namespace binding (`get`, `put`, `delete`, `list`), so the
//! library's `KvStorage` runs unchanged inside the object (through `JsKv`), plus `flush`:
//!
//! - `put` (of a string, or of a `Uint8Array`: `JsKv`'s byte values) and `delete` only buffer; `get` and `list` see the buffer first (a commit reads its own writes);
//! - `flush` (which `KvStorage` calls once a commit or a clear has made all its writes) sends the buffer as
//!   `put({…})` / `delete([…])` calls of at most 128 keys, all issued before any is awaited: the runtime
//!   coalesces writes with no `await` between them into one atomic write, so a commit's memory, markers,
//!   graph records, history and side records are stored together or not at all, and the answer that
//!   acknowledges them waits until they are durable (the object's output gate).
//!
//! With a memory-key prefix to watch (a user's object under scope sharding), each flush that stores or deletes
//! memories also writes, in the same atomic write, the reports of their ids to the tenant's directory and an
//! alarm to send them (`outbox`); `takeReported()` tells whether a flush did since the last call.
//!
//! A commit that fails half-way leaves its buffered writes for the next flush, as KV storage keeps the
//! writes before a failure; an object that dies before flushing loses only what no answer acknowledged.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use js_sys::{Array, Function, Map, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::outbox;

/// Most keys one storage call takes.
const MAX_KEYS: usize = 128;

/// Buffered writes: key → value (a string, or a `Uint8Array` from `putBytes`), `None` deletes.
type Pending = BTreeMap<String, Option<JsValue>>;

/// The memories a user's object reports to the directory: their keys' prefix (`t/<tenant>/mem/`), the
/// object's owner (`outbox::Owner`, as JSON) and how soon the alarm that sends the reports fires, in ms.
pub struct Watch {
    pub prefix: String,
    pub owner: String,
    pub alarm_ms: i64,
}

struct Inner {
    storage: JsValue,
    pending: RefCell<Pending>,
    /// Test hook (`failNextFlush()`): the next flush drops its writes and fails, as an object that dies
    /// before its writes are durable.
    fail_next: Cell<bool>,
    /// The memories whose writes are reported, when watched.
    watch: Option<Watch>,
    /// A flush wrote reports since the last `takeReported()`.
    reported: Cell<bool>,
    /// Test hook (`DO_TEST_IMAGE_WRITE = "hold"`): a flush that writes an open image issues its writes,
    /// then never returns, so a test can kill workerd during the image write.
    hold_images: bool,
}

impl Inner {
    /// `storage[method](arg)`, awaited.
    async fn call(&self, method: &str, arg: &JsValue) -> Result<JsValue, JsValue> {
        let function: Function = Reflect::get(&self.storage, &method.into())?.dyn_into()?;
        JsFuture::from(Promise::resolve(&function.call1(&self.storage, arg)?)).await
    }

    /// `get(key)` → value or undefined; `get([keys])` → `Map` of the keys found.
    async fn get(&self, key: JsValue) -> Result<JsValue, JsValue> {
        if let Some(key) = key.as_string() {
            if let Some(buffered) = self.pending.borrow().get(&key) {
                return Ok(buffered.clone().unwrap_or(JsValue::UNDEFINED));
            }
            return self.call("get", &key.into()).await;
        }
        let keys: Array = key.dyn_into()?;
        let found = Map::new();
        let mut missing = Array::new();
        for key in keys.iter().filter_map(|key| key.as_string()) {
            match self.pending.borrow().get(&key) {
                Some(Some(value)) => {
                    found.set(&key.as_str().into(), value);
                }
                Some(None) => {}
                None => {
                    missing.push(&key.into());
                }
            }
        }
        if missing.length() > 0 {
            let stored: Map = self.call("get", &std::mem::take(&mut missing).into()).await?.dyn_into()?;
            stored.for_each(&mut |value, key| {
                found.set(&key, &value);
            });
        }
        Ok(found.into())
    }

    /// KV's `list({prefix})` answer: `{keys: [{name}], list_complete: true}`, every key in one page.
    async fn list(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let prefix = Reflect::get(&options, &"prefix".into())?.as_string().unwrap_or_default();
        let query = Object::new();
        Reflect::set(&query, &"prefix".into(), &prefix.as_str().into())?;
        let stored: Map = self.call("list", &query.into()).await?.dyn_into()?;
        let mut names = std::collections::BTreeSet::new();
        stored.for_each(&mut |_, key| {
            if let Some(key) = key.as_string() {
                names.insert(key);
            }
        });
        for (key, value) in self.pending.borrow().range(prefix.clone()..) {
            if !key.starts_with(&prefix) {
                break;
            }
            match value {
                Some(_) => names.insert(key.clone()),
                None => names.remove(key),
            };
        }
        let keys = Array::new();
        for name in names {
            let entry = Object::new();
            Reflect::set(&entry, &"name".into(), &name.into())?;
            keys.push(&entry);
        }
        let page = Object::new();
        Reflect::set(&page, &"keys".into(), &keys)?;
        Reflect::set(&page, &"list_complete".into(), &true.into())?;
        Ok(page.into())
    }

    /// Sends every buffered write, with the reports of the memories it stores and deletes when watched,
    /// coalesced into one atomic write, and waits until it is stored.
    async fn flush(&self) -> Result<JsValue, JsValue> {
        let pending = std::mem::take(&mut *self.pending.borrow_mut());
        if self.fail_next.replace(false) {
            return Err(js_sys::Error::new("the object failed before its writes were stored (test hook)").into());
        }
        let (mut puts, deletes): (Vec<_>, Vec<_>) = pending.into_iter().partition(|(_, value)| value.is_some());
        let (mut calls, mut reported) = (Vec::new(), false);
        if let Some(watch) = &self.watch {
            let id = |key: &String| key.strip_prefix(watch.prefix.as_str()).and_then(memwasm::core::kv::keys::decode);
            let stored: Vec<String> = puts.iter().filter_map(|(key, _)| id(key)).collect();
            let deleted: Vec<String> = deletes.iter().filter_map(|(key, _)| id(key)).collect();
            let reports =
                outbox::entries(&watch.owner, stored.iter().map(String::as_str), deleted.iter().map(String::as_str));
            if !reports.is_empty() {
                reported = true;
                puts.extend(reports.into_iter().map(|(key, value)| (key, Some(JsValue::from_str(&value)))));
                let set_alarm: Function = Reflect::get(&self.storage, &"setAlarm".into())?.dyn_into()?;
                let at = js_sys::Date::now() + watch.alarm_ms as f64;
                calls.push(set_alarm.call1(&self.storage, &at.into())?);
            }
        }
        let put: Function = Reflect::get(&self.storage, &"put".into())?.dyn_into()?;
        let delete: Function = Reflect::get(&self.storage, &"delete".into())?.dyn_into()?;
        for chunk in puts.chunks(MAX_KEYS) {
            let entries = Object::new();
            for (key, value) in chunk {
                Reflect::set(&entries, &key.as_str().into(), value.as_ref().unwrap_or(&JsValue::UNDEFINED))?;
            }
            calls.push(put.call1(&self.storage, &entries)?);
        }
        for chunk in deletes.chunks(MAX_KEYS) {
            let keys: Array = chunk.iter().map(|(key, _)| JsValue::from_str(key)).collect();
            calls.push(delete.call1(&self.storage, &keys)?);
        }
        let writes = Promise::all(&calls.into_iter().collect::<Array>());
        if self.hold_images && puts.iter().any(|(key, _)| key.contains("/imgh/")) {
            worker::console_log!("memwasm test hook: an open image write holds");
            JsFuture::from(Promise::new(&mut |_, _| {})).await?;
        }
        JsFuture::from(writes).await?;
        if reported {
            self.reported.set(true);
        }
        Ok(JsValue::UNDEFINED)
    }
}

/// A JS object with the methods of a KV binding (and `flush`) over `storage`, a `DurableObjectStorage`,
/// reporting the memory writes of `watch` when given; `hold_images` is the test hook of the same name.
pub fn binding(storage: JsValue, watch: Option<Watch>, hold_images: bool) -> Result<JsValue, JsValue> {
    let inner = Rc::new(Inner {
        storage,
        pending: RefCell::default(),
        fail_next: Cell::new(false),
        watch,
        reported: Cell::new(false),
        hold_images,
    });
    let object = Object::new();
    // Its flush is one atomic write, and it takes `Uint8Array` values: `JsKv` keeps open images over it.
    Reflect::set(&object, &"atomic".into(), &true.into())?;
    let method = |name: &str, call: Box<dyn Fn(JsValue, JsValue) -> Promise>| {
        Reflect::set(&object, &name.into(), &Closure::wrap(call).into_js_value()).map(drop)
    };
    let get = inner.clone();
    method(
        "get",
        Box::new(move |key, _| future_to_promise(spawned(&get, |inner| async move { inner.get(key).await }))),
    )?;
    let put = inner.clone();
    method(
        "put",
        Box::new(move |key, value| {
            if let (Some(key), true) = (key.as_string(), value.is_string() || value.is_instance_of::<Uint8Array>()) {
                put.pending.borrow_mut().insert(key, Some(value));
            }
            Promise::resolve(&JsValue::UNDEFINED)
        }),
    )?;
    let delete = inner.clone();
    method(
        "delete",
        Box::new(move |key, _| {
            if let Some(key) = key.as_string() {
                delete.pending.borrow_mut().insert(key, None);
            }
            Promise::resolve(&JsValue::UNDEFINED)
        }),
    )?;
    let list = inner.clone();
    method(
        "list",
        Box::new(move |options, _| future_to_promise(spawned(&list, |inner| async move { inner.list(options).await }))),
    )?;
    let fail = inner.clone();
    method(
        "failNextFlush",
        Box::new(move |_, _| {
            fail.fail_next.set(true);
            Promise::resolve(&JsValue::UNDEFINED)
        }),
    )?;
    let reported = inner.clone();
    method("takeReported", Box::new(move |_, _| Promise::resolve(&JsValue::from(reported.reported.replace(false)))))?;
    let flush = inner;
    method(
        "flush",
        Box::new(move |_, _| future_to_promise(spawned(&flush, |inner| async move { inner.flush().await }))),
    )?;
    Ok(object.into())
}

/// `work` over a clone of `inner`, as a `'static` future.
fn spawned<F, Fut>(inner: &Rc<Inner>, work: F) -> Fut
where
    F: FnOnce(Rc<Inner>) -> Fut,
{
    work(inner.clone())
}
