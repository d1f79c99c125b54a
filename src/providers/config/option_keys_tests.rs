//! The option keys of each model provider's `config`, per part (LLM, embedder), as the library reads them
//! (its options struct's fields and serde aliases, as serde derive lists them, plus the `timeoutMs` /
//! `connectTimeoutMs` / `coolDownMs` keys taken out before it) against the keys `src/js/types.d.ts` declares
//! for that provider's config interface (its own and those of the interfaces it extends).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::Path;

use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::{json, Value};

use super::choice::{embedder_providers, llm_providers};
use super::timeout::take_bounds;
use super::{find_host, model_table, ProviderConfig, TABLE};
use super::{AnthropicOptions, AzureEmbedderOptions, AzureLlmOptions, GeminiEmbedderOptions, GeminiLlmOptions};
use super::{OllamaEmbedderOptions, OllamaLlmOptions, OpenAiEmbedderOptions, OpenAiLlmOptions};
use super::{WorkersAiEmbedderOptions, WorkersAiLlmOptions};

type Keys = BTreeSet<String>;

const TYPES: &str = "src/js/types.d.ts";

/// Providers left out, with why.
const NOT_COMPARED: &[(&str, &str)] = &[
    ("none", "takes no config: its union arms declare none"),
    ("local", "the npm package turns it into a custom embedder before the library reads it"),
];

/// Keys only one side has on purpose: (part, provider, key, why). None so far.
const INTENDED: &[(&str, &str, &str, &str)] = &[];

/// A deserializer that records the field names (aliases included) a struct asks for, and reads nothing.
struct FieldRecorder<'a>(&'a RefCell<Vec<&'static str>>);

impl<'de> de::Deserializer<'de> for FieldRecorder<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.borrow_mut().extend_from_slice(fields);
        Err(de::Error::custom("fields recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// The keys serde reads into `T`: the fields its derive passes to `deserialize_struct`.
fn struct_keys<T: DeserializeOwned>() -> Keys {
    let fields = RefCell::new(Vec::new());
    let _ = T::deserialize(FieldRecorder(&fields));
    fields.into_inner().into_iter().map(str::to_owned).collect()
}

/// The names serde's unknown-field error for `config` lists ("expected one of `a`, `b`").
fn expected_keys<T: DeserializeOwned>(config: Value) -> Keys {
    let error = serde_json::from_value::<T>(config).err().expect("an unknown field is refused").to_string();
    let expected = error.split_once(", expected ").expect("an unknown-field error").1;
    expected.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

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

/// `text` without its `/* … */` comments.
fn without_comments(text: &str) -> String {
    let mut kept = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        kept.push_str(&rest[..start]);
        rest = rest[start..].split_once("*/").map_or("", |(_, after)| after);
    }
    kept + rest
}

/// The keys interface `name` declares in `source`, those of the interfaces it extends included.
fn ts_keys(source: &str, name: &str) -> Keys {
    let head = format!("export interface {name}");
    let start = source
        .match_indices(&head)
        .map(|(at, _)| at + head.len())
        .find(|after| source[*after..].starts_with([' ', '\n']))
        .unwrap_or_else(|| panic!("{TYPES} declares no interface {name}"));
    let (header, body) = source[start..].split_once('{').expect("an interface body");
    let mut keys = Keys::new();
    if let Some((_, parents)) = header.split_once("extends") {
        for parent in parents.split(',').map(str::trim) {
            keys.extend(ts_keys(source, parent));
        }
    }
    let mut depth = 0;
    let mut member = String::new();
    for c in body.chars() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' if depth == 0 => break,
            '}' | ')' | ']' => depth -= 1,
            ';' | '\n' if depth == 0 => {
                keys.extend(member_key(&member));
                member.clear();
                continue;
            }
            _ => {}
        }
        member.push(c);
    }
    keys
}

/// The key of a member (`apiKey?: string`): its leading name, when a `:` (or `?:`) follows it.
fn member_key(member: &str) -> Option<String> {
    let member = member.trim();
    let end = member.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(member.len());
    let rest = member[end..].trim_start();
    (end > 0 && (rest.starts_with(':') || rest.starts_with("?:"))).then(|| member[..end].to_owned())
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
    let only = |side: &str, one: &Keys, other: &Keys| {
        let keys: Vec<&str> = one.difference(other).map(String::as_str).filter(|key| !intended(key)).collect();
        (!keys.is_empty()).then(|| format!("{part} \"{provider}\": only {side} has {keys:?}"))
    };
    only("Rust", rust, ts).into_iter().chain(only("TypeScript", ts, rust)).collect()
}

#[test]
fn every_provider_config_declares_the_keys_its_options_read() {
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(TYPES)).unwrap();
    let source = without_comments(&source);
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
            let ts = ts_keys(&source, &interface);
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
    let source = without_comments(&std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(TYPES)).unwrap());
    let unknown = json!({"modelProperties": {"\u{1}unknown": 1}});
    let llm = expected_keys::<AzureLlmOptions>(unknown.clone());
    assert_eq!(llm, expected_keys::<AzureEmbedderOptions>(unknown));
    let ts = ts_keys(&source, "AzureOpenAiPlace");
    assert_eq!(differences("llm", "azure_openai modelProperties", &llm, &ts), Vec::<String>::new());
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

#[test]
fn interface_keys_include_the_extended_ones_and_skip_comments() {
    let source = without_comments(
        "export interface A {\n  /** b: not a key; c: nor this */\n  a?: number;\n  run(x: string): void;\n}\n\
         export interface B\n  extends A {\n  b: { inner: string };\n  c?: string;\n}\n",
    );
    let keys: Vec<String> = ts_keys(&source, "B").into_iter().collect();
    assert_eq!(keys, ["a", "b", "c"]);
}
