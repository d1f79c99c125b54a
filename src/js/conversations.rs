//! Message-by-message memory on `Memory`: `addMessage`, `flushGroup`, the conversation-metadata
//! calls, `deleteMemories`, and `compress`.

use js_sys::Promise;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, string_arg};
use super::{promise, Memory};
use crate::core::conversations::{CompressOptions, DeleteFilter, MessageInput, MetaInput, MetaPatch};
use crate::core::error::MemoryError;

fn invalid_input(why: String) -> MemoryError {
    MemoryError::InvalidInput(why)
}

#[wasm_bindgen]
impl Memory {
    /// Adds one chat message to its group's buffer; extracts typed memories when a boundary closes it.
    #[wasm_bindgen(js_name = addMessage, unchecked_return_type = "Promise<AddMessageResult>")]
    pub fn add_message(&self, #[wasm_bindgen(unchecked_param_type = "MessageInput")] message: JsValue) -> Promise {
        let engine = self.engine.clone();
        self.answer(async move {
            let input: MessageInput = from_js(message, "message", invalid_input)?;
            engine.conversations().add_message(input).await
        })
    }

    /// Closes a group's buffer now and extracts its messages.
    #[wasm_bindgen(js_name = flushGroup, unchecked_return_type = "Promise<AddMessageResult>")]
    pub fn flush_group(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string", js_name = groupId)] group_id: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        self.answer(async move { engine.conversations().flush_group(&string_arg(&group_id, "groupId")?).await })
    }

    /// The conversation metadata of a group, else the default config; `null` when neither was saved.
    #[wasm_bindgen(js_name = getConversationMeta, unchecked_return_type = "Promise<ConversationMeta | null>")]
    pub fn get_conversation_meta(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "string", js_name = groupId)] group_id: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let group = match group_id.is_undefined() || group_id.is_null() {
                true => None,
                false => Some(string_arg(&group_id, "groupId")?),
            };
            engine.conversations().conversation_meta(group.as_deref()).await
        })
    }

    /// Saves a group's conversation metadata (or, without `groupId`, the default config): an upsert.
    #[wasm_bindgen(js_name = saveConversationMeta, unchecked_return_type = "Promise<ConversationMeta>")]
    pub fn save_conversation_meta(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ConversationMetaInput")] meta: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let input: MetaInput = from_js(meta, "meta", invalid_input)?;
            engine.conversations().save_conversation_meta(input).await
        })
    }

    /// Changes the updatable fields of saved conversation metadata.
    #[wasm_bindgen(js_name = updateConversationMeta, unchecked_return_type = "Promise<ConversationMetaUpdate>")]
    pub fn update_conversation_meta(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ConversationMetaPatch")] patch: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let patch: Value = from_js(patch, "patch", invalid_input)?;
            engine.conversations().update_conversation_meta(MetaPatch::parse(patch)?).await
        })
    }

    /// Soft-deletes every memory matching all the filters given (at least one).
    #[wasm_bindgen(js_name = deleteMemories, unchecked_return_type = "Promise<DeleteMemoriesResult>")]
    pub fn delete_memories(
        &self,
        #[wasm_bindgen(unchecked_param_type = "DeleteMemoriesFilter")] filter: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let filter: DeleteFilter = from_js(filter, "filter", invalid_input)?;
            engine.conversations().delete_memories(&filter).await
        })
    }

    /// Summarises the oldest episodic sessions of a scope that holds more than `threshold` of them.
    #[wasm_bindgen(unchecked_return_type = "Promise<CompressResult>")]
    pub fn compress(&self, #[wasm_bindgen(unchecked_param_type = "CompressOptions")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        self.answer(async move {
            let options: CompressOptions = from_js(options, "options", invalid_input)?;
            engine.conversations().compress(&options).await
        })
    }
}
