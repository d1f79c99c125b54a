//! Turning the LLM's update decisions into checked operations: temporary ids mapped back, invented
//! or out-of-scope ids refused, duplicates collapsed, every memory touched at most once.

use std::collections::HashSet;

use super::error::MemoryError;
use super::identity::content_hash;
use super::llm_json::Decision;
use super::model::types::{AddWarning, EventKind, StoredMemory, WarningCode};

/// A checked operation of one `add()`.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Add { text: String },
    Update { target: StoredMemory, text: String },
    Delete { target: StoredMemory },
    Keep { target: StoredMemory },
}

/// Checks `decisions` against the memories shown to the LLM (`shown[i]` had temporary id `i`).
/// `stored_with_hash` finds an existing in-scope memory with the given text hash.
pub fn plan(
    decisions: Vec<Result<Decision, MemoryError>>,
    shown: &[StoredMemory],
    stored_with_hash: impl Fn(&str) -> Option<StoredMemory>,
) -> (Vec<Op>, Vec<AddWarning>) {
    let mut ops = Vec::new();
    let mut warnings = Vec::new();
    let mut touched: HashSet<String> = HashSet::new();
    let mut added: HashSet<String> = HashSet::new();
    for decision in decisions {
        let decision = match decision {
            Ok(decision) => decision,
            Err(why) => {
                warnings.push(AddWarning::caused_by(WarningCode::InvalidDecision, &why));
                continue;
            }
        };
        if decision.event == EventKind::Add {
            let Some(text) = decision.text else {
                warnings.push(AddWarning::new(WarningCode::InvalidDecision, "ADD without text"));
                continue;
            };
            let hash = content_hash(&text);
            match stored_with_hash(&hash) {
                Some(existing) if touched.insert(existing.item.id.clone()) => ops.push(Op::Keep { target: existing }),
                Some(_) => {}
                None if added.insert(hash) => ops.push(Op::Add { text }),
                None => {}
            }
            continue;
        }
        let Some(id) = decision.id else {
            if decision.event != EventKind::None {
                warnings.push(AddWarning::new(
                    WarningCode::InvalidDecision,
                    format!("{} without an id", decision.event.name()),
                ));
            }
            continue;
        };
        let Some(target) = id.parse::<usize>().ok().filter(|i| i.to_string() == id).and_then(|i| shown.get(i)) else {
            warnings.push(AddWarning::new(
                WarningCode::UnknownMemoryId,
                format!("ignored {} for id \"{id}\": not one of the memories shown to the LLM", decision.event.name()),
            ));
            continue;
        };
        if !touched.insert(target.item.id.clone()) {
            if decision.event != EventKind::None {
                warnings.push(AddWarning::new(
                    WarningCode::InvalidDecision,
                    format!("memory \"{id}\" already has an operation"),
                ));
            }
            continue;
        }
        let target = target.clone();
        ops.push(match (decision.event, decision.text) {
            (EventKind::Update, Some(text)) if text != target.item.memory => Op::Update { target, text },
            (EventKind::Update, Some(_)) | (EventKind::None, _) => Op::Keep { target },
            (EventKind::Update, None) => {
                warnings
                    .push(AddWarning::new(WarningCode::InvalidDecision, format!("UPDATE of \"{id}\" without text")));
                touched.remove(&target.item.id);
                continue;
            }
            _ => Op::Delete { target },
        });
    }
    (ops, warnings)
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
