//! Platform adapters for wasm32: the global `fetch` (Window, Worker, Node, workerd) and the host's
//! environment variables where it has them.

mod env;
mod fetch;

pub use env::env_var;
pub use fetch::FetchClient;
