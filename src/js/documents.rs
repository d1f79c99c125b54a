//! `Memory.ingest(text, options)`: document ingestion, no LLM call.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, string_arg};
use super::{promise, Memory};
use crate::core::documents::IngestOptions;
use crate::core::error::MemoryError;

#[wasm_bindgen]
impl Memory {
    /// Cleans `text`, cuts it into chunks, embeds the new ones in one request and stores those important
    /// enough as memories of the scope, with `metadata.sessionId`.
    #[wasm_bindgen(unchecked_return_type = "Promise<IngestResult>")]
    pub fn ingest(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_param_type = "IngestOptions")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let options: IngestOptions = from_js(options, "options", MemoryError::InvalidInput)?;
            engine.documents().ingest(&string_arg(&text, "text")?, &options).await
        })
    }
}
