// The LOCOMO bench's figures that need no model: engram-search's session hit rate as its
// benchmarks/locomo_bench.py computes it (bench/locomo/session-hit.mjs), and the rank fusion with neighbour
// expansion of the `baseline:rrf+neighbours` baseline (bench/locomo/fusion.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  distinctSessions, evidenceSessions, firstSessions, sessionHit, sessionQuestions,
} from "../../bench/locomo/session-hit.mjs";
import { neighboursOf, rrfScores, withNeighbours } from "../../bench/locomo/fusion.mjs";

test("evidence ids map to sessions by the text before the first colon, as engram's evidence_to_session_ids", () => {
  assert.deepEqual([...evidenceSessions(["D3:5", "D10:13", "D3:7"])], ["session_3", "session_10"]);
  // One entry naming two turns gives only its first session; a malformed entry gives "session_".
  assert.deepEqual([...evidenceSessions(["D8:6; D9:17"])], ["session_8"]);
  assert.deepEqual([...evidenceSessions(["D", "D:11:26"])], ["session_"]);
});

test("a session hit counts distinct sessions, not results, and any one evidence session is enough", () => {
  const ranked = ["session_2", "session_2", "session_4", "session_2", "session_5", "session_6", "session_7", "session_9"];
  const distinct = distinctSessions(ranked);
  assert.deepEqual(distinct, ["session_2", "session_4", "session_5", "session_6", "session_7", "session_9"]);
  assert.equal(sessionHit(distinct, new Set(["session_7"]), 5), 1, "the fifth distinct session, the seventh result");
  assert.equal(sessionHit(distinct, new Set(["session_9"]), 5), 0, "the sixth distinct session");
  assert.equal(sessionHit(distinct, new Set(["session_9"]), 10), 1);
  assert.equal(sessionHit(distinct, new Set(["session_1", "session_4"]), 5), 1);
  assert.equal(sessionHit(distinct, evidenceSessions(["D:11:26"]), 10), 0, "a malformed evidence id never matches");
});

test("every question with evidence counts, adversarial ones included; those without evidence do not", () => {
  const qa = [
    { question: "a", category: 1, evidence: ["D1:1"] },
    { question: "b", category: 5, evidence: ["D2:3"] },
    { question: "c", category: 2, evidence: [] },
    { question: "d", category: 5 },
  ];
  assert.deepEqual(sessionQuestions(qa).map((q) => q.question), ["a", "b"]);
});

test("firstSessions asks for twice the results until ten distinct sessions are in, or every match is returned", async () => {
  // 100 results, each session holding 7 consecutive ones: ten sessions need 64 + results.
  const all = Array.from({ length: 100 }, (_, i) => `session_${Math.floor(i / 7)}`);
  const asked = [];
  const search = async (limit) => {
    asked.push(limit);
    return all.slice(0, limit);
  };
  const first = await firstSessions(search, 10, 10);
  assert.deepEqual(asked, [10, 20, 40, 80]);
  assert.deepEqual(first.sessions, Array.from({ length: 10 }, (_, i) => `session_${i}`));
  assert.equal(first.limit, 80);

  const few = await firstSessions(async (limit) => ["session_1", "session_1", "session_2"].slice(0, limit), 10, 2);
  assert.deepEqual(few, { sessions: ["session_1", "session_2"], limit: 4 }, "stops once the search has no more results");
});

test("reciprocal rank fusion sums 1/(61 + rank) over the rankings, ties in first-seen order", () => {
  const fused = rrfScores([[7, 3], [3, 8]]);
  assert.deepEqual(fused, [[3, 1 / 62 + 1 / 61], [7, 1 / 61], [8, 1 / 62]]);
  assert.deepEqual(rrfScores([[8], [7]]).map(([i]) => i), [8, 7], "a tie keeps the first ranking's turn first");
});

test("neighbour expansion lifts a hit's turns before and after in its session, never across sessions", () => {
  const turns = [{ session: 1 }, { session: 1 }, { session: 1 }, { session: 2 }, { session: 2 }];
  const neighbours = neighboursOf(turns);
  assert.deepEqual(neighbours.map((n) => [n.before, n.after]), [[-1, 1], [0, 2], [1, -1], [-1, 4], [3, -1]]);

  const scored = [[2, 1.0], [4, 0.6], [3, 0.5]];
  const both = withNeighbours(scored, neighbours, { share: 0.5, before: true, after: true, combine: "sum" });
  const score = new Map(both);
  assert.equal(score.get(1), 0.5, "the turn before the best hit gets half its score");
  assert.equal(score.get(3), 0.5 + 0.3, "a hit's own score plus half its neighbour's");
  assert.equal(score.get(4), 0.6 + 0.25);
  assert.equal(score.has(0), false, "two turns away gets nothing");
  assert.equal(score.get(2), 1.0, "session 2's first turn gives nothing to session 1's last");
  assert.deepEqual(both.map(([i]) => i), [2, 4, 3, 1]);

  const after = new Map(withNeighbours(scored, neighbours, { share: 0.5, before: false, after: true, combine: "sum" }));
  assert.equal(after.has(1), false, "only the turn after a hit rises");
  assert.equal(after.get(4), 0.6 + 0.25);

  const max = new Map(withNeighbours(scored, neighbours, { share: 1, before: true, after: true, combine: "max" }));
  assert.equal(max.get(3), 0.6, "the larger of its own 0.5 and its neighbour's 0.6");
  assert.equal(max.get(4), 0.6);
});
