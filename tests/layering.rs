//! The layers' arrows point one way: js → platform → providers → core (and `http`, the transport, below
//! the providers). A file that imports a layer above its own fails this test, naming the file and line.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::{Path, PathBuf};

/// Each layer (a folder of `src/`) and the layers it must never import.
const RULES: &[(&str, &[&str])] = &[
    ("core", &["providers", "http", "platform", "js"]),
    ("http", &["core", "providers", "platform", "js"]),
    ("providers", &["platform", "js"]),
    ("platform", &["js"]),
];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// `crate::LAYER` or `memwasm::LAYER` followed by `::`, `;`, `}` or `,` on a line of code.
fn imports(line: &str, layer: &str) -> bool {
    let code = line.split("//").next().unwrap_or_default();
    ["crate::", "memwasm::"].iter().any(|root| {
        let needle = format!("{root}{layer}");
        code.match_indices(&needle).any(|(at, _)| {
            let next = code[at + needle.len()..].chars().next();
            matches!(next, Some(':' | ';' | '}' | ',' | ' ') | None)
        })
    })
}

#[test]
fn no_layer_imports_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for (layer, forbidden) in RULES {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "src/{layer} has no Rust files");
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            for (number, line) in text.lines().enumerate() {
                for above in forbidden.iter().filter(|above| imports(line, above)) {
                    let shown = file.strip_prefix(&src).unwrap().display();
                    wrong.push(format!("src/{shown}:{}: {layer} imports {above}: {}", number + 1, line.trim()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layering:\n{}", wrong.join("\n"));
}

#[test]
fn the_check_sees_every_way_of_naming_a_layer() {
    assert!(imports("use crate::providers::{Llm};", "providers"));
    assert!(imports("    let x = crate::http::RetryPolicy::default();", "http"));
    assert!(imports("use crate::js;", "js"));
    assert!(!imports("use crate::jsonish::X;", "js"));
    assert!(!imports("// see crate::providers for the wire formats", "providers"));
    assert!(imports("use memwasm::platform::compose;", "platform"));
}
