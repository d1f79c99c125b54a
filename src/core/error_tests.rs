use std::collections::BTreeSet;

use super::*;

/// One error of every variant: the match has no wildcard, so a new variant does not compile until it is
/// listed here (and so checked against `CODES` and the TypeScript union).
fn one_of_each() -> Vec<MemoryError> {
    let upstream = |status| UpstreamError::new(status, "x");
    let all = vec![
        MemoryError::ScopeRequired,
        MemoryError::InvalidFilter("x".into()),
        MemoryError::InvalidConfig("x".into()),
        MemoryError::InvalidInput("x".into()),
        MemoryError::NotFound("x".into()),
        MemoryError::Expired("x".into()),
        MemoryError::Llm(upstream(Some(500))),
        MemoryError::Llm(upstream(None)),
        MemoryError::Llm(UpstreamError::timeout(1)),
        MemoryError::Llm(UpstreamError::host_down("http://h", 0, Some(1))),
        MemoryError::LlmResponse("x".into()),
        MemoryError::Embedding(upstream(Some(500))),
        MemoryError::Embedding(upstream(None)),
        MemoryError::Embedding(UpstreamError::timeout(1)),
        MemoryError::Embedding(UpstreamError::host_down("http://h", 0, None)),
        MemoryError::EmbeddingResponse("x".into()),
        MemoryError::Reranker(upstream(Some(500))),
        MemoryError::Reranker(upstream(None)),
        MemoryError::Reranker(UpstreamError::timeout(1)),
        MemoryError::Reranker(UpstreamError::host_down("http://h", 0, None)),
        MemoryError::RerankerResponse("x".into()),
        MemoryError::LlmCallback("x".into()),
        MemoryError::EmbeddingCallback("x".into()),
        MemoryError::RerankerCallback("x".into()),
        MemoryError::DimensionMismatch { expected: 1, actual: 2 },
        MemoryError::Storage("x".into()),
        MemoryError::StorageQuota("x".into()),
        MemoryError::StorageUnavailable("x".into()),
        MemoryError::VectorStoreUnavailable("x".into()),
        MemoryError::NotInModule("x".into()),
        MemoryError::ImportDimensionMismatch { line: 2, found: 3, expected: 4, basis: "x".into() },
        MemoryError::Aborted("x".into()),
        MemoryError::EmbeddingModelChanged { stored: "a".into(), current: "b".into() },
        MemoryError::SyncEntry("x".into()),
        MemoryError::SyncKey("x".into()),
        MemoryError::SyncHttp { status: 409, message: "x".into() },
        MemoryError::SyncNetwork("x".into()),
        MemoryError::ImportFormat("x".into()),
    ];
    for error in &all {
        match error {
            MemoryError::ScopeRequired
            | MemoryError::InvalidFilter(_)
            | MemoryError::InvalidConfig(_)
            | MemoryError::InvalidInput(_)
            | MemoryError::NotFound(_)
            | MemoryError::Expired(_)
            | MemoryError::Llm(_)
            | MemoryError::LlmResponse(_)
            | MemoryError::Embedding(_)
            | MemoryError::EmbeddingResponse(_)
            | MemoryError::Reranker(_)
            | MemoryError::RerankerResponse(_)
            | MemoryError::LlmCallback(_)
            | MemoryError::EmbeddingCallback(_)
            | MemoryError::RerankerCallback(_)
            | MemoryError::DimensionMismatch { .. }
            | MemoryError::Storage(_)
            | MemoryError::StorageQuota(_)
            | MemoryError::StorageUnavailable(_)
            | MemoryError::VectorStoreUnavailable(_)
            | MemoryError::NotInModule(_)
            | MemoryError::ImportDimensionMismatch { .. }
            | MemoryError::Aborted(_)
            | MemoryError::EmbeddingModelChanged { .. }
            | MemoryError::SyncEntry(_)
            | MemoryError::SyncKey(_)
            | MemoryError::SyncHttp { .. }
            | MemoryError::SyncNetwork(_)
            | MemoryError::ImportFormat(_) => {}
        }
    }
    all
}

#[test]
fn codes_lists_exactly_the_codes_errors_have() {
    let produced: BTreeSet<&str> = one_of_each().iter().map(MemoryError::code).collect();
    let listed: BTreeSet<&str> = MemoryError::CODES.iter().copied().collect();
    assert_eq!(produced, listed);
    assert_eq!(listed.len(), MemoryError::CODES.len(), "CODES has no duplicates");
}

/// The string literals of `export type NAME = | "A" | "B";` in a `.d.ts` text.
fn union_members<'a>(types: &'a str, name: &str) -> BTreeSet<&'a str> {
    let start = types.find(&format!("export type {name} =")).unwrap_or_else(|| panic!("{name} is not in the types"));
    let body = &types[start..];
    let body = &body[..body.find(';').expect("the union ends with ;")];
    body.split('"').skip(1).step_by(2).collect()
}

#[test]
fn the_typescript_error_code_union_is_exactly_the_codes() {
    let types = include_str!("../js/types.d.ts");
    let listed: BTreeSet<&str> = MemoryError::CODES.iter().copied().collect();
    assert_eq!(union_members(types, "MemoryErrorCode"), listed);
    let warnings: BTreeSet<&str> = crate::core::warning::WarningCode::ALL.iter().map(|code| code.as_str()).collect();
    assert_eq!(union_members(types, "WarningCode"), warnings);
}

#[test]
fn upstream_errors_keep_their_status() {
    let limited = MemoryError::Embedding(UpstreamError::new(Some(429), "slow"));
    assert_eq!((limited.code(), limited.http_status()), ("EMBEDDING_HTTP", Some(429)));
    assert_eq!(limited.to_string(), "embedding request failed: HTTP 429: slow");
    let down = MemoryError::Llm(UpstreamError::new(None, "refused"));
    assert_eq!((down.code(), down.http_status()), ("LLM_NETWORK", None));
}

#[test]
fn a_timeout_has_its_own_code_and_is_an_llm_transport_failure() {
    let slow = MemoryError::Llm(UpstreamError::timeout(300));
    assert_eq!((slow.code(), slow.http_status(), slow.is_llm_transport()), ("LLM_TIMEOUT", None, true));
    assert_eq!(slow.to_string(), "LLM request failed: timed out: no response within 300 ms");
    assert_eq!(MemoryError::Embedding(UpstreamError::timeout(5)).code(), "EMBEDDING_TIMEOUT");
}

#[test]
fn a_host_remembered_down_has_its_own_code_naming_the_host_the_outage_and_the_next_try() {
    let down = MemoryError::Embedding(UpstreamError::host_down("http://127.0.0.1:9", 0, Some(30_000)));
    assert_eq!((down.code(), down.http_status()), ("EMBEDDING_UNAVAILABLE", None));
    let message = down.to_string();
    for part in [
        "http://127.0.0.1:9",
        "since 1970-01-01T00:00:00.000Z",
        "no request was sent",
        "from 1970-01-01T00:00:30.000Z",
        "coolDownMs",
    ] {
        assert!(message.contains(part), "{part} in {message}");
    }
    let trying = MemoryError::Llm(UpstreamError::host_down("http://h", 0, None));
    assert_eq!((trying.code(), trying.is_llm_transport()), ("LLM_UNAVAILABLE", true));
    assert!(trying.to_string().contains("a call is trying it again now"), "{trying}");
}
