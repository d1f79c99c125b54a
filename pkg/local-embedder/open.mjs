// Opening an embedder once the module is instantiated: reads both sources, builds the wasm LocalEmbedder
// and wraps it in the small API of createLocalEmbedder (see index.d.ts); and writing the int8 weights file.
import { LocalEmbedder, quantizeWeights } from "./dist/local_embedder.js";
import { loadError, readSource } from "./sources.mjs";

export const DEFAULT_MODEL = "all-MiniLM-L6-v2";

export async function openEmbedder(options = {}, { readFile, base } = {}) {
  const { model = DEFAULT_MODEL, weights, tokenizer, modelConfig, quantization, cache, onProgress } = options;
  if (model !== DEFAULT_MODEL && modelConfig == null) {
    throw loadError(`unknown model "${model}": give modelConfig (its config.json) for another BERT model`);
  }
  const common = { cache, onProgress, readFile, base };
  const [bytes, json] = await Promise.all([
    readSource(weights, { ...common, as: "bytes", what: "weights" }),
    readSource(tokenizer, { ...common, as: "text", what: "tokenizer" }),
  ]);
  const config = modelConfig == null ? undefined : typeof modelConfig === "string" ? modelConfig : JSON.stringify(modelConfig);
  const inner = new LocalEmbedder(bytes, json, config, quantization == null ? undefined : String(quantization));
  const dimensions = inner.dimensions;
  return {
    model,
    dimensions,
    quantization: inner.quantization,
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

/** The int8 weights file for safetensors bytes (an ArrayBuffer or a view); `EMBEDDER_LOAD` for anything else. */
export function quantizeBytes(weights) {
  if (weights instanceof ArrayBuffer) return quantizeWeights(new Uint8Array(weights));
  if (!ArrayBuffer.isView(weights)) throw loadError("quantizeWeights: give the bytes of a model.safetensors (an ArrayBuffer or a typed array)");
  return quantizeWeights(new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength));
}
