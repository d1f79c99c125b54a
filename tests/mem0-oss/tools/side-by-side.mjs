// Runs the same calls on mem0's own Memory (npm mem0ai/oss) and on memwasm/mem0's, both pointed at the scripted
// model server, and prints each call's outcome side by side (ids and times normalised), then what each sends to
// the model for mem0's documented OpenAI-format configs. docs/mem0.md's table of differences was measured with it:
//   NODE_PATH=<a node_modules with better-sqlite3> node tests/mem0-oss/tools/side-by-side.mjs <mem0ai's folder>
// (mem0ai 3.3.1: worker/node_modules/mem0ai; better-sqlite3: tests/node_modules).
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { startScriptedServer } from "../../support/scripted-server.mjs";
import { Memory as WasmMemory } from "../../../pkg/mem0.node.mjs";
import { CONFIGS as LLMS } from "../../fixtures/mem0-docs/llms.mjs";

process.env.MEM0_TELEMETRY = "false";
const { Memory: Mem0Memory } = createRequire(join(resolve(process.argv[2]), "package.json"))("./dist/oss/index.js");
const LIBRARIES = [["mem0", Mem0Memory], ["memwasm", WasmMemory]];

const server = await startScriptedServer({ port: 0 });
/** The extraction reply: one fact per word of FACTS the new messages hold, in mem0 v3's shape (both read it). */
const FACTS = { tea: "Likes green tea", scifi: "Loves sci-fi movies", chess: "Plays chess on Sundays" };
const RULE = {
  kind: "chat",
  reply: ({ text }) => {
    const news = (text.split("## New Messages").pop() ?? text).toLowerCase();
    const found = Object.entries(FACTS).filter(([word]) => news.includes(word));
    return { memory: found.map(([, fact], i) => ({ id: String(i), text: fact, attributed_to: "user" })) };
  },
};

/** One config for both, in mem0's words: OpenAI-format models on the server, in-RAM stores, 64 dimensions. */
const config = (extra = {}) => ({
  llm: { provider: "openai", config: { apiKey: "k", model: "gpt-4o-mini", baseURL: server.baseUrl } },
  embedder: { provider: "openai", config: { apiKey: "k", baseURL: server.baseUrl, embeddingDims: 64 } },
  vectorStore: { provider: "memory", config: { collectionName: "side", dimension: 64, dbPath: ":memory:" } },
  historyDbPath: ":memory:",
  ...extra,
});

const ids = new Map();
/** `value` as JSON with uuids numbered in order of appearance, times hidden and scores rounded. */
function normal(value) {
  const named = (id) => ids.get(id) ?? (ids.set(id, `<id${ids.size + 1}>`), ids.get(id));
  return JSON.parse(
    JSON.stringify(value ?? null, (key, v) => {
      if (typeof v === "string" && /^[0-9a-f-]{36}$/.test(v)) return named(v);
      if (typeof v === "string" && /^\d{4}-\d\d-\d\dT/.test(v)) return "<time>";
      return typeof v === "number" && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v;
    }),
  );
}

/** What `call` resolves or throws (class, code, message), with the console warnings it printed. */
async function outcome(call) {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(" ").slice(0, 160));
  try {
    return { ok: normal(await call()), ...(warnings.length ? { warnings } : {}) };
  } catch (error) {
    const { constructor, code, message } = error ?? {};
    return { error: { class: constructor?.name, code, message: String(message).slice(0, 200) }, warnings };
  } finally {
    console.warn = warn;
  }
}

const constructs = (M, extra) => (new M(config(extra)), "constructed");
const firstId = async (m) => (await m.getAll({ filters: { user_id: "alice" } })).results[0].id;
const TEA = [{ role: "user", content: "I drink tea and love scifi" }];
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const COHERE = { provider: "cohere", config: { apiKey: "k" } };
const STEPS = [
  ["new: an unknown key, a reranker", (M) => constructs(M, { vectorStor: {}, reranker: COHERE })],
  ["new: an unknown llm provider", (M) => constructs(M, { llm: { provider: "nope", config: {} } })],
  ["new: an unknown vector store", (M) => constructs(M, { vectorStore: { provider: "qdrant", config: {} } })],
  ["new: provider OpenAI", (M) => constructs(M, { llm: { provider: "OpenAI", config: { apiKey: "k" } } })],
  ["add(tea + sci-fi, {userId, metadata})", (M, m) => m.add(TEA, { userId: "alice", metadata: { category: "likes" } })],
  ["add(the same again)", (M, m) => m.add(TEA, { userId: "alice" })],
  ["add(chess, {userId, infer: false})", (M, m) => m.add("I play chess", { userId: "alice", infer: false })],
  ["add without an entity id", (M, m) => m.add("hello")],
  ["search('tea', {filters: {user_id}})", (M, m) => m.search("tea", { filters: { user_id: "alice" } })],
  ["search('tea', {userId, topK: 1})", (M, m) => m.search("tea", { userId: "alice", topK: 1 })],
  ["search without an entity id", (M, m) => m.search("tea")],
  ["getAll({filters: {user_id}})", (M, m) => m.getAll({ filters: { user_id: "alice" } })],
  ["get(first id)", async (M, m) => m.get(await firstId(m))],
  ["get(unknown uuid)", (M, m) => m.get(UNKNOWN)],
  ["update(first id, text)", async (M, m) => m.update(await firstId(m), "Likes black tea")],
  ["update(unknown uuid)", (M, m) => m.update(UNKNOWN, "x")],
  ["history(first id)", async (M, m) => m.history(await firstId(m))],
  ["delete(first id), then its history", async (M, m) => {
    const id = await firstId(m);
    await m.delete(id);
    return m.history(id);
  }],
  ["delete(unknown uuid)", (M, m) => m.delete(UNKNOWN)],
  ["deleteAll({userId})", (M, m) => m.deleteAll({ userId: "alice" })],
  ["reset()", (M, m) => m.reset()],
];

const runs = {};
for (const [name, M] of LIBRARIES) {
  ids.clear();
  const memory = new M(config());
  runs[name] = [];
  for (const [, step] of STEPS) {
    server.reset();
    server.script(RULE);
    const result = await outcome(() => step(M, memory));
    runs[name].push({ result, chat: server.requests("chat").length, embedding: server.requests("embedding").length });
  }
}
STEPS.forEach(([label], i) => {
  console.log(`\n### ${label}`);
  for (const [name] of LIBRARIES) {
    const { result, chat, embedding } = runs[name][i];
    console.log(`${name.padEnd(8)} ${JSON.stringify(result)}  requests: ${chat} chat, ${embedding} embedding`);
  }
});

// 25 memories: how many getAll and search give by default.
for (const [name, M] of LIBRARIES) {
  const memory = new M(config());
  for (let i = 0; i < 25; i++) await memory.add(`fact number ${i} about tea`, { userId: "bob", infer: false });
  const all = await memory.getAll({ filters: { user_id: "bob" } });
  const found = await memory.search("tea", { filters: { user_id: "bob" } });
  console.log(`\n${name}: of 25 memories getAll gives ${all.results.length}, search ${found.results.length}`);
}

// What reaches the model for mem0's documented OpenAI-format LLM configs (the others need SDKs mem0 loads lazily).
console.log();
for (const suffix of ["models/openai.mdx", "models/deepseek.mdx", "models/vllm.mdx", "models/azure_openai.mdx"]) {
  for (const [name, M] of LIBRARIES) {
    const { llm } = LLMS.find((entry) => entry.page.endsWith(suffix)).config();
    if (llm.config.modelProperties) llm.config.modelProperties.endpoint = server.url;
    else llm.config.baseURL = server.baseUrl;
    llm.config.apiKey = "k";
    server.reset();
    server.script(RULE);
    await outcome(() => new M({ ...config(), llm }).add("I love scifi", { userId: "carol" }));
    const { path, body = {} } = server.requests("chat")[0] ?? {};
    const sent = Object.entries(body).filter(([key]) => !["messages", "response_format"].includes(key));
    console.log(`${suffix.padEnd(24)} ${name.padEnd(8)} ${path} ${JSON.stringify(Object.fromEntries(sent))}`);
  }
}
await server.close();
process.exit(0);
