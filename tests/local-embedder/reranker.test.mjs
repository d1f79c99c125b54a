// The on-device cross-encoder reranker: createLocalReranker against the numpy reference on the same weights
// (ms-marco-MiniLM-L-12-v2), then `reranker: {provider: "local"}` inside Memory, docs/local-reranker.md's
// block as written (only its paths are the test's weights), then bad input.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Memory } from "memwasm";
import { createLocalReranker } from "memwasm/local-embedder";
import { blocksRunBy } from "../node/docs-pages.mjs";
import { runBlock } from "../node/docs-run.mjs";
import { RERANKER, TOKENIZER, WEIGHTS, crossReference } from "./fixtures.mjs";

const reranker = await createLocalReranker(RERANKER);
const sigmoid = (x) => 1 / (1 + Math.exp(-x));

/** The reference rows grouped by query, in order. */
function byQuery(rows) {
  const groups = new Map();
  for (const row of rows) groups.set(row.query, [...(groups.get(row.query) ?? []), row]);
  return groups;
}

test("relevances are the sigmoid of the reference's logits, every query's documents in one call", async () => {
  let worst = 0;
  for (const [query, rows] of byQuery(crossReference())) {
    const relevance = await reranker.rerank(query, rows.map((r) => r.document));
    assert.equal(relevance.length, rows.length);
    rows.forEach((row, i) => (worst = Math.max(worst, Math.abs(relevance[i] - sigmoid(row.logit)))));
  }
  assert.ok(worst < 1e-3, `relevance off by ${worst}`);
  assert.deepEqual(await reranker.rerank("anything", []), []);
});

test("threads: 2 scores in two worker threads: the same relevances, in order, while the event loop runs", async () => {
  const rows = crossReference();
  const query = rows[0].query;
  const documents = rows.filter((r) => r.query === query).map((r) => r.document).concat(rows.slice(20, 26).map((r) => r.document));
  const threaded = await createLocalReranker({ ...RERANKER, threads: 2 });
  assert.equal(threaded.threads, 2);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  const relevance = await threaded.rerank(query, documents);
  const took = performance.now() - started;
  clearInterval(timer);
  threaded.close();
  const alone = await reranker.rerank(query, documents);
  assert.equal(relevance.length, documents.length);
  relevance.forEach((r, i) => assert.ok(Math.abs(r - alone[i]) < 1e-6, `${documents[i]}: ${r} in threads, ${alone[i]} here`));
  assert.ok(ticks >= Math.floor(took / 40), `${ticks} ticks in ${Math.round(took)} ms: the event loop was blocked`);
  await assert.rejects(createLocalReranker({ ...RERANKER, threads: 0 }), (error) => error.code === "EMBEDDER_LOAD");
});

test("Memory with reranker: {provider: \"local\"}: search(…, {rerank: true}) returns the first topK in the cross-encoder's order", async () => {
  const memory = new Memory({
    llm: { provider: "none" },
    embedder: { provider: "local", config: { weights: WEIGHTS, tokenizer: TOKENIZER } },
    reranker: { provider: "local", config: { ...RERANKER, topK: 4 } },
  });
  const facts = [
    "Alice lives in Berlin",
    "Alice drinks oat milk lattes every morning",
    "Bob drinks black coffee in the morning",
    "Alice starts work every morning at nine",
    "Alice's sister visits in May",
  ];
  for (const fact of facts) await memory.add(fact, { userId: "alice", infer: false });
  const query = "What does Alice drink in the morning?";
  const plain = await memory.search(query, { userId: "alice", limit: 5 });
  const reranked = await memory.search(query, { userId: "alice", limit: 5, rerank: true });
  assert.deepEqual(reranked.warnings ?? [], []);
  const firstFour = plain.results.slice(0, 4).map((m) => m.memory);
  const relevance = await reranker.rerank(query, firstFour);
  const order = firstFour.map((memory, i) => ({ memory, relevance: relevance[i] })).sort((a, b) => b.relevance - a.relevance);
  assert.deepEqual(reranked.results.slice(0, 4).map((m) => m.memory), order.map((o) => o.memory));
  reranked.results.slice(0, 4).forEach((m, i) => assert.ok(Math.abs(m.score - order[i].relevance) < 1e-6, m.memory));
  assert.equal(reranked.results[0].memory, "Alice drinks oat milk lattes every morning");
  assert.equal(reranked.results[4].memory, plain.results[4].memory, "past topK: the ranking's order");
  assert.equal(reranked.results[4].fusedScore, undefined);
});

test("two reranked searches at once on a fresh memory, while the model is still loading: both come back reranked", async () => {
  const memory = new Memory({
    llm: { provider: "none" },
    embedder: { provider: "local", config: { weights: WEIGHTS, tokenizer: TOKENIZER } },
    reranker: { provider: "local", config: { ...RERANKER, topK: 3 } },
  });
  for (const fact of ["Alice lives in Berlin", "Alice drinks oat milk lattes every morning", "Alice's sister visits in May"]) {
    await memory.add(fact, { userId: "alice", infer: false });
  }
  const [drink, live] = await Promise.all([
    memory.search("What does Alice drink?", { userId: "alice", rerank: true }),
    memory.search("Where does Alice live?", { userId: "alice", rerank: true }),
  ]);
  for (const response of [drink, live]) {
    assert.deepEqual(response.warnings ?? [], []);
    assert.ok(response.results.every((m) => typeof m.fusedScore === "number"), "every result was reranked");
  }
  assert.equal(drink.results[0].memory, "Alice drinks oat milk lattes every morning");
  assert.equal(live.results[0].memory, "Alice lives in Berlin");
});

test("docs/local-reranker.md: the block reranks the latte first, the relevance as score and the ranking's as fusedScore", { timeout: 240_000 }, async () => {
  const [block] = blocksRunBy("tests/local-embedder/reranker.test.mjs");
  assert.equal(block?.page, "docs/local-reranker.md", "the block is marked run by this file");
  const paths = {
    "all-MiniLM-L6-v2/model.safetensors": WEIGHTS,
    "all-MiniLM-L6-v2/tokenizer.json": TOKENIZER,
    "ms-marco-MiniLM-L-12-v2/model.safetensors": RERANKER.weights,
    "ms-marco-MiniLM-L-12-v2/tokenizer.json": RERANKER.tokenizer,
  };
  const code = block.code.replace(/"\/models\/([^"]+)"/g, (whole, path) => JSON.stringify(paths[path] ?? whole));
  assert.equal(Object.values(paths).filter((path) => code.includes(JSON.stringify(path))).length, 4, "all four paths are the test's");
  const { results, memory } = await runBlock(`${code}\nreturn { memory, results };`, { __import: (specifier) => import(specifier) });
  assert.equal(results[0].memory, "Alice drinks oat milk lattes every morning");
  assert.ok(results[0].score > 0.5 && results[0].score <= 1, `relevance ${results[0].score}`);
  const plain = await memory.search("What does Alice drink in the morning?", { userId: "alice" });
  assert.equal(results[0].fusedScore, plain.results.find((m) => m.id === results[0].id).score);
});

test("bad config: without weights or tokenizer INVALID_CONFIG at once; a missing file a RERANK_FAILED warning, and the next search tries again", async () => {
  const embedder = { provider: "local", config: { weights: WEIGHTS, tokenizer: TOKENIZER } };
  for (const [config, field] of [[{ tokenizer: RERANKER.tokenizer }, "weights"], [{ weights: RERANKER.weights }, "tokenizer"]]) {
    assert.throws(() => new Memory({ llm: { provider: "none" }, embedder, reranker: { provider: "local", config } }),
      (error) => error.code === "INVALID_CONFIG" && error.message.includes(`reranker.config.${field}: required`));
  }
  const missing = new Memory({ llm: { provider: "none" }, embedder, reranker: { provider: "local", config: { ...RERANKER, weights: "/nonexistent/model.safetensors" } } });
  await missing.add("Alice drinks oat milk lattes every morning", { userId: "alice", infer: false });
  for (let attempt = 0; attempt < 2; attempt++) {
    const kept = await missing.search("drink", { userId: "alice", rerank: true });
    assert.equal(kept.results.length, 1);
    const warning = kept.warnings?.find((w) => w.code === "RERANK_FAILED");
    assert.equal(warning?.cause, "RERANKER_CALLBACK", JSON.stringify(kept.warnings));
    assert.match(warning.message, /EMBEDDER_LOAD: weights: .*nonexistent/);
  }
  await assert.rejects(createLocalReranker({ weights: WEIGHTS, tokenizer: TOKENIZER }), (error) => error.code === "EMBEDDER_LOAD" && /classifier/.test(error.message));
});
