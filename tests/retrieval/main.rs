//! Search methods, recall, agent tools and keyword-only memory, natively against the engine with test
//! doubles for the model and the storage.
#![cfg(not(target_arch = "wasm32"))]

mod fixtures;
mod keyword_only;
mod matches;
mod recall;
mod search;
mod tools;
