// The search implementations a scan figure compares. Each has a name, build(data) (timed as "load"),
// and search(query) -> rows of the best K (best first); search may return a promise.
import { create, insertMultiple, search as oramaSearch } from "@orama/orama";
import { __BenchIndex, Memory } from "memwasm";

export const K = 10;
/** The searched user owns every row whose users[] entry is 0 (9 rows in 10). */
const USER = 0;

/** memwasm's search index on its own (a hidden bench export): the scan the engine runs, no embedding call. */
export function memwasmIndex(quantization) {
  let index;
  return {
    name: { int8: "memwasm int8", none: "memwasm f32", auto: "memwasm auto (default)" }[quantization],
    build({ vectors, users, dim }) {
      index = new __BenchIndex(quantization);
      index.load(vectors, dim, users);
    },
    search: (query) => index.search(query, K, USER),
    vectorBytes: () => index.vectorBytes(),
  };
}

/** A memory whose models are the scripted server, with the default index or `quantization`. */
function benchMemory(server, dim, quantization) {
  return new Memory({
    llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "bench", model: "bench" } },
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "bench", model: "bench", dimensions: dim } },
    ...(quantization ? { vectorStore: { provider: "memory", config: { quantization } } } : {}),
  });
}

/**
 * memwasm's public `memory.search(text, {userId, limit})`: the query text goes to the scripted
 * OpenAI-compatible server, which answers with the data set's query vector (an embedding rule per query),
 * so this path pays one local HTTP round trip plus result objects on top of the scan.
 */
export function memwasmPublic(server, quantization) {
  let memory;
  return {
    name: quantization === "int8" ? "memwasm search() int8" : "memwasm search()",
    async build({ vectors, users, dim, queries }) {
      for (let q = 0; q < queries.length; q++) {
        server.script({ kind: "embedding", match: [`bench query ${q} end`], vector: Array.from(queries[q]) });
      }
      memory = benchMemory(server, dim, quantization);
      await memory.__benchInsert(vectors, dim, users);
    },
    async search(_query, q) {
      const { results } = await memory.search(`bench query ${q} end`, { userId: "u0", limit: K });
      return results.map((item) => Number(item.id.slice(1)));
    },
  };
}

/** A plain JS loop over Float32Arrays: pre-normalised vectors, one dot product per row, a top-K insertion. */
export function jsLoop() {
  let records;
  return {
    name: "JS loop (top-k)",
    build({ vectors, users, dim }) {
      records = Array.from(users, (user, row) => ({
        row,
        userId: `u${user}`,
        vector: vectors.subarray(row * dim, (row + 1) * dim),
      }));
    },
    search(query) {
      const userId = `u${USER}`;
      const best = []; // [score, row], best first
      for (const record of records) {
        if (record.userId !== userId) continue;
        const v = record.vector;
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += v[i] * query[i];
        if (best.length < K || dot > best[best.length - 1][0]) {
          let at = best.length;
          while (at > 0 && best[at - 1][0] < dot) at--;
          best.splice(at, 0, [dot, record.row]);
          if (best.length > K) best.pop();
        }
      }
      return best.map(([, row]) => row);
    },
  };
}

/**
 * The strongest plain-JS scan a performance-minded user would write: every vector in one flat
 * `Float32Array`, the scope as a typed array of ids, a 4-way unrolled dot product and a top-K kept in two
 * typed arrays. No object per row, no string compare: this is the JS baseline the targets name.
 */
export function jsLean() {
  let data;
  let scopes;
  let dim;
  let rows;
  return {
    name: "lean JS loop",
    build({ vectors, users, dim: d }) {
      data = new Float32Array(vectors);
      scopes = new Uint32Array(users);
      dim = d;
      rows = scopes.length;
    },
    search(query) {
      const scores = new Float64Array(K).fill(-Infinity);
      const best = new Int32Array(K).fill(-1);
      for (let row = 0, at = 0; row < rows; row++, at += dim) {
        if (scopes[row] !== USER) continue;
        let a0 = 0;
        let a1 = 0;
        let a2 = 0;
        let a3 = 0;
        for (let i = 0; i < dim; i += 4) {
          a0 += data[at + i] * query[i];
          a1 += data[at + i + 1] * query[i + 1];
          a2 += data[at + i + 2] * query[i + 2];
          a3 += data[at + i + 3] * query[i + 3];
        }
        keepBest(scores, best, a0 + a1 + (a2 + a3), row);
      }
      return Array.from(best).filter((row) => row >= 0);
    },
  };
}

/** Keeps `dot` for `row` in the best-K typed arrays (best first) when it beats the K-th. */
function keepBest(scores, best, dot, row) {
  if (dot <= scores[K - 1]) return;
  let slot = K - 1;
  while (slot > 0 && scores[slot - 1] < dot) {
    scores[slot] = scores[slot - 1];
    best[slot] = best[slot - 1];
    slot--;
  }
  scores[slot] = dot;
  best[slot] = row;
}

/**
 * The fastest plain-JS scan found so far: the lean loop's typed arrays, but each user's rows kept together
 * (gathered once, at load) and four rows scored per pass over the query, so each query value is read once
 * for four rows. Same `Float32Array` data; the baseline the speed targets of search({embedding}) name.
 */
export function jsGrouped() {
  let data;
  let ids;
  let dim;
  return {
    name: "JS loop, rows grouped, 4 a pass",
    build({ vectors, users, dim: d }) {
      dim = d;
      const mine = [];
      for (let row = 0; row < users.length; row++) if (users[row] === USER) mine.push(row);
      ids = Int32Array.from(mine);
      data = new Float32Array(ids.length * dim);
      ids.forEach((row, at) => data.set(vectors.subarray(row * dim, (row + 1) * dim), at * dim));
    },
    search(query) {
      const scores = new Float64Array(K).fill(-Infinity);
      const best = new Int32Array(K).fill(-1);
      const rows = ids.length;
      let row = 0;
      for (; row + 4 <= rows; row += 4) {
        const o0 = row * dim;
        const o1 = o0 + dim;
        const o2 = o1 + dim;
        const o3 = o2 + dim;
        let a0 = 0;
        let a1 = 0;
        let a2 = 0;
        let a3 = 0;
        for (let i = 0; i < dim; i++) {
          const q = query[i];
          a0 += data[o0 + i] * q;
          a1 += data[o1 + i] * q;
          a2 += data[o2 + i] * q;
          a3 += data[o3 + i] * q;
        }
        keepBest(scores, best, a0, ids[row]);
        keepBest(scores, best, a1, ids[row + 1]);
        keepBest(scores, best, a2, ids[row + 2]);
        keepBest(scores, best, a3, ids[row + 3]);
      }
      for (; row < rows; row++) {
        let dot = 0;
        for (let i = 0, at = row * dim; i < dim; i++) dot += data[at + i] * query[i];
        keepBest(scores, best, dot, ids[row]);
      }
      return Array.from(best).filter((row) => row >= 0);
    },
  };
}

/**
 * memwasm's public `memory.search({embedding}, {userId, limit})` over the default index: what an app
 * that embeds its own queries calls. No model call, so the figure is the index plus the public layer
 * (scope reading, filters, result objects).
 */
export function memwasmPublicVector(server) {
  let memory;
  return {
    name: "memwasm search({embedding})",
    async build({ vectors, users, dim }) {
      memory = benchMemory(server, dim);
      await memory.__benchInsert(vectors, dim, users);
    },
    async search(query) {
      const { results } = await memory.search({ embedding: query }, { userId: "u0", limit: K });
      return results.map((item) => Number(item.id.slice(1)));
    },
  };
}

/**
 * usearch (unum-cloud/usearch, native C++ through its Node binding) `exactSearch` on one thread, given
 * only the searched scope's rows, as one index per user would: its exact brute-force path with SIMD
 * kernels for this CPU. `i8` quantizes rows and query to int8 with one scale for the data set (127 over the
 * largest component), the finest a single int8 scale allows.
 */
export async function usearchExact(dtype) {
  const usearch = (await import("usearch")).default;
  let rows;
  let owners;
  let dim;
  let scale = 127;
  // A loop, not `Int8Array.from(floats, f)`: that collects into a JS array first, which 100k × 1536 overflows.
  const asType = (floats) => {
    if (dtype !== "i8") return floats;
    const codes = new Int8Array(floats.length);
    for (let i = 0; i < floats.length; i++) codes[i] = Math.max(-127, Math.min(127, Math.round(floats[i] * scale)));
    return codes;
  };
  return {
    name: `usearch exact ${dtype} (1 thread)`,
    build({ vectors, users, dim: d }) {
      dim = d;
      owners = [];
      users.forEach((user, row) => user === USER && owners.push(row));
      const picked = new Float32Array(owners.length * dim);
      owners.forEach((row, i) => picked.set(vectors.subarray(row * dim, (row + 1) * dim), i * dim));
      let largest = 0;
      for (const x of picked) largest = Math.max(largest, Math.abs(x));
      scale = 127 / (largest || 1);
      rows = asType(picked);
    },
    search(query) {
      // A copy: the binding reads a typed array from the start of its buffer, whatever its offset.
      const found = usearch.exactSearch(rows, asType(query.slice()), dim, K, usearch.MetricKind.IP, 1);
      return Array.from(found.keys, (key) => owners[Number(key)]);
    },
  };
}

/**
 * What typical JS in-memory stores (mem0's, LangChain's) do per query: cosine similarity with both norms
 * computed for every row, every passing row collected, all of them sorted, the first K kept.
 */
export function jsTypical() {
  let records;
  return {
    name: "JS typical store",
    build({ vectors, users, dim }) {
      records = Array.from(users, (user, row) => ({
        id: row,
        payload: { userId: `u${user}` },
        vector: vectors.subarray(row * dim, (row + 1) * dim),
      }));
    },
    search(query) {
      const userId = `u${USER}`;
      const scored = [];
      for (const record of records) {
        if (record.payload.userId !== userId) continue;
        const v = record.vector;
        let dot = 0;
        let normA = 0;
        let normB = 0;
        for (let i = 0; i < v.length; i++) {
          dot += query[i] * v[i];
          normA += query[i] * query[i];
          normB += v[i] * v[i];
        }
        scored.push({ id: record.id, score: dot / (Math.sqrt(normA) * Math.sqrt(normB)) });
      }
      scored.sort((a, b) => b.score - a.score);
      return scored.slice(0, K).map((hit) => hit.id);
    },
  };
}

/**
 * Orama 3 vector search with a `where` filter on the user. `similarity: 0` is the loosest threshold that
 * still yields the exact top 10 on these data sets (Orama keeps every vector at or above it, then sorts).
 */
export function orama() {
  let db;
  return {
    name: "Orama 3",
    async build({ vectors, users, dim }) {
      db = create({ schema: { userId: "enum", embedding: `vector[${dim}]` } });
      const docs = Array.from(users, (user, row) => ({
        id: String(row),
        userId: `u${user}`,
        // Orama's schema check wants a plain array; it stores a Float32Array copy.
        embedding: Array.from(vectors.subarray(row * dim, (row + 1) * dim)),
      }));
      await insertMultiple(db, docs, 5000);
    },
    async search(query) {
      const found = await oramaSearch(db, {
        mode: "vector",
        vector: { value: query, property: "embedding" },
        similarity: 0,
        limit: K,
        where: { userId: { eq: `u${USER}` } },
      });
      return found.hits.map((hit) => Number(hit.id));
    },
  };
}
