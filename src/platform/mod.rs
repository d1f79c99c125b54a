//! Platform adapters for wasm32: the global `fetch` (Window, Worker, Node, workerd) and the host's
//! environment variables where it has them.

pub mod background;
mod callback;
mod case;
pub mod compose;
mod env;
mod fetch;
mod heap;
pub mod indexeddb;
pub mod js_bytes;
mod js_strings;
mod kv;
mod nfc;
#[cfg(feature = "extras")]
pub mod observe;
pub mod pace;
pub mod paced_text;
pub mod plain;
#[cfg(feature = "extras")]
pub mod sqlite;
mod timer;
mod workers_ai;

pub use callback::{CallbackEmbedder, CallbackLlm, CallbackReranker};
use case::JS_CASE;
pub use env::env_var;
pub use fetch::FetchClient;
pub(crate) use js_strings::js_strings;
pub use kv::JsKv;
use nfc::js_nfc;
pub use workers_ai::{WorkersAiEmbedder, WorkersAiLlm};

/// Hands the core's Unicode text work (NFC for keyword search, lower and upper case) to the JS engine, so
/// the `.wasm` carries no tables for it. Every entry point (the JS binding, the Worker) calls it first.
pub fn use_host_unicode() {
    crate::core::keyword::set_normalizer(js_nfc);
    crate::core::case::set_case_mapping(JS_CASE);
}
