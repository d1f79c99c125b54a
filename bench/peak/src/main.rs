//! Prints the native kernels' GFLOP/s as JSON: `[{name, lanes, gflops}]` (best of 5 runs, one thread).
#[cfg(target_arch = "x86_64")]
fn main() {
    use simd_peak::{x86::kernels, ACCUMULATORS};
    use std::time::Instant;
    const ITERATIONS: u32 = 50_000_000;
    let rows: Vec<String> = kernels()
        .iter()
        .map(|k| {
            let best = (0..5)
                .map(|run| {
                    let started = Instant::now();
                    std::hint::black_box((k.run)(std::hint::black_box(ITERATIONS), 0.5 + run as f32 * 1e-3));
                    started.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min);
            let flops = ITERATIONS as f64 * (ACCUMULATORS * k.lanes * 2) as f64;
            format!(r#"{{"name":"{}","lanes":{},"gflops":{:.2}}}"#, k.name, k.lanes, flops / best / 1e9)
        })
        .collect();
    println!("[{}]", rows.join(","));
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("[]");
}
