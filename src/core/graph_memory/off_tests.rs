//! Graph memory in a build without `extras` (the browser's core module): it stays off.

use futures_executor::block_on;

use crate::core::storage::InMemoryStorage;
use crate::core::testing::letter_engine;

#[test]
fn graph_memory_stays_off_without_extras() {
    let engine = letter_engine(InMemoryStorage::default());
    engine.graph().set_graph(Vec::new());
    assert!(!engine.graph().graph_enabled(), "set_graph turns nothing on");
    let refused = block_on(engine.graph().enable_graph()).unwrap_err();
    assert_eq!(refused.code(), "NOT_IN_MODULE");
    assert!(refused.to_string().contains("graph.enabled"), "{refused}");
}
