// memwasm/local-embedder in Debian's headless Chromium (playwright-core, never a downloaded browser):
// load from URLs, embed against the reference, search through Memory, then a new browser on the same
// profile opens it again from the Cache API with zero requests for the weights; `worker: true` keeps the
// page responsive, for the embedder and the cross-encoder reranker; broken downloads are EMBEDDER_LOAD.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { crossReference, reference, worst } from "./fixtures.mjs";
import { serveTestSite } from "./server.mjs";

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"];
const MODEL = { weights: "/minilm/model.safetensors", tokenizer: "/minilm/tokenizer.json" };
const rows = reference();
let site, profile;

before(async () => {
  site = await serveTestSite();
  profile = mkdtempSync(join(tmpdir(), "memwasm-local-embedder-"));
});
after(async () => {
  await site?.close();
  rmSync(profile, { recursive: true, force: true });
});

/** A browser on the shared profile with the test page loaded; `fn(page)`, then the browser closes. */
async function withPage(fn) {
  const context = await chromium.launchPersistentContext(profile, { executablePath: "/usr/bin/chromium", headless: true, args: ARGS });
  try {
    const page = await context.newPage();
    await page.goto(`${site.url}/tests/local-embedder/page.html`);
    await page.waitForFunction(() => window.ready === true);
    return await fn(page);
  } finally {
    await context.close();
  }
}

/** Opens the embedder in the page and embeds `texts` in batches of `size`; returns the vectors and what it took. */
const embedInPage = (page, texts, options) =>
  page.evaluate(async ({ texts, options }) => {
    const progress = [];
    const embedder = await window.localEmbedder.createLocalEmbedder({ ...options, onProgress: (p) => progress.push(p) });
    const vectors = [];
    for (let i = 0; i < texts.length; i += 32) vectors.push(...(await embedder.embed(texts.slice(i, i + 32))).map((v) => Array.from(v)));
    const ids = await Promise.all(texts.map((t) => embedder.tokenIds(t)));
    embedder.close();
    return { vectors, ids, progress: progress.length, dimensions: embedder.dimensions };
  }, { texts, options });

test("first open downloads the weights once, embeds like the reference and searches through Memory", async () => {
  await withPage(async (page) => {
    const texts = rows.map((r) => r.text);
    const { vectors, ids, progress, dimensions } = await embedInPage(page, texts, MODEL);
    assert.equal(dimensions, 384);
    assert.ok(progress > 0, "progress was reported");
    const w = worst(rows, vectors);
    assert.ok(w.cosine >= 0.999, `cosine ${w.cosine} for ${JSON.stringify(w.text.slice(0, 40))}`);
    rows.forEach((row, i) => assert.deepEqual(ids[i], row.ids, row.text));
    const top = await page.evaluate(async (model) => {
      const memory = new window.memwasm.Memory({ llm: { provider: "none" }, embedder: { provider: "local", config: model } });
      for (const fact of ["User likes Python", "User lives in Berlin", "User is allergic to peanuts"]) await memory.add(fact, { userId: "u", infer: false });
      return (await memory.search("programming languages", { userId: "u", limit: 1 })).results[0].memory;
    }, MODEL);
    assert.equal(top, "User likes Python");
  });
  assert.equal(site.hits("/minilm/model.safetensors"), 1, "one download of the weights");
  assert.equal(site.hits("/minilm/tokenizer.json"), 1);
});

test("a new browser on the same profile opens from the Cache API with zero network requests for the model", async () => {
  const before = site.hits("/minilm/");
  const result = await withPage(async (page) => {
    const cached = await page.evaluate((url) => window.localEmbedder.isCached(url), MODEL.weights);
    const { vectors } = await embedInPage(page, rows.slice(0, 8).map((r) => r.text), MODEL);
    return { cached, vectors };
  });
  assert.equal(result.cached, true);
  assert.equal(site.hits("/minilm/") - before, 0, "no request for the weights or the tokenizer");
  assert.ok(worst(rows.slice(0, 8), result.vectors).cosine >= 0.999);
});

test("worker: true embeds in a Web Worker (from the cache) while the page keeps running", async () => {
  const before = site.hits("/minilm/");
  const result = await withPage((page) =>
    page.evaluate(async (model) => {
      // A URL object too: it cannot be posted to a worker as it is.
      const weights = new URL(model.weights, location.href);
      const embedder = await window.localEmbedder.createLocalEmbedder({ ...model, weights, worker: true });
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const started = performance.now();
      const texts = Array.from({ length: 32 }, (_, i) => `sentence number ${i} about memory, browsers and workers `.repeat(6));
      const vectors = await embedder.embed(texts);
      const took = performance.now() - started;
      clearInterval(timer);
      const [python] = await embedder.embed(["User likes Python"]);
      embedder.close();
      return { ticks, took, count: vectors.length, length: python.length, isWorker: Boolean(embedder.worker) };
    }, MODEL));
  assert.equal(site.hits("/minilm/") - before, 0, "the worker read the weights from the cache");
  assert.equal(result.count, 32);
  assert.equal(result.length, 384);
  assert.ok(result.isWorker);
  // A blocked page would not tick at all during the batch; a free one ticks about every 10 ms.
  assert.ok(result.ticks >= Math.floor(result.took / 40), `${result.ticks} ticks in ${Math.round(result.took)} ms`);
});

test("the cross-encoder reranker in a Web Worker (worker: true): the reference's relevances while the page keeps running", async () => {
  const rows = crossReference().filter((row) => row.query === "What does Alice drink in the morning?");
  const documents = rows.map((row) => row.document);
  const result = await withPage((page) =>
    page.evaluate(async ({ documents }) => {
      const reranker = await window.localEmbedder.createLocalReranker({
        weights: "/cross-encoder/model.safetensors", tokenizer: "/cross-encoder/tokenizer.json", worker: true,
      });
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const started = performance.now();
      const relevance = await reranker.rerank("What does Alice drink in the morning?", documents);
      const took = performance.now() - started;
      clearInterval(timer);
      reranker.close();
      return { relevance, ticks, took, isWorker: Boolean(reranker.worker) };
    }, { documents }));
  assert.ok(result.isWorker);
  const sigmoid = (x) => 1 / (1 + Math.exp(-x));
  rows.forEach((row, i) => assert.ok(Math.abs(result.relevance[i] - sigmoid(row.logit)) < 1e-3, `${row.document}: ${result.relevance[i]}`));
  assert.ok(result.ticks >= Math.floor(result.took / 40), `${result.ticks} ticks in ${Math.round(result.took)} ms`);
});

test("broken or missing downloads reject with EMBEDDER_LOAD, in the page and in a worker", async () => {
  const codes = await withPage((page) =>
    page.evaluate(async () => {
      const cases = {
        corruptWeights: { weights: "/broken/model.safetensors", tokenizer: "/minilm/tokenizer.json" },
        corruptTokenizer: { weights: "/minilm/model.safetensors", tokenizer: "/broken/tokenizer.json" },
        missingWeights: { weights: "/missing/model.safetensors", tokenizer: "/minilm/tokenizer.json" },
        workerMissing: { weights: "/missing/model.safetensors", tokenizer: "/minilm/tokenizer.json", worker: true },
      };
      const out = {};
      for (const [name, options] of Object.entries(cases)) {
        out[name] = await window.localEmbedder.createLocalEmbedder(options).then(() => "ok", (e) => e.code);
      }
      return out;
    }));
  assert.deepEqual(codes, { corruptWeights: "EMBEDDER_LOAD", corruptTokenizer: "EMBEDDER_LOAD", missingWeights: "EMBEDDER_LOAD", workerMissing: "EMBEDDER_LOAD" });
});
