//! `KvBackend` over a Workers KV namespace binding as JS sees it (`env.MEMORY_KV`): its `get`, `put`,
//! `delete` and `list` methods, called through `js_sys`. Any object with those methods works; one that also
//! has `flush` gets it called after each commit's writes; one that also says `atomic: true` keeps open
//! images (`core::kv`).

use js_sys::{Array, Function, Map, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::core::error::{MemoryError, Result};
use crate::core::image::Parts;
use crate::core::kv::{KvBackend, KvPage};
use crate::platform::js_bytes::JsBytes;

/// Keys per `list` page (KV's maximum).
const LIST_PAGE: u32 = 1000;

/// A KV namespace binding.
pub struct JsKv {
    binding: JsValue,
}

/// The message of a JS exception, as a `STORAGE` error.
fn storage_error(operation: &str, key: &str, error: JsValue) -> MemoryError {
    let message = error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "failed".into());
    MemoryError::Storage(format!("KV {operation} {key}: {message}"))
}

impl JsKv {
    /// Wraps `binding`; `INVALID_CONFIG` unless it has `get`, `put`, `delete` and `list` methods.
    pub fn new(binding: &JsValue) -> Result<Self> {
        let has = |name: &str| Reflect::get(binding, &name.into()).is_ok_and(|f| f.is_function());
        if !binding.is_object() || !["get", "put", "delete", "list"].into_iter().all(has) {
            let why = "storage.binding: must be a KV namespace binding (get, put, delete, list), e.g. env.MEMORY_KV";
            return Err(MemoryError::InvalidConfig(why.into()));
        }
        Ok(Self { binding: binding.clone() })
    }

    /// Calls `binding[method](...args)` and awaits the result.
    async fn call(&self, method: &str, key: &str, args: &[JsValue]) -> Result<JsValue> {
        let function: Function =
            Reflect::get(&self.binding, &method.into()).map_err(|e| storage_error(method, key, e))?.unchecked_into();
        let args: Array = args.iter().collect();
        let returned = function.apply(&self.binding, &args).map_err(|e| storage_error(method, key, e))?;
        JsFuture::from(Promise::resolve(&returned)).await.map_err(|e| storage_error(method, key, e))
    }
}

impl KvBackend for JsKv {
    async fn get(&self, key: &str) -> Result<Option<String>> {
        Ok(self.call("get", key, &[key.into()]).await?.as_string())
    }

    /// One bulk read: `get([keys])` resolves to a `Map` of key → value.
    async fn get_many(&self, keys: &[String]) -> Result<Vec<Option<String>>> {
        let names: Array = keys.iter().map(|key| JsValue::from_str(key)).collect();
        let first = keys.first().map_or("", String::as_str);
        let found = self.call("get", first, &[names.into()]).await?;
        let found: Map =
            found.dyn_into().map_err(|_| storage_error("get", first, "bulk read did not return a Map".into()))?;
        Ok(keys.iter().map(|key| found.get(&JsValue::from_str(key)).as_string()).collect())
    }

    /// One bulk read of `Uint8Array` values (`put_bytes`), each left in JS: an open image is read from its
    /// parts a piece at a time, never joined into wasm memory.
    async fn append_parts(&self, keys: &[String], out: &mut Parts) -> Result<bool> {
        let names: Array = keys.iter().map(|key| JsValue::from_str(key)).collect();
        let first = keys.first().map_or("", String::as_str);
        let found = self.call("get", first, &[names.into()]).await?;
        let found: Map =
            found.dyn_into().map_err(|_| storage_error("get", first, "bulk read did not return a Map".into()))?;
        for key in keys {
            let Ok(part) = found.get(&JsValue::from_str(key)).dyn_into::<Uint8Array>() else { return Ok(false) };
            out.push(Box::new(JsBytes(part)));
        }
        Ok(true)
    }

    /// A `Uint8Array` value where the binding is atomic (a Durable Object's storage takes binary values);
    /// base64 text elsewhere.
    async fn put_bytes(&self, key: &str, bytes: &[u8]) -> Result<()> {
        if !self.atomic() {
            return self.put(key, &crate::core::codec::bytes_to_base64(bytes)).await;
        }
        self.call("put", key, &[key.into(), Uint8Array::from(bytes).into()]).await.map(drop)
    }

    async fn put(&self, key: &str, value: &str) -> Result<()> {
        self.call("put", key, &[key.into(), value.into()]).await.map(drop)
    }

    async fn delete(&self, key: &str) -> Result<()> {
        self.call("delete", key, &[key.into()]).await.map(drop)
    }

    async fn list(&self, prefix: &str, cursor: Option<&str>) -> Result<KvPage> {
        let options = Object::new();
        let set = |name: &str, value: JsValue| Reflect::set(&options, &name.into(), &value).map(drop);
        set("prefix", prefix.into())
            .and_then(|_| set("limit", LIST_PAGE.into()))
            .map_err(|e| storage_error("list", prefix, e))?;
        if let Some(cursor) = cursor {
            set("cursor", cursor.into()).map_err(|e| storage_error("list", prefix, e))?;
        }
        let page = self.call("list", prefix, &[options.into()]).await?;
        let field = |name: &str| Reflect::get(&page, &name.into()).unwrap_or(JsValue::UNDEFINED);
        let keys: Vec<String> = field("keys")
            .dyn_into::<Array>()
            .unwrap_or_else(|_| Array::new())
            .iter()
            .filter_map(|key| Reflect::get(&key, &"name".into()).ok()?.as_string())
            .collect();
        let complete = field("list_complete").as_bool().unwrap_or(true);
        Ok(KvPage { keys, cursor: if complete { None } else { field("cursor").as_string() } })
    }

    /// True for a binding with `flush` and `atomic: true` (the Worker's Durable Object storage, whose flush
    /// is one atomic write and whose values may be `Uint8Array`s): KV storage then keeps open images. A KV
    /// namespace, or another buffering binding, is not.
    fn atomic(&self) -> bool {
        let flushes = Reflect::get(&self.binding, &"flush".into()).is_ok_and(|f| f.is_function());
        flushes && Reflect::get(&self.binding, &"atomic".into()).ok().and_then(|a| a.as_bool()) == Some(true)
    }

    fn warn(&self, text: &str) {
        web_sys::console::warn_1(&JsValue::from_str(text));
    }

    /// `binding.flush()` when the binding has one (a buffering adapter, such as the Worker's Durable Object
    /// storage); a KV namespace has none, and writes as it goes.
    async fn finish(&self) -> Result<()> {
        let has_flush = Reflect::get(&self.binding, &"flush".into()).is_ok_and(|f| f.is_function());
        if has_flush {
            self.call("flush", "", &[]).await?;
        }
        Ok(())
    }
}
