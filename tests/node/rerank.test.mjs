// search(q, {rerank: true}) through the package, against the scripted server's rerank routes: the request each
// rerank service gets (Cohere's /v2/rerank, Jina's and Voyage's /v1/rerank), the order and fusedScore that come
// back, the ranking kept with a RERANK_FAILED warning when the service fails, INVALID_INPUT without a reranker;
// the app's own rerank function (provider "custom") and its failures; and memwasm/mem0's search, which
// reranks by default when the config has a reranker, as mem0 does.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory as Mem0Memory } from "memwasm/mem0";
import { Memory, T, makeMemory, rejectsWith, scriptedServer, testConfig } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { runBlock, withEnv } from "./docs-run.mjs";
import { mem0Config } from "./mem0-processes.mjs";

const server = scriptedServer();
const alice = { userId: "alice" };
const FACTS = ["User drinks coffee every morning", "User likes green tea", "User grinds coffee beans at home"];

/** The rerank services: their route, default model, count field and key header. */
const SERVICES = [
  { provider: "cohere", path: "/v2/rerank", model: "rerank-english-v3.0", count: "top_n" },
  { provider: "jina", path: "/v1/rerank", model: "jina-reranker-v2-base-multilingual", count: "top_n" },
  { provider: "voyage", path: "/v1/rerank", model: "rerank-2", count: "top_k" },
];

/** A memory holding FACTS for alice, reranking with `provider` at the scripted server. */
async function memoryWith(provider, config = {}) {
  const reranker = provider && { provider, config: { apiKey: "rerank-key", baseUrl: server.url, ...config } };
  const memory = makeMemory(server, { ...(reranker ? { reranker } : {}), retry: { maxRetries: 0 } });
  for (const fact of FACTS) await memory.add(fact, { ...alice, infer: false });
  return memory;
}

/** The scores that put `documents` in the reverse of their order. */
const reversed = ({ documents }) => documents.map((_, index) => index / documents.length);

describe("search with rerank: true, through the rerank services' wire", () => {
  for (const service of SERVICES) {
    test(`${service.provider}: its request, and the results in its order with the ranking's score as fusedScore`, T, async () => {
      server.reset();
      const memory = await memoryWith(service.provider);
      const plain = await memory.search("coffee", { ...alice, topK: 3 });
      server.script({ kind: "rerank", match: "coffee", scores: reversed });
      const reranked = await memory.search("coffee", { ...alice, topK: 3, rerank: true });
      const [request, ...more] = server.requests("rerank");
      assert.equal(more.length, 0, "one rerank request");
      assert.equal(request.path, service.path);
      assert.equal(request.wire, service.provider);
      assert.equal(request.invalid, undefined, request.invalid);
      assert.equal(request.headers.authorization, "Bearer rerank-key");
      const documents = plain.results.map((m) => m.memory);
      assert.deepEqual(request.body, { model: service.model, query: "coffee", documents, [service.count]: documents.length });
      assert.deepEqual(reranked.results.map((m) => m.memory), [...documents].reverse());
      for (const result of reranked.results) {
        const before = plain.results.find((m) => m.id === result.id);
        assert.equal(result.fusedScore, before.score, `${result.memory}: fusedScore is the ranking's score`);
      }
      const relevance = reversed({ documents }).reverse();
      assert.deepEqual(reranked.results.map((m) => m.score), relevance, "score is the reranker's relevance");
      assert.deepEqual(reranked.warnings ?? [], []);
    });
  }

  test("a model and topK of the config reach the request; only the first topK are reranked", T, async () => {
    server.reset();
    const memory = await memoryWith("cohere", { model: "rerank-v3.5", topK: 2 });
    const plain = await memory.search("coffee", { ...alice, topK: 3 });
    server.script({ kind: "rerank", scores: reversed });
    const reranked = await memory.search("coffee", { ...alice, topK: 3, rerank: true });
    const [request] = server.requests("rerank");
    const documents = plain.results.map((m) => m.memory);
    assert.deepEqual(request.body, { model: "rerank-v3.5", query: "coffee", documents: documents.slice(0, 2), top_n: 2 });
    assert.deepEqual(reranked.results.map((m) => m.memory), [documents[1], documents[0], documents[2]]);
    assert.equal(reranked.results[2].fusedScore, undefined, "the one not reranked keeps its score only");
  });

  for (const [name, rule] of [["a 500", { status: 500, message: "overloaded" }], ["a reply without results", { body: "{}" }]]) {
    test(`${name} from the service: the ranking's order, with a RERANK_FAILED warning`, T, async () => {
      server.reset();
      const memory = await memoryWith("jina");
      const plain = await memory.search("coffee", { ...alice, topK: 3 });
      server.script({ kind: "rerank", ...rule });
      const kept = await memory.search("coffee", { ...alice, topK: 3, rerank: true });
      assert.equal(server.requests("rerank").length, 1);
      assert.deepEqual(kept.results.map((m) => [m.memory, m.score]), plain.results.map((m) => [m.memory, m.score]));
      assert.ok(kept.results.every((m) => m.fusedScore === undefined));
      const warning = kept.warnings?.find((w) => w.code === "RERANK_FAILED");
      assert.ok(warning, JSON.stringify(kept.warnings));
    });
  }

  test("a service slower than its timeoutMs: the ranking's order, RERANK_FAILED caused by RERANKER_TIMEOUT", T, async () => {
    server.reset();
    const memory = await memoryWith("voyage", { timeoutMs: 100 });
    const plain = await memory.search("coffee", { ...alice, topK: 3 });
    server.script({ kind: "rerank", scores: reversed, delayMs: 2_000 });
    const kept = await memory.search("coffee", { ...alice, topK: 3, rerank: true });
    assert.deepEqual(kept.results.map((m) => m.id), plain.results.map((m) => m.id));
    const warning = kept.warnings?.find((w) => w.code === "RERANK_FAILED");
    assert.equal(warning?.cause, "RERANKER_TIMEOUT", JSON.stringify(kept.warnings));
  });

  test("rerank: true without a reranker is INVALID_INPUT naming the config's reranker", T, async () => {
    server.reset();
    const memory = await memoryWith(undefined);
    await rejectsWith(() => memory.search("coffee", { ...alice, rerank: true }), "INVALID_INPUT", (error) => {
      assert.match(error.message, /no reranker is configured; add reranker: \{provider:/);
    });
    assert.equal(server.requests("rerank").length, 0);
  });
});

describe("reranker: {provider: \"custom\"}, the app's own rerank function", () => {
  /** A memory holding FACTS for alice, reranking with `rerank`; `config` is the reranker's. */
  async function customMemory(rerank, config) {
    const memory = makeMemory(server, { reranker: { provider: "custom", rerank, ...(config ? { config } : {}) } });
    for (const fact of FACTS) await memory.add(fact, { ...alice, infer: false });
    return memory;
  }

  test("its relevances order the first topK; it gets the query and their texts; nothing goes over the wire", T, async () => {
    server.reset();
    const calls = [];
    // Tea first, then the others in the reverse of the ranking's order.
    const relevance = (documents) => documents.map((d, i) => (d.includes("tea") ? 0.9 : 0.1 * (i + 1)));
    const memory = await customMemory(async (query, documents) => {
      calls.push({ query, documents });
      return relevance(documents);
    }, { topK: 3 });
    const plain = await memory.search("coffee", { ...alice, topK: 3 });
    const reranked = await memory.search("coffee", { ...alice, topK: 3, rerank: true });
    const documents = plain.results.map((m) => m.memory);
    assert.deepEqual(calls, [{ query: "coffee", documents }]);
    const others = documents.filter((d) => !d.includes("tea")).reverse();
    assert.deepEqual(reranked.results.map((m) => m.memory), ["User likes green tea", ...others]);
    assert.equal(reranked.results[0].memory, "User likes green tea");
    assert.equal(reranked.results[0].score, Math.fround(0.9), "score: its relevance (as a float)");
    assert.equal(reranked.results[0].fusedScore, plain.results.find((m) => m.memory === "User likes green tea").score);
    assert.equal(server.requests("rerank").length, 0);
  });

  for (const [name, rerank, config, cause] of [
    ["one that throws", () => { throw new Error("model not loaded"); }, undefined, "RERANKER_CALLBACK"],
    ["one that rejects", async () => { throw new Error("model not loaded"); }, undefined, "RERANKER_CALLBACK"],
    ["one that gives too few scores", (q, documents) => documents.slice(1).map(() => 1), undefined, "RERANKER_RESPONSE"],
    ["one that gives a non-number", (q, documents) => documents.map(() => "high"), undefined, "RERANKER_RESPONSE"],
    ["one that gives NaN", (q, documents) => documents.map(() => NaN), undefined, "RERANKER_RESPONSE"],
    ["one slower than its timeoutMs", () => new Promise(() => {}), { timeoutMs: 50 }, "RERANKER_TIMEOUT"],
  ]) {
    test(`${name}: the ranking's order, RERANK_FAILED caused by ${cause}`, T, async () => {
      server.reset();
      const memory = await customMemory(rerank, config);
      const plain = await memory.search("coffee", { ...alice, topK: 3 });
      const kept = await memory.search("coffee", { ...alice, topK: 3, rerank: true });
      assert.deepEqual(kept.results.map((m) => [m.id, m.score]), plain.results.map((m) => [m.id, m.score]));
      const warning = kept.warnings?.find((w) => w.code === "RERANK_FAILED");
      assert.equal(warning?.cause, cause, JSON.stringify(kept.warnings));
      if (cause === "RERANKER_CALLBACK") assert.match(warning.message, /model not loaded/);
    });
  }

  test("bad configs are INVALID_CONFIG: no rerank, not a function, rerank on another provider, a service's option", T, () => {
    for (const [reranker, message] of [
      [{ provider: "custom" }, /reranker\.rerank: is required/],
      [{ provider: "custom", rerank: "yes" }, /reranker\.rerank: must be a function/],
      [{ provider: "cohere", rerank: () => [], config: { apiKey: "k" } }, /reranker\.rerank: only the "custom" provider takes this/],
      [{ provider: "custom", rerank: () => [], config: { model: "m" } }, /reranker\.config\.model: the custom reranker is the app's rerank function/],
    ]) {
      assert.throws(() => makeMemory(server, { reranker }), (error) => error.code === "INVALID_CONFIG" && message.test(error.message), message.source);
    }
  });
});

describe("memwasm/mem0's search reranks as mem0's does", () => {
  /** A mem0 Memory with FACTS for alice and the given reranker. */
  async function mem0With(reranker) {
    const vectorStore = { provider: "memory", config: { dbPath: ":memory:" } }; // not mem0's ~/.mem0 file
    const memory = new Mem0Memory(mem0Config(server, { vectorStore, reranker, retry: { maxRetries: 0 } }));
    for (const fact of FACTS) await memory.add(fact, { ...alice, infer: false });
    return memory;
  }
  const search = (memory, options = {}) => memory.search("coffee", { filters: { user_id: "alice" }, topK: 3, ...options });

  test("with a reranker, by default: the reranker's order first, mem0's hybrid score as fusedScore", T, async () => {
    server.reset();
    const memory = await mem0With({ provider: "cohere", config: { apiKey: "k", baseUrl: server.url } });
    const plain = await search(memory, { rerank: false });
    assert.equal(server.requests("rerank").length, 0, "rerank: false does not call the reranker");
    server.script({ kind: "rerank", scores: reversed });
    const reranked = await search(memory);
    assert.equal(server.requests("rerank").length, 1);
    const order = server.requests("rerank")[0].body.documents.slice().reverse();
    assert.deepEqual(reranked.results.map((m) => m.memory), order.slice(0, 3));
    for (const result of reranked.results) {
      assert.equal(result.fusedScore, plain.results.find((m) => m.id === result.id).score, result.memory);
    }
  });

  test("a reranker memwasm cannot run: a startup warning, and searches as without one", T, async () => {
    server.reset();
    const warnings = [];
    const warn = console.warn;
    console.warn = (...args) => warnings.push(args.join(" "));
    let memory;
    try {
      memory = await mem0With({ provider: "sentence_transformer", config: { topK: 5 } });
    } finally {
      console.warn = warn;
    }
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.match(warnings[0], /reranker is ignored: "sentence_transformer" runs a model locally.*searches are not reranked/);
    const found = await search(memory, { rerank: true });
    assert.ok(found.results.length > 0);
    assert.equal(server.requests("rerank").length, 0);
  });
});

test("docs/search-and-recall.md: the Reranking block reranks with Cohere", T, async () => {
  server.reset();
  const [block] = blocksRunBy("tests/node/rerank.test.mjs");
  // The block's Memory, its reranker pointed at the scripted server.
  class AtServer extends Memory {
    constructor(config) {
      super({ ...config, reranker: { ...config.reranker, config: { ...config.reranker.config, baseUrl: server.url } } });
    }
  }
  server.script({ kind: "rerank", scores: ({ documents }) => documents.map((d) => (d.includes("grinds") ? 0.9 : 0.2)) });
  const { results } = await withEnv({ COHERE_API_KEY: "cohere-key" }, () =>
    runBlock(`${block.code}\nreturn { results };`, { config: testConfig(server), __import: async () => ({ Memory: AtServer }) }));
  // results[0] → {memory: "User grinds coffee beans at home", score: Cohere's relevance, fusedScore: the ranking's score, …}
  assert.equal(results[0].memory, "User grinds coffee beans at home");
  assert.equal(results[0].score, 0.9);
  assert.equal(typeof results[0].fusedScore, "number");
  const [request] = server.requests("cohere");
  assert.equal(request.headers.authorization, "Bearer cohere-key");
  assert.equal(request.body.top_n, results.length);
});
