//! Fuzz target `message`: see `fuzz/harness.rs`.
#![no_main]

#[path = "../harness.rs"]
#[allow(dead_code)] // each target uses one function of the shared harness
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::message(data));
