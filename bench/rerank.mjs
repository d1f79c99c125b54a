// What the reranker stage costs, in one Node process: search(text, {limit: 10}) over 10k memories whose
// texts are words (lib/word-export.mjs), plain and with rerank: true through a rerank service (Cohere's wire)
// and through the LLM reranker, with 20 and 50 candidates. The scripted server answers at once, so the
// figures are what the library adds (the candidates' request, one local HTTP round trip, checking and
// reordering the answer): a real service's own time comes on top. Then the on-device cross-encoder
// (`reranker: {provider: "local"}`, ms-marco-MiniLM-L-12-v2 in CROSS_ENCODER_DIR, from
// scripts/setup.d/66-cross-encoder.sh), f32 and int8, over LOCOMO dialogue turns (its time is the model's:
// 20 or 50 forward passes of a question and a turn), fewer queries since each takes seconds. Prints one JSON
// object; bench/run.mjs turns it into a table. It imports ../pkg directly, so it runs without bench/'s npm
// install. Usage: node rerank.mjs [--quick]
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import { Memory } from "../pkg/index.node.mjs";
import { startScriptedServer } from "../tests/support/scripted-server.mjs";
import { median } from "./lib/stats.mjs";
import { conversation } from "./locomo/data.mjs";
import { unitVector } from "./lib/unit-vector.mjs";
import { wordExport } from "./lib/word-export.mjs";

const quick = process.argv.includes("--quick");
const DIM = 384;
const N = quick ? 1_000 : 10_000;
const ROUNDS = quick ? 2 : 5;
const CANDIDATES = [20, 50];

/** A memory at the scripted server, reranking with `reranker` (none when absent). */
function memory(server, reranker) {
  const at = { baseUrl: server.baseUrl, apiKey: "bench", model: "bench" };
  return new Memory({
    llm: { provider: "openai", config: at },
    embedder: { provider: "openai", config: { ...at, dimensions: DIM } },
    ...(reranker ? { reranker } : {}),
  });
}

/** The LLM reranker's reply: a score for each numbered candidate of the prompt. */
function llmScores({ user }) {
  const count = (user.match(/^\[\d+\] /gm) ?? []).length;
  return { scores: Array.from({ length: count }, (_, index) => ({ index, score: (count - index) / count })) };
}

const server = await startScriptedServer({ port: 0 });
const { text, queries } = wordExport(N, DIM, { seed: 23 });
for (const q of queries) server.script({ kind: "embedding", match: [q.text], vector: Array.from(q.vector) });
server.script({ kind: "rerank", scores: ({ documents }) => documents.map((_, i) => 1 / (1 + i)) });
server.script({ kind: "chat", match: ["You rank memories"], reply: llmScores });

const contenders = [{ name: "plain", memory: memory(server) }];
for (const topK of CANDIDATES) {
  const service = { provider: "cohere", config: { apiKey: "bench", baseUrl: server.url, topK } };
  contenders.push({ name: `cohere ${topK}`, topK, memory: memory(server, service), rerank: true });
  contenders.push({ name: `llm ${topK}`, topK, memory: memory(server, { provider: "llm_reranker", config: { topK } }), rerank: true });
}
for (const c of contenders) {
  await c.memory.importMemories(text);
  c.times = [];
}
// Contenders take turns within every round, so that load hits all of them alike; the first round warms up.
for (let r = -1; r < ROUNDS; r++) {
  for (const c of contenders) {
    for (const q of queries) {
      const start = performance.now();
      const response = await c.memory.search(q.text, { userId: "u0", limit: 10, ...(c.rerank ? { rerank: true } : {}) });
      if (r >= 0) c.times.push(performance.now() - start);
      if (response.warnings?.length) throw new Error(`${c.name}: ${JSON.stringify(response.warnings)}`);
      if (!c.rerank) continue;
      const sent = server.requests(c.name.startsWith("llm") ? "chat" : "rerank").at(-1);
      const count = sent.documents?.length ?? llmScores(sent).scores.length;
      if (count !== c.topK) throw new Error(`${c.name}: ${count} candidates sent, not ${c.topK}`);
    }
  }
}
const plain = median(contenders[0].times);
const figures = contenders.map((c) => ({ name: c.name, candidates: c.topK ?? 0, medianMs: median(c.times), addedMs: median(c.times) - plain }));
const onDevice = await crossEncoder();
await server.close();
process.stdout.write(`${JSON.stringify({ n: N, queries: queries.length, rounds: ROUNDS, figures, onDevice })}\n`);

/** An export file of `turns` (user "u0") with `vectors`. */
function turnExport(turns, vectors) {
  const now = "2026-01-01T00:00:00.000Z";
  const lines = [JSON.stringify({ kind: "memwasm-export", version: 2, memories: turns.length, history: 0 })];
  turns.forEach((memory, i) => {
    const embedding = Buffer.from(new Float32Array(vectors[i]).buffer).toString("base64");
    const hash = createHash("md5").update(memory).digest("hex");
    lines.push(JSON.stringify({ kind: "memory", id: `t${i}`, memory, hash, metadata: {}, createdAt: now, updatedAt: now, userId: "u0", embedding }));
  });
  return `${lines.join("\n")}\n`;
}

/** The on-device cross-encoder over a LOCOMO conversation's turns: search(question, {rerank: true}) with
 * 20 and 50 candidates, f32 and int8, against the same search without it; or why it was not measured. */
async function crossEncoder() {
  const dir = process.env.CROSS_ENCODER_DIR ?? join(homedir(), ".cache", "memwasm", "cross-encoder");
  const data = join(import.meta.dirname, "..", "..", "shared", "bench-data", "locomo", "26.json");
  const weights = join(dir, "model.safetensors");
  if (!existsSync(weights) || !existsSync(data)) return { missing: `no ${existsSync(data) ? weights : data}` };
  const read = conversation(JSON.parse(readFileSync(data, "utf8")));
  const turns = read.turns.map((t) => t.text);
  const questions = read.questions.slice(0, quick ? 2 : 6).map((q) => q.question);
  const rows = [];
  for (const quantization of ["none", "int8"]) {
    for (const topK of CANDIDATES) {
      const reranker = { provider: "local", config: { weights, tokenizer: join(dir, "tokenizer.json"), quantization, topK } };
      const m = memory(server, reranker);
      const vectors = turns.map((_, i) => unitVector(i + 1, DIM));
      await m.importMemories(turnExport(turns, vectors));
      const times = [];
      for (const [i, question] of [questions[0], ...questions].entries()) {
        server.script({ kind: "embedding", match: [question], vector: vectors[i % vectors.length] });
        const start = performance.now();
        const response = await m.search(question, { userId: "u0", limit: 10, rerank: true });
        if (i > 0) times.push(performance.now() - start); // the first loads the model
        if (response.warnings?.length) throw new Error(`cross-encoder: ${JSON.stringify(response.warnings)}`);
      }
      rows.push({ quantization, candidates: topK, medianMs: median(times) });
    }
  }
  return { turns: turns.length, queries: questions.length, rows };
}
