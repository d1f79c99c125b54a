//! `src/js/generated.d.ts`, the TypeScript unions of the provider and storage names, rendered from the
//! tables: the test fails when the file disagrees, and `UPDATE_TYPES=1 cargo test --lib ts_types` rewrites it.

use std::path::Path;

use crate::providers::config::{BARE, HOSTS, LOCAL, TABLE};

const GENERATED: &str = "src/js/generated.d.ts";

/// The storage table's file: the wasm32 platform, which a native build leaves out, so its rows are read as
/// text (`Variant(Type) = "name" => opener,`).
const STORAGE_TABLE: &str = "src/platform/compose/storage.rs";

/// `"a" | "b"`.
fn union(names: &[&str]) -> String {
    names.iter().map(|name| format!("\"{name}\"")).collect::<Vec<_>>().join(" | ")
}

/// The names of the table's rows serving a part (`llm` or `embedder`), aliases included.
fn table_names(serves: impl Fn(bool, bool) -> bool) -> Vec<&'static str> {
    TABLE
        .iter()
        .filter(|(_, llm, embedder)| serves(*llm, *embedder))
        .flat_map(|(names, ..)| names.iter().copied())
        .collect()
}

/// The `storage.provider` names of the `storage_backends!` rows in `source`.
fn storage_names(source: &str) -> Vec<String> {
    let table = source.split("storage_backends! {").nth(1).expect("the storage table");
    let rows = table.split("\n}").next().unwrap_or_default();
    rows.lines()
        .filter_map(|line| line.split(") = \"").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

fn render(storage_source: &str) -> String {
    let hosts = |embeddings: bool| -> Vec<&str> {
        let hosted = HOSTS.iter().filter(|host| host.base_url.is_some() && (host.embeddings || !embeddings));
        hosted.map(|host| host.name).collect()
    };
    let all_hosts: Vec<&str> = HOSTS.iter().map(|host| host.name).collect();
    let embedding_hosts: Vec<&str> = HOSTS.iter().filter(|host| host.embeddings).map(|host| host.name).collect();
    let llms = [table_names(|llm, _| llm), BARE.to_vec(), all_hosts].concat();
    let embedders = [table_names(|_, embedder| embedder), BARE.to_vec(), vec![LOCAL], embedding_hosts].concat();
    let storages = storage_names(storage_source);
    let storages: Vec<&str> = storages.iter().map(String::as_str).collect();
    format!(
        "// Generated from the provider and storage tables (model_table! in src/providers/config/choice.rs, \
         storage_backends!\n// in src/platform/compose/storage.rs, the OpenAI-compatible HOSTS): edit those, then \
         run\n// `UPDATE_TYPES=1 cargo test --lib ts_types`.\n\n\
         /** Every `llm.provider` name, aliases included. */\n\
         export type LlmProvider = {};\n\n\
         /** Every `embedder.provider` name, aliases included (`\"local\"` is the package's on-device embedder). */\n\
         export type EmbedderProvider = {};\n\n\
         /** OpenAI-compatible hosts known by name; each has its default `baseUrl` and API-key variable. */\n\
         export type OpenAiCompatibleHost = {};\n\n\
         /** The OpenAI-compatible hosts with a default `baseUrl` that serve embeddings. */\n\
         export type OpenAiCompatibleEmbeddingHost = {};\n\n\
         /** Every `storage.provider` name. */\n\
         export type StorageProvider = {};\n",
        union(&llms),
        union(&embedders),
        union(&hosts(false)),
        union(&hosts(true)),
        union(&storages),
    )
}

#[test]
fn ts_types_match_the_provider_and_storage_tables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let storage_source = std::fs::read_to_string(root.join(STORAGE_TABLE)).unwrap();
    let rendered = render(&storage_source);
    let path = root.join(GENERATED);
    if std::env::var_os("UPDATE_TYPES").is_some() {
        std::fs::write(&path, &rendered).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == rendered,
        "{GENERATED} disagrees with the tables: run `UPDATE_TYPES=1 cargo test --lib ts_types`\n--- kept\n{kept}\n--- rendered\n{rendered}"
    );
}

#[test]
fn the_storage_rows_are_read_with_their_names() {
    let source = "storage_backends! {\n    pub enum S, opened with () {\n        /// A doc.\n        \
                  Memory(InMemoryStorage) = \"memory\" => open,\n        Kv(KvBackend) = \"cloudflare-kv\" => kv,\n    }\n}\n\
                  fn other() { let _ = (x) = \"not a row\"; }";
    assert_eq!(storage_names(source), ["memory", "cloudflare-kv"]);
}
