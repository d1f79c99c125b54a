//! What the providers share: JSON-mode fallback, embedding-reply checks, and the option and API-key
//! checks their settings use.

pub mod embedding_reply;
pub(crate) mod fields;
pub(crate) mod keys;
pub mod structured;
