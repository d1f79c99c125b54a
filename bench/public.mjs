// The public path against the bare scan, in one Node process: `memory.search(text, {userId, limit: 10})`
// beside the index's own scan (the hidden __BenchIndex) over the same random 384-d vectors, 9 rows in 10
// the searched user's (by text, which pays one HTTP round trip to the local scripted server for the
// query's vector, and by `{embedding}`, which does not); and `memory.store(key, value, {userId, embedding})`
// per call with a scope already holding n memories; and search(text) by method over texts of words, where
// keyword ranking has real postings to walk. It imports ../pkg directly, so it runs without bench/'s npm install.
// Prints one JSON object; bench/run.mjs turns it into a table. Usage: node public.mjs [--quick] [--methods]
// (--methods: only search(text) by method).
import { performance } from "node:perf_hooks";

import { __BenchIndex, Memory } from "../pkg/index.node.mjs";
import { startScriptedServer } from "../tests/support/scripted-server.mjs";
import { median } from "./lib/stats.mjs";
import { generator } from "./lib/unit-vector.mjs";
import { wordExport } from "./lib/word-export.mjs";

const quick = process.argv.includes("--quick");
const onlyMethods = process.argv.includes("--methods");
const DIM = 384;
const K = 10;
const QUERIES = 20;

/** n seeded unit vectors (xorshift32), row-major. */
function vectors(n, seed) {
  const out = new Float32Array(n * DIM);
  const random = generator(seed);
  for (let row = 0; row < n; row++) {
    let norm = 0;
    for (let i = 0; i < DIM; i++) {
      const v = random() * 2 - 1;
      out[row * DIM + i] = v;
      norm += v * v;
    }
    norm = Math.sqrt(norm);
    for (let i = 0; i < DIM; i++) out[row * DIM + i] /= norm;
  }
  return out;
}

const users = (n) => Uint32Array.from({ length: n }, (_, row) => (row % 10 === 9 ? 1 : 0));

function memory(server) {
  return new Memory({
    llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "bench", model: "bench" } },
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "bench", model: "bench", dimensions: DIM } },
  });
}

/** Median ms per query of the bare scan and of public search() at n memories, in interleaved rounds. */
async function searchFigure(server, n, rounds) {
  const data = vectors(n, 7 + n);
  const queries = vectors(QUERIES, 99);
  const query = (q) => queries.subarray(q * DIM, (q + 1) * DIM);
  for (let q = 0; q < QUERIES; q++) {
    server.script({ kind: "embedding", match: [`public query ${n} ${q} end`], vector: Array.from(query(q)) });
  }
  const index = new __BenchIndex("auto");
  index.load(data, DIM, users(n));
  const mem = memory(server);
  await mem.__benchInsert(data, DIM, users(n));
  const [scan, pub, byVector, embed] = [[], [], [], []];
  let total = 0;
  for (let r = -1; r < rounds; r++) {
    for (let q = 0; q < QUERIES; q++) {
      let start = performance.now();
      index.search(query(q), K, 0);
      if (r >= 0) scan.push(performance.now() - start);
      start = performance.now();
      const response = await mem.search(`public query ${n} ${q} end`, { userId: "u0", limit: K });
      if (r >= 0) pub.push(performance.now() - start);
      total = response.totalCount;
      // The same embedding request on its own, to tell what search(text) takes beyond it.
      start = performance.now();
      await embedding(server, `public query ${n} ${q} end`);
      if (r >= 0) embed.push(performance.now() - start);
      start = performance.now();
      await mem.search({ embedding: query(q) }, { userId: "u0", limit: K });
      if (r >= 0) byVector.push(performance.now() - start);
    }
  }
  index.free();
  mem.free?.();
  return { n, scanMs: median(scan), publicMs: median(pub), byVectorMs: median(byVector), embedMs: median(embed), totalCount: total };
}

/** One OpenAI-style embedding request for `text` to the scripted server, as the library sends it. */
async function embedding(server, text) {
  const reply = await fetch(`${server.baseUrl}/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench" },
    body: JSON.stringify({ model: "bench", input: [text], dimensions: DIM }),
  });
  if (!reply.ok) throw new Error(`embedding request: HTTP ${reply.status}`);
  await reply.json();
}

/** Median ms per store() call (a new key, its vector given) into a scope already holding n memories. */
async function storeFigure(server, n, calls) {
  const mem = memory(server);
  await mem.__benchInsert(vectors(n, 3 + n), DIM, new Uint32Array(n));
  const fresh = vectors(calls, 5);
  const times = [];
  for (let i = 0; i < calls; i++) {
    const embedding = Array.from(fresh.subarray(i * DIM, (i + 1) * DIM));
    const start = performance.now();
    await mem.store(`key ${i}`, `value number ${i}`, { userId: "u0", embedding });
    times.push(performance.now() - start);
  }
  mem.free?.();
  return { n, storeMs: median(times), calls };
}

/**
 * search(text) by method over memories whose texts are words (bench/lib/word-export.mjs), so that keyword
 * ranking has postings to walk: the default (`hybrid`), `vector` and `keyword`, median ms per query; each
 * pays one local HTTP embedding call except `keyword`.
 */
async function methodsFigure(server, n, rounds) {
  const { text, queries } = wordExport(n, DIM, { seed: 11 + n });
  for (const q of queries) server.script({ kind: "embedding", match: [q.text], vector: Array.from(q.vector) });
  const mem = memory(server);
  await mem.importMemories(text);
  const times = { hybrid: [], vector: [], keyword: [] };
  const embed = [];
  for (let r = -1; r < rounds; r++) {
    for (const method of Object.keys(times)) {
      for (const q of queries) {
        const start = performance.now();
        await mem.search(q.text, { userId: "u0", limit: K, method });
        if (r >= 0) times[method].push(performance.now() - start);
      }
    }
    // The embedding request alone, to tell what search(text) takes beyond it.
    for (const q of queries) {
      const start = performance.now();
      await embedding(server, q.text);
      if (r >= 0) embed.push(performance.now() - start);
    }
  }
  mem.free?.();
  const [hybridMs, vectorMs, keywordMs] = [median(times.hybrid), median(times.vector), median(times.keyword)];
  return { n, hybridMs, vectorMs, keywordMs, embedMs: median(embed) };
}

const server = await startScriptedServer({ port: 0 });
const search = [];
const store = [];
if (!onlyMethods) {
  for (const [n, rounds] of [[10_000, 10], [100_000, 4]]) {
    if (!quick || n <= 10_000) search.push(await searchFigure(server, n, rounds));
  }
  for (const n of [1_000, 10_000]) store.push(await storeFigure(server, n, 40));
}
const methods = [];
for (const [n, rounds] of [[1_000, 10], [10_000, 5], [100_000, 3]]) {
  if (!quick || n <= 10_000) methods.push(await methodsFigure(server, n, rounds));
}
await server.close();
process.stdout.write(`${JSON.stringify({ search, store, methods })}\n`);
