//! The embedding model a store's vectors come from: checked when `Memory.open` opens it (a console warning
//! `EMBEDDING_MODEL_CHANGED`, or that error under `strict`), and `reembed()`, its fix.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::{import, promise, Memory};
use crate::core::error::MemoryError;
use crate::platform::compose::Engine;

/// Compares the configured embedding model with the store's (see `core::engine::embedding_model`); a
/// change is printed as a warning, or fails the open under `strict`.
pub(super) async fn check_model(engine: &Engine, strict: bool) -> Result<(), MemoryError> {
    if let Some(warning) = engine.check_embedding_model(strict).await? {
        web_sys::console::warn_1(&format!("memwasm: {}: {}", warning.code.as_str(), warning.message).into());
    }
    Ok(())
}

#[wasm_bindgen]
impl Memory {
    /// Embeds every stored memory again with the configured embedder and records its model, in short turns
    /// (`onProgress`, `signal` as `importMemories` takes them): the fix for `EMBEDDING_MODEL_CHANGED`.
    #[wasm_bindgen(unchecked_return_type = "Promise<ReembedResult>")]
    pub fn reembed(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ImportOptions")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let pace = import::import_pace(&options, "reembed")?;
            engine.reembed_paced(&pace).await
        })
    }
}
