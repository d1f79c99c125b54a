// LOCOMO with an embedder other than the on-device MiniLM, no LLM: the library's default search over the
// conversations stored as run.mjs stores them (a turn per memory, `infer: false`, a session per add()),
// through a custom embedder that returns vectors read from a file. So a model embedded offline
// (embed-other.py, any sentence-transformers folder) is measured with the library's own ranking. Prints
// recall@10 overall and by category, and engram's session R@5, as JSON.
// Usage: node bench/locomo/other-embedder.mjs [--vectors FILE] [--with-minilm SHARE] [--vector-weight W]
//   [--record FILE] [--data DIR] [--threads N]
// --vectors FILE: JSON `[[text, vector], …]` of unit vectors holding every text the library embeds; without
//   it, the on-device MiniLM embeds (the bench's own figures).
// --record FILE: writes the texts the library asked to embed, as JSON: run once without --vectors to get
//   the list to give embed-other.py.
// --with-minilm SHARE: each vector is MiniLM's scaled by √(1 − SHARE) beside the file's scaled by √SHARE,
//   so a cosine is (1 − SHARE) · MiniLM's + SHARE · the other model's.
// --vector-weight W: every search with `weights: {vector: W, keyword: 1 − W}` (default: the library's).
import { readFileSync, writeFileSync } from "node:fs";
import { Memory } from "memwasm";
import { createLocalEmbedder } from "memwasm/local-embedder";
import { conversation, evidenceOf, QUESTION_CATEGORIES, storeSessions, turnIds, turnRecall } from "./data.mjs";
import { evidenceSessions, firstSessions, sessionHit, sessionId, sessionQuestions } from "./session-hit.mjs";
import { argv, files, readConversation, say, threads, tokenizer, weights } from "./setup.mjs";

const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const readPairs = (file) => new Map(JSON.parse(readFileSync(file, "utf8")));
const other = option("--vectors") && readPairs(option("--vectors"));
const share = Number(option("--with-minilm") ?? NaN);
const vectorWeight = option("--vector-weight");
const searchOptions = vectorWeight ? { weights: { vector: Number(vectorWeight), keyword: 1 - Number(vectorWeight) } } : {};

const minilm = !other || share >= 0 ? await createLocalEmbedder({ weights, tokenizer, threads }) : null;
const asked = new Set();
/** The file's vector of `text`; an error naming it when the file lacks it. */
const fromFile = (text) => other.get(text) ?? raise(`${text.slice(0, 60)}… is not in ${option("--vectors")}`);
function raise(message) {
  throw new Error(message);
}
async function embed(texts) {
  texts.forEach((t) => asked.add(t));
  const own = minilm ? await minilm.embed(texts) : [];
  if (!other) return own;
  if (!(share >= 0)) return texts.map(fromFile);
  const [a, b] = [Math.sqrt(1 - share), Math.sqrt(share)];
  return texts.map((t, i) => [...Array.from(own[i], (x) => x * a), ...fromFile(t).map((x) => x * b)]);
}
const dimensions = (other ? [...other.values()][0].length : 0) + (minilm && (!other || share >= 0) ? 384 : 0);

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const turnRows = [];
const sessionRows = [];
for (const file of files) {
  say(`${file}: ingesting and searching`);
  const data = readConversation(file);
  const { turns, questions, sessions } = conversation(data);
  const memory = new Memory({ llm: { provider: "none" }, embedder: { provider: "custom", dimensions, embed } });
  const userId = `locomo-${file}`;
  await storeSessions(memory, sessions, userId);
  const dia = turnIds(turns);
  const search = async (question, limit) => (await memory.search(question, { userId, limit, ...searchOptions })).results;
  for (const q of questions) {
    const evidence = evidenceOf(q);
    if (evidence.length) turnRows.push({ category: q.category, recall: turnRecall((await search(q.question, 10)).map(dia), evidence, 10) });
  }
  for (const q of sessionQuestions(data.qa)) {
    const first = await firstSessions(async (limit) => (await search(q.question, limit)).map((i) => sessionId(i.metadata.session)), 10);
    sessionRows.push(sessionHit(first.sessions, evidenceSessions(q.evidence), 5));
  }
  await memory.close?.();
}
minilm?.close();
if (option("--record")) writeFileSync(option("--record"), JSON.stringify([...asked]));
const byCategory = Object.fromEntries(QUESTION_CATEGORIES.map(({ n, name }) =>
  [name, mean(turnRows.filter((r) => r.category === n).map((r) => r.recall))]));
const figures = {
  embedder: other ? `${option("--vectors")}${share >= 0 ? ` with MiniLM (share ${share})` : ""}` : "on-device MiniLM",
  weights: searchOptions.weights ?? "the library's",
  recall10: mean(turnRows.map((r) => r.recall)),
  byCategory,
  sessionR5: { hits: sessionRows.reduce((a, b) => a + b, 0), of: sessionRows.length, rate: mean(sessionRows) },
};
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
