// onnxruntime-web on the offline all-MiniLM-L6-v2 graph (.model/model.onnx, from build-model.py), the way
// transformers.js runs it in a browser without WebGPU: the wasm execution provider, one thread, SIMD (the
// only wasm build onnxruntime-web ships), all graph optimisations. In Node (ortBench) and in Debian's
// headless Chromium (ortBenchChromium, through page.html), with one timing loop shared verbatim by both.
// It gets token ids, not texts: the ids of our local embedder's tokenizer (tests prove them equal to
// Hugging Face tokenizers'), so the two engines see the same input and tokenizing is not timed here.
import { readFileSync } from "node:fs";
import { withChromiumPage } from "../lib/chromium.mjs";

const root = new URL("../../", import.meta.url);
export const MODEL = new URL("bench/onnx/.model/model.onnx", root);
/** The same graph quantised to int8 (quantize-model.py). */
export const MODEL_INT8 = new URL("bench/onnx/.model/model.int8.onnx", root);

/** Batches of `sizes` token-id rows through `model` (bytes or URL) for at least `minMs` each; like
 *  bench/local-embedder.mjs's measure(). Self-contained: Playwright serialises it into the page. */
export async function measureOrt({ ort, model, ids, sizes, minMs }) {
  ort.env.wasm.numThreads = 1;
  const session = await ort.InferenceSession.create(model, { executionProviders: ["wasm"], graphOptimizationLevel: "all" });
  const dim = 384;
  // One forward pass: pad to the longest row with id 0, mask 1 on real tokens; returns one vector per row.
  async function embed(rows) {
    const seq = Math.max(...rows.map((r) => r.length));
    const inputIds = new BigInt64Array(rows.length * seq);
    const mask = new BigInt64Array(rows.length * seq);
    rows.forEach((row, i) => row.forEach((id, j) => ((inputIds[i * seq + j] = BigInt(id)), (mask[i * seq + j] = 1n))));
    const dims = [rows.length, seq];
    const out = await session.run({ input_ids: new ort.Tensor("int64", inputIds, dims), attention_mask: new ort.Tensor("int64", mask, dims) });
    const data = out.sentence_embedding.data;
    return rows.map((_, i) => data.subarray(i * dim, (i + 1) * dim));
  }
  // Warm-up, untimed: one pass over all the rows, one at a time. Node's V8 is still tiering up
  // onnxruntime's wasm after a single call (the first 3 s at batch 1 came out 0.5–3 ms/sentence slower).
  for (const row of ids) await embed([row]);
  const rows = [], embeddings = {};
  for (const size of sizes) {
    await embed(ids.slice(0, size));
    const first = [];
    let done = 0;
    const started = performance.now();
    while (performance.now() - started < minMs || done < ids.length) {
      for (let i = 0; i < ids.length; i += size) {
        const vectors = await embed(ids.slice(i, i + size));
        if (first.length < ids.length) first.push(...vectors.map((v) => v.slice()));
        done += vectors.length;
      }
    }
    const ms = (performance.now() - started) / done;
    rows.push({ batch: size, msPerSentence: ms, sentencesPerSecond: 1000 / ms });
    embeddings[size] = first.map((v) => Array.from(v)); // plain arrays survive Playwright's serialisation
  }
  await session.release();
  return { rows, embeddings };
}

/** In Node: onnxruntime-web's Node build (dist/ort.node.min.mjs, the same wasm). `texts` only for symmetry
 *  with the local embedder's bench; the graph takes `ids`. */
export async function ortBench({ texts, ids, sizes, minMs, model = MODEL }) {
  if (texts && texts.length !== ids.length) throw new Error("ortBench: texts and ids differ in length");
  const ort = await import("onnxruntime-web");
  return measureOrt({ ort, model: new Uint8Array(readFileSync(model)), ids, sizes, minMs });
}

/** In headless Chromium: page.html imports dist/ort.wasm.min.mjs (wasm execution provider only) from the
 *  repository root served by tests/local-embedder/server.mjs; the model is fetched from the same server. */
export async function ortBenchChromium({ ids, sizes, minMs, model = MODEL }) {
  const path = new URL(model).pathname.slice(new URL(root).pathname.length - 1);
  return withChromiumPage(async (page, errors) => {
    await page.waitForFunction(() => window.ready === true || window.failed, null, { timeout: 60000 });
    const failed = await page.evaluate(() => window.failed);
    if (failed || errors.length) throw new Error(`bench/onnx/page.html: ${failed ?? errors.join("; ")}`);
    return await page.evaluate(({ source, ids, sizes, minMs, path }) =>
      (0, eval)(`(${source})`)({ ort: window.ort, model: path, ids, sizes, minMs }),
      { source: measureOrt.toString(), ids, sizes, minMs, path });
  }, "/bench/onnx/page.html");
}
