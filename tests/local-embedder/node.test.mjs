// memwasm/local-embedder in Node (its own .wasm), against the numpy/tokenizers reference on the same
// weights; then `embedder: {provider: "local"}` inside Memory; then bad input.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Memory, MemoryError } from "memwasm";
import { createLocalEmbedder } from "memwasm/local-embedder";
import { TOKENIZER, WEIGHTS, assertAloneAsInBatch, cosine, reference, worst } from "./fixtures.mjs";

const rows = reference();
const embedder = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER });

test("token ids match the reference tokenizer for every sentence", async () => {
  assert.ok(rows.length >= 100, `${rows.length} sentences`);
  for (const row of rows) assert.deepEqual(await embedder.tokenIds(row.text), row.ids, row.text);
});

test("embeddings in batches of 1, 8 and 32 match the f32 reference (cosine >= 0.999)", async () => {
  for (const size of [1, 8, 32]) {
    const vectors = [];
    for (let i = 0; i < rows.length; i += size) vectors.push(...(await embedder.embed(rows.slice(i, i + size).map((r) => r.text))));
    assert.equal(vectors.length, rows.length);
    const w = worst(rows, vectors);
    assert.ok(w.cosine >= 0.999, `batch ${size}: cosine ${w.cosine} for ${JSON.stringify(w.text.slice(0, 40))}`);
    assert.ok(vectors.every((v) => v.length === 384));
  }
});

test("bytes in, same vectors out; padding does not change a text's vector", async () => {
  const fromBytes = await createLocalEmbedder({ weights: readFileSync(WEIGHTS), tokenizer: readFileSync(TOKENIZER, "utf8") });
  const [alone] = await fromBytes.embed(["User likes Python"]);
  const [together] = await embedder.embed(["User likes Python", "a much longer sentence that forces the first row to be padded"]);
  assert.ok(cosine(alone, together) > 0.99999);
  fromBytes.close();
});

test("a text's vector is the same floats alone as in a batch of texts of its length (four rows at a time, the rest one by one; attention reads its own tokens only)", async () => {
  await assertAloneAsInBatch(embedder);
});

test("Memory with provider local: semantic search answers what keyword search cannot", async () => {
  const memory = new Memory({
    llm: { provider: "none" },
    embedder: { provider: "local", config: { model: "all-MiniLM-L6-v2", weights: WEIGHTS, tokenizer: TOKENIZER } },
  });
  for (const fact of ["User likes Python", "User lives in Berlin", "User is allergic to peanuts"]) {
    const { results } = await memory.add(fact, { userId: "u", infer: false });
    assert.equal(results[0].event, "ADD");
  }
  const found = await memory.search("programming languages", { userId: "u", limit: 3, method: "vector" });
  assert.equal(found.method, "vector");
  // The default (hybrid) finds it too: no keyword matches, so the ranking is the vectors'.
  const fused = await memory.search("programming languages", { userId: "u", limit: 3 });
  assert.deepEqual([fused.method, fused.results[0].memory], ["hybrid", "User likes Python"]);
  assert.equal(found.results[0].memory, "User likes Python");
  const keyword = await memory.search("programming languages", { userId: "u", limit: 3, method: "keyword" });
  assert.ok(!keyword.results.some((m) => m.memory === "User likes Python"), "keywords cannot find it");
});

test("a local embedder config that cannot load is INVALID_CONFIG at construction, before any download", async () => {
  const llm = { provider: "none" };
  const bad = {
    "no weights": { tokenizer: TOKENIZER },
    "no tokenizer": { weights: WEIGHTS },
    "another model without its config.json": { model: "bge-small", weights: WEIGHTS, tokenizer: TOKENIZER },
    "a length MiniLM does not have": { weights: WEIGHTS, tokenizer: TOKENIZER, dimensions: 768 },
  };
  for (const [why, config] of Object.entries(bad)) {
    const invalid = (e) => e instanceof MemoryError && e.code === "INVALID_CONFIG" && e.message.includes("embedder.config.");
    assert.throws(() => new Memory({ llm, embedder: { provider: "local", config } }), invalid, why);
    await assert.rejects(Memory.open({ llm, embedder: { provider: "local", config } }), invalid, why);
  }
  const other = { model: "bge-small", modelConfig: { hidden_size: 512 }, weights: WEIGHTS, tokenizer: TOKENIZER };
  assert.ok(new Memory({ llm, embedder: { provider: "local", config: other } }), "another BERT with its config.json");
});

test("texts longer than the window are truncated to 256 tokens, not rejected", async () => {
  const long = "memory ".repeat(3000);
  assert.equal((await embedder.tokenIds(long)).length, 256);
  const [v] = await embedder.embed([long]);
  assert.ok(v.every(Number.isFinite));
  assert.deepEqual(await embedder.embed([]), []);
});

test("missing or corrupt weights or tokenizer reject with EMBEDDER_LOAD", async () => {
  const weights = readFileSync(WEIGHTS);
  const tokenizer = readFileSync(TOKENIZER, "utf8");
  const cases = {
    "missing weights file": { weights: "/nonexistent/model.safetensors", tokenizer },
    "no weights": { tokenizer },
    "truncated weights": { weights: weights.subarray(0, 1 << 20), tokenizer },
    "garbage weights": { weights: new TextEncoder().encode("<html>not found</html>"), tokenizer },
    "missing tokenizer file": { weights, tokenizer: "/nonexistent/tokenizer.json" },
    "corrupt tokenizer": { weights, tokenizer: tokenizer.slice(0, 5000) },
    "unreachable URL": { weights: "http://127.0.0.1:9/model.safetensors", tokenizer },
    "unknown model": { model: "bert-large", weights, tokenizer },
  };
  for (const [name, options] of Object.entries(cases)) {
    await assert.rejects(createLocalEmbedder(options), (e) => e.code === "EMBEDDER_LOAD" && /EMBEDDER_LOAD/.test(e.message), name);
  }
});

test("in Memory, a failed load is a coded callback error that add() degrades, and the next call retries", async () => {
  const dir = mkdtempSync(join(tmpdir(), "minilm-late-"));
  const late = join(dir, "model.safetensors");
  const memory = new Memory({ llm: { provider: "none" }, embedder: { provider: "local", config: { weights: late, tokenizer: TOKENIZER } } });
  // The text is kept keyword-only, with the load failure as the warning's cause, and embedded later.
  const { results, warnings } = await memory.add("User likes Python", { userId: "u", infer: false });
  assert.deepEqual(results.map((r) => [r.event, r.memory]), [["ADD", "User likes Python"]]);
  assert.deepEqual([warnings[0].code, warnings[0].cause], ["NOT_EMBEDDED", "EMBEDDING_CALLBACK"]);
  assert.match(warnings[0].message, /EMBEDDER_LOAD/);
  await assert.rejects(memory.search("x", { userId: "u" }), (e) => e.code === "EMBEDDING_CALLBACK" && /EMBEDDER_LOAD/.test(e.message));
  assert.equal((await memory.search("python", { userId: "u", method: "keyword" })).results[0]?.memory, "User likes Python");
  symlinkSync(WEIGHTS, late);
  // The next add() loads the model, embeds its own text and gives the waiting one new tries.
  const retried = await memory.add("User lives in Lyon", { userId: "u", infer: false });
  assert.deepEqual([retried.results[0]?.event, retried.warnings ?? []], ["ADD", []]);
  const found = await memory.search("Which programming language does the user like?", { userId: "u" });
  assert.equal(found.results[0]?.memory, "User likes Python", "the waiting text has its vector now");
  assert.equal((await memory.stats()).keywordOnly, 0);
  rmSync(dir, { recursive: true });
});

test("threads: 2 runs two copies of the model in worker threads; same vectors, in order", async () => {
  const pool = await createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER, threads: 2 });
  assert.equal(pool.threads, 2);
  const texts = rows.map((r) => r.text);
  const [single, threaded] = [await embedder.embed(texts), await pool.embed(texts)];
  assert.equal(threaded.length, texts.length);
  texts.forEach((text, i) => assert.ok(cosine(single[i], threaded[i]) > 0.99999, text));
  assert.deepEqual(await pool.tokenIds("User likes Python"), await embedder.tokenIds("User likes Python"));
  pool.close();
  for (const threads of [0, 1.5, "2"]) {
    await assert.rejects(createLocalEmbedder({ weights: WEIGHTS, tokenizer: TOKENIZER, threads }), (e) => e.code === "EMBEDDER_LOAD", String(threads));
  }
  await assert.rejects(createLocalEmbedder({ weights: join(tmpdir(), "no-such-weights"), tokenizer: TOKENIZER, threads: 2 }),
    (e) => e.code === "EMBEDDER_LOAD");
});

test("an app that never closes a threaded embedder still exits", () => {
  const script = `import { createLocalEmbedder } from "memwasm/local-embedder";
    const e = await createLocalEmbedder({ weights: ${JSON.stringify(WEIGHTS)}, tokenizer: ${JSON.stringify(TOKENIZER)}, threads: 2 });
    console.log((await e.embed(["a", "b", "c"])).length);`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: import.meta.dirname, timeout: 60_000, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), "3");
});
