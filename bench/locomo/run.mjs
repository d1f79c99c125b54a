// LOCOMO retrieval benchmark, no LLM needed: every dialogue turn of the conversations in
// ../shared/bench-data/locomo/ (or --data DIR) is stored as one memory (`infer: false`, a session's turns in one
// add() call, the session and its date in metadata), each question of categories 1-4 is searched with
// `limit: 10`, and recall@k is the share of the question's evidence turns among the top k. The same run
// measures the baselines a JS user would pick, over the same MiniLM vectors: MiniSearch (BM25), exact dense
// search, and their reciprocal-rank fusion. Prints the tables and the targets; --json prints the figures.
// --threads N: the embedder's worker threads (default: the cores, at most 4). Needs the built package (scripts/build-pkg.sh) and the MiniLM weights (MINILM_DIR, default
// ~/.cache/memwasm/minilm; `bash scripts/setup.sh minilm` fetches them).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import MiniSearch from "minisearch";
import { Memory } from "memwasm";
import { createLocalEmbedder } from "memwasm/local-embedder";
import { conversation, evidenceOf, QUESTION_CATEGORIES } from "./data.mjs";
import { recallTable, targetsTable } from "./report.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const dataDir = option("--data", join(here, "..", "..", "..", "shared", "bench-data", "locomo"));
/** The on-device embedder's worker threads (Node): as many as there are cores, at most 4. */
const threads = Number(option("--threads", Math.min(availableParallelism(), 4)));
const minilm = process.env.MINILM_DIR ?? join(homedir(), ".cache", "memwasm", "minilm");
const weights = join(minilm, "model.safetensors");
const tokenizer = join(minilm, "tokenizer.json");
if (!existsSync(weights) || !existsSync(tokenizer)) {
  process.stderr.write(`the MiniLM weights are not in ${minilm} (bash scripts/setup.sh minilm fetches them)\n`);
  process.exit(2);
}
if (!existsSync(dataDir)) {
  process.stderr.write(`no LOCOMO conversations in ${dataDir} (--data DIR)\n`);
  process.exit(2);
}
const say = (text) => process.stderr.write(`[locomo] ${text}\n`);
const K = [1, 5, 10];
const METHODS = ["default", "vector", "keyword", "hybrid", "rrf"];
const BASELINES = ["baseline:minisearch", "baseline:dense", "baseline:rrf(minisearch,dense)"];

const embedder = await createLocalEmbedder({ weights, tokenizer });
const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
/** Reciprocal rank fusion (k = 60) of rankings of indices, as a JS user would write it. */
const rrf = (lists) => {
  const score = new Map();
  for (const list of lists) list.forEach((i, rank) => score.set(i, (score.get(i) ?? 0) + 1 / (61 + rank)));
  return [...score].sort((a, b) => b[1] - a[1]).map(([i]) => i);
};

/** One conversation: ingestion, then every question by every method and baseline. */
async function measure(file) {
  const { turns, questions, sessions } = conversation(JSON.parse(readFileSync(join(dataDir, file), "utf8")));
  const memory = new Memory({
    llm: { provider: "none" },
    embedder: { provider: "local", config: { model: "all-MiniLM-L6-v2", weights, tokenizer, threads } },
  });
  const userId = `locomo-${file}`;
  const started = performance.now();
  for (const session of sessions) {
    const messages = session.turns.map((t) => ({ role: "user", content: t.text }));
    await memory.add(messages, { userId, infer: false, metadata: { session: session.n, date: session.date } });
  }
  const ingestMs = performance.now() - started;
  // A stored memory's turn: by session and text (each turn's text is unique within its session).
  const turnOf = new Map(turns.map((t) => [`${t.session}\u0000${t.text}`, t]));
  const dia = (item) => turnOf.get(`${item.metadata.session}\u0000${item.memory}`)?.dia_id;

  // Baselines over the same MiniLM vectors, built as a JS user would.
  const vectors = [];
  for (let i = 0; i < turns.length; i += 64) vectors.push(...(await embedder.embed(turns.slice(i, i + 64).map((t) => t.text))));
  const mini = new MiniSearch({ fields: ["text"], idField: "i" });
  mini.addAll(turns.map((t, i) => ({ i, text: t.text })));

  const rows = [];
  for (const q of questions) {
    const evidence = evidenceOf(q);
    if (!evidence.length) continue;
    const found = {};
    const times = {};
    for (const method of METHODS) {
      const t0 = performance.now();
      const response = await memory.search(q.question, { userId, limit: 10, ...(method === "default" ? {} : { method }) });
      times[method] = performance.now() - t0;
      found[method] = response.results.map(dia);
    }
    const t0 = performance.now();
    const [qv] = await embedder.embed([q.question]);
    const embedMs = performance.now() - t0;
    const dense = vectors.map((v, i) => [dot(v, qv), i]).sort((a, b) => b[0] - a[0]).map(([, i]) => i);
    const bm25 = mini.search(q.question).map((r) => r.id);
    const ids = (list) => list.slice(0, 10).map((i) => turns[i].dia_id);
    found["baseline:minisearch"] = ids(bm25);
    found["baseline:dense"] = ids(dense);
    found["baseline:rrf(minisearch,dense)"] = ids(rrf([bm25.slice(0, 40), dense.slice(0, 40)]));
    const recall = Object.fromEntries(
      Object.entries(found).map(([m, top]) => [m, K.map((k) => evidence.filter((e) => top.slice(0, k).includes(e)).length / evidence.length)]),
    );
    rows.push({ category: q.category, recall, times, embedMs });
  }
  await memory.close?.();
  return { file, turns: turns.length, ingestMs, rows };
}

const files = readdirSync(dataDir).filter((f) => f.endsWith(".json")).sort();
const runs = [];
for (const file of files) {
  say(`${file}: ingesting and searching`);
  runs.push(await measure(file));
}
embedder.close();

const rows = runs.flatMap((r) => r.rows);
const turns = runs.reduce((n, r) => n + r.turns, 0);
const ingestMs = runs.reduce((n, r) => n + r.ingestMs, 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const figures = {
  set: `${files.length} conversations in ${dataDir}`,
  questions: rows.length,
  methods: Object.fromEntries(
    [...METHODS, ...BASELINES].map((m) => [m, {
      byCategory: Object.fromEntries(QUESTION_CATEGORIES.map(({ n }) => [n, mean(rows.filter((r) => r.category === n).map((r) => r.recall[m][2]))])),
      at: Object.fromEntries(K.map((k, j) => [k, mean(rows.map((r) => r.recall[m][j]))])),
      searchMs: rows[0].times[m] === undefined ? null : median(rows.map((r) => r.times[m])),
    }]),
  ),
  embedQueryMs: median(rows.map((r) => r.embedMs)),
  ingestion: { turns, ms: ingestMs, perSecond: turns / (ingestMs / 1000), threads },
};
if (argv.includes("--json")) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
else process.stdout.write(`${recallTable(figures)}\n\n${targetsTable(figures)}\n`);
