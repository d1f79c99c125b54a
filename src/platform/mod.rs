//! Platform adapters for wasm32: the global `fetch` (Window, Worker, Node, workerd) and the host's
//! environment variables where it has them.

pub mod background;
mod callback;
mod case;
pub mod compose;
mod env;
mod fetch;
pub mod indexeddb;
mod kv;
mod nfc;
mod workers_ai;

pub use callback::{CallbackEmbedder, CallbackLlm};
pub use case::JS_CASE;
pub use env::env_var;
pub use fetch::FetchClient;
pub use kv::JsKv;
pub use nfc::js_nfc;
pub use workers_ai::{WorkersAiEmbedder, WorkersAiLlm};
