//! Ids with control characters or line separators are refused with `INVALID_INPUT` by every engine call that
//! takes one (scope ids, memory ids, keys), while ordinary Unicode ids keep working.
#![cfg_attr(not(feature = "core-features"), allow(unused_imports))]

use crate::core::model::scope_fields::ScopeFields;
use futures_executor::block_on;
use serde_json::json;

use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::error::MemoryError;
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model::types::Metadata;
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::{InMemoryStorage, Storage};
use crate::core::testing::{Letters, NoLlm};

type Engine = MemoryEngine<NoLlm, Letters, InMemoryStorage>;

fn engine() -> Engine {
    MemoryEngine::new(NoLlm, Letters::new(26), InMemoryStorage::default(), Prompts::default())
}

fn user(id: &str) -> Scope {
    Scope { user_id: Some(id.into()), ..Scope::default() }
}

/// Ids that hold a control character (general category Cc) or a line or paragraph separator.
const BAD: [&str; 8] =
    ["a\u{0}b", "a\u{1}", "\u{7}bell", "a\u{1b}[31m", "a\u{7f}", "a\u{85}b", "a\u{2028}b", "a\u{2029}"];

fn assert_invalid<T: std::fmt::Debug>(what: &str, result: Result<T, MemoryError>) {
    match result {
        Err(error) => assert_eq!(error.code(), "INVALID_INPUT", "{what}: {error}"),
        Ok(value) => panic!("{what}: accepted ({value:?})"),
    }
}

#[test]
fn scope_ids_with_control_characters_are_invalid_input() {
    for bad in BAD {
        for scope in [
            user(bad),
            Scope { agent_id: Some(bad.into()), ..Scope::default() },
            Scope { run_id: Some(bad.into()), ..user("alice") },
        ] {
            assert_invalid(&format!("{scope:?}"), scope.validated());
        }
    }
}

#[test]
fn add_with_a_control_character_in_user_id_is_refused_and_stores_nothing() {
    let engine = engine();
    for bad in BAD {
        let options = AddOptions { scope: ScopeFields::user(bad), infer: Some(false), ..AddOptions::default() };
        assert_invalid(bad, block_on(engine.add(&json!("likes tea"), &options)));
    }
    assert_eq!(block_on(engine.storage.load_memories()).unwrap().len(), 0);
}

#[cfg(feature = "core-features")]
#[test]
fn keys_with_control_characters_are_refused_by_store_get_and_delete() {
    let engine = engine();
    let write = WriteLifecycle::default();
    for bad in BAD {
        let alice = user("alice");
        assert_invalid(bad, block_on(engine.lifecycle().store(bad, "value", &alice, None, Metadata::new(), &write)));
        assert_invalid(bad, block_on(engine.lifecycle().get_by_key(bad, &user("alice"))));
        assert_invalid(bad, block_on(engine.lifecycle().delete_by_key(bad, &user("alice"))));
    }
}

#[test]
fn memory_ids_with_control_characters_are_refused() {
    let engine = engine();
    for bad in BAD {
        assert_invalid(bad, block_on(engine.get(bad)));
        assert_invalid(bad, block_on(engine.update(bad, "new text")));
        assert_invalid(bad, block_on(engine.delete(bad, false)));
        assert_invalid(bad, block_on(engine.history(bad)));
    }
}

#[cfg(feature = "core-features")]
#[test]
fn ordinary_unicode_ids_and_keys_still_work() {
    let engine = engine();
    let write = WriteLifecycle::default();
    for id in ["Zoë", "用户", "🙂-user", "Zoe\u{301}", "ユーザー_1", "مستخدم"] {
        let stored =
            block_on(engine.lifecycle().store(id, "likes tea", &user(id), None, Metadata::new(), &write)).unwrap();
        assert_eq!(block_on(engine.lifecycle().get_by_key(id, &user(id))).unwrap().id, stored.id);
        assert_eq!(block_on(engine.get(&stored.id)).unwrap().unwrap().scope, user(id));
        let agent = Scope { agent_id: Some(id.into()), run_id: Some(id.into()), ..user(id) };
        assert_eq!(agent.clone().validated().unwrap(), agent);
    }
}
