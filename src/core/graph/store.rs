//! The in-RAM graph: every record by key. Writes are staged as `GraphChanges` (part of a `Changeset`),
//! committed to storage, then applied here, like memories.

use std::collections::{BTreeMap, HashSet};

use super::extract::{Extracted, ExtractedRelation};
use crate::core::case::CaseExt;
use crate::core::model::graph::{
    entity_key, entity_name, entity_type, relation_key, relation_name, Entity, GraphChanges, GraphRecord, Relation,
};
use crate::core::model::scope::Scope;

/// Entities and relations of every scope.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Graph {
    records: BTreeMap<String, GraphRecord>,
}

fn union(ids: &mut Vec<String>, more: &[String]) {
    for id in more {
        if !ids.contains(id) {
            ids.push(id.clone());
        }
    }
}

impl Graph {
    /// A graph holding `records` (as loaded from storage).
    pub fn from_records(records: Vec<GraphRecord>) -> Self {
        Self { records: records.into_iter().map(|r| (r.key(), r)).collect() }
    }

    /// Every record, in key order (for storages and export).
    pub fn records(&self) -> impl Iterator<Item = &GraphRecord> {
        self.records.values()
    }

    /// Applies committed `changes`.
    pub fn apply(&mut self, changes: &GraphChanges) {
        for key in &changes.deletes {
            self.records.remove(key);
        }
        for record in &changes.upserts {
            self.records.insert(record.key(), record.clone());
        }
    }

    pub fn clear(&mut self) {
        self.records.clear();
    }

    /// The MERGE of `extracted` into `scope`: entities upserted by normalised name (type and
    /// description updated, `updatedAt` = `now`), relations de-duplicated on (source, relation, target), both
    /// remembering `memory_ids`. An entity given without a type (empty) keeps its own; a new one, like a
    /// relation's unknown endpoint, is a `concept`.
    pub fn merge(&self, extracted: &Extracted, scope: &Scope, memory_ids: &[String], now: &str) -> GraphChanges {
        let mut staged: BTreeMap<String, GraphRecord> = BTreeMap::new();
        let current = |staged: &BTreeMap<String, GraphRecord>, key: &str| {
            staged.get(key).or_else(|| self.records.get(key)).cloned()
        };
        let upsert_entity =
            |staged: &mut BTreeMap<String, GraphRecord>, name: &str, kind: Option<&str>, about: Option<&str>| {
                let key = entity_key(scope, name);
                let entity = match current(staged, &key) {
                    Some(GraphRecord::Entity(mut e)) => {
                        if let Some(kind) = kind {
                            e.entity_type = entity_type(kind);
                        }
                        if let Some(about) = about.filter(|a| !a.trim().is_empty()) {
                            e.description = Some(about.trim().to_owned());
                        }
                        union(&mut e.memory_ids, memory_ids);
                        e.updated_at = now.to_owned();
                        e
                    }
                    _ => Entity {
                        name: entity_name(name),
                        entity_type: entity_type(kind.unwrap_or("concept")),
                        description: about.map(str::trim).filter(|a| !a.is_empty()).map(str::to_owned),
                        memory_ids: memory_ids.to_vec(),
                        created_at: now.to_owned(),
                        updated_at: now.to_owned(),
                        scope: scope.clone(),
                    },
                };
                staged.insert(key, GraphRecord::Entity(entity));
            };
        for e in &extracted.entities {
            let kind = Some(e.entity_type.as_str()).filter(|kind| !kind.is_empty());
            upsert_entity(&mut staged, &e.name, kind, e.description.as_deref());
        }
        for r in &extracted.relations {
            for end in [&r.source, &r.target] {
                if current(&staged, &entity_key(scope, end)).is_none() {
                    upsert_entity(&mut staged, end, None, None);
                }
            }
            let key = relation_key(scope, &r.source, &r.relation, &r.target);
            let relation = match current(&staged, &key) {
                Some(GraphRecord::Relation(mut existing)) => {
                    union(&mut existing.memory_ids, memory_ids);
                    existing.updated_at = now.to_owned();
                    existing
                }
                _ => Relation {
                    source: entity_name(&r.source),
                    relation: relation_name(&r.relation),
                    target: entity_name(&r.target),
                    memory_ids: memory_ids.to_vec(),
                    created_at: now.to_owned(),
                    updated_at: now.to_owned(),
                    scope: scope.clone(),
                },
            };
            staged.insert(key, GraphRecord::Relation(relation));
        }
        GraphChanges { upserts: staged.into_values().collect(), deletes: Vec::new() }
    }

    /// Adds to `changes` what deleting the memories `deleted` does to the graph (as it will be once `changes`
    /// is applied): their ids are forgotten, and relations and entities left with no memory are removed.
    pub fn cascade(&self, changes: &mut GraphChanges, deleted: &[String]) {
        if deleted.is_empty() {
            return;
        }
        let mut after: BTreeMap<String, GraphRecord> = self.records.clone();
        for key in &changes.deletes {
            after.remove(key);
        }
        for record in &changes.upserts {
            after.insert(record.key(), record.clone());
        }
        let mut upserts = BTreeMap::new();
        for (key, mut record) in after {
            let ids = record.memory_ids_mut();
            if !ids.iter().any(|id| deleted.contains(id)) {
                continue;
            }
            ids.retain(|id| !deleted.contains(id));
            if ids.is_empty() {
                changes.deletes.push(key);
            } else {
                upserts.insert(key, record);
            }
        }
        changes.upserts.retain(|r| !changes.deletes.contains(&r.key()));
        changes.upserts.retain(|r| !upserts.contains_key(&r.key()));
        changes.upserts.extend(upserts.into_values());
    }

    /// The entities `scope` can see, by name.
    pub fn entities(&self, scope: &Scope) -> Vec<&Entity> {
        let mut found: Vec<&Entity> = self
            .records
            .values()
            .filter_map(|r| match r {
                GraphRecord::Entity(e) if scope.contains(&e.scope) => Some(e),
                _ => None,
            })
            .collect();
        crate::core::sort::sort_by(&mut found, |a, b| a.name.cmp(&b.name));
        found
    }

    /// The relations `scope` can see that start or end at an entity called `name` (any case).
    pub fn relations_of(&self, scope: &Scope, name: &str) -> Vec<&Relation> {
        let name = entity_name(name).lowercased();
        self.relations(scope)
            .into_iter()
            .filter(|r| [&r.source, &r.target].iter().any(|n| n.lowercased() == name))
            .collect()
    }

    /// Every relation `scope` can see.
    pub fn relations(&self, scope: &Scope) -> Vec<&Relation> {
        self.records
            .values()
            .filter_map(|r| match r {
                GraphRecord::Relation(r) if scope.contains(&r.scope) => Some(r),
                _ => None,
            })
            .collect()
    }

    /// The writes that delete the relations `wanted` in `scope`'s visible records (those that exist).
    pub fn delete_relations(&self, scope: &Scope, wanted: &[ExtractedRelation]) -> GraphChanges {
        let key = |source: &str, relation: &str, target: &str| {
            (entity_name(source).lowercased(), relation_name(relation), entity_name(target).lowercased())
        };
        let wanted: HashSet<_> = wanted.iter().map(|r| key(&r.source, &r.relation, &r.target)).collect();
        let deletes = self
            .relations(scope)
            .into_iter()
            .filter(|r| wanted.contains(&key(&r.source, &r.relation, &r.target)))
            .map(|r| relation_key(&r.scope, &r.source, &r.relation, &r.target))
            .collect();
        GraphChanges { upserts: Vec::new(), deletes }
    }

    /// The writes that delete the entity called `name` in exactly `scope`'s visible records, with its relations.
    pub fn delete_entity(&self, scope: &Scope, name: &str) -> GraphChanges {
        let wanted = entity_name(name).lowercased();
        let mut deletes: Vec<String> = self
            .entities(scope)
            .into_iter()
            .filter(|e| e.name.lowercased() == wanted)
            .map(|e| entity_key(&e.scope, &e.name))
            .collect();
        deletes.extend(
            self.relations_of(scope, name)
                .into_iter()
                .map(|r| relation_key(&r.scope, &r.source, &r.relation, &r.target)),
        );
        GraphChanges { upserts: Vec::new(), deletes }
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
