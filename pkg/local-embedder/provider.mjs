// `embedder: {provider: "local", config}` and `reranker: {provider: "local", config}` for memwasm's Memory:
// rewritten into the core's callback providers (`custom`), whose embed / rerank load memwasm/local-embedder
// (its own .wasm) on first use. Nothing is imported or downloaded until the first embedding (the first
// reranked search) needs it. A failed load is retried on the next call.
// What can be checked without loading (the sources are given, the model and length are the supported
// ones) is checked at once: `INVALID_CONFIG`, as the core reports its own config errors.
import { MemoryError } from "../dist/errors.js";
import { withConfig } from "../with-config.mjs";

const MODEL = "all-MiniLM-L6-v2";
const DIMENSIONS = 384;

const given = (source) => source != null && source !== "";

/** Throws `INVALID_CONFIG` for a local embedder config that cannot load whatever the sources hold. */
function check(options) {
  const invalid = (why) => new MemoryError(`invalid config: embedder.config.${why}`, "INVALID_CONFIG");
  if (typeof options !== "object" || options === null) throw invalid("config must be an object");
  if (!given(options.weights)) throw invalid(`weights: required (a URL, a file path in Node, or the bytes of ${MODEL}'s model.safetensors)`);
  if (!given(options.tokenizer)) throw invalid("tokenizer: required (a URL, a file path in Node, or the text of tokenizer.json)");
  const other = options.model !== undefined && options.model !== MODEL;
  if (other && options.modelConfig == null) {
    throw invalid(`model: ${JSON.stringify(options.model)} needs modelConfig (its config.json); the built-in one is "${MODEL}"`);
  }
  const length = dimensionsOf(options);
  if (!Number.isInteger(length) || length <= 0) throw invalid("dimensions: a positive integer (the model's hidden size)");
  if (!other && length !== DIMENSIONS) throw invalid(`dimensions: ${MODEL} has ${DIMENSIONS}`);
}

/** The vector length: given, or another model's `hidden_size`, or MiniLM's 384. */
function dimensionsOf(options) {
  if (options.dimensions !== undefined) return options.dimensions;
  const config = typeof options.modelConfig === "string" ? safeParse(options.modelConfig) : options.modelConfig;
  return config?.hidden_size ?? DIMENSIONS;
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `load(m)` on the module `importModule()` gives, once; a failure is forgotten, so the next call tries again. */
function loadOnce(importModule, open) {
  let loading;
  return () => (loading ??= importModule().then(open).catch((error) => {
    loading = undefined;
    throw error;
  }));
}

/** Throws `INVALID_CONFIG` for a local reranker config that cannot load whatever the sources hold. */
function checkReranker(options) {
  const invalid = (why) => new MemoryError(`invalid config: reranker.config.${why}`, "INVALID_CONFIG");
  if (typeof options !== "object" || options === null) throw invalid("config must be an object");
  if (!given(options.weights)) throw invalid("weights: required (a URL, a file path in Node, or the bytes of a cross-encoder's model.safetensors, e.g. ms-marco-MiniLM-L-6-v2)");
  if (!given(options.tokenizer)) throw invalid("tokenizer: required (a URL, a file path in Node, or the text of tokenizer.json)");
}

/** `config` with a local reranker replaced by the callback provider (its `topK` and `timeoutMs` kept). */
export function withLocalReranker(config, importModule) {
  const reranker = config?.reranker;
  if (!reranker || reranker.provider !== "local") return config;
  const options = reranker.config ?? {};
  checkReranker(options);
  const { topK, top_k, timeoutMs, ...model } = options;
  const load = loadOnce(importModule, (m) => m.createLocalReranker(model));
  const rerank = async (query, documents) => (await load()).rerank(query, documents);
  const bounds = Object.fromEntries(Object.entries({ topK: topK ?? top_k, timeoutMs }).filter(([, v]) => v !== undefined));
  return { ...config, reranker: { provider: "custom", rerank, config: bounds } };
}

/** `config` with a local embedder replaced by the callback provider; other configs are returned as is. */
export function withLocalEmbedder(config, importModule) {
  const embedder = config?.embedder;
  if (!embedder || embedder.provider !== "local") return config;
  const options = embedder.config ?? {};
  check(options);
  const load = loadOnce(importModule, (m) => m.createLocalEmbedder(options));
  const embed = async (texts) => (await load()).embed(texts);
  return { ...config, embedder: { provider: "custom", dimensions: dimensionsOf(options), embed } };
}

/** The core's Memory class with `withLocalEmbedder` and `withLocalReranker` applied to every config
 * (constructor, `open`, `fromConfig`); instances of the factories get this class's prototype, so
 * `instanceof` holds. */
export function withLocalProvider(CoreMemory, importModule) {
  return withConfig(CoreMemory, (config) => withLocalReranker(withLocalEmbedder(config, importModule), importModule));
}
