use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::filter::Filter;
use crate::core::model::scope::Scope;
use crate::providers::shared::testing::Recorder;

const COLLECTION: &str = r#"{"id":"c-1","configuration_json":{"hnsw":{"space":"cosine"}}}"#;

fn settings(tenant: &str) -> ChromaSettings {
    ChromaSettings {
        url: "http://127.0.0.1:9".into(),
        tenant: tenant.into(),
        database: "default_database".into(),
        collection: "memories".into(),
        api_key: Some("tok".into()),
        timeout_ms: 500,
        dimension: None,
    }
}

fn chroma(replies: &[(u16, &str)]) -> ChromaVectors<Recorder> {
    let retry = RetryPolicy { max_retries: 2, base_delay_ms: 1, max_delay_ms: 1 };
    ChromaVectors::new(Recorder::with_replies(replies), settings("default_tenant"), retry)
}

fn point(id: usize) -> VectorPoint {
    let scope = Scope { user_id: Some("alice".into()), ..Scope::default() };
    let metadata = json!({"n": id}).as_object().unwrap().clone();
    VectorPoint { id: format!("m{id}"), vector: vec![1.0, 0.0], scope, metadata }
}

#[test]
fn upserts_in_batches_after_creating_the_cosine_collection_once() {
    let store = chroma(&[(200, COLLECTION), (200, "{}"), (200, "{}"), (200, "{}"), (200, "{}")]);
    let points: Vec<VectorPoint> = (0..250).map(point).collect();
    block_on(store.upsert(&points)).unwrap();
    block_on(store.upsert(&points[..1])).unwrap();
    let requests = store.client.requests.borrow();
    let urls: Vec<&str> = requests.iter().map(|r| r.url.as_str()).collect();
    let base = "http://127.0.0.1:9/api/v2/tenants/default_tenant/databases/default_database/collections";
    assert_eq!(urls[0], base);
    assert!(urls[1..].iter().all(|url| *url == format!("{base}/c-1/upsert")), "{urls:?}");
    assert_eq!(store.client.body_of(0)["configuration"], json!({"hnsw": {"space": "cosine"}}));
    let sizes: Vec<usize> = (1..5).map(|i| store.client.body_of(i)["ids"].as_array().unwrap().len()).collect();
    assert_eq!(sizes, [100, 100, 50, 1]);
    assert_eq!(store.client.body_of(1)["metadatas"][3], json!({"n": 3.0, "user_id": "alice"}));
    assert_eq!(store.client.header("x-chroma-token").as_deref(), Some("tok"));
    assert!(requests.iter().all(|r| r.timeout_ms == Some(500)));
}

#[test]
fn queries_with_the_where_and_reads_similarities() {
    let reply = r#"{"ids":[["a","b"]],"distances":[[0.0,0.25]]}"#;
    let store = chroma(&[(200, COLLECTION), (200, reply)]);
    let scope = Scope { user_id: Some("alice".into()), ..Scope::default() };
    let filter = Filter::parse(&json!({"category": "work"})).unwrap();
    let query = VectorQuery { vector: &[0.6, 0.8], limit: 7, scope: &scope, filter: Some(&filter) };
    let hits = block_on(store.query(query)).unwrap();
    assert_eq!(hits, [("a".to_owned(), 1.0), ("b".to_owned(), 0.75)]);
    let body = store.client.body_of(1);
    assert_eq!(body["n_results"], json!(7));
    assert_eq!(body["where"], json!({"$and": [{"user_id": {"$eq": "alice"}}, {"category": {"$eq": "work"}}]}));
}

#[test]
fn server_errors_are_retried_then_vector_store_unavailable() {
    let store = chroma(&[(200, COLLECTION), (503, "busy"), (503, "busy"), (503, "busy")]);
    let error = block_on(store.delete(&["a".into()])).unwrap_err();
    assert_eq!(error.code(), "VECTOR_STORE_UNAVAILABLE");
    assert!(error.to_string().contains("503"), "{error}");
    assert_eq!(store.client.requests.borrow().len(), 4, "one collection call, then 1 + 2 retries");
    let garbled = chroma(&[(200, COLLECTION), (200, r#"{"ids":[["a"]]}"#)]);
    let scope = Scope::default();
    let query = VectorQuery { vector: &[1.0], limit: 1, scope: &scope, filter: None };
    assert_eq!(block_on(garbled.query(query)).unwrap_err().code(), "VECTOR_STORE_UNAVAILABLE");
}

#[test]
fn a_collection_in_another_space_is_refused() {
    let store = chroma(&[(200, r#"{"id":"c-1","configuration_json":{"hnsw":{"space":"l2"}}}"#)]);
    let error = block_on(store.delete(&["a".into()])).unwrap_err();
    assert_eq!(error.code(), "INVALID_CONFIG");
    assert!(error.to_string().contains("l2"), "{error}");
}

#[test]
fn other_tenants_are_created_first_and_existing_ones_accepted() {
    let retry = RetryPolicy::default();
    let replies = [(409, r#"{"error":"exists"}"#), (200, "{}"), (200, COLLECTION), (200, r#"{"ids":[]}"#)];
    let store = ChromaVectors::new(Recorder::with_replies(&replies), settings("acme"), retry);
    block_on(store.clear()).unwrap();
    let urls: Vec<String> = store.client.requests.borrow().iter().map(|r| r.url.clone()).collect();
    assert!(urls[0].ends_with("/api/v2/tenants") && urls[1].ends_with("/tenants/acme/databases"), "{urls:?}");
    assert!(urls[3].ends_with("/collections/c-1/get"), "{urls:?}");
}

#[test]
fn reads_vectors_back_in_batches_and_refuses_a_malformed_reply() {
    let reply = r#"{"ids":["m1","m2"],"embeddings":[[0.5,0.25],[1.0,0.0]]}"#;
    let store = chroma(&[(200, COLLECTION), (200, reply), (200, r#"{"ids":["m3"],"embeddings":[[0.0,1.0]]}"#)]);
    let ids: Vec<String> = (0..501).map(|i| format!("m{i}")).collect();
    let found = block_on(store.vectors(&ids)).unwrap();
    assert_eq!(found[0], ("m1".to_owned(), vec![0.5, 0.25]));
    assert_eq!(found.len(), 3);
    assert_eq!(store.client.body_of(1)["include"], json!(["embeddings"]));
    assert_eq!(store.client.body_of(1)["ids"].as_array().unwrap().len(), DELETE_BATCH);
    for bad in [r#"{"ids":["a"]}"#, r#"{"ids":["a"],"embeddings":[]}"#, r#"{"ids":["a"],"embeddings":[["x"]]}"#] {
        let error = parse_vectors(bad).unwrap_err();
        assert_eq!(error.code(), "VECTOR_STORE_UNAVAILABLE", "{bad}");
    }
}
