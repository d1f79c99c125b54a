//! What the providers share: request targets and headers, JSON-mode fallback, embedding-reply checks,
//! and the option and API-key checks their settings use.

pub mod embedding_reply;
pub(crate) mod fields;
pub(crate) mod keys;
pub(crate) mod request;
pub mod structured;

#[cfg(test)]
pub(crate) mod testing;
