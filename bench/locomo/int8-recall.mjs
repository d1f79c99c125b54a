// LOCOMO recall with int8 vectors against f32 ones, no Memory and no LLM: every dialogue turn and every question
// of categories 1-4 of each conversation is embedded by the on-device embedder twice, f32 and
// `quantization: "int8"`, and each question ranks the turns by cosine (exact dense search); recall@10 is the
// share of the question's evidence turns among the top 10, averaged over the questions. Prints both figures and
// their difference per conversation and over all. Usage: node bench/locomo/int8-recall.mjs [--data DIR]
// [--threads N] [--json] (the MiniLM weights and the package as for run.mjs).
import { createLocalEmbedder } from "../../pkg/local-embedder/index.node.mjs";
import { conversation, evidenceOf, turnRecall } from "./data.mjs";
import { argv, embedAll, files, readConversation, say, threads, tokenizer, weights } from "./setup.mjs";

const K = 10;

/** Mean recall@K of `questions` over `turns` with these vectors (unit length, so a dot product is a cosine). */
function recall(turns, questions, turnVectors, questionVectors) {
  const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  const scored = questions.filter((q) => evidenceOf(q).length > 0);
  let total = 0;
  for (const q of scored) {
    const v = questionVectors[questions.indexOf(q)];
    const top = turns.map((t, i) => ({ id: t.dia_id, score: dot(v, turnVectors[i]) })).sort((a, b) => b.score - a.score);
    total += turnRecall(top.map((t) => t.id), evidenceOf(q), K);
  }
  return { questions: scored.length, recall: total / scored.length };
}

const embedders = {
  f32: await createLocalEmbedder({ weights, tokenizer, threads }),
  int8: await createLocalEmbedder({ weights, tokenizer, threads, quantization: "int8" }),
};
const rows = [];
for (const file of files) {
  const { turns, questions } = conversation(readConversation(file));
  const row = { file, turns: turns.length };
  for (const [name, embedder] of Object.entries(embedders)) {
    const turnVectors = await embedAll(embedder, turns.map((t) => t.text));
    const questionVectors = await embedAll(embedder, questions.map((q) => String(q.question)));
    Object.assign(row, { [name]: recall(turns, questions, turnVectors, questionVectors) });
  }
  say(`${file}: recall@${K} f32 ${row.f32.recall.toFixed(4)}, int8 ${row.int8.recall.toFixed(4)}`);
  rows.push(row);
}
Object.values(embedders).forEach((e) => e.close());
const all = (name) => rows.reduce((s, r) => s + r[name].recall * r[name].questions, 0) / rows.reduce((s, r) => s + r[name].questions, 0);
if (argv.includes("--json")) {
  console.log(JSON.stringify({ k: K, rows, f32: all("f32"), int8: all("int8") }, null, 2));
} else {
  console.log(`| conversation | turns | questions | recall@${K} f32 | int8 | int8 − f32 |\n|---|---:|---:|---:|---:|---:|`);
  for (const r of rows) {
    console.log(`| ${r.file} | ${r.turns} | ${r.f32.questions} | ${r.f32.recall.toFixed(4)} | ${r.int8.recall.toFixed(4)} | ${(r.int8.recall - r.f32.recall).toFixed(4)} |`);
  }
  console.log(`| all | | | ${all("f32").toFixed(4)} | ${all("int8").toFixed(4)} | ${(all("int8") - all("f32")).toFixed(4)} |`);
}
