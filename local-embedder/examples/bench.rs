//! Native bench of the same code the .wasm runs: ms per sentence and sentences/s for batches of 1, 8
//! and 32 over the memory-sized sentences of tests/local-embedder/sentences.json (10–200 characters).
//! `cargo run --release --example bench [-- --json]`; weights from MINILM_DIR (default
//! ~/.cache/memwasm/minilm). RAYON_NUM_THREADS=1 pins candle's matmuls to one thread, like wasm.

use memwasm_local_embedder::Embedder;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const BATCHES: [usize; 3] = [1, 8, 32];
const MIN_TIME: Duration = Duration::from_secs(3);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let home = std::env::var("HOME")?;
    let dir = std::env::var("MINILM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(home).join(".cache/memwasm/minilm"));
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let sentences: Vec<String> =
        serde_json::from_slice(&std::fs::read(here.join("../tests/local-embedder/sentences.json"))?)?;
    let texts: Vec<&str> =
        sentences.iter().map(String::as_str).filter(|t| (10..=200).contains(&t.chars().count())).collect();
    let started = Instant::now();
    let embedder =
        Embedder::new(std::fs::read(dir.join("model.safetensors"))?, &std::fs::read(dir.join("tokenizer.json"))?)?;
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    let json = std::env::args().any(|a| a == "--json");
    let mut rows = Vec::new();
    for size in BATCHES {
        embedder.embed(&texts[..size])?; // warm-up
        let (mut done, started) = (0usize, Instant::now());
        while started.elapsed() < MIN_TIME || done < texts.len() {
            for chunk in texts.chunks(size) {
                done += embedder.embed(chunk)?.len();
            }
        }
        let ms = started.elapsed().as_secs_f64() * 1e3 / done as f64;
        rows.push(format!("{{\"batch\":{size},\"msPerSentence\":{ms:.3},\"sentencesPerSecond\":{:.1}}}", 1e3 / ms));
        if !json {
            println!("batch {size:>2}: {ms:7.2} ms/sentence {:8.1} sentences/s", 1e3 / ms);
        }
    }
    if json {
        println!("{{\"loadMs\":{load_ms:.0},\"sentences\":{},\"rows\":[{}]}}", texts.len(), rows.join(","));
    } else {
        println!("{} sentences, load {load_ms:.0} ms", texts.len());
    }
    Ok(())
}
