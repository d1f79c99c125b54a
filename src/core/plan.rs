//! Turning the LLM's update decisions into checked operations: temporary ids mapped back, invented
//! or out-of-scope ids refused, duplicates collapsed, every memory touched at most once. When a reply names
//! one memory twice, an UPDATE or DELETE beats a NONE (in either order), and of two changes the last is
//! applied, the other reported (`INVALID_DECISION`): a change is never dropped silently.

use std::collections::{HashMap, HashSet};

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
    let mut touched = Touched::default();
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
                Some(existing) => touched.place(&mut ops, &mut warnings, Op::Keep { target: existing }),
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
        let target = target.clone();
        let op = match (decision.event, decision.text) {
            (EventKind::Update, Some(text)) if text != target.item.memory => Op::Update { target, text },
            (EventKind::Update, Some(_)) | (EventKind::None, _) => Op::Keep { target },
            (EventKind::Update, None) => {
                warnings
                    .push(AddWarning::new(WarningCode::InvalidDecision, format!("UPDATE of \"{id}\" without text")));
                continue;
            }
            _ => Op::Delete { target },
        };
        touched.place(&mut ops, &mut warnings, op);
    }
    (ops, warnings)
}

/// Where in the plan each memory's operation is (memory id → index in the operations).
#[derive(Default)]
struct Touched(HashMap<String, usize>);

impl Touched {
    /// Adds `op` for its memory, or puts it in place of the memory's earlier operation: a NONE (`Keep`)
    /// never replaces one; a change replaces a NONE quietly and another change with an `INVALID_DECISION`.
    fn place(&mut self, ops: &mut Vec<Op>, warnings: &mut Vec<AddWarning>, op: Op) {
        let Some(id) = op.target_id() else { return ops.push(op) };
        let Some(&at) = self.0.get(id) else {
            self.0.insert(id.to_owned(), ops.len());
            return ops.push(op);
        };
        if matches!(op, Op::Keep { .. }) {
            return;
        }
        if !matches!(ops[at], Op::Keep { .. }) {
            let message = format!(
                "memory \"{id}\" has two changes, {}, then {}: applied the last",
                ops[at].describe(),
                op.describe()
            );
            warnings.push(AddWarning::new(WarningCode::InvalidDecision, message));
        }
        ops[at] = op;
    }
}

impl Op {
    /// The id of the stored memory this operation is about (`None` for an ADD).
    fn target_id(&self) -> Option<&str> {
        match self {
            Op::Add { .. } => None,
            Op::Update { target, .. } | Op::Delete { target } | Op::Keep { target } => Some(&target.item.id),
        }
    }

    /// The operation in a warning's words, e.g. `UPDATE to "User lives in Berlin"`.
    fn describe(&self) -> String {
        match self {
            Op::Update { text, .. } => format!("UPDATE to \"{text}\""),
            Op::Delete { .. } => "DELETE".into(),
            Op::Add { .. } | Op::Keep { .. } => "NONE".into(),
        }
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
