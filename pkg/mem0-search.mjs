// `search()` as mem0 v3 searches (mem0's `Memory.search` and `scoreAndRank`): at most `topK` (default 20)
// memories; a memory is a candidate when its cosine similarity to the query is at least `threshold` (default
// 0.1), among the `max(topK × 4, 60)` nearest; candidates rank by (cosine + BM25 normalised by mem0's
// sigmoid) / 2, or by the cosine alone when no memory matches a word of the query. `explain: true` adds
// mem0's `score_details` to each result. `rerank` defaults to true, as in mem0, and acts only when the config
// has a reranker memwasm runs (without one it changes nothing, as in mem0): the semantic candidates' first go
// to the reranker, and the reranked come first, in its order, its relevance as `score` and mem0's hybrid score
// as `fusedScore`. memwasm ranks the keywords (its BM25) and has no entity store, so `entityBoost` is 0.
// With `method` given, the call is memwasm's own search, with memwasm's options and defaults.
// When the query cannot be embedded because the embedder is unavailable, keywords rank, with memwasm's
// `EMBEDDING_UNAVAILABLE` warning (docs/degraded-reads.md).

/** mem0 v3's defaults. */
export const TOP_K = 20;
export const THRESHOLD = 0.1;

/** mem0's `getBm25Params`: the sigmoid's [midpoint, steepness] for a query of that many terms. */
function bm25Params(query) {
  const terms = query.trim().split(/\s+/).filter(Boolean).length || 1;
  if (terms <= 3) return [5, 0.7];
  if (terms <= 6) return [7, 0.6];
  if (terms <= 9) return [9, 0.5];
  return terms <= 15 ? [10, 0.5] : [12, 0.5];
}

/** An embedding error the read may fall back from (memwasm's rule: the network, a timeout, 408, 429, 5xx). */
function unavailable(error) {
  const code = error?.code;
  if (["EMBEDDING_NETWORK", "EMBEDDING_TIMEOUT", "EMBEDDING_UNAVAILABLE"].includes(code)) return true;
  return code === "EMBEDDING_HTTP" && (error.status === 408 || error.status === 429 || error.status >= 500);
}

/** The keys of `object` among `keys` that it has. */
const pick = (object, ...keys) => Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));

/** `search(query, options)`, and when it has `rerank` and memwasm says no reranker is configured (mem0's config
 * named one memwasm cannot run, dropped with a startup warning), the same without it: mem0 does not rerank then. */
async function withReranker(search, query, options) {
  try {
    return await search(query, options);
  } catch (error) {
    if (!options.rerank || error?.code !== "INVALID_INPUT" || !error.message.includes("no reranker is configured")) throw error;
    const { rerank: _, ...unreranked } = options;
    return search(query, unreranked);
  }
}

/** mem0's search over `search(query, options)`, memwasm's; `reranker` says whether the config names one. */
export async function mem0Search(search, query, options, reranker = false) {
  const { topK = TOP_K, threshold = THRESHOLD, explain = false, rerank = true, ...rest } = options ?? {};
  if (rest.method !== undefined) return search(query, { ...rest, ...pick(options, "topK", "threshold", "rerank") });
  // Invalid values go to memwasm as they are, which refuses them with mem0's messages.
  const pool = Number.isInteger(topK) && topK >= 0 ? Math.max(topK * 4, 60) : topK;
  const reranking = reranker && rerank !== false ? { rerank } : {};
  let semantic;
  try {
    semantic = await withReranker(search, query, { ...rest, ...reranking, topK: pool, threshold, method: "vector", graph: false });
  } catch (error) {
    if (!unavailable(error)) throw error;
    const found = await search(query, { ...rest, topK, method: "keyword" });
    const why = `the query could not be embedded; ranked by keywords only: ${error.message}`;
    const warning = { code: "EMBEDDING_UNAVAILABLE", message: why, cause: error.code, ...(error.status ? { status: error.status } : {}) };
    return { ...found, warnings: [...(found.warnings ?? []), warning] };
  }
  // Graph memory's relations come with the keyword ranking (mem0 v3 gives none; memwasm's search does).
  const keywords = await search(query, { ...rest, topK: pool, method: "keyword" }).catch(() => ({ results: [] }));
  const [midpoint, steepness] = bm25Params(query);
  const bm25 = new Map(keywords.results.filter((hit) => hit.score > 0)
    .map((hit) => [hit.id, 1 / (1 + Math.exp(-steepness * (hit.score - midpoint)))]));
  const maxPossibleScore = bm25.size > 0 ? 2 : 1;
  const ranked = semantic.results.map((item) => {
    // A reranked memory's cosine is its fusedScore (its score is the reranker's relevance).
    const [semanticScore, bm25Score] = [item.fusedScore ?? item.score ?? 0, bm25.get(item.id) ?? 0];
    const rawScore = semanticScore + bm25Score;
    const finalScore = Math.min(rawScore / maxPossibleScore, 1);
    const details = { semanticScore, bm25Score, entityBoost: 0, rawScore, maxPossibleScore, finalScore, threshold };
    const scores = item.fusedScore === undefined ? { score: finalScore } : { score: item.score, fusedScore: finalScore };
    return { ...item, ...scores, ...(explain ? { score_details: details } : {}) };
  });
  // The reranked first, in the reranker's order; the rest by score (stable: equal scores keep the nearer first).
  const rank = (item) => (item.fusedScore === undefined ? 1 : 0);
  ranked.sort((a, b) => rank(a) - rank(b) || (rank(a) ? b.score - a.score : 0));
  const relations = keywords.relations ? { relations: keywords.relations } : {};
  return { ...semantic, ...relations, method: "hybrid", results: ranked.slice(0, topK) };
}
