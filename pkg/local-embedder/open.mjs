// Opening an embedder once the module is instantiated: reads both sources, builds the wasm LocalEmbedder
// and wraps it in the small API of createLocalEmbedder (see index.d.ts).
import { LocalEmbedder } from "./dist/local_embedder.js";
import { loadError, readSource } from "./sources.mjs";

export const DEFAULT_MODEL = "all-MiniLM-L6-v2";

export async function openEmbedder(options = {}, { readFile, base } = {}) {
  const { model = DEFAULT_MODEL, weights, tokenizer, modelConfig, cache, onProgress } = options;
  if (model !== DEFAULT_MODEL && modelConfig == null) {
    throw loadError(`unknown model "${model}": give modelConfig (its config.json) for another BERT model`);
  }
  const common = { cache, onProgress, readFile, base };
  const [bytes, json] = await Promise.all([
    readSource(weights, { ...common, as: "bytes", what: "weights" }),
    readSource(tokenizer, { ...common, as: "text", what: "tokenizer" }),
  ]);
  const config = modelConfig == null ? undefined : typeof modelConfig === "string" ? modelConfig : JSON.stringify(modelConfig);
  const inner = new LocalEmbedder(bytes, json, config);
  const dimensions = inner.dimensions;
  return {
    model,
    dimensions,
    /** One Float32Array per text; texts of like lengths share a forward pass (at most 64). */
    async embed(texts) {
      const flat = inner.embed(Array.from(texts, String));
      return Array.from({ length: flat.length / dimensions }, (_, i) => flat.subarray(i * dimensions, (i + 1) * dimensions));
    },
    async tokenIds(text) {
      return Array.from(inner.tokenIds(String(text)));
    },
    close() {
      inner.free();
    },
  };
}
