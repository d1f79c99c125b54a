//! mem0 v3 scoping: the entity ids may come inside `filters` (`{user_id: "u", category: "work"}`, also
//! `userId` and the platform's `{AND: [{user_id: "u"}, …]}`) instead of as options. `split` takes them out,
//! so they scope the call like `userId` / `agentId` / `runId`, and leaves the rest as the filter.

use serde_json::{Map, Value};

use super::error::{MemoryError, Result};
use super::model::scope::{checked_id, Scope};

/// The scope keys a filter may carry, each with its option name.
const KEYS: [(&str, &str, Slot); 6] = [
    ("user_id", "userId", Slot::User),
    ("userId", "userId", Slot::User),
    ("agent_id", "agentId", Slot::Agent),
    ("agentId", "agentId", Slot::Agent),
    ("run_id", "runId", Slot::Run),
    ("runId", "runId", Slot::Run),
];

#[derive(Clone, Copy)]
enum Slot {
    User,
    Agent,
    Run,
}

fn slot(scope: &mut Scope, slot: Slot) -> &mut Option<String> {
    match slot {
        Slot::User => &mut scope.user_id,
        Slot::Agent => &mut scope.agent_id,
        Slot::Run => &mut scope.run_id,
    }
}

/// Moves `filters`' entity ids into `scope` (an id given both ways must agree) and returns what is left
/// of the filter (`None` when nothing is).
pub fn split(scope: &mut Scope, filters: &Option<Value>) -> Result<Option<Value>> {
    let Some(Value::Object(map)) = filters else { return Ok(filters.clone()) };
    let mut rest = Map::new();
    for (key, value) in map {
        match (KEYS.iter().find(|(name, ..)| name == key), value) {
            (Some(&(_, option, which)), Value::String(_) | Value::Number(_)) => {
                take(slot(scope, which), key, option, value)?
            }
            (None, Value::Array(items)) if key == "AND" => {
                let kept = and_items(scope, items)?;
                if !kept.is_empty() {
                    rest.insert(key.clone(), Value::Array(kept));
                }
            }
            _ => {
                rest.insert(key.clone(), value.clone());
            }
        }
    }
    Ok((!rest.is_empty()).then_some(Value::Object(rest)))
}

/// The items of a top-level `AND` without the `{user_id: "u"}` ones, whose ids go into `scope`.
fn and_items(scope: &mut Scope, items: &[Value]) -> Result<Vec<Value>> {
    let mut kept = Vec::new();
    for item in items {
        let entity = item.as_object().filter(|map| map.len() == 1).and_then(|map| {
            let (key, value) = map.iter().next()?;
            let &(name, option, which) = KEYS.iter().find(|(name, ..)| name == key)?;
            matches!(value, Value::String(_) | Value::Number(_)).then_some((name, option, which, value))
        });
        match entity {
            Some((key, option, which, value)) => take(slot(scope, which), key, option, value)?,
            None => kept.push(item.clone()),
        }
    }
    Ok(kept)
}

/// Puts `value` (a string, or a number mem0 turns into one) in `slot`, unless it already holds another id.
/// A blank id, or one with whitespace inside, is refused with mem0's message naming `key`.
fn take(slot: &mut Option<String>, key: &str, option: &str, value: &Value) -> Result<()> {
    let id = match value {
        Value::String(text) => checked_id(key, text)?,
        other => checked_id(key, &other.to_string())?,
    };
    match slot {
        Some(existing) if existing.trim() != id => Err(MemoryError::InvalidInput(format!(
            "{option} is given twice with different values (\"{existing}\" and \"{id}\" in filters)"
        ))),
        _ => {
            *slot = Some(id);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn split_of(scope: Scope, filters: Value) -> Result<(Scope, Option<Value>)> {
        let mut scope = scope;
        let rest = split(&mut scope, &Some(filters))?;
        Ok((scope, rest))
    }

    #[test]
    fn entity_ids_leave_the_filter_and_scope_the_call() {
        let (scope, rest) = split_of(Scope::default(), json!({"user_id": "u", "category": "work"})).unwrap();
        assert_eq!(scope.user_id.as_deref(), Some("u"));
        assert_eq!(rest, Some(json!({"category": "work"})));
        let (scope, rest) = split_of(Scope::default(), json!({"agentId": "a", "run_id": 7})).unwrap();
        assert_eq!((scope.agent_id.as_deref(), scope.run_id.as_deref()), (Some("a"), Some("7")));
        assert_eq!(rest, None);
    }

    #[test]
    fn platform_and_lists_give_their_entity_items() {
        let filters = json!({"AND": [{"user_id": "u"}, {"created_at": {"gte": "2024-01-01"}}]});
        let (scope, rest) = split_of(Scope::default(), filters).unwrap();
        assert_eq!(scope.user_id.as_deref(), Some("u"));
        assert_eq!(rest, Some(json!({"AND": [{"created_at": {"gte": "2024-01-01"}}]})));
        let (_, rest) = split_of(Scope::default(), json!({"AND": [{"user_id": "u"}]})).unwrap();
        assert_eq!(rest, None);
    }

    #[test]
    fn an_id_given_twice_must_agree() {
        let given = Scope { user_id: Some("u".into()), ..Scope::default() };
        assert!(split_of(given.clone(), json!({"user_id": "u"})).is_ok());
        let error = split_of(given, json!({"user_id": "v"})).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT");
        assert!(error.to_string().contains("userId"), "{error}");
    }

    #[test]
    fn blank_or_spaced_ids_are_refused_naming_the_filter_key() {
        let spaced = split_of(Scope::default(), json!({"user_id": "user 123"})).unwrap_err().to_string();
        assert!(spaced.contains("Invalid user_id: cannot contain whitespace"), "{spaced}");
        let blank = split_of(Scope::default(), json!({"agent_id": "  "})).unwrap_err().to_string();
        assert!(blank.contains("Invalid agent_id: cannot be empty or whitespace-only"), "{blank}");
        let (scope, _) = split_of(Scope::default(), json!({"user_id": " u "})).unwrap();
        assert_eq!(scope.user_id.as_deref(), Some("u"));
    }

    #[test]
    fn other_shapes_are_left_alone() {
        let (scope, rest) = split_of(Scope::default(), json!({"user_id": {"in": ["a", "b"]}})).unwrap();
        assert_eq!(scope, Scope::default());
        assert_eq!(rest, Some(json!({"user_id": {"in": ["a", "b"]}})));
        let mut scope = Scope::default();
        assert_eq!(split(&mut scope, &Some(json!([1]))).unwrap(), Some(json!([1])));
        assert_eq!(split(&mut scope, &None).unwrap(), None);
    }
}
