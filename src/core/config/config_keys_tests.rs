//! The keys of `new Memory(config)` / `Memory.open(config)` as the library reads them (the fields serde reads
//! into `MemoryConfig` and its parts, aliases included, plus the live values — callbacks, bindings — the JS
//! binding takes out first, `LIVE_PATHS` in `src/platform/compose/live.rs`) against the keys the options
//! interfaces of `src/js/types.d.ts` declare, part by part.

use serde::de::DeserializeOwned;

use super::sqlite::SqliteOptions;
use super::RetryOptions;
use super::{BackgroundOptions, BoundaryOptions, CustomPrompts, GraphOptions, ImportanceOptions, IndexedDbOptions};
use super::{KvOptions, LimitOptions, MemoryConfig, MemoryVectorStoreOptions, ProviderConfig};
use crate::core::declared_keys::{declarations, declared_keys, differences, member_type, shape, struct_keys};
use crate::core::declared_keys::{Keys, Shape, DECLARATION_FILES};

/// Where the JS binding lists the config's live values.
const LIVE_VALUES: &str = "src/platform/compose/live.rs";

/// Keys only one side has on purpose: (part, key, why).
const INTENDED: &[(&str, &str, &str)] = &[
    ("llm", "dimensions", "read into the one {provider, config, dimensions} struct; refused for the LLM"),
    ("vectorStore", "dimensions", "read into the one {provider, config, dimensions} struct; refused"),
    ("storage", "dimensions", "read into the one {provider, config, dimensions} struct; refused"),
    ("reranker", "dimensions", "read into the one {provider, config, dimensions} struct; refused"),
];

/// The live paths (`["llm", "generate"]`, `["now"]`) the JS binding lifts out of a config before serde reads it.
fn live_paths() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(LIVE_VALUES)).unwrap();
    let list = text.split_once("const LIVE_PATHS").expect("LIVE_PATHS").1.split_once("= &[").unwrap().1;
    let paths = list
        .split_once("];")
        .unwrap()
        .0
        .split("&[")
        .skip(1)
        .map(|path| path.split('"').skip(1).step_by(2).map(str::to_owned).collect());
    paths.collect()
}

/// The keys serde reads into `T`, with the live keys of the config part at `path` (`[]` for the config).
fn read_keys<T: DeserializeOwned>(path: &[&str]) -> Keys {
    let live = live_paths()
        .into_iter()
        .filter(|live| live.len() == path.len() + 1 && live.iter().zip(path).all(|(a, b)| a == b));
    struct_keys::<T>().into_iter().chain(live.map(|live| live[path.len()].clone())).collect()
}

/// The keys declared by the object type `ty`, or by any arm of the union it names.
fn arms_keys(source: &str, ty: &str) -> Keys {
    match shape(source, ty) {
        Ok(Shape::OneOf(arms)) => arms.iter().flat_map(|arm| declared_keys(source, arm)).collect(),
        _ => declared_keys(source, ty),
    }
}

/// Every part compared: (part, the keys the library reads, the type `types.d.ts` gives it).
fn parts(source: &str) -> Vec<(&'static str, Keys, String)> {
    let of = |key: &str| member_type(source, "MemoryConfig", key);
    let memory_index = member_type(source, "MemoryVectorStoreConfig", "config");
    vec![
        ("config", read_keys::<MemoryConfig>(&[]), "MemoryConfig".into()),
        ("llm", read_keys::<ProviderConfig>(&["llm"]), of("llm")),
        ("embedder", read_keys::<ProviderConfig>(&["embedder"]), of("embedder")),
        ("vectorStore", read_keys::<ProviderConfig>(&["vectorStore"]), of("vectorStore")),
        ("vectorStore.config (memory)", struct_keys::<MemoryVectorStoreOptions>(), memory_index),
        ("storage", read_keys::<ProviderConfig>(&["storage"]), of("storage")),
        ("storage.config (indexeddb)", struct_keys::<IndexedDbOptions>(), "IndexedDbStorageConfig".into()),
        ("storage.config (cloudflare-kv)", struct_keys::<KvOptions>(), "KvStorageConfig".into()),
        ("storage.config (sqlite)", struct_keys::<SqliteOptions>(), "SqliteStorageConfig".into()),
        ("customPrompts", struct_keys::<CustomPrompts>(), of("customPrompts")),
        ("retry", struct_keys::<RetryOptions>(), of("retry")),
        ("graph", struct_keys::<GraphOptions>(), of("graph")),
        ("importance", struct_keys::<ImportanceOptions>(), of("importance")),
        ("limits", struct_keys::<LimitOptions>(), of("limits")),
        ("boundary", struct_keys::<BoundaryOptions>(), of("boundary")),
        ("background", struct_keys::<BackgroundOptions>(), of("background")),
        ("reranker", read_keys::<ProviderConfig>(&["reranker"]), of("reranker")),
    ]
}

#[test]
fn every_config_part_declares_the_keys_the_library_reads() {
    let source = declarations(&DECLARATION_FILES);
    let mut problems = Vec::new();
    for (part, rust, ty) in parts(&source) {
        let ts = arms_keys(&source, &ty);
        let intended = |key: &str| INTENDED.iter().any(|(p, k, _)| (*p, *k) == (part, key));
        problems.extend(differences(&format!("{part} ({ty})"), &rust, &ts, intended));
        let one_sided: Keys = rust.symmetric_difference(&ts).cloned().collect();
        let stale = INTENDED.iter().filter(|(p, key, _)| *p == part && !one_sided.contains(*key));
        problems.extend(stale.map(|(_, key, _)| format!("{part}: INTENDED lists {key}, which both sides have now")));
    }
    assert!(problems.is_empty(), "types.d.ts and the config the library reads disagree:\n{}", problems.join("\n"));
}

#[test]
fn the_live_keys_are_read_from_the_binding_s_list() {
    let paths = live_paths();
    for path in [&["now"][..], &["llm", "generate"], &["embedder", "embed"], &["storage", "open"]] {
        assert!(paths.iter().any(|live| live == path), "{path:?} in {paths:?}");
    }
    let top = read_keys::<MemoryConfig>(&[]);
    assert!(top.contains("countTokens") && top.contains("llm") && !top.contains("generate"), "{top:?}");
}
