// The search index through the public API, on the built (SIMD128) package: f32 scores are the exact
// cosine of the embeddings, int8 (`vectorStore.config.quantization`) ranks the same with close scores,
// removal and updates stay correct, and bad options are refused naming the field.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { defaultEmbedding } from "../support/scripted-server.mjs";
import { Memory, T, startServer, testConfig, throwsInvalidConfig } from "./helpers.mjs";

const DIM = 64;
const words = "coffee tea jazz rock hiking chess python rust tokyo paris sushi pasta linux cycling painting".split(" ");
// 60 short texts sharing words, so that many memories are partly similar to each query.
const facts = Array.from({ length: 60 }, (_, i) => `likes ${words[i % 15]} and ${words[(i * 7 + 3) % 15]} number${i}`);

let server;
before(async () => {
  server = await startServer();
});
after(() => server.close());

const cosine = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);

async function filled(quantization) {
  const memory = new Memory(testConfig(server, { vectorStore: { provider: "memory", config: { quantization } } }));
  await memory.add(facts.map((content) => ({ role: "user", content })), { userId: "u", infer: false });
  await memory.add([{ role: "user", content: "likes coffee and jazz elsewhere" }], { userId: "other", infer: false });
  return memory;
}

/** Every fact ranked by exact cosine to `query`, best first (ties: the older first). */
function reference(query) {
  // Searches here pass method "vector": they test the vector index (hybrid, the default, adds keywords).
  const q = defaultEmbedding(query, DIM);
  return facts
    .map((text, order) => ({ text, order, score: cosine(q, defaultEmbedding(text, DIM)) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
}

test("f32 search returns the exact top-k cosine ranking of the scope", T, async () => {
  const memory = await filled("none");
  for (const query of ["coffee jazz", "rust linux", "sushi paris cycling"]) {
    const { results } = await memory.search(query, { userId: "u", limit: 10, method: "vector" });
    const ranked = reference(query);
    const exact = new Map(ranked.map((w) => [w.text, w.score]));
    assert.equal(results.length, 10);
    results.forEach((r, i) => {
      // Each hit's score is its exact cosine, and the i-th best score is the exact i-th best (equal scores may
      // come in either order, as float sums in another order can split them by an ulp).
      assert.ok(Math.abs(r.score - exact.get(r.memory)) < 1e-5, `${query}: ${r.memory} ${r.score}`);
      assert.ok(Math.abs(r.score - ranked[i].score) < 1e-5, `${query}: #${i} ${r.score} vs ${ranked[i].score}`);
    });
    assert.ok(results.every((r) => r.userId === "u"));
  }
});

test("int8 search finds the same neighbours with scores close to the exact cosine", T, async () => {
  const memory = await filled("int8");
  let found = 0;
  for (const query of ["coffee jazz", "rust linux", "sushi paris cycling", "tea chess hiking"]) {
    const { results } = await memory.search(query, { userId: "u", limit: 5, method: "vector" });
    const exact = new Map(reference(query).map((w) => [w.text, w.score]));
    for (const r of results) assert.ok(Math.abs(r.score - exact.get(r.memory)) < 0.01, `${r.memory}: ${r.score}`);
    const want = new Set(reference(query).slice(0, 5).map((w) => w.text));
    found += results.filter((r) => want.has(r.memory)).length;
  }
  assert.ok(found >= 19, `int8 recall@5 over 4 queries: ${found}/20`);
});

test("int8 index: deleted and updated memories are searched as they are now", T, async () => {
  const memory = await filled("int8");
  const { results } = await memory.search("coffee jazz", { userId: "u", limit: 3, method: "vector" });
  await memory.delete(results[0].id);
  await memory.update(results[1].id, "enjoys painting only");
  const after = await memory.search("coffee jazz", { userId: "u", limit: 60, method: "vector" });
  assert.ok(!after.results.some((r) => r.id === results[0].id), "deleted memory is gone");
  const updated = after.results.find((r) => r.id === results[1].id);
  assert.equal(updated.memory, "enjoys painting only");
  const painting = await memory.search("painting", { userId: "u", limit: 1, method: "vector" });
  assert.equal(painting.results[0].id, results[1].id, "the new text's vector is searched");
  const listed = await memory.getAll({ userId: "u", limit: 100 });
  assert.equal(listed.results.length, facts.length - 1);
});

test("vectorStore options are checked and named", () => {
  const bad = (vectorStore) => throwsInvalidConfig(testConfig(server, { vectorStore }));
  bad({ provider: "memory", config: { quantization: "int4" } });
  bad({ provider: "memory", config: { quantisation: "int8" } });
  bad({ provider: "qdrant" });
  assert.throws(
    () => new Memory(testConfig(server, { vectorStore: { provider: "memory", config: { quantization: "int4" } } })),
    /vectorStore\.config\.quantization/,
  );
  new Memory(testConfig(server, { vectorStore: { provider: "memory", config: { quantization: "none" } } }));
  new Memory(testConfig(server, { vectorStore: { provider: "memory" } }));
});

test("an int8 memory exports its vectors (dequantised, unit length) and they import into an f32 one", T, async () => {
  const memory = await filled("int8");
  const jsonl = await memory.exportMemories({ userId: "u" });
  const lines = jsonl.trim().split("\n").map((line) => JSON.parse(line)).filter((line) => line.kind === "memory");
  assert.equal(lines.length, facts.length);
  assert.ok(lines.every((line) => typeof line.embedding === "string" && line.embedding.length > 0), "every memory has its vector");
  const copy = new Memory(testConfig(server));
  await copy.importMemories(jsonl);
  for (const query of ["coffee jazz", "rust linux"]) {
    const [original, imported] = await Promise.all([
      memory.search(query, { userId: "u", limit: 5, method: "vector" }),
      copy.search(query, { userId: "u", limit: 5, method: "vector" }),
    ]);
    // Same neighbours, scores within int8 rounding (ties may come in another order).
    const ids = new Set(original.results.map((r) => r.id));
    assert.ok(imported.results.filter((r) => ids.has(r.id)).length >= 4, query);
    imported.results.forEach((r, i) => assert.ok(Math.abs(r.score - original.results[i].score) < 0.01, query));
  }
});
