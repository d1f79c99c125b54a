// search(query, {method}) through the package: the four retrieve methods on one data set where each
// orders it differently (same data and numbers as tests/retrieval/search.rs), scope and filters for every
// method, threshold on the final score, and bad options.
//
// Query "car insurance" has vector e1. Alice's memories (cosine, BM25 over her 4 memories):
//   automobile 1.0 / —, insurance 0.6 / 1.669466, racing 0.8 / 0.674745, gardening 0.0 / —
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, rejectsWith, scriptedServer, asFacts } from "./helpers.mjs";

const AUTOMOBILE = "User owns an automobile";
const INSURANCE = "User pays car insurance monthly";
const RACING = "User likes car racing";
const GARDENING = "User enjoys gardening";
const BOB = "Bob needs car insurance, car insurance, car insurance";

/** A 64-dimensional vector from its first four components. */
const vec = (...head) => [...head, ...new Array(64 - head.length).fill(0)];

const server = scriptedServer();

/** Alice's four memories and one of Bob's, stored verbatim, with the vectors above, as facts: without the
 * `role` that makes a message stored verbatim a conversation turn (a turn is keyword-searched with the turn
 * before it, and fused methods raise it towards its neighbours), like `store()` of tests/retrieval/fixtures.rs.
 * Stemming merges no term here (car; insurance → insur; racing → race; monthly → month; automobile →
 * automobil; gardening → garden) and keeps every length, so the BM25 numbers above are unchanged:
 * N = 4, average length (3 + 5 + 4 + 3) / 4 = 3.75, idf(car) = ln(1 + 2.5/2.5) = 0.693147,
 * idf(insur) = ln(1 + 3.5/1.5) = 1.203973; insurance: length norm 0.25 + 0.75·5/3.75 = 1.25,
 * 2.2 / (1 + 1.2·1.25) = 0.88, 0.88 · (0.693147 + 1.203973) = 1.669466; racing: norm 0.25 + 0.75·4/3.75 = 1.05,
 * 2.2 / (1 + 1.2·1.05) · 0.693147 = 0.674745. */
async function carMemory() {
  server.script([
    { kind: "embedding", match: "automobile", vector: vec(1, 0, 0, 0) },
    { kind: "embedding", match: "pays car insurance", vector: vec(0.6, 0.8, 0, 0) },
    { kind: "embedding", match: "car racing", vector: vec(0.8, 0, 0.6, 0) },
    { kind: "embedding", match: "gardening", vector: vec(0, 0, 1, 0) },
    { kind: "embedding", match: "car insurance", vector: vec(1, 0, 0, 0) },
  ]);
  const memory = makeMemory(server);
  const asMessages = (list) => list.map((content) => ({ role: "user", content }));
  await memory.add(asMessages([AUTOMOBILE, INSURANCE, RACING, GARDENING]), { userId: "alice", infer: false });
  await memory.add(asMessages([BOB]), { userId: "bob", infer: false });
  await asFacts(memory, { userId: "alice" });
  await asFacts(memory, { userId: "bob" });
  return memory;
}

const memories = (res) => res.results.map((m) => m.memory);

function assertScores(res, expected) {
  const scores = res.results.map((m) => m.score);
  assert.equal(scores.length, expected.length, JSON.stringify(scores));
  scores.forEach((s, i) => assert.ok(Math.abs(s - expected[i]) < 1e-5, `${JSON.stringify(scores)} vs ${expected}`));
}

test("the four methods give the documented orderings and scores", T, async () => {
  const memory = await carMemory();
  const search = (method) => memory.search("car insurance", { userId: "alice", ...(method ? { method } : {}) });

  const vector = await search("vector");
  assert.equal(vector.method, "vector");
  assert.deepEqual(memories(vector), [AUTOMOBILE, RACING, INSURANCE, GARDENING]);
  assertScores(vector, [1, 0.8, 0.6, 0]);

  const keyword = await search("keyword");
  assert.equal(keyword.method, "keyword");
  assert.deepEqual(memories(keyword), [INSURANCE, RACING]);
  assertScores(keyword, [1.6694656, 0.674745]);

  const hybrid = await search("hybrid");
  assert.equal(hybrid.method, "hybrid");
  assert.deepEqual(memories(hybrid), [INSURANCE, AUTOMOBILE, RACING, GARDENING]);
  // 0.7·max(cosine, 0) + 0.3·bm25 / best bm25: insurance .7·.6 + .3·1 = .72, automobile .7·1 + 0 = .7,
  // racing .7·.8 + .3·.674745/1.669466 = .56 + .121252 = .681252, gardening 0.
  assertScores(hybrid, [0.72, 0.7, 0.7 * 0.8 + (0.3 * 0.674745) / 1.6694656, 0]);
  assert.deepEqual(await search(), hybrid, "hybrid is the default");

  const rrf = await search("rrf");
  assert.equal(rrf.method, "rrf");
  assert.deepEqual(memories(rrf), [INSURANCE, RACING, AUTOMOBILE, GARDENING]);
  assertScores(rrf, [1 / 63 + 1 / 61, 2 / 62, 1 / 61, 1 / 64]);
});

test("scope and filters apply to every method; threshold to the final score", T, async () => {
  const memory = await carMemory();
  for (const method of ["vector", "keyword", "hybrid", "rrf"]) {
    const mine = await memory.search("car insurance", { userId: "alice", method });
    assert.ok(mine.results.every((m) => m.userId === "alice"), method);
    assert.deepEqual(memories(await memory.search("car insurance", { userId: "bob", method })), [BOB], method);
    const filters = { field: "memory", operator: "icontains", value: "racing" };
    assert.deepEqual(memories(await memory.search("car insurance", { userId: "alice", method, filters })), [RACING]);
  }
  const at = (method, threshold, limit) =>
    memory.search("car insurance", { userId: "alice", method, threshold, limit }).then(memories);
  assert.deepEqual(await at("hybrid", 0.7), [INSURANCE, AUTOMOBILE]);
  assert.deepEqual(await at("rrf", 0.02), [INSURANCE, RACING]);
  assert.deepEqual(await at("keyword", 1), [INSURANCE]);
  assert.deepEqual(await at("hybrid", undefined, 1), [INSURANCE]);
});

test("hybrid weights are configurable", T, async () => {
  const memory = await carMemory();
  const keywordHeavy = await memory.search("car insurance", {
    userId: "alice", method: "hybrid", weights: { vector: 0, keyword: 1 },
  });
  assert.deepEqual(memories(keywordHeavy).slice(0, 2), [INSURANCE, RACING]);
  assert.equal(keywordHeavy.results[0].score, 1);
  const vectorOnly = await memory.search("car insurance", { userId: "alice", method: "hybrid", weights: { keyword: 0 } });
  assert.deepEqual(memories(vectorOnly), [AUTOMOBILE, RACING, INSURANCE, GARDENING]);
});

test("bad method or weights reject with INVALID_INPUT and change nothing", T, async () => {
  const memory = await carMemory();
  const embeddingsBefore = server.count("embedding");
  for (const options of [
    { method: "bm25" },
    { method: 3 },
    { method: "hybrid", weights: { vector: 0, keyword: 0 } },
    { method: "hybrid", weights: { vector: -1 } },
    { method: "hybrid", weights: { vectors: 1 } },
    { method: "hybrid", weights: "0.5" },
  ]) {
    await rejectsWith(() => memory.search("car", { userId: "alice", ...options }), "INVALID_INPUT", (err) =>
      assert.match(err.message, /method|weights|vector|keyword/, err.message),
    );
  }
  assert.equal(server.count("embedding"), embeddingsBefore, "rejected before any embedding request");
  await rejectsWith(() => memory.search("car", { method: "keyword" }), "SCOPE_REQUIRED");
  assert.equal((await memory.getAll({ userId: "alice" })).results.length, 4);
});
