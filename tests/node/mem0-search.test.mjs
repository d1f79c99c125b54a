// `memwasm/mem0`'s search is mem0 v3's (docs/mem0.md#search): at most `topK` (20) results among the memories
// whose cosine to the query is at least `threshold` (0.1), ranked by (cosine + normalised BM25) / 2;
// `explain` adds mem0's `score_details`, `rerank` is accepted and, with no reranker, changes nothing. The
// counts are checked two ways: against real mem0 3.3.1 run beside it on the same data and the same scripted
// embeddings, and against mem0's rule applied to the cosines of those embeddings.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory as Mem0Memory } from "memwasm/mem0";
import { defaultEmbedding } from "../support/scripted-server.mjs";
import { T, makeMemory, scriptedServer } from "./helpers.mjs";
import { homeFolder, mem0Config, realMem0 } from "./mem0-processes.mjs";

const server = scriptedServer();
const alice = { filters: { user_id: "alice" } };

/** 30 memories; a few are about the piano. */
const FACTS = [
  "User plays the piano every evening", "User bought a new piano last spring", "User likes green tea",
  "User has a dog named Rex", "User takes piano lessons on Saturdays", "User lives in Lisbon", "User works as a nurse",
  "User is learning Portuguese", "User's sister plays the violin", "User enjoys hiking in the mountains",
  "User prefers window seats on flights", "User is allergic to peanuts", "User's favourite composer is Chopin, a piano master",
  "User drinks coffee without sugar", "User runs five kilometres twice a week", "User reads science fiction",
  "User tunes the piano himself", "User has two children", "User drives an electric car", "User grows tomatoes",
  "User watches football on Sundays", "User keeps a piano diary of pieces learned", "User collects vinyl records",
  "User volunteers at a library", "User bakes sourdough bread", "User cycles to work", "User paints watercolours",
  "User plays chess online", "User's flat has a balcony", "User sings in a choir with a piano accompanist",
];

const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
/** mem0's rule on the scripted cosines: the memories at least `threshold` similar to `query`, at most `topK`. */
function mem0Count(query, { topK = 20, threshold = 0.1 } = {}) {
  const q = defaultEmbedding(query);
  const cosines = FACTS.map((fact) => dot(q, defaultEmbedding(fact)));
  assert.ok(cosines.every((c) => Math.abs(c - threshold) > 1e-4), "no cosine on the threshold's edge");
  return Math.min(topK, cosines.filter((c) => c >= threshold).length);
}

const SEARCHES = [["piano", {}], ["piano", { topK: 3 }], ["piano", { threshold: 0.47, explain: true }], ["tea lessons", {}]];

async function memwasmMem0() {
  const memory = new Mem0Memory(mem0Config(server, { vectorStore: { provider: "memory", config: { dbPath: ":memory:" } }, retry: { maxRetries: 0 } }));
  for (const fact of FACTS) await memory.add(fact, { userId: "alice", infer: false });
  return memory;
}

describe("memwasm/mem0 searches as mem0 searches", () => {
  test("30 memories: mem0's result counts and cosines, as real mem0 gives them and as mem0's rule says", T, async () => {
    const memory = await memwasmMem0();
    const adds = FACTS.map((fact) => [fact, { userId: "alice", infer: false }]);
    const searches = SEARCHES.map(([query, options]) => [query, { ...alice, ...options }]);
    const real = (await realMem0({ config: mem0Config(server), adds, searches }, homeFolder())).searched;
    for (const [i, [query, options]] of SEARCHES.entries()) {
      const found = (await memory.search(query, { ...alice, ...options })).results;
      const expected = mem0Count(query, options);
      assert.ok(expected > 0 && expected < FACTS.length, `${query}: the data separates the rule from "everything"`);
      assert.equal(found.length, expected, `${query} ${JSON.stringify(options)}: mem0's rule`);
      assert.equal(found.length, real[i].results.length, `${query} ${JSON.stringify(options)}: real mem0`);
      if (options.topK === undefined) {
        assert.deepEqual(found.map((m) => m.memory).sort(), real[i].results.map((m) => m.memory).sort());
      }
      if (options.explain) {
        const semantic = new Map(real[i].results.map((m) => [m.memory, m.score_details.semanticScore]));
        for (const m of found) assert.ok(Math.abs(m.score_details.semanticScore - semantic.get(m.memory)) < 1e-5, m.memory);
      }
    }
  });

  test("explain gives mem0's score_details; rerank: true is accepted and, with no reranker, changes nothing", T, async () => {
    const memory = await memwasmMem0();
    const { results } = await memory.search("piano lessons", { ...alice, explain: true });
    assert.ok(results.length > 0);
    for (const m of results) {
      const d = m.score_details;
      assert.deepEqual(Object.keys(d).sort(), ["bm25Score", "entityBoost", "finalScore", "maxPossibleScore", "rawScore", "semanticScore", "threshold"]);
      assert.equal(d.threshold, 0.1);
      assert.ok(d.semanticScore >= 0.1, "the threshold gates the cosine");
      assert.equal(m.score, d.finalScore);
      assert.ok(Math.abs(d.finalScore - Math.min((d.semanticScore + d.bm25Score + d.entityBoost) / d.maxPossibleScore, 1)) < 1e-12);
    }
    assert.deepEqual(results.map((m) => m.score), results.map((m) => m.score).sort((a, b) => b - a), "best first");
    const plain = (await memory.search("piano lessons", alice)).results;
    assert.equal(plain[0].score_details, undefined, "no details unless asked");
    const reranked = (await memory.search("piano lessons", { ...alice, rerank: true })).results;
    assert.deepEqual(reranked.map((m) => [m.id, m.score]), plain.map((m) => [m.id, m.score]));
  });

  test("an unavailable embedder: keywords rank, with EMBEDDING_UNAVAILABLE; a refused key rejects", T, async () => {
    const memory = await memwasmMem0();
    server.script({ kind: "embedding", match: "piano", status: 503, message: "embedder down" });
    const found = await memory.search("piano", { ...alice, topK: 3 });
    assert.deepEqual([found.method, found.results.length], ["keyword", 3]);
    assert.ok(found.results.every((m) => m.memory.includes("piano")), JSON.stringify(found.results));
    assert.deepEqual(found.warnings.map((w) => [w.code, w.cause, w.status]), [["EMBEDDING_UNAVAILABLE", "EMBEDDING_HTTP", 503]]);
    server.reset();
    server.script({ kind: "embedding", match: "piano", status: 401, message: "bad key" });
    await assert.rejects(memory.search("piano", alice), (e) => e.code === "EMBEDDING_HTTP" && e.status === 401);
  });

  test("memwasm keeps its own defaults (up to 100, no threshold), and so does memwasm/mem0 given a method", T, async () => {
    const own = makeMemory(server);
    for (const fact of FACTS) await own.add(fact, { userId: "alice", infer: false });
    assert.equal((await own.search("piano", alice)).results.length, FACTS.length);
    const memory = await memwasmMem0();
    assert.equal((await memory.search("piano", { ...alice, method: "hybrid" })).results.length, FACTS.length);
  });
});

describe("memwasm/mem0 lists as mem0 lists", () => {
  test("getAll gives at most topK (default 20) memories, as real mem0 does; topK raises it", T, async () => {
    const memory = await memwasmMem0();
    const adds = FACTS.map((fact) => [fact, { userId: "alice", infer: false }]);
    const real = await realMem0({ config: mem0Config(server), adds, lists: [[alice], [{ ...alice, topK: 50 }]] }, homeFolder());
    const [byDefault, raised] = real.listed.map((list) => list.results.length);
    assert.deepEqual([byDefault, raised], [20, FACTS.length], "real mem0");
    assert.equal((await memory.getAll(alice)).results.length, byDefault);
    assert.equal((await memory.getAll({ ...alice, topK: 50 })).results.length, raised);
    assert.equal((await memory.getAll({ ...alice, limit: 25 })).results.length, 25, "memwasm's own limit is kept");
  });
});
