//! What each fuzz target feeds its input to, shared by the libFuzzer targets (`fuzz/fuzz_targets/`) and the
//! stable replay of their corpora in the normal suite (`tests/fuzz_replay.rs`). Every function must return
//! (never panic, never hang) whatever the bytes; errors are fine.

use memwasm::core::conversations::message::MessageInput;
use memwasm::core::engine::recall::memory_line;
use memwasm::core::engine::transfer::from_jsonl;
use memwasm::core::engine::update::UpdatePatch;
use memwasm::core::filter::Filter;
use memwasm::core::llm_json::{extract_json, parse_decisions, parse_extraction};
use memwasm::core::model::types::MemoryItem;
use memwasm::core::pipeline_options::{parse_messages, require_content, AddOptions};
use memwasm::core::prompts::render_conversation;
use memwasm::core::read::{ReadCall, ReadOptions};
use memwasm::providers::config::MemoryConfig;
use serde_json::Value;

/// A fuzz target: its name (also its corpus folder under `fuzz/corpus/`) and what it runs.
pub type Target = (&'static str, fn(&[u8]));

/// The fuzz targets.
pub const TARGETS: [Target; 6] = [
    ("llm_reply", llm_reply),
    ("filter", filter),
    ("config", config),
    ("import", import),
    ("message", message),
    ("options", options),
];

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

fn json(data: &[u8]) -> Option<Value> {
    serde_json::from_slice(data).ok()
}

/// An LLM reply, read as an extraction (facts and attributions) and as decisions (this library's and mem0's shapes).
pub fn llm_reply(data: &[u8]) {
    let reply = text(data);
    let _ = extract_json(&reply);
    let _ = parse_extraction(&reply);
    let _ = parse_decisions(&reply);
}

/// A filter expression, parsed and evaluated against a memory.
pub fn filter(data: &[u8]) {
    let Some(value) = json(data) else { return };
    if let Ok(filter) = Filter::parse(&value) {
        let _ = filter.matches(&sample_item());
    }
}

/// A memory to match filters against and to render.
fn sample_item() -> MemoryItem {
    serde_json::from_value(serde_json::json!({
        "id": "m1", "memory": "User likes tea", "hash": "h", "createdAt": "2025-01-01T00:00:00.000Z",
        "updatedAt": "2025-01-02T00:00:00.000Z", "userId": "u", "metadata": {"category": "drinks", "n": 3,
        "tags": ["a", "b"], "project": {"name": "x"}}
    }))
    .expect("a valid memory")
}

/// A `new Memory(config)` object, read and resolved (no environment).
pub fn config(data: &[u8]) {
    let Some(value) = json(data) else { return };
    if let Ok(config) = serde_json::from_value::<MemoryConfig>(value) {
        let _ = config.resolve(&|_| None);
    }
}

/// An `importMemories` text.
pub fn import(data: &[u8]) {
    let _ = from_jsonl(&text(data));
}

/// An `addMessage` message, read and checked.
pub fn message(data: &[u8]) {
    let Some(value) = json(data) else { return };
    if let Ok(input) = serde_json::from_value::<MessageInput>(value) {
        let _ = input.check();
    }
}

/// A request's arguments as every route reads them: `add`'s messages and options, a read's options for each
/// call, an update's patch.
pub fn options(data: &[u8]) {
    let Some(value) = json(data) else { return };
    if let Ok(messages) = parse_messages(&value) {
        let _ = require_content(&value, &messages);
        one_line_per_turn(&messages);
    }
    if let Ok(add) = serde_json::from_value::<AddOptions>(value.clone()) {
        let _ = add.scope_and_filters();
        if let Ok(metadata) = add.stored_metadata() {
            one_recall_line(metadata);
        }
        let _ = add.lifecycle().check(0);
    }
    if let Ok(read) = serde_json::from_value::<ReadOptions>(value.clone()) {
        for call in [ReadCall::Search, ReadCall::GetAll, ReadCall::Recall, ReadCall::DeleteAll, ReadCall::ScopeOnly] {
            let _ = read.check(call);
        }
    }
    let _ = serde_json::from_value::<UpdatePatch>(value);
}

/// Accepted messages are shown to the model one turn a line: neither a role nor a text can start a line of its
/// own (`assistant: …`, `## Existing Memories`), so the lines that are not indented are exactly the turns.
fn one_line_per_turn(messages: &[memwasm::core::model::types::Message]) {
    let rendered = render_conversation(messages);
    let turns = rendered
        .split(['\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}'])
        .filter(|line| !line.starts_with("  "))
        .count();
    assert_eq!(turns, messages.len().max(1), "a message starts a line of its own: {rendered:?}");
}

/// A memory with accepted metadata (its `type` is the line's label) is one line of `recall()`'s block, with
/// one pair of brackets, and cannot close the block.
fn one_recall_line(metadata: memwasm::core::model::types::Metadata) {
    let mut item = sample_item();
    item.metadata = metadata.into();
    let line = memory_line(&item);
    assert!(!line.chars().any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')), "{line:?}");
    assert_eq!((line.matches('[').count(), line.matches(']').count()), (1, 1), "{line:?}");
    assert!(!line.contains('<') && !line.contains('>'), "{line:?}");
}
