// engram-search's LOCOMO figure, the session-level hit rate, reproduced from its benchmarks/locomo_bench.py
// (PyPI engram-search 0.1.7, MIT; its README reports R@5 0.939 and R@10 0.950 over 1,982 questions with
// `--mode rerank`). R@k of a question is 1 when any of its evidence sessions is among the first k DISTINCT
// sessions of the retrieved list, else 0; the figure is the plain mean over every counted question.

/** The categories engram counts: every one, adversarial (5) included (run_benchmark filters none). */
export const SESSION_CATEGORIES = [
  { n: 1, name: "multi-hop" },
  { n: 2, name: "temporal" },
  { n: 3, name: "open-domain" },
  { n: 4, name: "single-hop" },
  { n: 5, name: "adversarial" },
];

/** The k of engram's figures (`recall_at_k(..., 5)` and `(..., 10)` in run_benchmark). */
export const SESSION_K = [5, 10];

/**
 * The questions engram counts: every QA of the conversation whose `evidence` is a non-empty list
 * (`evidence = qa.get("evidence", []); if not evidence: continue`), whatever its category.
 */
export const sessionQuestions = (qa) => qa.filter((q) => Array.isArray(q.evidence) && q.evidence.length > 0);

/** A stored session's id as engram names it (`"session_{n}"`, parse_locomo_conversation). */
export const sessionId = (n) => `session_${n}`;

/**
 * A question's evidence sessions, by engram's evidence_to_session_ids: each entry's text before its first
 * ":" with every "D" removed (Python's `ev.split(":")[0].replace("D", "")`). So "D3:5" → session_3, an entry
 * holding two ids ("D8:6; D9:17") gives only its first session, and a malformed one ("D", "D:11:26") gives
 * "session_", which no retrieved session matches.
 */
export function evidenceSessions(evidence) {
  return new Set(evidence.map((entry) => sessionId(entry.split(":")[0].replaceAll("D", ""))));
}

/** The distinct sessions of a ranked list of session ids, in the order first seen (engram's seen_sessions). */
export function distinctSessions(ranked) {
  return [...new Set(ranked)];
}

/** engram's recall_at_k on sessions: 1 when any evidence session is among the first k distinct ones, else 0. */
export function sessionHit(distinct, evidence, k) {
  const top = new Set(distinct.slice(0, k));
  return [...evidence].some((id) => top.has(id)) ? 1 : 0;
}

/**
 * The first `want` distinct sessions of a search, for the session figures. engram asks its pipeline for
 * `top_k * 2` = 10 documents, each up to 6 turns of one session (or a session's synthetic summary); a turn
 * here is one memory, so 10 results hold far fewer sessions. `search(limit)` (resolving with the ranked
 * session ids of the top `limit` results) is called with `start`, then twice as many, until the results hold
 * `want` distinct sessions or fall short of the limit (every match returned). Resolves with the distinct
 * sessions, best first, and the last limit asked for.
 */
export async function firstSessions(search, want = 10, start = 40) {
  for (let limit = start; ; limit *= 2) {
    const ranked = await search(limit);
    const distinct = distinctSessions(ranked);
    if (distinct.length >= want || ranked.length < limit || limit >= MAX_LIMIT) return { sessions: distinct.slice(0, want), limit };
  }
}

/** The largest limit firstSessions asks for (a conversation has under 1,000 turns). */
const MAX_LIMIT = 1 << 16;
