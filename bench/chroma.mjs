// The in-RAM index against Chroma (docs/chroma.md): how much .wasm linear memory an
// instance grows by while N memories (384-d, storage "memory") are added one by one, the mean add, and the
// search p50 (by vector, top 10; the first search apart: Chroma indexes what was written then). Each variant
// runs in a Node process of its own, against a real Chroma server on 127.0.0.1. Usage:
// `node bench/chroma.mjs [--n 10000]`; needs the package built and chromadb installed (scripts/test.sh).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { unitVector } from "./lib/unit-vector.mjs";

const DIM = 384;
const QUERIES = 50;
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);

const vector = (seed) => unitVector(seed, DIM);

/** The package's glue, instantiated here so the linear memory can be read. */
function load() {
  const dist = new URL("../pkg/dist/", import.meta.url);
  return import(new URL("memwasm.js", dist)).then((glue) => {
    const wasm = glue.initSync({ module: readFileSync(new URL("memwasm_bg.wasm", dist)) });
    return { Memory: glue.Memory, wasm };
  });
}

let embedded = 0;

function config(chromaUrl) {
  const embedder = { provider: "custom", dimensions: DIM, embed: async (texts) => texts.map(() => vector(++embedded)) };
  const llm = { provider: "custom", generate: async () => "{}" };
  const vectorStore = chromaUrl && { provider: "chroma", config: { url: chromaUrl, collectionName: `bench-${process.pid}`, timeoutMs: 120_000 } };
  return { llm, embedder, ...(vectorStore ? { vectorStore } : {}) };
}

/** One variant, in this process: prints {bytes, addMs, firstMs, p50}. */
async function child(n, chromaUrl) {
  const { Memory, wasm } = await load();
  const memory = new Memory(config(chromaUrl));
  const base = wasm.memory.buffer.byteLength;
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    await memory.add(`memory ${i}`, { userId: "bench", infer: false });
  }
  const addMs = (performance.now() - started) / n;
  const warm = performance.now();
  await memory.search({ embedding: vector(999_999) }, { userId: "bench", limit: 10 }); // Chroma indexes the import
  const firstMs = performance.now() - warm;
  const times = [];
  for (let q = 0; q < QUERIES; q++) {
    const t = performance.now();
    await memory.search({ embedding: vector(1_000_000 + q) }, { userId: "bench", limit: 10 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const bytes = wasm.memory.buffer.byteLength - base;
  process.stdout.write(JSON.stringify({ bytes, addMs, firstMs, p50: times[times.length >> 1] }));
}

async function main() {
  const n = Number(option("--n", "10000"));
  const { startChroma } = await import("../tests/support/chroma-server.mjs");
  const chroma = await startChroma();
  try {
    // Asynchronously: this process must keep reading the Chroma server's output meanwhile.
    const run = async (url) => {
      const argv = [fileURLToPath(import.meta.url), "--child", String(n), ...(url ? ["--chroma", url] : [])];
      const { stdout } = await promisify(execFile)(process.execPath, argv, { maxBuffer: 1 << 20 });
      return JSON.parse(stdout);
    };
    const ram = await run();
    const remote = await run(chroma.url);
    const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
    console.log(`\nChroma vs the in-RAM index: ${n} memories, ${DIM}-d, storage "memory", search by vector top 10`);
    console.log("| | in-RAM index | Chroma | Chroma / in-RAM |\n|---|---|---|---|");
    console.log(`| .wasm memory grown by the adds | ${mb(ram.bytes)} MB | ${mb(remote.bytes)} MB | ${(remote.bytes / ram.bytes).toFixed(2)}× |`);
    console.log(`| add (infer: false), mean | ${ram.addMs.toFixed(2)} ms | ${remote.addMs.toFixed(2)} ms | ${(remote.addMs / ram.addMs).toFixed(1)}× |`);
    console.log(`| first search | ${ram.firstMs.toFixed(1)} ms | ${remote.firstMs.toFixed(0)} ms | ${(remote.firstMs / ram.firstMs).toFixed(0)}× |`);
    console.log(`| search p50 | ${ram.p50.toFixed(2)} ms | ${remote.p50.toFixed(2)} ms | ${(remote.p50 / ram.p50).toFixed(1)}× |`);
  } finally {
    await chroma.close();
  }
}

if (args.includes("--child")) {
  await child(Number(option("--child")), option("--chroma"));
} else {
  await main();
}
