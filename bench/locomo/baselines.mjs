// The JavaScript baselines of the LOCOMO bench, built as a JS developer would over the same MiniLM vectors:
// MiniSearch (BM25), exact dense search and their reciprocal-rank fusion.
import MiniSearch from "minisearch";

export const BASELINES = ["baseline:minisearch", "baseline:dense", "baseline:rrf(minisearch,dense)"];

/** How many of each ranking the fusions read: 4 × the results asked for (40 for `limit: 10`). */
const depth = (limit) => 4 * limit;

/** Reciprocal rank fusion (k = 60) of rankings of indices: `[index, score]` pairs, best first (ties in first-seen order). */
export function rrfScores(lists) {
  const score = new Map();
  for (const list of lists) list.forEach((i, rank) => score.set(i, (score.get(i) ?? 0) + 1 / (61 + rank)));
  return [...score].sort((a, b) => b[1] - a[1]);
}

/**
 * The baselines over one conversation's `turns` and their unit `vectors`: `rank(question, queryVector)`
 * gives `top(name, limit)`, the turn indices of that baseline's best `limit`, best first.
 */
export function baselines(turns, vectors) {
  const mini = new MiniSearch({ fields: ["text"], idField: "i" });
  mini.addAll(turns.map((t, i) => ({ i, text: t.text })));
  const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  return (question, queryVector) => {
    const dense = vectors.map((v, i) => [dot(v, queryVector), i]).sort((a, b) => b[0] - a[0]).map(([, i]) => i);
    const bm25 = mini.search(question).map((r) => r.id);
    const fused = (limit) => rrfScores([bm25.slice(0, depth(limit)), dense.slice(0, depth(limit))]);
    const ranked = {
      "baseline:minisearch": () => bm25,
      "baseline:dense": () => dense,
      "baseline:rrf(minisearch,dense)": (limit) => fused(limit).map(([i]) => i),
    };
    return (name, limit) => ranked[name](limit).slice(0, limit);
  };
}
