// The JavaScript baselines of the LOCOMO bench, built as a JS developer would over the same MiniLM vectors:
// MiniSearch (BM25), exact dense search, their reciprocal-rank fusion, and that fusion with neighbour
// expansion (the "afternoon" baseline: a hit's turns before and after in its session rise with it).
import MiniSearch from "minisearch";
import { neighboursOf, rrfScores, withNeighbours } from "./fusion.mjs";

export const BASELINES = ["baseline:minisearch", "baseline:dense", "baseline:rrf(minisearch,dense)", "baseline:rrf+neighbours"];

/**
 * The neighbour expansion `baseline:rrf+neighbours` uses: every fused candidate gives 0.4 of its score to the
 * turn before and the turn after it in its session, added to that turn's own fused score. The best of the 48
 * variants of tune-neighbours.mjs on the five conversations by turn recall@10 (0.638, against 0.618 without
 * expansion; 2026-11-29); sharing with one side only, or keeping the larger score instead of the sum, did worse.
 */
export const NEIGHBOURS = { share: 0.4, before: true, after: true, combine: "sum" };

/** How many of each ranking the fusions read: 4 × the results asked for (40 for `limit: 10`). */
const depth = (limit) => 4 * limit;

/**
 * The baselines over one conversation's `turns` and their unit `vectors`: `rank(question, queryVector)`
 * gives `top(name, limit, neighbourRule = NEIGHBOURS)`, the turn indices of that baseline's best `limit`,
 * best first (`neighbourRule` for the tuning grid only).
 */
export function baselines(turns, vectors) {
  const mini = new MiniSearch({ fields: ["text"], idField: "i" });
  mini.addAll(turns.map((t, i) => ({ i, text: t.text })));
  const neighbours = neighboursOf(turns);
  const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  return (question, queryVector) => {
    const dense = vectors.map((v, i) => [dot(v, queryVector), i]).sort((a, b) => b[0] - a[0]).map(([, i]) => i);
    const bm25 = mini.search(question).map((r) => r.id);
    const fused = (limit) => rrfScores([bm25.slice(0, depth(limit)), dense.slice(0, depth(limit))]);
    const ranked = {
      "baseline:minisearch": () => bm25,
      "baseline:dense": () => dense,
      "baseline:rrf(minisearch,dense)": (limit) => fused(limit).map(([i]) => i),
      "baseline:rrf+neighbours": (limit, rule) => withNeighbours(fused(limit), neighbours, rule).map(([i]) => i),
    };
    return (name, limit, neighbourRule = NEIGHBOURS) => ranked[name](limit, neighbourRule).slice(0, limit);
  };
}
