// Bench of the on-device embedder (memwasm/local-embedder): ms per sentence and sentences/s for batches
// of 1, 8 and 32 in Node and in Debian's headless Chromium, against the native build of the same crate
// (local-embedder/examples/bench.rs, one thread like wasm, and all cores). Same sentences everywhere:
// the 10–200-character ones of tests/local-embedder/sentences.json. Then the bound on the ratio: the peak f32
// multiply-add of one core in wasm and natively (bench/peak.mjs). Then `quantization: "int8"` in Node and
// Chromium against f32, beside onnxruntime-web on the same graph quantised to int8 (bench/onnx/quantize-model.py).
// Usage: node bench/local-embedder.mjs [--json]   (needs scripts/build-local-embedder.sh, the weights from
// scripts/setup.d/65-minilm.sh and `npm install` in tests/local-embedder for playwright-core).
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { createLocalEmbedder } from "../pkg/local-embedder/index.node.mjs";
import { TOKENIZER, WEIGHTS } from "../tests/local-embedder/fixtures.mjs";
import { withChromiumPage } from "./lib/chromium.mjs";
import { benchSentences } from "./lib/sentences.mjs";
import { onnxRows } from "./onnx.mjs";
import { peak, peakTable } from "./peak.mjs";

const root = new URL("..", import.meta.url);
const texts = benchSentences();
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

async function node(quantization = "none") {
  const embedder = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER, quantization });
  const rows = await measure({ embedder, texts, sizes: SIZES, minMs: MIN_MS });
  const lengths = await Promise.all(texts.map(async (t) => (await embedder.tokenIds(t)).length));
  return { rows, lengths };
}

// all-MiniLM-L6-v2's shape (its config.json): the multiply-adds of one forward pass.
const LAYERS = 6, HIDDEN = 384, INTERMEDIATE = 1536;

/** Floating-point operations per sentence when the texts go through in batches of `size`, each padded
 *  to its longest row: per token and layer the Q, K, V and output projections and the two feed-forward
 *  matmuls; per sequence and layer the attention scores and their weighted sum. */
function flopsPerSentence(lengths, size) {
  let total = 0;
  for (let i = 0; i < lengths.length; i += size) {
    const batch = lengths.slice(i, i + size);
    const padded = Math.max(...batch);
    const perToken = 2 * (4 * HIDDEN * HIDDEN + 2 * HIDDEN * INTERMEDIATE);
    total += LAYERS * batch.length * (padded * perToken + 4 * padded * padded * HIDDEN);
  }
  return total / lengths.length;
}

async function browser(quantization = "none") {
  return withChromiumPage(async (page) => {
    await page.waitForFunction(() => window.ready === true);
    return await page.evaluate(async ({ source, texts, sizes, minMs, quantization }) => {
      const embedder = await window.localEmbedder.createLocalEmbedder({ weights: "/minilm/model.safetensors", tokenizer: "/minilm/tokenizer.json", quantization });
      return (0, eval)(`(${source})`)({ embedder, texts, sizes, minMs });
    }, { source: measure.toString(), texts, sizes: SIZES, minMs: MIN_MS, quantization });
  }, "/tests/local-embedder/page.html");
}

const inNode = await node();
const results = { native1: native(1), nativeAll: native(0), node: inNode.rows, chromium: await browser(), peak: await peak() };
// onnxruntime-web (transformers.js's engine in browsers) on the same weights; a failed setup skips it.
results.onnx = await onnxRows({ texts, sizes: SIZES, minMs: MIN_MS }).catch((error) => ({ error: String(error.message ?? error) }));
results.int8 = { node: (await node("int8")).rows, chromium: await browser("int8") };
results.onnxInt8 = await onnxRows({ texts, sizes: SIZES, minMs: MIN_MS, int8: true }).catch((error) => ({ error: String(error.message ?? error) }));
results.int8.minCosine = await int8Cosine();
const best = (label) => results.peak.find((r) => r.name.startsWith(label))?.gflops;
const [wide, narrow] = [best("native AVX2+FMA"), Math.max(best("Node SIMD128"), best("Chromium SIMD128"))];
results.use = SIZES.map((batch, i) => {
  const flops = flopsPerSentence(inNode.lengths, batch);
  const gflops = (row) => flops / row.msPerSentence / 1e6;
  const native = gflops(results.native1[i]);
  return { batch, gflopPerSentence: flops / 1e9, native, node: gflops(results.node[i]), chromium: gflops(results.chromium[i]), neededFor1_5: native / 1.5 };
});
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
  const onnx = results.onnx;
  if (onnx.error) console.log(`\nonnxruntime-web: not measured (${onnx.error})`);
  else {
    console.log(`\nonnxruntime-web ${onnx.onnxruntimeWeb} (transformers.js's engine in browsers: wasm, 1 thread, SIMD) on the same f32 weights as ONNX`);
    console.log(`(bench/onnx/build-model.py); lowest cosine with memwasm's vectors ${onnx.minCosine.toFixed(6)}. ratio = memwasm ÷ onnxruntime-web:`);
    console.log("| batch | onnxruntime-web, Node | memwasm ÷ it | onnxruntime-web, Chromium | memwasm ÷ it | it ÷ native, 1 thread |");
    console.log("|---:|---:|---:|---:|---:|---:|");
    onnx.rows.forEach((r, i) => {
      const over = (ours, theirs) => `${(ours.msPerSentence / theirs.msPerSentence).toFixed(2)}×`;
      const bestOrt = r.node.msPerSentence < r.chromium.msPerSentence ? r.node : r.chromium;
      console.log(`| ${r.batch} | ${cell(r.node)} | ${over(results.node[i], r.node)} | ${cell(r.chromium)} | ${over(results.chromium[i], r.chromium)} | ${over(bestOrt, results.native1[i])} |`);
    });
    console.log("\n| target: memwasm's time ≤ 1.0 × onnxruntime-web's, same weights, same run | measured | |\n|---|---|---|");
    onnx.rows.forEach((r, i) => {
      for (const [where, ours, theirs] of [["Node", results.node[i], r.node], ["Chromium", results.chromium[i], r.chromium]]) {
        const ratio = ours.msPerSentence / theirs.msPerSentence;
        console.log(`| batch ${r.batch}, ${where} | ${ratio.toFixed(2)}× | ${ratio <= 1 ? "met" : "NOT met"} |`);
      }
    });
  }
  console.log(int8Table(results, cell));
  console.log(`\nThe bound (bench/peak.mjs): one core's peak f32 multiply-add is ${(wide / narrow).toFixed(2)}× higher natively (8 lanes, FMA) than in wasm (4 lanes).\n`);
  console.log(peakTable(results.peak));
  const share = (g, peakOf) => `${g.toFixed(1)} (${((100 * g) / peakOf).toFixed(0)}%)`;
  console.log(`\nGFLOP/s of the forward passes (the model's multiply-adds; padding counted) and their share of the peak:`);
  console.log("| batch | GFLOP per sentence | native, 1 thread (of AVX2+FMA peak) | Node (of wasm peak) | Chromium (of wasm peak) | wasm needs for 1.5× (of wasm peak) |");
  console.log("|---:|---:|---:|---:|---:|---:|");
  for (const u of results.use) {
    console.log(`| ${u.batch} | ${u.gflopPerSentence.toFixed(2)} | ${share(u.native, wide)} | ${share(u.node, narrow)} | ${share(u.chromium, narrow)} | ${share(u.neededFor1_5, narrow)} |`);
  }
  console.log(`\nlocal_embedder_bg.wasm: ${mb(size.wasmBytes)} raw, ${mb(size.wasmGzipBytes)} gzip -9; weights (f32 safetensors): ${mb(size.weightsBytes)}`);
}

/** The lowest cosine between `quantization: "int8"`'s vectors and f32's over the bench sentences (Node). */
async function int8Cosine() {
  const [f32, int8] = await Promise.all(["none", "int8"].map((quantization) => createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER, quantization })));
  const [a, b] = [await f32.embed(texts), await int8.embed(texts)];
  f32.close();
  int8.close();
  return Math.min(...a.map((v, i) => v.reduce((sum, x, j) => sum + x * b[i][j], 0) / Math.hypot(...v) / Math.hypot(...b[i])));
}

/** `quantization: "int8"` against f32 (same run), and onnxruntime-web on the int8 graph when it ran. */
function int8Table(results, cell) {
  const over = (a, b) => `${(a.msPerSentence / b.msPerSentence).toFixed(2)}×`;
  const lines = ['\nquantization: "int8" (ratio = int8 time ÷ f32 time, same run); onnxruntime-web on the int8 graph (bench/onnx/quantize-model.py):',
    "| batch | Node int8 | ÷ f32 | Chromium int8 | ÷ f32 | onnxruntime-web int8, Node | ours ÷ it | onnxruntime-web int8, Chromium | ours ÷ it |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"];
  SIZES.forEach((batch, i) => {
    const [nd, ch] = [results.int8.node[i], results.int8.chromium[i]];
    const ort = results.onnxInt8.rows?.[i];
    const theirs = ort ? [cell(ort.node), over(nd, ort.node), cell(ort.chromium), over(ch, ort.chromium)] : ["–", "–", "–", "–"];
    lines.push(`| ${batch} | ${cell(nd)} | ${over(nd, results.node[i])} | ${cell(ch)} | ${over(ch, results.chromium[i])} | ${theirs.join(" | ")} |`);
  });
  if (results.onnxInt8.error) lines.push(`\nonnxruntime-web int8: not measured (${results.onnxInt8.error})`);
  else lines.push(`\nonnxruntime-web int8: lowest cosine with memwasm's f32 vectors ${results.onnxInt8.minCosine.toFixed(6)}`);
  const cos = results.int8.minCosine;
  lines.push("\n| target: int8 ≤ 1.0 × onnxruntime-web int8 (batches 1 and 8), cosine to f32 ≥ 0.99 | measured | |", "|---|---|---|");
  SIZES.filter((batch) => batch <= 8).forEach((batch) => {
    const i = SIZES.indexOf(batch);
    const ort = results.onnxInt8.rows?.[i];
    for (const [where, ours, theirs] of [["Node", results.int8.node[i], ort?.node], ["Chromium", results.int8.chromium[i], ort?.chromium]]) {
      const ratio = theirs ? ours.msPerSentence / theirs.msPerSentence : NaN;
      lines.push(`| batch ${batch}, ${where} | ${theirs ? `${ratio.toFixed(2)}×` : "not measured"} | ${ratio <= 1 ? "met" : "NOT met"} |`);
    }
  });
  lines.push(`| lowest cosine of memwasm's int8 vectors to its f32 ones, ${texts.length} sentences | ${cos.toFixed(6)} | ${cos >= 0.99 ? "met" : "NOT met"} |`);
  return lines.join("\n");
}
