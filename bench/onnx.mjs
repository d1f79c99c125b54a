// onnxruntime-web (the engine transformers.js runs in browsers: single-threaded SIMD wasm) on
// all-MiniLM-L6-v2 built offline as ONNX from the same f32 weights as our local embedder
// (bench/onnx/build-model.py), in Node and in headless Chromium, with the sentences and batches of
// bench/local-embedder.mjs: ms per sentence and sentences/s for batches of 1, 8 and 32. First a
// correctness gate: every embedding onnxruntime-web returned (every batch size, both runtimes) must have a
// cosine ≥ 0.999 with our embedder's for the same text, or nothing is reported.
// Usage: node bench/onnx.mjs [--json]   (runs bench/onnx/setup.sh first if the model or the package is missing;
// needs the weights from scripts/setup.d/65-minilm.sh and `npm install` in tests/local-embedder).
// bench/local-embedder.mjs can call onnxRows() to put the same numbers next to its own.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createLocalEmbedder } from "../pkg/local-embedder/index.node.mjs";
import { cosine, TOKENIZER, WEIGHTS } from "../tests/local-embedder/fixtures.mjs";
import { benchSentences } from "./lib/sentences.mjs";
import { MODEL, MODEL_INT8, ortBench, ortBenchChromium } from "./onnx/ort.mjs";

const root = new URL("..", import.meta.url);
const ORT_PACKAGE = new URL("bench/onnx/node_modules/onnxruntime-web/package.json", root);
export const MIN_COSINE = 0.999;
/** The gate for the int8 graph, its vectors against memwasm's f32 ones: looser, since onnxruntime's dynamic
 *  quantisation (8-bit activations) itself loses some (its lowest measured cosine was 0.973); the gate still
 *  catches a wrong graph. */
export const MIN_COSINE_INT8 = 0.95;

/** Builds the model and installs onnxruntime-web if either is missing. */
export function ensureSetup() {
  if (existsSync(MODEL) && existsSync(MODEL_INT8) && existsSync(ORT_PACKAGE)) return;
  execFileSync("bash", [new URL("bench/onnx/setup.sh", root).pathname], { stdio: "inherit" });
}

/** The lowest cosine between onnxruntime-web's vectors (per batch size) and ours, with its text. */
function worstCosine(embeddings, ours, texts) {
  let worst = { cosine: Infinity, text: "" };
  for (const [size, vectors] of Object.entries(embeddings)) {
    if (vectors.length !== ours.length) throw new Error(`onnxruntime-web returned ${vectors.length} vectors for batch ${size}, not ${ours.length}`);
    vectors.forEach((v, i) => {
      const c = cosine(v, ours[i]);
      if (!(c >= worst.cosine)) worst = { cosine: c, text: texts[i], batch: Number(size) };
    });
  }
  return worst;
}

/** Per batch size: onnxruntime-web's speed in Node and in Chromium and its lowest cosine with our (f32)
 *  embedder; `int8` runs the int8 graph. Throws when any cosine is under MIN_COSINE (MIN_COSINE_INT8). */
export async function onnxRows({ texts = benchSentences(), sizes = [1, 8, 32], minMs = 3000, int8 = false } = {}) {
  const [model, minCosine] = int8 ? [MODEL_INT8, MIN_COSINE_INT8] : [MODEL, MIN_COSINE];
  ensureSetup();
  const embedder = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER });
  const ids = await Promise.all(texts.map(async (t) => Array.from(await embedder.tokenIds(t))));
  const ours = await embedder.embed(texts);
  embedder.close();
  // The gate, per runtime as soon as it has run: a wrong graph would make the speeds meaningless.
  const check = (run, where) => {
    const worst = worstCosine(run.embeddings, ours, texts);
    if (!(worst.cosine >= minCosine)) {
      throw new Error(`onnxruntime-web in ${where} disagrees with memwasm: cosine ${worst.cosine} < ${minCosine} (batch ${worst.batch}) for ${JSON.stringify(worst.text)}`);
    }
    return worst;
  };
  const node = await ortBench({ texts, ids, sizes, minMs, model });
  const worstNode = check(node, "Node");
  const chromium = await ortBenchChromium({ ids, sizes, minMs, model });
  const worst = [worstNode, check(chromium, "Chromium")].reduce((a, b) => (b.cosine < a.cosine ? b : a));
  const rows = sizes.map((batch, i) => {
    const one = (run) => worstCosine({ [batch]: run.embeddings[batch] }, ours, texts).cosine;
    return { batch, node: node.rows[i], chromium: chromium.rows[i], minCosine: Math.min(one(node), one(chromium)) };
  });
  return {
    sentences: texts.length,
    onnxruntimeWeb: JSON.parse(readFileSync(ORT_PACKAGE, "utf8")).version,
    modelBytes: statSync(model).size,
    minCosine: worst.cosine,
    rows,
  };
}

/** A cosine this close to 1 reads better as 1 − ε. */
const showCosine = (c) => (c === 1 ? "1" : c >= 0.9999 ? `1 − ${(1 - c).toExponential(1)}` : c.toFixed(6));

/** The markdown table of onnxRows()'s result. */
export function onnxTable(result) {
  const cell = (r) => `${r.msPerSentence.toFixed(2)} (${r.sentencesPerSecond.toFixed(0)}/s)`;
  const lines = [
    "| batch | onnxruntime-web, Node | onnxruntime-web, Chromium | min cosine vs memwasm |",
    "|---:|---:|---:|---:|",
    ...result.rows.map((r) => `| ${r.batch} | ${cell(r.node)} | ${cell(r.chromium)} | ${showCosine(r.minCosine)} |`),
  ];
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await onnxRows();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(`onnxruntime-web ${result.onnxruntimeWeb} (wasm, 1 thread, SIMD, graph optimisation "all"); model.onnx ${(result.modelBytes / 1e6).toFixed(1)} MB (f32);`);
    console.log(`${result.sentences} sentences of 10–200 characters, token ids from our tokenizer; ms/sentence (sentences/s)`);
    console.log(onnxTable(result));
    console.log(`\nmin cosine over all ${result.sentences} sentences, every batch size, Node and Chromium: ${result.minCosine} (≥ ${MIN_COSINE} required)`);
  }
}
