// LOCOMO retrieval benchmark, no LLM needed: every dialogue turn of the conversations in
// ../shared/bench-data/locomo/ (or --data DIR) is stored as one memory (`infer: false`, a session's turns in one
// add() call, the session and its date in metadata), each question of categories 1-4 is searched with
// `limit: 10`, and recall@k is the share of the question's evidence turns among the top k. Then engram-search's
// figure (session-hit.mjs): over every question with evidence, categories 1-5, the share whose evidence session
// is among the first 5 (10) distinct sessions retrieved, each search asking for as many results as that takes.
// The same run measures the baselines a JS user would build over the same MiniLM vectors (baselines.mjs):
// MiniSearch (BM25), exact dense search, their reciprocal-rank fusion, and that fusion with neighbour
// expansion. Prints the tables and the targets; --json prints the figures. --threads N: the embedder's worker
// threads (default: the cores, at most 4). Needs the built package (scripts/build-pkg.sh) and the MiniLM
// weights (MINILM_DIR, default ~/.cache/memwasm/minilm; `bash scripts/setup.sh minilm` fetches them).
import { performance } from "node:perf_hooks";
import { Memory } from "memwasm";
import { createLocalEmbedder } from "memwasm/local-embedder";
import { BASELINES, baselines } from "./baselines.mjs";
import { conversation, evidenceOf, QUESTION_CATEGORIES, storeSessions, turnIds, turnRecall } from "./data.mjs";
import { recallTable, targetsTable } from "./report.mjs";
import { evidenceSessions, firstSessions, SESSION_CATEGORIES, SESSION_K, sessionHit, sessionId, sessionQuestions } from "./session-hit.mjs";
import { argv, dataDir, embedAll, files, readConversation, say, threads, tokenizer, weights } from "./setup.mjs";

const K = [1, 5, 10];
const METHODS = ["default", "vector", "keyword", "hybrid", "rrf"];
const methodOption = (method) => (method === "default" ? {} : { method });

const embedder = await createLocalEmbedder({ weights, tokenizer });

/** One conversation: ingestion, then every question by every method and baseline. */
async function measure(file) {
  const data = readConversation(file);
  const { turns, questions, sessions } = conversation(data);
  const memory = new Memory({
    llm: { provider: "none" },
    embedder: { provider: "local", config: { model: "all-MiniLM-L6-v2", weights, tokenizer, threads } },
  });
  const userId = `locomo-${file}`;
  const started = performance.now();
  await storeSessions(memory, sessions, userId);
  const ingestMs = performance.now() - started;
  const dia = turnIds(turns);
  const rank = baselines(turns, await embedAll(embedder, turns.map((t) => t.text)));
  const queryVectors = new Map();
  const queryVector = async (text) => queryVectors.get(text) ?? queryVectors.set(text, (await embedder.embed([text]))[0]).get(text);

  const rows = [];
  for (const q of questions) {
    const evidence = evidenceOf(q);
    if (!evidence.length) continue;
    const found = {};
    const times = {};
    for (const method of METHODS) {
      const t0 = performance.now();
      const response = await memory.search(q.question, { userId, limit: 10, ...methodOption(method) });
      times[method] = performance.now() - t0;
      found[method] = response.results.map(dia);
    }
    const t0 = performance.now();
    const vector = await queryVector(q.question);
    const embedMs = performance.now() - t0;
    const top = rank(q.question, vector);
    for (const name of BASELINES) found[name] = top(name, 10).map((i) => turns[i].dia_id);
    const recall = Object.fromEntries(Object.entries(found).map(([m, ids]) => [m, K.map((k) => turnRecall(ids, evidence, k))]));
    rows.push({ category: q.category, recall, times, embedMs });
  }

  // engram's session figure, after every turn-level search so those stay as they were.
  const sessionRows = [];
  for (const q of sessionQuestions(data.qa)) {
    const evidence = evidenceSessions(q.evidence);
    const searches = {};
    for (const method of METHODS) {
      searches[method] = async (limit) => (await memory.search(q.question, { userId, limit, ...methodOption(method) }))
        .results.map((item) => sessionId(item.metadata.session));
    }
    const top = rank(q.question, await queryVector(q.question));
    for (const name of BASELINES) searches[name] = (limit) => top(name, limit).map((i) => sessionId(turns[i].session));
    const hits = {};
    let limit = 0;
    for (const [m, search] of Object.entries(searches)) {
      const first = await firstSessions(search, Math.max(...SESSION_K));
      hits[m] = SESSION_K.map((k) => sessionHit(first.sessions, evidence, k));
      limit = Math.max(limit, first.limit);
    }
    sessionRows.push({ category: q.category, hits, limit });
  }
  await memory.close?.();
  return { file, turns: turns.length, ingestMs, rows, sessionRows };
}

const runs = [];
for (const file of files) {
  say(`${file}: ingesting and searching`);
  runs.push(await measure(file));
}
embedder.close();

const rows = runs.flatMap((r) => r.rows);
const sessionRows = runs.flatMap((r) => r.sessionRows);
const turns = runs.reduce((n, r) => n + r.turns, 0);
const ingestMs = runs.reduce((n, r) => n + r.ingestMs, 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
/** `{5, 10}`: the mean session hit at each k over `picked`. */
const sessionMeans = (picked, m) => Object.fromEntries(SESSION_K.map((k, j) => [k, mean(picked.map((r) => r.hits[m][j]))]));
const figures = {
  set: `${files.length} conversations in ${dataDir}`,
  questions: rows.length,
  sessionQuestions: sessionRows.length,
  sessionLimit: { median: median(sessionRows.map((r) => r.limit)), max: Math.max(...sessionRows.map((r) => r.limit)) },
  methods: Object.fromEntries(
    [...METHODS, ...BASELINES].map((m) => [m, {
      byCategory: Object.fromEntries(QUESTION_CATEGORIES.map(({ n }) => [n, mean(rows.filter((r) => r.category === n).map((r) => r.recall[m][2]))])),
      at: Object.fromEntries(K.map((k, j) => [k, mean(rows.map((r) => r.recall[m][j]))])),
      sessionHit: {
        ...sessionMeans(sessionRows, m),
        byCategory: Object.fromEntries(SESSION_CATEGORIES.map(({ n }) => [n, sessionMeans(sessionRows.filter((r) => r.category === n), m)])),
      },
      searchMs: rows[0].times[m] === undefined ? null : median(rows.map((r) => r.times[m])),
    }]),
  ),
  // Per conversation: each method's turn recall@10 and session R@5, to see how far one conversation moves them.
  byConversation: Object.fromEntries(runs.map((r) => [r.file, Object.fromEntries([...METHODS, ...BASELINES].map((m) => [m, {
    recall10: mean(r.rows.map((x) => x.recall[m][2])),
    sessionHit5: mean(r.sessionRows.map((x) => x.hits[m][0])),
  }]))])),
  embedQueryMs: median(rows.map((r) => r.embedMs)),
  ingestion: { turns, ms: ingestMs, perSecond: turns / (ingestMs / 1000), threads },
};
if (argv.includes("--json")) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
else process.stdout.write(`${recallTable(figures)}\n\n${targetsTable(figures)}\n`);
