// The rank fusion of the LOCOMO baselines (baselines.mjs), as a JS developer would write it: reciprocal rank
// fusion of ranked turn indices, and neighbour expansion (a hit's turns before and after in its session rise
// with it). No dependencies, so tests/node/locomo-metrics.test.mjs checks it without the bench's packages.

/** Reciprocal rank fusion (k = 60) of rankings of indices: `[index, score]` pairs, best first (ties in first-seen order). */
export function rrfScores(lists) {
  const score = new Map();
  for (const list of lists) list.forEach((i, rank) => score.set(i, (score.get(i) ?? 0) + 1 / (61 + rank)));
  return [...score].sort((a, b) => b[1] - a[1]);
}

/** For each turn, the index of the turn before and after it in its session (-1 at a session's edge). */
export function neighboursOf(turns) {
  const same = (i, j) => j >= 0 && j < turns.length && turns[j].session === turns[i].session;
  return turns.map((_, i) => ({ before: same(i, i - 1) ? i - 1 : -1, after: same(i, i + 1) ? i + 1 : -1 }));
}

/**
 * `scored` (`[index, score]` pairs, best first) with neighbour expansion: each scored turn passes
 * `share` × its score to its neighbours (`before` / `after`); a turn's score becomes its own plus what it
 * receives (`combine: "sum"`) or the larger of its own and the most it receives (`"max"`). Best first.
 */
export function withNeighbours(scored, neighbours, { share, before, after, combine }) {
  const own = new Map(scored);
  const given = new Map();
  const give = (to, amount) => {
    if (to < 0) return;
    given.set(to, combine === "sum" ? (given.get(to) ?? 0) + amount : Math.max(given.get(to) ?? 0, amount));
  };
  for (const [i, score] of scored) {
    if (before) give(neighbours[i].before, share * score);
    if (after) give(neighbours[i].after, share * score);
  }
  const total = new Map(own);
  for (const [i, amount] of given) {
    const mine = own.get(i) ?? 0;
    total.set(i, combine === "sum" ? mine + amount : Math.max(mine, amount));
  }
  return [...total].sort((a, b) => b[1] - a[1]);
}
