// `embedder: {provider: "local", config}` for memwasm's Memory: rewritten into the core's callback
// provider (`custom`), whose embed loads memwasm/local-embedder (its own .wasm) on first use. Nothing is
// imported or downloaded until the first embedding is needed. A failed load is retried on the next call.
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

/** `config` with a local embedder replaced by the callback provider; other configs are returned as is. */
export function withLocalEmbedder(config, importModule) {
  const embedder = config?.embedder;
  if (!embedder || embedder.provider !== "local") return config;
  const options = embedder.config ?? {};
  check(options);
  let loading;
  const load = () => (loading ??= importModule().then((m) => m.createLocalEmbedder(options)).catch((error) => {
    loading = undefined;
    throw error;
  }));
  const embed = async (texts) => (await load()).embed(texts);
  return { ...config, embedder: { provider: "custom", dimensions: dimensionsOf(options), embed } };
}

/** The core's Memory class with `withLocalEmbedder` applied to every config (constructor, `open`,
 * `fromConfig`); instances of the factories get this class's prototype, so `instanceof` holds. */
export function withLocalProvider(CoreMemory, importModule) {
  return withConfig(CoreMemory, (config) => withLocalEmbedder(config, importModule));
}
