//! Replays the fuzz corpora (`fuzz/corpus/<target>/`, the seeds and whatever `scripts/fuzz.sh` found worth
//! keeping) and the inputs of fixed crashes (`fuzz/regressions/<target>/`) through the same harness the
//! libFuzzer targets use, on the stable toolchain: a parser that starts to panic on any of them fails CI.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/harness.rs"]
mod harness;

use std::fs;
use std::path::Path;

#[test]
fn every_corpus_and_regression_input_is_handled_without_a_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut replayed = 0;
    for (target, run) in harness::TARGETS {
        for folder in ["corpus", "regressions"] {
            let Ok(entries) = fs::read_dir(root.join(folder).join(target)) else { continue };
            for entry in entries.flatten() {
                let data = fs::read(entry.path()).unwrap();
                let outcome = std::panic::catch_unwind(|| run(&data));
                assert!(outcome.is_ok(), "{target}: {} panics", entry.path().display());
                replayed += 1;
            }
        }
    }
    assert!(replayed >= harness::TARGETS.len() * 3, "the corpora hold at least 3 seeds per target ({replayed})");
}
