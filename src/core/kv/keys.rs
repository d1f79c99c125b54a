//! The key layout of KV storage. Every key starts with the storage's prefix (one per tenant), then:
//!
//! - `mem/{id}`: the memory itself (JSON, embedding included), the one key an update rewrites;
//! - `scope/{userId}/{agentId}/{runId}/{id}`: an empty marker that lists the memory under its scope
//!   (an absent id is an empty segment), so a scope is listed by prefix without reading any other;
//! - `hist/{memoryId}/{timestamp}/{recordId}`: one history record, listed oldest first;
//! - `graph/{userId}/{agentId}/{runId}/{recordKey}`: one graph memory entity or relation (its
//!   `GraphRecord::key()`), listed by scope like the markers;
//! - `imgh/{userId}/{agentId}/{runId}/`, `imgp/{userId}/{agentId}/{runId}/{token}/{part}` and `imggen`: a
//!   scope's open image (its head and its parts) and the token of the last image write (`super::image`);
//! - `jr/{userId}/{agentId}/{runId}/{stamp}`: the ids one commit wrote or deleted in that scope (`super::journal`).
//!
//! Ids are percent-encoded, so no id can forge a `/` or reach into another prefix.

use crate::core::model::scope::Scope;

/// Longest key KV accepts, in bytes.
pub const MAX_KEY_BYTES: usize = 512;

/// Bytes kept as they are in key segments; every other byte is percent-encoded.
fn is_plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~')
}

/// `text` as one key segment: no `/`, no whitespace, no control characters.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if is_plain(byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The length of `encode(text)`, without making it.
fn encoded_len(text: &str) -> usize {
    text.bytes().map(|byte| if is_plain(byte) { 1 } else { 3 }).sum()
}

/// The text of a key segment made by [`encode`] (or any percent-encoded text); `None` when a `%` starts no
/// `%XX` escape or the bytes are not UTF-8.
pub fn decode(segment: &str) -> Option<String> {
    String::from_utf8(unescape(segment, true)?).ok()
}

/// A URL path segment with its `%XX` escapes decoded, a `%` that starts none kept as it is; the segment
/// unchanged when the decoded bytes are not UTF-8.
pub fn decode_lenient(segment: &str) -> String {
    unescape(segment, false).and_then(|bytes| String::from_utf8(bytes).ok()).unwrap_or_else(|| segment.to_owned())
}

/// The bytes of `segment` with its `%XX` escapes decoded. A `%` that starts no escape is `None` when
/// `strict`, else kept as it is.
fn unescape(segment: &str, strict: bool) -> Option<Vec<u8>> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|hex| std::str::from_utf8(hex).ok());
        match (bytes[i], hex.and_then(|hex| u8::from_str_radix(hex, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'%', None) if strict => return None,
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    Some(out)
}

/// Builds and reads the keys under one prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KvKeys {
    prefix: String,
}

impl KvKeys {
    /// Keys under `prefix` (e.g. `"memwasm/"`, or `"t/{tenant}/"` for a tenant); may be empty.
    pub fn new(prefix: &str) -> Self {
        Self { prefix: prefix.to_owned() }
    }

    /// The prefix every key of this storage starts with.
    pub fn all(&self) -> &str {
        &self.prefix
    }

    /// Where the memory with this id is stored.
    pub fn memory(&self, id: &str) -> String {
        format!("{}mem/{}", self.prefix, encode(id))
    }

    /// The marker listing memory `id` under `scope`.
    pub fn scope_marker(&self, scope: &Scope, id: &str) -> String {
        self.scoped("scope/", scope, id)
    }

    /// Where the graph record with this `GraphRecord::key()` of `scope` is stored.
    pub fn graph(&self, scope: &Scope, record_key: &str) -> String {
        self.scoped("graph/", scope, record_key)
    }

    fn scoped(&self, kind: &str, scope: &Scope, last: &str) -> String {
        let part = |id: &Option<String>| id.as_deref().map(encode).unwrap_or_default();
        let (user, agent, run) = (part(&scope.user_id), part(&scope.agent_id), part(&scope.run_id));
        format!("{}{kind}{user}/{agent}/{run}/{}", self.prefix, encode(last))
    }

    /// The longest key prefix shared by every marker `scope` can see: the leading ids it names
    /// (`{userId: "a"}` lists `scope/a/`; a scope without `userId` lists all markers).
    pub fn scope_prefix(&self, scope: &Scope) -> String {
        self.scoped_prefix("scope/", scope)
    }

    /// Like `scope_prefix`, for the graph records `scope` can see.
    pub fn graph_prefix(&self, scope: &Scope) -> String {
        self.scoped_prefix("graph/", scope)
    }

    fn scoped_prefix(&self, kind: &str, scope: &Scope) -> String {
        let mut prefix = format!("{}{kind}", self.prefix);
        for id in [&scope.user_id, &scope.agent_id, &scope.run_id] {
            match id {
                Some(id) => prefix.push_str(&format!("{}/", encode(id))),
                None => break,
            }
        }
        prefix
    }

    /// The head of `scope`'s open image.
    pub fn image_head(&self, scope: &Scope) -> String {
        self.scoped("imgh/", scope, "")
    }

    /// The prefix of every image head.
    pub fn image_heads(&self) -> String {
        format!("{}imgh/", self.prefix)
    }

    /// The scope of an image head key; `None` for any other key.
    pub fn parse_image_head(&self, key: &str) -> Option<Scope> {
        self.parse_scoped("imgh/", key).filter(|(_, last)| last.is_empty()).map(|(scope, _)| scope)
    }

    /// The prefix of every part of `scope`'s images.
    pub fn image_parts(&self, scope: &Scope) -> String {
        self.scoped("imgp/", scope, "")
    }

    /// Part `at` of the image of `scope` written as `token`.
    pub fn image_part(&self, scope: &Scope, token: &str, at: usize) -> String {
        format!("{}{}/{at:05}", self.image_parts(scope), encode(token))
    }

    /// The token of the last image write (or clear): an image read before it changed is not written.
    pub fn image_generation(&self) -> String {
        format!("{}imggen", self.prefix)
    }

    /// The journal entry `stamp` of a commit's writes in `scope`.
    pub fn journal(&self, scope: &Scope, stamp: &str) -> String {
        self.scoped("jr/", scope, stamp)
    }

    /// The length of `journal(scope, stamp)` for any stamp of `stamp_bytes` plain bytes (a fresh id), without
    /// making the key.
    pub fn journal_len(&self, scope: &Scope, stamp_bytes: usize) -> usize {
        let part = |id: &Option<String>| id.as_deref().map_or(0, encoded_len);
        let ids = part(&scope.user_id) + part(&scope.agent_id) + part(&scope.run_id);
        self.prefix.len() + "jr/".len() + ids + "///".len() + stamp_bytes
    }

    /// The longest key prefix shared by every journal entry `scope` can see.
    pub fn journal_prefix(&self, scope: &Scope) -> String {
        self.scoped_prefix("jr/", scope)
    }

    /// The scope of a journal entry's key; `None` for any other key.
    pub fn parse_journal(&self, key: &str) -> Option<Scope> {
        self.parse_scoped("jr/", key).map(|(scope, _)| scope)
    }

    /// The scope and memory id of a marker key; `None` for any other key.
    pub fn parse_scope_marker(&self, key: &str) -> Option<(Scope, String)> {
        self.parse_scoped("scope/", key)
    }

    /// The scope and record key of a graph key; `None` for any other key.
    pub fn parse_graph(&self, key: &str) -> Option<(Scope, String)> {
        self.parse_scoped("graph/", key)
    }

    fn parse_scoped(&self, kind: &str, key: &str) -> Option<(Scope, String)> {
        let rest = key.strip_prefix(&self.prefix)?.strip_prefix(kind)?;
        let parts: Vec<&str> = rest.split('/').collect();
        let [user, agent, run, id] = parts.as_slice() else { return None };
        let part = |segment: &str| if segment.is_empty() { Some(None) } else { decode(segment).map(Some) };
        let scope = Scope { user_id: part(user)?, agent_id: part(agent)?, run_id: part(run)? };
        Some((scope, decode(id)?))
    }

    /// Where one history record of `memory_id` is stored; keys sort by timestamp.
    pub fn history(&self, memory_id: &str, timestamp: &str, record_id: &str) -> String {
        format!("{}{}/{}", self.history_prefix(memory_id), encode(timestamp), encode(record_id))
    }

    /// The prefix of every history record.
    pub fn all_history(&self) -> String {
        format!("{}hist/", self.prefix)
    }

    /// The prefix of every history record of `memory_id`.
    pub fn history_prefix(&self, memory_id: &str) -> String {
        format!("{}hist/{}/", self.prefix, encode(memory_id))
    }

    /// Where the side record `kind` / `key` is stored.
    pub fn side(&self, kind: &str, key: &str) -> String {
        format!("{}{}", self.side_prefix(kind), encode(key))
    }

    /// The prefix of every side record of `kind`.
    pub fn side_prefix(&self, kind: &str) -> String {
        format!("{}side/{}/", self.prefix, encode(kind))
    }

    /// The key of a side record, from where it is stored under `kind`.
    pub fn parse_side(&self, kind: &str, stored: &str) -> Option<String> {
        decode(stored.strip_prefix(&self.side_prefix(kind))?)
    }
}

#[cfg(test)]
mod tests {
    use super::{decode, decode_lenient, encode, KvKeys};
    use crate::core::identity::{new_id, ID_BYTES};
    use crate::core::model::scope::Scope;

    #[test]
    fn journal_len_is_the_length_of_a_journal_key() {
        let keys = KvKeys::new("t/acme/");
        let some = |id: &str| Some(id.to_owned());
        for scope in [
            Scope::default(),
            Scope { user_id: some("alice"), agent_id: None, run_id: some("r 1") },
            Scope { user_id: some("é/ü%"), agent_id: some("a"), run_id: some("😀") },
        ] {
            assert_eq!(keys.journal_len(&scope, ID_BYTES), keys.journal(&scope, &new_id()).len(), "{scope:?}");
        }
    }

    #[test]
    fn decode_reads_what_encode_wrote_and_refuses_a_broken_escape() {
        assert_eq!(decode(&encode("a b/ü%")).as_deref(), Some("a b/ü%"));
        assert_eq!(decode("a%2"), None);
        assert_eq!(decode("a%zz"), None);
        assert_eq!(decode("%FF"), None);
    }

    #[test]
    fn decode_lenient_keeps_a_percent_that_starts_no_escape() {
        assert_eq!(decode_lenient("caf%C3%A9"), "café");
        assert_eq!(decode_lenient("50%zz%41"), "50%zzA");
        assert_eq!(decode_lenient("a%2"), "a%2");
        assert_eq!(decode_lenient("%FF%41"), "%FF%41");
    }
}
