// Bench of the on-device embedder (memwasm/local-embedder): ms per sentence and sentences/s for batches
// of 1, 8 and 32 in Node and in Debian's headless Chromium, against the native build of the same crate
// (local-embedder/examples/bench.rs, one thread like wasm, and all cores). Same sentences everywhere:
// the 10–200-character ones of tests/local-embedder/sentences.json.
// Usage: node bench/local-embedder.mjs [--json]   (needs scripts/build-local-embedder.sh, the weights from
// scripts/setup.d/65-minilm.sh and `npm install` in tests/local-embedder for playwright-core).
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { createLocalEmbedder } from "../pkg/local-embedder/index.node.mjs";
import { TOKENIZER, WEIGHTS } from "../tests/local-embedder/fixtures.mjs";
import { serveTestSite } from "../tests/local-embedder/server.mjs";

const root = new URL("..", import.meta.url);
const require = createRequire(new URL("tests/local-embedder/package.json", root));
const { chromium } = require("playwright-core");
const sentences = JSON.parse(readFileSync(new URL("tests/local-embedder/sentences.json", root), "utf8"));
const texts = sentences.filter((t) => [...t].length >= 10 && [...t].length <= 200);
const SIZES = [1, 8, 32];
const MIN_MS = 3000;

/** The timing loop, shared verbatim by Node and the browser page (serialised by Playwright). */
async function measure({ embedder, texts, sizes, minMs }) {
  const rows = [];
  for (const size of sizes) {
    await embedder.embed(texts.slice(0, size));
    let done = 0;
    const started = performance.now();
    while (performance.now() - started < minMs || done < texts.length) {
      for (let i = 0; i < texts.length; i += size) done += (await embedder.embed(texts.slice(i, i + size))).length;
    }
    const ms = (performance.now() - started) / done;
    rows.push({ batch: size, msPerSentence: ms, sentencesPerSecond: 1000 / ms });
  }
  return rows;
}

function native(threads) {
  const target = new URL("local-embedder/target/", root).pathname;
  execFileSync("cargo", ["build", "--quiet", "--release", "--example", "bench", "--manifest-path", new URL("local-embedder/Cargo.toml", root).pathname],
    { env: { ...process.env, CARGO_TARGET_DIR: target }, stdio: "inherit" });
  const out = execFileSync(`${target}release/examples/bench`, ["--json"], { env: { ...process.env, RAYON_NUM_THREADS: String(threads) } });
  return JSON.parse(out).rows;
}

async function node() {
  const embedder = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER });
  return measure({ embedder, texts, sizes: SIZES, minMs: MIN_MS });
}

async function browser() {
  const site = await serveTestSite();
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    await page.goto(`${site.url}/tests/local-embedder/page.html`);
    await page.waitForFunction(() => window.ready === true);
    return await page.evaluate(async ({ source, texts, sizes, minMs }) => {
      const embedder = await window.localEmbedder.createLocalEmbedder({ weights: "/minilm/model.safetensors", tokenizer: "/minilm/tokenizer.json" });
      return (0, eval)(`(${source})`)({ embedder, texts, sizes, minMs });
    }, { source: measure.toString(), texts, sizes: SIZES, minMs: MIN_MS });
  } finally {
    await browser.close();
    await site.close();
  }
}

const results = { native1: native(1), nativeAll: native(0), node: await node(), chromium: await browser() };
const wasm = new URL("pkg/local-embedder/dist/local_embedder_bg.wasm", root);
// gzip -9 as scripts/build-local-embedder.sh reports it (Node's zlib packs about 2% larger).
const gzipped = execFileSync("gzip", ["-9", "-c", wasm.pathname], { maxBuffer: 1 << 26 }).length;
const size = { wasmBytes: statSync(wasm).size, wasmGzipBytes: gzipped, weightsBytes: statSync(WEIGHTS).size };
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ sentences: texts.length, size, results }, null, 2));
} else {
  console.log(`${texts.length} sentences of 10–200 characters; ms/sentence (sentences/s); ratio = wasm ÷ native 1 thread`);
  console.log("| batch | native, 1 thread | native, all cores | Node (wasm) | ratio | Chromium (wasm) | ratio |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  const cell = (r) => `${r.msPerSentence.toFixed(2)} (${r.sentencesPerSecond.toFixed(0)}/s)`;
  SIZES.forEach((b, i) => {
    const [n1, na, nd, ch] = [results.native1[i], results.nativeAll[i], results.node[i], results.chromium[i]];
    const ratio = (r) => `${(r.msPerSentence / n1.msPerSentence).toFixed(2)}×`;
    console.log(`| ${b} | ${cell(n1)} | ${cell(na)} | ${cell(nd)} | ${ratio(nd)} | ${cell(ch)} | ${ratio(ch)} |`);
  });
  const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
  console.log(`\nlocal_embedder_bg.wasm: ${mb(size.wasmBytes)} raw, ${mb(size.wasmGzipBytes)} gzip -9; weights (f32 safetensors): ${mb(size.weightsBytes)}`);
}
