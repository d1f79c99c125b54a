// mem0's documented TypeScript configs (tests/fixtures/mem0-docs/, copied verbatim from mem0's docs pages) work
// unchanged in `memwasm/mem0`: each one for a provider memwasm has is accepted, or accepted with a startup warning
// that names the key it ignores; each one for a provider it does not have is INVALID_CONFIG naming the supported
// ones. Then one docs config of each wire memwasm speaks (OpenAI and its compatible hosts, Azure, Anthropic, Gemini,
// Ollama), its endpoint pointed at the scripted server by mem0's own key, adds and searches, and its documented
// settings (url, modelProperties, top_p, embeddingDims, …) reach the request.
import { describe, test } from "node:test";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import assert from "node:assert/strict";
import { Memory } from "memwasm/mem0";
import { Memory as PlainMemory } from "memwasm";
import { CONFIGS as LLMS } from "../fixtures/mem0-docs/llms.mjs";
import { CONFIGS as EMBEDDERS } from "../fixtures/mem0-docs/embedders.mjs";
import { CONFIGS as RERANKERS } from "../fixtures/mem0-docs/rerankers.mjs";
import { CONFIGS as VECTOR_STORES } from "../fixtures/mem0-docs/vector-stores.mjs";
import { T, scriptedServer } from "./helpers.mjs";
import { isolateHome } from "./mem0-processes.mjs";

const server = scriptedServer();
const home = isolateHome(); // the configs keep mem0's default ~/.mem0/vector_store.db

// The keys the pages read from the environment, as a mem0 user has them (mem0 itself refuses most of these
// configs without them).
for (const name of ["OPENAI", "ANTHROPIC", "AZURE_OPENAI", "GOOGLE", "GROQ", "TOGETHER", "DEEPSEEK", "XAI", "MISTRAL", "COHERE"]) {
  process.env[`${name}_API_KEY`] ??= `test-${name.toLowerCase()}-key`;
}

/** The providers memwasm has, per part (docs/providers.md); `google` is mem0's name for Gemini. */
const SUPPORTED = {
  llm: ["openai", "azure_openai", "anthropic", "gemini", "google", "ollama", "groq", "together", "openrouter", "deepseek", "lmstudio", "vllm"],
  embedder: ["openai", "azure_openai", "gemini", "google", "ollama", "together", "lmstudio", "vllm"],
};

/** mem0's rerankers that run a local model, which memwasm cannot: the whole `reranker` is ignored. */
const LOCAL_RERANKERS = ["zero_entropy", "huggingface", "sentence_transformer"];

/** The keys a docs config holds that memwasm does not use, by `page#block`: each must be named by a startup warning.
 * Every other accepted config must start without one. */
const IGNORED = {
  "docs/components/llms/models/azure_openai.mdx#1": ["llm.config.modelProperties.modelName"],
  "docs/components/vectordbs/config.mdx#1": ["vector_store"],
  ...Object.fromEntries(RERANKERS.filter((entry) => LOCAL_RERANKERS.includes(entry.config().reranker.provider))
    .map((entry) => [`${entry.page}#${entry.block}`, ["reranker"]])),
  // llm_reranker asks the memory's own llm: its own key and llm are not used.
  "docs/components/rerankers/models/llm_reranker.mdx#1": ["reranker.config.apiKey"],
  "docs/components/rerankers/models/llm_reranker.mdx#2": ["reranker.config.llm"],
};

/** `new Memory(config)` with the console's warnings caught: `{memory, warnings}` or `{error, warnings}`. */
function construct(config) {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(" "));
  try {
    return { memory: new Memory(config), warnings };
  } catch (error) {
    return { error, warnings };
  } finally {
    console.warn = warn;
  }
}

/** The value at a dotted `path` of `object`. */
const at = (object, path) => path.split(".").reduce((value, key) => value?.[key], object);

/** What is wrong with `entry` in memwasm/mem0 (nothing: `undefined`); `part` is the config key the page is about. */
function problem(entry, part) {
  const config = entry.config();
  const name = `${entry.page}#${entry.block}`;
  const { error, warnings } = construct(config);
  const provider = config[part]?.provider;
  if (SUPPORTED[part] && !SUPPORTED[part].includes(provider)) {
    if (error?.code !== "INVALID_CONFIG") return `${name}: "${provider}" should be INVALID_CONFIG, got ${error?.code ?? "accepted"}`;
    const listed = SUPPORTED[part].filter((known) => known !== "google").every((known) => error.message.includes(known));
    return listed ? undefined : `${name}: the error should list the supported providers: ${error.message}`;
  }
  if (error) return `${name}: refused: ${error.code} ${error.message}`;
  const ignored = IGNORED[name] ?? [];
  for (const path of ignored) assert.notEqual(at(config, path), undefined, `${name} holds ${path}`);
  const unnamed = ignored.filter((path) => !warnings.some((warning) => warning.includes(path)));
  if (unnamed.length || warnings.length !== ignored.length) {
    return `${name}: startup warnings ${JSON.stringify(warnings)}, expected one naming each of ${JSON.stringify(ignored)}`;
  }
  return undefined;
}

/** Every entry of `configs` through `problem`; the list of what is wrong. */
const problems = (configs, part) => configs.map((entry) => problem(entry, part)).filter(Boolean);

describe("mem0's documented configs, unchanged, in memwasm/mem0", () => {
  test("every LLM page: accepted, or INVALID_CONFIG naming the supported providers", () => {
    assert.deepEqual(problems(LLMS, "llm"), []);
  });

  test("every embedder page: accepted (embeddingDims, `google`, Ollama's url, Azure's modelProperties)", () => {
    assert.deepEqual(problems(EMBEDDERS, "embedder"), []);
  });

  test("every reranker page: accepted; one memwasm cannot run with a warning naming it, searches not reranked", () => {
    assert.deepEqual(problems(RERANKERS, "reranker"), []);
    for (const entry of RERANKERS) {
      const config = entry.config();
      const { warnings } = construct(config);
      const provider = config.reranker.provider;
      if (LOCAL_RERANKERS.includes(provider)) {
        const named = `reranker is ignored: "${provider}" runs a model locally`;
        assert.ok(warnings.some((w) => w.includes(named) && w.includes("searches are not reranked (no reranker configured)")), `${entry.page}: ${warnings}`);
        assert.throws(() => new PlainMemory(config), { code: "INVALID_CONFIG", message: new RegExp(`"${provider}" runs a model locally`) });
      } else if (provider === "llm_reranker") {
        assert.ok(warnings.every((w) => w.includes("the LLM reranker uses the memory's own llm")), `${entry.page}: ${warnings}`);
      }
    }
  });

  test("the in-memory and Chroma pages: accepted; another store is INVALID_CONFIG naming memory and chroma", () => {
    assert.deepEqual(problems(VECTOR_STORES, "vectorStore"), []);
    const { error } = construct({ vectorStore: { provider: "qdrant", config: { collectionName: "memories" } } });
    assert.equal(error?.code, "INVALID_CONFIG");
    assert.match(error.message, /vectorStore\.provider.*"qdrant".*memory, chroma/);
  });

  test("a key memwasm does not take: memwasm/mem0 warns naming it and starts; memwasm refuses it", () => {
    const config = {
      llm: { provider: "openai", config: { apiKey: "k", topK: 40, openaiBaseUrl: "https://x/v1" } },
      embedder: { provider: "openai", config: { apiKey: "k" }, extra: true },
      rerankr: { provider: "cohere" },
    };
    const { error, warnings } = construct(structuredClone(config));
    assert.ifError(error);
    const named = ["llm.config.topK", "llm.config.openaiBaseUrl", "embedder.extra", "rerankr"];
    assert.equal(warnings.length, named.length, JSON.stringify(warnings));
    for (const path of named) assert.ok(warnings.some((w) => w.includes(`${path} is ignored`)), `${path}: ${warnings}`);
    assert.ok(warnings.some((w) => w.includes("did you mean `reranker`")), "a close key is suggested");
    assert.throws(() => new PlainMemory(structuredClone(config)), { code: "INVALID_CONFIG", message: /embedder\.extra: unknown field/ });
    const unknown = construct({ llm: { provider: "aws_bedrock", config: { model: "m" } } });
    assert.equal(unknown.error?.code, "INVALID_CONFIG", "a provider memwasm does not have is never just ignored");
    assert.match(unknown.error.message, /"aws_bedrock" \(supported: openai, azure_openai/);
  });

  test("a provider name in capitals is read as mem0 reads it, lower-cased; memwasm keeps refusing it", () => {
    const config = {
      llm: { provider: "OpenAI", config: { apiKey: "k", model: "gpt-4o-mini" } },
      embedder: { provider: "Ollama", config: { model: "nomic-embed-text", embeddingDims: 768 } },
      vectorStore: { provider: "Memory", config: { collectionName: "memories", dimension: 768 } },
    };
    const { error, warnings } = construct(structuredClone(config));
    assert.ifError(error);
    assert.deepEqual(warnings, []);
    assert.throws(() => new PlainMemory(structuredClone(config)), { code: "INVALID_CONFIG", message: /"OpenAI"/ });
  });

  test("strict: true refuses a key memwasm/mem0 would ignore, naming it", () => {
    const config = { ...page(VECTOR_STORES, "vectordbs/config.mdx").config(), strict: true };
    const { error, warnings } = construct(config);
    assert.equal(error?.code, "INVALID_CONFIG", `accepted with ${JSON.stringify(warnings)}`);
    assert.match(error.message, /vector_store/);
    const reranked = construct({ ...page(RERANKERS, "models/huggingface.mdx").config(), strict: true });
    assert.equal(reranked.error?.code, "INVALID_CONFIG");
    assert.match(reranked.error.message, /reranker is ignored: "huggingface" runs a model locally/);
    const cohere = construct({ ...page(RERANKERS, "models/cohere.mdx").config(), strict: true });
    assert.ifError(cohere.error);
  });
});

/** The entry of `configs` from the page whose path ends with `suffix` (its first block). */
function page(configs, suffix) {
  const entry = configs.find((candidate) => candidate.page.endsWith(suffix));
  assert.ok(entry, `no config from a page ending with ${suffix}`);
  return entry;
}

/** The docs' add() messages and the additive reply the server gives for them. */
const MESSAGES = [
  { role: "user", content: "I'm planning to watch a movie tonight. Any recommendations?" },
  { role: "assistant", content: "How about thriller movies? They can be quite engaging." },
  { role: "user", content: "I'm not a big fan of thriller movies but I love sci-fi movies." },
];
const FACT = "Loves sci-fi movies";

/** Adds the docs' messages and searches them with `config` (the docs config pointed at the server), `rules` scripted
 * too; returns the first chat request and the embedding requests it made. `ignored`: the keys its startup warnings
 * name. */
async function addAndSearch(config, { rules = [], ignored = [] } = {}) {
  process.env.HOME = mkdtempSync(join(home, "wire-")); // a default file of its own
  server.reset();
  server.script({ kind: "chat", match: ["You are a memory extractor", "sci-fi"], reply: { memory: [{ id: "0", text: FACT }] } });
  server.script(rules);
  const { memory, warnings, error } = construct(config);
  assert.ifError(error);
  assert.equal(warnings.length, ignored.length, JSON.stringify(warnings));
  for (const path of ignored) assert.ok(warnings.some((warning) => warning.includes(path)), JSON.stringify(warnings));
  const added = await memory.add(MESSAGES, { userId: "alice", metadata: { category: "movies" } });
  assert.deepEqual(added.results.map((item) => [item.event, item.memory]), [["ADD", FACT]]);
  const found = await memory.search("sci-fi movies", { userId: "alice" });
  assert.equal(found.results[0]?.memory, FACT);
  return { chat: server.requests("chat")[0], embeddings: server.requests("embedding") };
}

/** `entry`'s config with `point` applied to its part `part` (its `config` object). */
function pointed(entry, part, point) {
  const config = entry.config();
  point(config[part].config);
  return config;
}

describe("one docs config per wire, pointed at the scripted server, adds and searches", () => {
  test("OpenAI: temperature, maxTokens and the model reach the request; baseURL is mem0's key", T, async () => {
    const llm = pointed(page(LLMS, "models/openai.mdx"), "llm", (c) => (c.baseURL = server.baseUrl));
    const embedder = pointed(page(EMBEDDERS, "models/openai.mdx"), "embedder", (c) => (c.baseURL = server.baseUrl));
    const { chat, embeddings } = await addAndSearch({ ...llm, ...embedder });
    assert.equal(chat.wire, "openai");
    assert.deepEqual([chat.body.model, chat.body.temperature, chat.body.max_tokens], ["gpt-4-turbo-preview", 0.2, 1500]);
    assert.equal(embeddings[0].body.model, "text-embedding-3-large");
  });

  test("OpenAI-compatible hosts: DeepSeek's top_p is sent; Together's embeddingDims checks, and is not sent", T, async () => {
    const llm = pointed(page(LLMS, "models/deepseek.mdx"), "llm", (c) => (c.baseURL = server.baseUrl));
    const embedder = pointed(page(EMBEDDERS, "models/together.mdx"), "embedder", (c) => (c.baseURL = server.baseUrl));
    const rules = [{ kind: "embedding", vector: Array.from({ length: 1024 }, (_, i) => (i === 0 ? 1 : 0)) }];
    const { chat, embeddings } = await addAndSearch({ ...llm, ...embedder }, { rules });
    assert.deepEqual([chat.body.model, chat.body.top_p, chat.body.max_tokens], ["deepseek-chat", 1, 2000]);
    assert.equal(embeddings[0].body.dimensions, undefined, "Together takes no dimensions (mem0 sends none)");
  });

  test("Azure OpenAI: modelProperties' endpoint, deployment and apiVersion make the URL", T, async () => {
    const point = (c) => (c.modelProperties.endpoint = server.url);
    const llm = pointed(page(LLMS, "models/azure_openai.mdx"), "llm", point);
    const embedder = pointed(page(EMBEDDERS, "models/azure_openai.mdx"), "embedder", point);
    const ignored = ["llm.config.modelProperties.modelName"];
    const { chat, embeddings } = await addAndSearch({ ...llm, ...embedder }, { ignored });
    assert.equal(chat.wire, "azure");
    assert.equal(chat.path, "/openai/deployments/your-deployment-name/chat/completions");
    assert.equal(chat.query["api-version"], "version-to-use");
    assert.equal(embeddings[0].path, "/openai/deployments/your-deployment-name/embeddings");
  });

  test("Anthropic (with the OpenAI embedder page): temperature, maxTokens and the model reach the request", T, async () => {
    const llm = pointed(page(LLMS, "models/anthropic.mdx"), "llm", (c) => (c.baseURL = `${server.url}/v1`));
    const embedder = pointed(page(EMBEDDERS, "models/openai.mdx"), "embedder", (c) => (c.baseURL = server.baseUrl));
    const { chat } = await addAndSearch({ ...llm, ...embedder });
    assert.equal(chat.wire, "anthropic");
    assert.deepEqual([chat.body.model, chat.body.temperature, chat.body.max_tokens], ["claude-sonnet-4-6", 0.1, 2000]);
  });

  test("Gemini: the `google` embedder, its embeddingDims sent as outputDimensionality", T, async () => {
    const point = (c) => (c.baseURL = `${server.url}/v1beta`);
    const llm = pointed(page(LLMS, "models/google_AI.mdx"), "llm", point);
    const embedder = pointed(page(EMBEDDERS, "models/google_AI.mdx"), "embedder", point);
    const { chat, embeddings } = await addAndSearch({ ...llm, ...embedder });
    assert.equal(chat.wire, "gemini");
    assert.equal(chat.body.generationConfig.temperature, 0.1);
    assert.equal(embeddings[0].body.requests[0].outputDimensionality, 1536);
  });

  test("Ollama: `url`, mem0's key for the server, is where the requests go", T, async () => {
    const llm = pointed(page(LLMS, "models/ollama.mdx"), "llm", (c) => (c.url = server.url));
    const embedder = pointed(page(EMBEDDERS, "models/ollama.mdx"), "embedder", (c) => (c.url = server.url));
    const { chat, embeddings } = await addAndSearch({ ...llm, ...embedder });
    assert.equal(chat.wire, "ollama");
    assert.deepEqual([chat.body.model, chat.body.options.temperature], ["llama3.1:8b", 0.1]);
    assert.equal(embeddings[0].body.model, "nomic-embed-text:latest");
  });
});
