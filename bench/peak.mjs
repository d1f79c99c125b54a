// Peak f32 throughput of one core (bench/peak/): wasm SIMD128 in Node and headless Chromium against the
// native SSE, FMA and AVX2+FMA kernels. It bounds what any wasm matmul can reach: the on-device embedder
// spends most of its time in gemm's multiply-add microkernel, so its wasm ÷ native ratio cannot beat
// (native AVX2+FMA peak) ÷ (wasm peak). Relaxed SIMD's fused multiply-add is measured where the engine
// has it (Chromium; Node 20 does not validate it).
// Usage: node bench/peak.mjs [--json]   (needs `npm install` in tests/local-embedder for playwright-core)
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { withChromiumPage } from "./lib/chromium.mjs";

const root = new URL("..", import.meta.url);
const crate = new URL("bench/peak/", root).pathname;
const ACCUMULATORS = 10;
const ITERATIONS = 50_000_000;

function cargo(args, rustflags) {
  const env = { ...process.env, CARGO_TARGET_DIR: `${crate}target` };
  if (rustflags) env.RUSTFLAGS = rustflags;
  execFileSync("cargo", ["build", "--quiet", "--release", "--manifest-path", `${crate}Cargo.toml`, ...args], { env, stdio: "inherit" });
}

/** Builds the two .wasm files (SIMD128, and SIMD128 + relaxed SIMD) and returns their bytes. */
function buildWasm() {
  const out = {};
  for (const [name, features, flags] of [["simd128", [], "+simd128"], ["relaxed", ["--features", "relaxed"], "+simd128,+relaxed-simd"]]) {
    const dir = `${crate}target/wasm-${name}`;
    cargo(["--lib", "--target", "wasm32-unknown-unknown", "--target-dir", dir, ...features], `-C target-feature=${flags}`);
    out[name] = readFileSync(`${dir}/wasm32-unknown-unknown/release/simd_peak.wasm`);
  }
  return out;
}

/** Times each exported kernel (best of 5) and returns GFLOP/s; shared verbatim by Node and the page. */
async function measure({ modules, iterations, accumulators }) {
  const rows = [];
  for (const [label, bytes, kernel] of modules) {
    let instance;
    try {
      ({ instance } = await WebAssembly.instantiate(bytes));
    } catch (e) {
      rows.push({ name: label, lanes: 4, gflops: null, error: e instanceof WebAssembly.CompileError ? "the engine refuses relaxed SIMD" : String(e) });
      continue;
    }
    let best = Infinity;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      instance.exports[kernel](iterations, 0.5 + run * 1e-3);
      best = Math.min(best, (performance.now() - started) / 1000);
    }
    rows.push({ name: label, lanes: 4, gflops: (iterations * accumulators * 4 * 2) / best / 1e9 });
  }
  return rows;
}

function nativeRows() {
  cargo(["--bin", "simd-peak"]);
  return JSON.parse(execFileSync(`${crate}target/release/simd-peak`));
}

const SIMD128 = "SIMD128: 4 lanes, multiply then add";
const RELAXED = "relaxed SIMD: 4 lanes, relaxed_madd";

async function chromiumRows(wasm) {
  return withChromiumPage((page) =>
    page.evaluate(async ({ source, modules, iterations, accumulators }) => {
      const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      return (0, eval)(`(${source})`)({ modules: modules.map(([l, b, k]) => [l, bytes(b), k]), iterations, accumulators });
    }, {
      source: measure.toString(),
      modules: [[`Chromium ${SIMD128}`, wasm.simd128.toString("base64"), "mul_add_f32x4"], [`Chromium ${RELAXED}`, wasm.relaxed.toString("base64"), "relaxed_madd_f32x4"]],
      iterations: ITERATIONS,
      accumulators: ACCUMULATORS,
    }));
}

/** Every row: native kernels, then Node and Chromium. */
export async function peak() {
  const wasm = buildWasm();
  const node = await measure({
    modules: [[`Node ${SIMD128}`, wasm.simd128, "mul_add_f32x4"], [`Node ${RELAXED}`, wasm.relaxed, "relaxed_madd_f32x4"]],
    iterations: ITERATIONS,
    accumulators: ACCUMULATORS,
  });
  return [...nativeRows(), ...node, ...(await chromiumRows(wasm))];
}

/** Markdown table; the ratio is the AVX2+FMA peak over each row's. */
export function peakTable(rows) {
  const top = rows.find((r) => r.lanes === 8)?.gflops;
  const lines = ["| kernel (one core, f32) | GFLOP/s | AVX2+FMA peak ÷ this |", "|---|---:|---:|"];
  for (const r of rows) {
    const value = r.gflops == null ? `not available (${r.error})` : r.gflops.toFixed(1);
    const ratio = r.gflops && top ? `${(top / r.gflops).toFixed(2)}×` : "";
    lines.push(`| ${r.name} | ${value} | ${ratio} |`);
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await peak();
  console.log(process.argv.includes("--json") ? JSON.stringify(rows, null, 2) : peakTable(rows));
}
