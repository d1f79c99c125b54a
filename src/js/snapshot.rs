//! Hidden methods that carry an in-memory `Memory` into another module: the browser package's core
//! module hands its state to the full module on the first call that needs it (pkg/split.mjs).

use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::convert::string_arg;
use super::error::to_js_error;
use super::{configure, promise, Memory};
use crate::core::error::MemoryError;
use crate::platform::compose::AnyStorage;

#[wasm_bindgen]
impl Memory {
    /// Everything this memory holds as one text, or `null` when its storage persists it (open it again).
    #[wasm_bindgen(js_name = __snapshot, skip_typescript)]
    pub fn snapshot(&self) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.snapshot().await })
    }

    /// A new in-memory `Memory` over `config` holding a `__snapshot` text.
    #[wasm_bindgen(js_name = __restore, skip_typescript)]
    pub fn restore_snapshot(config: JsValue, snapshot: JsValue) -> Promise {
        future_to_promise(async move {
            let restore = async {
                let snapshot = string_arg(&snapshot, "snapshot")?;
                let (config, parts) = configure(&config)?;
                if !matches!(parts.storage, AnyStorage::Memory(_)) {
                    return Err(MemoryError::InvalidConfig("storage: a snapshot restores into memory only".into()));
                }
                let engine = Rc::new(parts.engine(&config));
                engine.restore_snapshot(&snapshot).await?;
                let memory = Memory::over(engine, &config);
                memory.writer.resume().await?;
                Ok(memory)
            };
            restore.await.map(JsValue::from).map_err(to_js_error)
        })
    }
}
