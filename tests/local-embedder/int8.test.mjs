// quantization: "int8" in Node (the .wasm's integer SIMD128 kernel) against the f32 model on every test
// sentence; the int8 weights file from quantizeWeights; bad options and corrupt files; the docs' int8 block.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createLocalEmbedder, quantizeWeights } from "memwasm/local-embedder";
import { blocksRunBy } from "../node/docs-pages.mjs";
import { runBlock } from "../node/docs-run.mjs";
import { TOKENIZER, WEIGHTS, assertAloneAsInBatch, cosine } from "./fixtures.mjs";

const sentences = JSON.parse(readFileSync(new URL("./sentences.json", import.meta.url), "utf8"));
const f32 = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER });
const expected = await f32.embed(sentences);
f32.close();

/** The lowest cosine between `vectors` and the f32 model's, with its sentence. */
function worstToF32(vectors) {
  assert.equal(vectors.length, sentences.length);
  return vectors.reduce((w, v, i) => {
    const c = cosine(v, expected[i]);
    return c < w.cosine ? { cosine: c, text: sentences[i] } : w;
  }, { cosine: Infinity, text: "" });
}

test('quantization: "int8" stays within cosine 0.99 of f32 on every sentence, in batches of 1 and 32', async () => {
  const int8 = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER, quantization: "int8" });
  assert.equal(int8.quantization, "int8");
  for (const size of [1, 32]) {
    const vectors = [];
    for (let i = 0; i < sentences.length; i += size) vectors.push(...(await int8.embed(sentences.slice(i, i + size))));
    const w = worstToF32(vectors);
    assert.ok(w.cosine >= 0.99, `batch ${size}: cosine ${w.cosine} for ${JSON.stringify(w.text.slice(0, 40))}`);
  }
  int8.close();
});

test("the int8 weights file is about a quarter of the bytes and embeds as quantising at load does", async () => {
  const bytes = readFileSync(WEIGHTS);
  const file = await quantizeWeights(bytes);
  assert.ok(file instanceof Uint8Array);
  const share = file.length / bytes.length;
  assert.ok(share > 0.2 && share < 0.3, `${file.length} bytes, ${share} of the f32 file`);
  const fromFile = await createLocalEmbedder({ weights: file, tokenizer: TOKENIZER });
  assert.equal(fromFile.quantization, "int8", "an int8 file runs int8 without the option");
  const atLoad = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER, quantization: "int8" });
  const texts = ["User likes Python", "The meeting moved to Tuesday at 3pm."];
  assert.deepEqual(await fromFile.embed(texts), await atLoad.embed(texts));
  fromFile.close();
  atLoad.close();
});

test("an unknown quantization, a corrupt int8 file or non-bytes reject with EMBEDDER_LOAD", async () => {
  const load = (options) => createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER, ...options });
  await assert.rejects(load({ quantization: "int4" }), (e) => e.code === "EMBEDDER_LOAD" && /quantization: "int4"/.test(e.message));
  const file = await quantizeWeights(readFileSync(WEIGHTS));
  await assert.rejects(load({ weights: file.subarray(0, file.length / 2) }), { code: "EMBEDDER_LOAD" });
  await assert.rejects(quantizeWeights(new TextEncoder().encode("not safetensors")), { code: "EMBEDDER_LOAD" });
  await assert.rejects(quantizeWeights("model.safetensors"), { code: "EMBEDDER_LOAD" });
});

test('quantization: "int8": a text\'s vector is the same floats alone as in a batch, whatever rows its tokens share a kernel call with', async () => {
  const int8 = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER, quantization: "int8" });
  await assertAloneAsInBatch(int8);
  int8.close();
});

test('threads: 2 with quantization: "int8" gives the single thread\'s vectors', async () => {
  const options = { weights: WEIGHTS, tokenizer: TOKENIZER, quantization: "int8" };
  const [single, threaded] = [await createLocalEmbedder(options), await createLocalEmbedder({ ...options, threads: 2 })];
  assert.equal(threaded.quantization, "int8");
  const texts = sentences.slice(0, 8);
  assert.deepEqual(await threaded.embed(texts), await single.embed(texts));
  single.close();
  threaded.close();
});

test("docs/offline-embedder.md: the int8 block quantises at load and writes an int8 file that loads as int8, to the same vectors", async () => {
  const [block] = blocksRunBy("tests/local-embedder/int8.test.mjs");
  assert.equal(block?.page, "docs/offline-embedder.md", "the block is marked run by this file");
  const dir = mkdtempSync(join(tmpdir(), "int8-doc-"));
  symlinkSync(WEIGHTS, join(dir, "model.safetensors"));
  symlinkSync(TOKENIZER, join(dir, "tokenizer.json"));
  try {
    const code = block.code.replaceAll('"./models/', `"${dir}/`);
    const { embedder, compact } = await runBlock(`${code}\nreturn { embedder, compact };`, { __import: (specifier) => import(specifier) });
    assert.equal(embedder.quantization, "int8");
    assert.equal(compact.quantization, "int8");
    assert.ok(statSync(join(dir, "model.int8.safetensors")).size < statSync(WEIGHTS).size / 3);
    const texts = ["User likes Python"];
    assert.deepEqual(await compact.embed(texts), await embedder.embed(texts));
    embedder.close();
    compact.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
