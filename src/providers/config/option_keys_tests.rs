//! The option keys of each model provider's `config`, per part (LLM, embedder), as the library reads them
//! (its options struct's fields and serde aliases, as serde derive lists them, plus the `timeoutMs` /
//! `connectTimeoutMs` / `coolDownMs` keys taken out before it) against the keys `src/js/types.d.ts` declares
//! for that provider's config interface (its own and those of the interfaces it extends); and the Chroma vector
//! store's `config`.

use serde_json::json;

use super::choice::{embedder_providers, llm_providers};
use super::timeout::take_bounds;
use super::{find_host, model_table, ProviderConfig, TABLE};
use super::{AnthropicOptions, AzureEmbedderOptions, AzureLlmOptions, GeminiEmbedderOptions, GeminiLlmOptions};
use super::{OllamaEmbedderOptions, OllamaLlmOptions, OpenAiEmbedderOptions, OpenAiLlmOptions};
use super::{WorkersAiEmbedderOptions, WorkersAiLlmOptions};
use crate::core::declared_keys::{self, declarations, declared_keys, expected_keys, member_type, struct_keys, Keys};
use crate::providers::chroma::ChromaOptions;

const TYPES: &str = "src/js/types.d.ts";

/// Providers left out, with why.
const NOT_COMPARED: &[(&str, &str)] = &[
    ("none", "takes no config: its union arms declare none"),
    ("local", "the npm package turns it into a custom embedder before the library reads it"),
];

/// Keys only one side has on purpose: (part, provider, key, why). None so far.
const INTENDED: &[(&str, &str, &str, &str)] = &[];

/// Per row of the provider table: its names and the keys of its LLM and embedder options, if it serves them.
macro_rules! options_by_row {
    ($(
        [$($name:literal)|+]
        $(llm $llm:ident($llm_options:ty => $llm_settings:ty, $($llm_model:ident).+)
            $(over $llm_any:ident($llm_new:path))?)?
        $(embedder $embedder:ident($embedder_options:ty => $embedder_settings:ty, $($embedder_model:ident).+)
            $(over $embedder_any:ident($embedder_new:path))?)?;
    )+) => {
        vec![$((
            vec![$($name),+],
            Option::<Keys>::None $(.or(Some(struct_keys::<$llm_options>())))?,
            Option::<Keys>::None $(.or(Some(struct_keys::<$embedder_options>())))?,
        )),+]
    };
}

/// The options keys the library reads for `provider` in `part` (`llm` or `embedder`), before the timeout keys:
/// the table row's options, OpenAI's for the OpenAI-compatible hosts, none for `custom`.
fn options_keys(part: &str, provider: &str) -> Option<Keys> {
    let rows = model_table!(options_by_row! {});
    for (names, llm, embedder) in rows {
        if names.contains(&provider) {
            return if part == "llm" { llm } else { embedder };
        }
    }
    match (part, find_host(provider)) {
        _ if provider == "custom" => Some(Keys::new()),
        ("llm", Some(_)) => Some(struct_keys::<OpenAiLlmOptions>()),
        ("embedder", Some(host)) if host.embeddings => Some(struct_keys::<OpenAiEmbedderOptions>()),
        _ => None,
    }
}

/// Those of `candidates` that `take_bounds` takes out of `provider`'s config (and accepts) before its options.
fn bounds_keys(part: &str, provider: &str, candidates: &Keys) -> Keys {
    let taken = |key: &&String| {
        let config = Some(json!({ key.as_str(): 1000 }));
        let mut given = ProviderConfig { provider: provider.to_owned(), config, ..ProviderConfig::default() };
        take_bounds(&mut given, part, 1).is_ok() && given.config.is_none()
    };
    candidates.iter().filter(taken).cloned().collect()
}

/// The config interface union `LlmConfig` / `EmbedderConfig` gives `provider`: the arm naming it, else (an
/// OpenAI-compatible host) the first arm whose provider is a type name (the hosts' union).
fn ts_config_of(source: &str, union: &str, provider: &str) -> Option<String> {
    let start = source.find(&format!("export type {union} =")).expect("the union");
    let text = source[start..].split("\n\n").next().unwrap_or_default();
    let arms: Vec<(&str, &str)> = text
        .split("| {")
        .skip(1)
        .map(|arm| {
            let spec = arm.split_once("provider: ").map_or("", |(_, rest)| rest.split(';').next().unwrap_or(""));
            let config = arm.split_once("config?: ").or_else(|| arm.split_once("config: ")).map_or("", |(_, r)| r);
            let end = config.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(config.len());
            (spec, &config[..end])
        })
        .collect();
    let named = arms.iter().find(|(spec, _)| spec.contains(&format!("\"{provider}\"")));
    let hosts = arms.iter().find(|(spec, _)| !spec.contains('"') && find_host(provider).is_some());
    named.or(hosts).map(|(_, config)| (*config).to_owned()).filter(|config| !config.is_empty())
}

/// The providers of `part` in the order errors list them, with the table rows' aliases (mem0's `google`).
fn with_aliases(part: &str, listed: Vec<&'static str>) -> Vec<&'static str> {
    let serving = TABLE.iter().filter(|(_, llm, embedder)| if part == "llm" { *llm } else { *embedder });
    let aliases = serving.flat_map(|(names, ..)| names.iter().skip(1).copied());
    listed.into_iter().chain(aliases).collect()
}

/// The differences between the two sides of `part`'s `provider`, the intended ones left out.
fn differences(part: &str, provider: &str, rust: &Keys, ts: &Keys) -> Vec<String> {
    let intended = |key: &str| INTENDED.iter().any(|(p, name, k, _)| (*p, *name, *k) == (part, provider, key));
    declared_keys::differences(&format!("{part} \"{provider}\""), rust, ts, intended)
}

#[test]
fn every_provider_config_declares_the_keys_its_options_read() {
    let source = declarations(&[TYPES]);
    let parts = [("llm", "LlmConfig", llm_providers()), ("embedder", "EmbedderConfig", embedder_providers())];
    let mut problems = Vec::new();
    let mut compared = 0;
    for (part, union, providers) in parts {
        for provider in
            with_aliases(part, providers).into_iter().filter(|name| NOT_COMPARED.iter().all(|(skip, _)| skip != name))
        {
            let options = options_keys(part, provider)
                .unwrap_or_else(|| panic!("{part} \"{provider}\": no options type known to this test"));
            let Some(interface) = ts_config_of(&source, union, provider) else {
                problems.push(format!("{part} \"{provider}\": {union} gives it no config interface"));
                continue;
            };
            let ts = declared_keys(&source, &interface);
            let mut rust = options.clone();
            rust.extend(bounds_keys(part, provider, &ts.union(&options).cloned().collect()));
            problems.extend(differences(part, provider, &rust, &ts));
            compared += 1;
        }
    }
    assert!(compared >= 20, "only {compared} provider configs compared");
    assert!(problems.is_empty(), "{TYPES} and the providers' options disagree:\n{}", problems.join("\n"));
}

#[test]
fn the_azure_places_declare_the_keys_model_properties_reads() {
    let source = declarations(&[TYPES]);
    let unknown = json!({"modelProperties": {"\u{1}unknown": 1}});
    let llm = expected_keys::<AzureLlmOptions>(unknown.clone());
    assert_eq!(llm, expected_keys::<AzureEmbedderOptions>(unknown));
    let ts = declared_keys(&source, "AzureOpenAiPlace");
    assert_eq!(differences("llm", "azure_openai modelProperties", &llm, &ts), Vec::<String>::new());
}

#[test]
fn the_chroma_config_declares_the_keys_its_options_read() {
    let source = declarations(&[TYPES]);
    let ts = declared_keys(&source, &member_type(&source, "ChromaVectorStoreConfig", "config"));
    assert_eq!(differences("vectorStore", "chroma", &struct_keys::<ChromaOptions>(), &ts), Vec::<String>::new());
}

#[test]
fn the_recorded_fields_are_those_the_reader_names() {
    let unknown = || json!({"\u{1}unknown": 1});
    assert_eq!(struct_keys::<AnthropicOptions>(), expected_keys::<AnthropicOptions>(unknown()));
    assert_eq!(struct_keys::<GeminiLlmOptions>(), expected_keys::<GeminiLlmOptions>(unknown()));
    assert_eq!(struct_keys::<GeminiEmbedderOptions>(), expected_keys::<GeminiEmbedderOptions>(unknown()));
    assert_eq!(struct_keys::<OllamaLlmOptions>(), expected_keys::<OllamaLlmOptions>(unknown()));
    assert_eq!(struct_keys::<OllamaEmbedderOptions>(), expected_keys::<OllamaEmbedderOptions>(unknown()));
    assert_eq!(struct_keys::<WorkersAiLlmOptions>(), expected_keys::<WorkersAiLlmOptions>(unknown()));
    assert_eq!(struct_keys::<WorkersAiEmbedderOptions>(), expected_keys::<WorkersAiEmbedderOptions>(unknown()));
    assert!(struct_keys::<OpenAiEmbedderOptions>().contains("embedding_dims"), "aliases are recorded");
}
