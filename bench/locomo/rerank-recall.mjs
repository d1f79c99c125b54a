// What the on-device cross-encoder does to LOCOMO retrieval: every conversation stored as run.mjs stores it
// (a turn per memory, on-device MiniLM), then every `--every`th question of categories 1-4 searched with
// `limit: 10`, plain and with `rerank: true` through `reranker: {provider: "local"}` at each candidate count
// (`--candidates 20,50`; each count a copy of the memory made by export and import, so nothing is embedded
// twice). Prints recall@10 by category and overall, and the median ms per search, as JSON. Needs the built
// package, the MiniLM weights and the cross-encoder (`bash scripts/setup.sh minilm cross-encoder`).
// Usage: node bench/locomo/rerank-recall.mjs [--every 4] [--candidates 20,50] [--threads 2]
import { homedir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Memory } from "memwasm";
import { conversation, evidenceOf, QUESTION_CATEGORIES, storeSessions, turnIds, turnRecall } from "./data.mjs";
import { argv, files, readConversation, say, threads, tokenizer, weights } from "./setup.mjs";

const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const every = Number(option("--every", 4));
const candidates = option("--candidates", "20,50").split(",").map(Number);
const dir = process.env.CROSS_ENCODER_DIR ?? join(homedir(), ".cache", "memwasm", "cross-encoder");
const embedder = { provider: "local", config: { weights, tokenizer, threads } };
const reranker = (topK) => ({ provider: "local", config: { weights: join(dir, "model.safetensors"), tokenizer: join(dir, "tokenizer.json"), topK, threads } });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

const rows = [];
const times = Object.fromEntries(["plain", ...candidates].map((c) => [c, []]));
for (const file of files) {
  say(`${file}: ingesting`);
  const { sessions, turns, questions } = conversation(readConversation(file));
  const userId = `locomo-${file}`;
  const plain = new Memory({ llm: { provider: "none" }, embedder });
  await storeSessions(plain, sessions, userId);
  const exported = await plain.exportMemories();
  const reranking = [];
  for (const topK of candidates) {
    const memory = new Memory({ llm: { provider: "none" }, embedder, reranker: reranker(topK) });
    await memory.importMemories(exported);
    reranking.push([topK, memory]);
  }
  const dia = turnIds(turns);
  const picked = questions.filter((q, i) => i % every === 0 && evidenceOf(q).length);
  say(`${file}: ${picked.length} questions, plain and reranked at ${candidates.join(", ")} candidates`);
  for (const q of picked) {
    const recall = {};
    // "plain": the same imported copy searched without the reranker, so only the reranker differs.
    for (const [name, memory, rerank] of [["plain", reranking[0][1], false], ...reranking.map(([k, m]) => [k, m, true])]) {
      const started = performance.now();
      const response = await memory.search(q.question, { userId, limit: 10, ...(rerank ? { rerank: true } : {}) });
      times[name].push(performance.now() - started);
      if (response.warnings?.length) throw new Error(`${file}: ${JSON.stringify(response.warnings)}`);
      recall[name] = turnRecall(response.results.map(dia), evidenceOf(q), 10);
    }
    rows.push({ category: q.category, recall });
  }
}
const figures = Object.fromEntries(["plain", ...candidates].map((name) => [name, {
  recallAt10: mean(rows.map((r) => r.recall[name])),
  byCategory: Object.fromEntries(QUESTION_CATEGORIES.map(({ n, name: category }) => [category, mean(rows.filter((r) => r.category === n).map((r) => r.recall[name]))])),
  medianMs: median(times[name]),
}]));
process.stdout.write(`${JSON.stringify({ questions: rows.length, every, threads, figures }, null, 1)}\n`);
