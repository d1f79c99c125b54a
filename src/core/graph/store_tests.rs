use super::*;
use crate::core::graph::extract::{parse_graph, ExtractedEntity, ExtractedRelation};
use crate::core::model::graph::{entity_name, relation_name};

fn scope(user: &str) -> Scope {
    Scope { user_id: Some(user.into()), ..Scope::default() }
}

fn alice_at_google() -> Extracted {
    Extracted {
        entities: vec![
            ExtractedEntity { name: " alice ".into(), entity_type: "Person".into(), description: None },
            ExtractedEntity {
                name: "GOOGLE".into(),
                entity_type: "organization".into(),
                description: Some("search".into()),
            },
        ],
        relations: vec![ExtractedRelation {
            source: "Alice".into(),
            relation: "Works At".into(),
            target: "google".into(),
        }],
    }
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn names_are_title_cased_and_relations_snake_cased() {
    assert_eq!(entity_name("  alice   SMITH "), "Alice Smith");
    assert_eq!(relation_name("Works At"), "works_at");
    assert_eq!(crate::core::model::graph::entity_type("Spaceship"), "concept");
}

#[test]
fn merge_normalises_and_links_memories() {
    let mut graph = Graph::default();
    let changes = graph.merge(&alice_at_google(), &scope("u"), &ids(&["m1"]), "t1");
    graph.apply(&changes);
    let entities = graph.entities(&scope("u"));
    let names: Vec<(&str, &str)> = entities.iter().map(|e| (e.name.as_str(), e.entity_type.as_str())).collect();
    assert_eq!(names, [("Alice", "person"), ("Google", "organization")]);
    let relations = graph.relations_of(&scope("u"), "ALICE");
    assert_eq!(relations.len(), 1);
    assert_eq!(
        (relations[0].source.as_str(), relations[0].relation.as_str(), relations[0].target.as_str()),
        ("Alice", "works_at", "Google")
    );
    assert_eq!(relations[0].memory_ids, ids(&["m1"]));
    assert!(graph.entities(&scope("other")).is_empty(), "scopes are isolated");
}

#[test]
fn merge_upserts_entities_and_deduplicates_relations() {
    let mut graph = Graph::default();
    graph.apply(&graph.merge(&alice_at_google(), &scope("u"), &ids(&["m1"]), "t1"));
    let mut again = alice_at_google();
    again.entities[0] =
        ExtractedEntity { name: "ALICE".into(), entity_type: "person".into(), description: Some("engineer".into()) };
    graph.apply(&graph.merge(&again, &scope("u"), &ids(&["m2"]), "t2"));
    let entities = graph.entities(&scope("u"));
    assert_eq!(entities.len(), 2);
    assert_eq!(entities[0].description.as_deref(), Some("engineer"));
    assert_eq!((entities[0].created_at.as_str(), entities[0].updated_at.as_str()), ("t1", "t2"));
    assert_eq!(entities[0].memory_ids, ids(&["m1", "m2"]));
    let relations = graph.relations(&scope("u"));
    assert_eq!(relations.len(), 1);
    assert_eq!(relations[0].memory_ids, ids(&["m1", "m2"]));
}

#[test]
fn deleting_memories_removes_relations_backed_only_by_them() {
    let mut graph = Graph::default();
    graph.apply(&graph.merge(&alice_at_google(), &scope("u"), &ids(&["m1"]), "t1"));
    let mut changes = GraphChanges::default();
    graph.cascade(&mut changes, &ids(&["unrelated"]));
    assert!(changes.is_empty());
    graph.cascade(&mut changes, &ids(&["m1"]));
    graph.apply(&changes);
    assert!(graph.relations(&scope("u")).is_empty());
    assert!(graph.entities(&scope("u")).is_empty());
}

#[test]
fn a_relation_backed_by_another_memory_survives() {
    let mut graph = Graph::default();
    graph.apply(&graph.merge(&alice_at_google(), &scope("u"), &ids(&["m1"]), "t1"));
    graph.apply(&graph.merge(&alice_at_google(), &scope("u"), &ids(&["m2"]), "t2"));
    let mut changes = GraphChanges::default();
    graph.cascade(&mut changes, &ids(&["m1"]));
    graph.apply(&changes);
    assert_eq!(graph.relations(&scope("u"))[0].memory_ids, ids(&["m2"]));
}

#[test]
fn delete_entity_takes_its_relations() {
    let mut graph = Graph::default();
    graph.apply(&graph.merge(&alice_at_google(), &scope("u"), &ids(&["m1"]), "t1"));
    let changes = graph.delete_entity(&scope("u"), "google");
    assert_eq!(changes.deletes.len(), 2);
    graph.apply(&changes);
    assert_eq!(graph.entities(&scope("u")).len(), 1);
    assert!(graph.relations(&scope("u")).is_empty());
}

#[test]
fn replies_are_read_leniently_and_bad_ones_rejected() {
    let reply = r#"```json
{"entities":[{"entity":"Bob","entity_type":"person"},{"name":""}],"relations":[{"source":"Bob","relationship":"knows","destination":"Alice"},{"source":"x"}]}
```"#;
    let graph = parse_graph(reply).unwrap();
    assert_eq!(graph.entities.len(), 1);
    assert_eq!(graph.relations.len(), 1);
    assert!(parse_graph("no json").is_err());
    assert!(parse_graph(r#"{"facts":[]}"#).is_err());
}
