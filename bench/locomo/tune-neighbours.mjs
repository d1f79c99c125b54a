// How `baseline:rrf+neighbours` chose its neighbour expansion: every variant of the grid below (the share of
// a hit's fused score its neighbours get; both neighbours, only the turn after or only the turn before; added
// to a neighbour's own score or the larger of the two) over the conversations of run.mjs (same options:
// --data DIR, --threads N), scored by turn recall@10 (categories 1-4, limit 10, as run.mjs) and engram's
// session R@5. Prints the variants best first; the best by recall@10 is baselines.mjs's NEIGHBOURS.
import { createLocalEmbedder } from "memwasm/local-embedder";
import { baselines } from "./baselines.mjs";
import { conversation, evidenceOf, turnRecall } from "./data.mjs";
import { evidenceSessions, firstSessions, sessionHit, sessionId, sessionQuestions } from "./session-hit.mjs";
import { embedAll, files, readConversation, say, threads, tokenizer, weights } from "./setup.mjs";

const NAME = "baseline:rrf+neighbours";
const SHARES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 1];
const SIDES = { both: { before: true, after: true }, after: { before: false, after: true }, before: { before: true, after: false } };
const grid = [
  { label: "none (the plain RRF baseline)", rule: { share: 0, before: false, after: false, combine: "sum" } },
  ...SHARES.flatMap((share) => Object.entries(SIDES).flatMap(([sides, rule]) =>
    ["sum", "max"].map((combine) => ({ label: `share ${share}, ${sides}, ${combine}`, rule: { share, ...rule, combine } })))),
];

const embedder = await createLocalEmbedder({ weights, tokenizer, threads });
const scores = grid.map(() => ({ recall: [], session: [] }));
for (const file of files) {
  say(`${file}: embedding and ranking`);
  const data = readConversation(file);
  const { turns, questions } = conversation(data);
  const rank = baselines(turns, await embedAll(embedder, turns.map((t) => t.text)));
  const ranker = async (question) => rank(question, (await embedder.embed([question]))[0]);
  for (const q of questions) {
    const evidence = evidenceOf(q);
    if (!evidence.length) continue;
    const top = await ranker(q.question);
    grid.forEach(({ rule }, g) => scores[g].recall.push(turnRecall(top(NAME, 10, rule).map((i) => turns[i].dia_id), evidence, 10)));
  }
  for (const q of sessionQuestions(data.qa)) {
    const top = await ranker(q.question);
    for (const [g, { rule }] of grid.entries()) {
      const { sessions } = await firstSessions((limit) => top(NAME, limit, rule).map((i) => sessionId(turns[i].session)));
      scores[g].session.push(sessionHit(sessions, evidenceSessions(q.evidence), 5));
    }
  }
}
embedder.close();

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const rows = grid.map(({ label }, g) => ({ label, recall: mean(scores[g].recall), session: mean(scores[g].session) }));
rows.sort((a, b) => b.recall - a.recall);
process.stdout.write(["| neighbour expansion | turn recall@10 | session R@5 |", "|---|---|---|",
  ...rows.map((r) => `| ${r.label} | ${r.recall.toFixed(4)} | ${r.session.toFixed(4)} |`)].join("\n") + "\n");
