//! The native reference of `bench/`: generates (or reuses) a seeded data set and serves timed rounds of
//! memwasm's scan algorithm in native Rust — exact f32, and int8 + rescoring — to the Node process of the
//! figure, which interleaves them with its own contenders so that every one runs under the same conditions.
//!
//! Usage: memwasm-bench-native DATA_DIR KIND N DIM QUERIES SEED K
//! Prints one JSON line (data set, exact top-k of every query, int8 recall, vector bytes), then answers
//! each stdin line `f32` or `int8` with one JSON line: the milliseconds of each query of one round.

mod data;
mod scan;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

use data::{ensure, Spec};
use scan::Index;

fn arg<T: std::str::FromStr>(args: &[String], i: usize, name: &str) -> T {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        eprintln!("usage: memwasm-bench-native DATA_DIR KIND N DIM QUERIES SEED K (bad {name})");
        std::process::exit(2)
    })
}

fn rows(hits: Vec<(f32, u32)>) -> Vec<u32> {
    hits.into_iter().map(|(_, row)| row).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir: PathBuf = arg(&args, 1, "DATA_DIR");
    let spec = Spec {
        kind: arg(&args, 2, "KIND"),
        n: arg(&args, 3, "N"),
        dim: arg(&args, 4, "DIM"),
        queries: arg(&args, 5, "QUERIES"),
        seed: arg(&args, 6, "SEED"),
    };
    let k: usize = arg(&args, 7, "K");
    let data = ensure(&dir, &spec);
    let index = Index::new(&data.vectors, spec.dim, &data.users);
    drop(data.vectors);
    let queries: Vec<&[f32]> = data.queries.chunks_exact(spec.dim).collect();

    let exact: Vec<Vec<u32>> = queries.iter().map(|q| rows(index.top_f32(q, k, 0))).collect();
    let int8: Vec<Vec<u32>> = queries.iter().map(|q| rows(index.top_int8(q, k, 0))).collect();
    let found: usize = exact.iter().zip(&int8).map(|(e, i)| i.iter().filter(|r| e.contains(r)).count()).sum();
    let recall = found as f64 / exact.iter().map(Vec::len).sum::<usize>().max(1) as f64;
    let exact = exact.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>().join(",");
    let mut out = std::io::stdout().lock();
    let header = format!(
        "{{\"name\":\"{}\",\"kernels\":\"{}\",\"f32Bytes\":{},\"int8Bytes\":{},\"int8Recall\":{recall:.5},\"exact\":[{exact}]}}",
        spec.name(),
        scan::kernels(),
        index.f32_bytes(),
        index.int8_bytes(),
    );
    writeln!(out, "{header}").and_then(|_| out.flush()).expect("stdout");

    let mut sink = 0u64;
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let search = match line.trim() {
            "f32" => Index::top_f32,
            "int8" => Index::top_int8,
            _ => break,
        };
        let times: Vec<String> = queries
            .iter()
            .map(|q| {
                let start = Instant::now();
                sink = sink.wrapping_add(u64::from(search(&index, q, k, 0)[0].1));
                format!("{:.5}", start.elapsed().as_secs_f64() * 1e3)
            })
            .collect();
        writeln!(out, "[{}]", times.join(",")).and_then(|_| out.flush()).expect("stdout");
    }
    eprintln!("native: done (checksum {sink})");
}
