//! The results the npm package resolves with, as users get them (each a real value serialised as the JS binding
//! serialises it, every optional field filled), against the type `src/js/*.d.ts` declares for them: the type
//! a method's `unchecked_return_type` in `src/js/*.rs` names, or an event's interface. Keys are compared at
//! every depth the declarations give a type for (a list's elements, a member's own interface).

mod memory_samples;
mod sync_samples;
mod tier_samples;

use std::collections::BTreeSet;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::core::declared_keys::{declarations, differences, shape, Keys, Shape, DECLARATION_FILES};
use crate::core::model::scope::with_mem0_names;

/// Where a result's declared type comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Declared {
    /// The return type of the JS method of that name (in `src/js/*.rs`).
    Method(&'static str),
    /// A type of the declarations (an event's payload).
    Type(&'static str),
}

/// One real result: what declares it, the Rust type it was serialised from, and the JSON users get.
pub struct Sample {
    pub declared: Declared,
    pub rust: String,
    pub json: Value,
}

impl Sample {
    /// `value` serialised as the JS binding serialises a result (`to_js` in src/js/convert.rs): the scopes of
    /// memories and history records carry mem0's snake_case ids too.
    pub fn of<T: Serialize>(declared: Declared, value: &T) -> Self {
        let json = with_mem0_names(|| serde_json::to_value(value)).unwrap();
        Sample { declared, rust: short_name(std::any::type_name::<T>()), json }
    }

    /// `json`, which the JS binding builds around Rust values (`json!({"entities": …})`, serialised without
    /// mem0's ids, as it is there); `rust` says what it holds.
    pub fn wrapped(declared: Declared, rust: &str, json: Value) -> Self {
        Sample { declared, rust: rust.to_owned(), json }
    }
}

/// `type_name`'s answer without module paths: `Vec<HistoryRecord>`.
fn short_name(full: &str) -> String {
    full.split_inclusive(['<', '>', ',', ' ']).map(|piece| piece.rsplit("::").next().unwrap_or(piece)).collect()
}

/// Methods and types of results that no sample stands for, with why.
const NOT_COMPARED: &[(&str, &str)] = &[
    ("open", "resolves with the Memory class itself"),
    ("update", "`{message}`, built by the JS binding (src/js/mod.rs `message`): no Rust type"),
    ("delete", "`{message}`, built by the JS binding: no Rust type"),
    ("deleteAll", "`{message}`, built by the JS binding: no Rust type"),
    ("restore", "`{message}`, built by the JS binding: no Rust type"),
    ("deleteByKey", "`{message}`, built by the JS binding: no Rust type"),
    ("share", "`{copied}`, a count the JS binding wraps: no Rust type"),
    ("purgeExpired", "`{purged}`, a count the JS binding wraps: no Rust type"),
    ("deleteEntity", "`{message, deleted}`, built by the JS binding: no Rust type"),
    ("deleteRelations", "`{message, deleted}`, built by the JS binding: no Rust type"),
    ("BackgroundError", "its `error` is a JS Error the binding makes (src/js/tiers.rs `present`)"),
    ("ImportProgress", "set key by key on a JS object by src/platform/pace.rs (wasm only)"),
    ("ModelCallEvent", "set key by key on a JS object by src/platform/observe.rs (wasm only)"),
    ("GenerateRequest", "set key by key on a JS object by src/platform/callback.rs (wasm only)"),
    ("syncSnapshot", "`string[]`, entry texts: no keys to compare"),
];

/// Keys only one side has on purpose: (declared type, key, why). None so far.
const INTENDED: &[(&str, &str, &str)] = &[];

/// Each JS method with an `unchecked_return_type` in `src/js/*.rs`, and that type.
fn declared_returns() -> Vec<(String, String)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/js");
    let mut returns = Vec::new();
    for file in std::fs::read_dir(folder).unwrap().map(|entry| entry.unwrap().path()) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices("unchecked_return_type = \"") {
            let ty = text[at..].split('"').nth(1).unwrap().to_owned();
            let attribute = &text[text[..at].rfind("#[wasm_bindgen(").unwrap()..at];
            let js_name = attribute.split_once("js_name = ").map(|(_, rest)| rest.split([',', ')']).next().unwrap());
            let fn_name = || text[at..].split_once("pub fn ").unwrap().1.split(['(', '<']).next().unwrap();
            returns.push((js_name.unwrap_or_else(fn_name).trim().to_owned(), ty));
        }
    }
    returns
}

/// Compares the keys of `value` with those of the declared type `ty`, at every depth the declarations give a
/// type for; `at` says where. A `null`, or an empty list, where the type has keys is a sample to fill.
fn compare(source: &str, value: &Value, ty: &str, at: &str, found: &mut Found) {
    let shape = match shape(source, ty) {
        Ok(Shape::Opaque) => return,
        Ok(shape) => shape,
        Err(why) => return found.problem(format!("{at}: {why}")),
    };
    match (shape, value) {
        (_, Value::Null) => found.problem(format!("{at}: null leaves {ty} unchecked: fill it in the sample")),
        (Shape::List(element), Value::Array(items)) if items.is_empty() => {
            if self::shape(source, &element) != Ok(Shape::Opaque) {
                found.problem(format!("{at}: an empty list leaves {element} unchecked: give the sample one"));
            }
        }
        (Shape::List(element), Value::Array(items)) => {
            items.iter().for_each(|item| compare(source, item, &element, &format!("{at}[]"), found))
        }
        (Shape::Map(values), Value::Object(map)) => {
            map.values().for_each(|one| compare(source, one, &values, &format!("{at}{{…}}"), found))
        }
        (Shape::OneOf(arms), _) => {
            let tried = arms.iter().map(|arm| {
                let mut alone = Found::default();
                compare(source, value, arm, at, &mut alone);
                alone
            });
            found.absorb(tried.min_by_key(|alone| alone.problems.len()).unwrap_or_default());
        }
        (Shape::Object { name, members }, Value::Object(map)) => {
            let name = if name.starts_with('{') { "{…}".to_owned() } else { name };
            let at = format!("{at} → {name}");
            let rust: Keys = map.keys().cloned().collect();
            let ts: Keys = members.iter().map(|(key, _)| key.clone()).collect();
            found.one_sided.extend(rust.symmetric_difference(&ts).map(|key| (name.clone(), key.clone())));
            let intended = |key: &str| INTENDED.iter().any(|(t, k, _)| (*t, *k) == (name.as_str(), key));
            found.problems.extend(differences(&at, &rust, &ts, intended));
            for (key, member) in &members {
                if let Some(inner) = map.get(key) {
                    compare(source, inner, member, &format!("{at}.{key}"), found);
                }
            }
        }
        _ => found.problem(format!("{at}: {ty} is declared, the result is {value}")),
    }
}

/// What comparing found: the disagreements, and every (type, key) only one side had.
#[derive(Default)]
struct Found {
    problems: BTreeSet<String>,
    one_sided: BTreeSet<(String, String)>,
}

impl Found {
    fn problem(&mut self, problem: String) {
        self.problems.insert(problem);
    }

    fn absorb(&mut self, other: Found) {
        self.problems.extend(other.problems);
        self.one_sided.extend(other.one_sided);
    }
}

/// The declared type of `declared`, or why there is none.
fn declared_type(returns: &[(String, String)], declared: Declared) -> Result<String, String> {
    match declared {
        Declared::Type(name) => Ok(name.to_owned()),
        Declared::Method(method) => {
            let types: BTreeSet<&String> = returns.iter().filter(|(name, _)| name == method).map(|(_, t)| t).collect();
            match types.into_iter().collect::<Vec<_>>().as_slice() {
                [ty] => Ok((*ty).clone()),
                [] => Err(format!("no JS method {method} declares its result in src/js/*.rs")),
                many => Err(format!("the JS methods called {method} declare different results: {many:?}")),
            }
        }
    }
}

/// The samples of every file.
fn every_sample() -> Vec<Sample> {
    memory_samples::samples().into_iter().chain(tier_samples::samples()).chain(sync_samples::samples()).collect()
}

#[test]
fn every_result_has_the_keys_its_declaration_names() {
    let source = declarations(&DECLARATION_FILES);
    let returns = declared_returns();
    let samples = every_sample();
    let mut found = Found::default();
    for sample in &samples {
        let label = format!("{:?} ({})", sample.declared, sample.rust);
        match declared_type(&returns, sample.declared) {
            Ok(ty) => compare(&source, &sample.json, &ty, &label, &mut found),
            Err(why) => found.problem(why),
        }
    }
    let stale = INTENDED.iter().filter(|(ty, key, _)| !found.one_sided.contains(&(ty.to_string(), key.to_string())));
    found.problems.extend(stale.map(|(ty, key, _)| format!("INTENDED lists {ty}.{key}, which both sides have now")));
    let problems: Vec<&str> = found.problems.iter().map(String::as_str).collect();
    assert!(problems.is_empty(), "the results and their TypeScript declarations disagree:\n{}", problems.join("\n"));
}

#[test]
fn every_declared_result_has_a_sample_or_a_reason() {
    let source = declarations(&DECLARATION_FILES);
    let samples = every_sample();
    let sampled =
        |method: &str| samples.iter().any(|sample| matches!(sample.declared, Declared::Method(m) if m == method));
    let listed = |method: &str| NOT_COMPARED.iter().any(|(name, _)| *name == method);
    let mut missing: Vec<String> = declared_returns()
        .into_iter()
        .filter(|(method, ty)| shape(&source, ty) != Ok(Shape::Opaque) && !sampled(method) && !listed(method))
        .map(|(method, ty)| format!("{method}: {ty}"))
        .collect();
    missing.dedup();
    let returns = declared_returns();
    let stale = NOT_COMPARED
        .iter()
        .filter(|(name, _)| !returns.iter().any(|(method, _)| method == name) && shape(&source, name).is_err());
    missing.extend(stale.map(|(name, _)| format!("NOT_COMPARED lists {name}, which is neither a method nor a type")));
    assert!(
        missing.is_empty(),
        "results no sample stands for (add one, or a reason to NOT_COMPARED), or stale reasons:\n{}",
        missing.join("\n")
    );
}
