//! The graph's records: entities and relations, each filed under a scope and remembering the memories
//! it came from, plus the name normalisation that makes "alice " and "Alice" one entity.

use crate::core::case::{lowercase_chars, uppercase, CaseExt};
use serde::{Deserialize, Serialize};

use crate::core::model::scope::Scope;

/// The entity types of graph memory; anything else the LLM says becomes `concept`.
pub const ENTITY_TYPES: [&str; 7] = ["person", "organization", "concept", "location", "event", "technology", "product"];

/// A named thing (person, organization, …) in one scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entity {
    /// Title case, trimmed (see `entity_name`).
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Ids of the memories this entity was extracted with.
    pub memory_ids: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
    #[serde(flatten)]
    pub scope: Scope,
}

/// A directed edge `source —relation→ target` between two entities of one scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Relation {
    pub source: String,
    /// Lower snake case, e.g. `works_at`.
    pub relation: String,
    pub target: String,
    /// Ids of the memories this relation was extracted with; it is removed when the last one is deleted.
    pub memory_ids: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
    #[serde(flatten)]
    pub scope: Scope,
}

/// One stored graph record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum GraphRecord {
    Entity(Entity),
    Relation(Relation),
}

/// The key of the entity called `name` (any case) in `scope`.
pub fn entity_key(scope: &Scope, name: &str) -> String {
    format!("e\u{1e}{}\u{1e}{}", scope.key(), entity_name(name).lowercased())
}

/// The key of the relation `(source, relation, target)` in `scope`.
pub fn relation_key(scope: &Scope, source: &str, relation: &str, target: &str) -> String {
    let (s, r, t) = (entity_name(source).lowercased(), relation_name(relation), entity_name(target).lowercased());
    format!("r\u{1e}{}\u{1e}{s}\u{1e}{r}\u{1e}{t}", scope.key())
}

impl GraphRecord {
    /// The record's storage key (unique per scope and name / triple).
    pub fn key(&self) -> String {
        match self {
            Self::Entity(e) => entity_key(&e.scope, &e.name),
            Self::Relation(r) => relation_key(&r.scope, &r.source, &r.relation, &r.target),
        }
    }

    pub fn scope(&self) -> &Scope {
        match self {
            Self::Entity(e) => &e.scope,
            Self::Relation(r) => &r.scope,
        }
    }

    pub fn memory_ids_mut(&mut self) -> &mut Vec<String> {
        match self {
            Self::Entity(e) => &mut e.memory_ids,
            Self::Relation(r) => &mut r.memory_ids,
        }
    }
}

/// `name` trimmed, inner whitespace collapsed, each word capitalised: " alice  SMITH" → "Alice Smith".
pub fn entity_name(name: &str) -> String {
    let word = |w: &str| {
        let mut chars = w.chars();
        chars
            .next()
            .map(|c| uppercase(c.encode_utf8(&mut [0; 4])) + &lowercase_chars(chars.as_str()))
            .unwrap_or_default()
    };
    name.split_whitespace().map(word).collect::<Vec<String>>().join(" ")
}

/// `relation` in lower snake case: "Works At" → "works_at".
pub fn relation_name(relation: &str) -> String {
    relation
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
        .lowercased()
}

/// `kind` lower-cased when it is one of `ENTITY_TYPES`, else `concept`.
pub fn entity_type(kind: &str) -> String {
    let kind = kind.trim().lowercased();
    if ENTITY_TYPES.contains(&kind.as_str()) {
        kind
    } else {
        "concept".into()
    }
}

/// Graph writes of one call (part of a `Changeset`): records to insert or replace, keys to remove.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphChanges {
    pub upserts: Vec<GraphRecord>,
    pub deletes: Vec<String>,
}

impl GraphChanges {
    pub fn is_empty(&self) -> bool {
        self.upserts.is_empty() && self.deletes.is_empty()
    }
}

/// `{source, relation, target}`, as search responses carry relations (like mem0).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelationTriple {
    pub source: String,
    pub relation: String,
    pub target: String,
}

impl From<&Relation> for RelationTriple {
    fn from(r: &Relation) -> Self {
        Self { source: r.source.clone(), relation: r.relation.clone(), target: r.target.clone() }
    }
}
