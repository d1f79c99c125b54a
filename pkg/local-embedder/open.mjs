// Opening an embedder or a cross-encoder reranker once the module is instantiated: reads both sources, builds
// the wasm LocalEmbedder / LocalCrossEncoder and wraps it in the small API of createLocalEmbedder /
// createLocalReranker (see index.d.ts); and writing the int8 weights file.
import { LocalCrossEncoder, LocalEmbedder, quantizeWeights } from "./dist/local_embedder.js";
import { loadError, readSource } from "./sources.mjs";

export const DEFAULT_MODEL = "all-MiniLM-L6-v2";

export const DEFAULT_RERANKER = "ms-marco-MiniLM";

/** The weights' bytes, the tokenizer's text and the config's text (or undefined) of `options`. */
async function readModel({ weights, tokenizer, modelConfig, cache, onProgress }, { readFile, base }) {
  const common = { cache, onProgress, readFile, base };
  const [bytes, json] = await Promise.all([
    readSource(weights, { ...common, as: "bytes", what: "weights" }),
    readSource(tokenizer, { ...common, as: "text", what: "tokenizer" }),
  ]);
  const config = modelConfig == null ? undefined : typeof modelConfig === "string" ? modelConfig : JSON.stringify(modelConfig);
  return [bytes, json, config];
}

const quantizationOf = ({ quantization }) => (quantization == null ? undefined : String(quantization));

export async function openEmbedder(options = {}, sources = {}) {
  const { model = DEFAULT_MODEL, modelConfig } = options;
  if (model !== DEFAULT_MODEL && modelConfig == null) {
    throw loadError(`unknown model "${model}": give modelConfig (its config.json) for another BERT model`);
  }
  const inner = new LocalEmbedder(...(await readModel(options, sources)), quantizationOf(options));
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

/** A cross-encoder (ms-marco MiniLM, or another with `modelConfig`): `rerank(query, documents)` gives each
 * document's relevance, the sigmoid of the model's logit (0–1, as sentence-transformers' CrossEncoder). */
export async function openReranker(options = {}, sources = {}) {
  const { model = DEFAULT_RERANKER } = options;
  const inner = new LocalCrossEncoder(...(await readModel(options, sources)), quantizationOf(options));
  return {
    model,
    quantization: inner.quantization,
    async rerank(query, documents) {
      const logits = inner.score(String(query), Array.from(documents, String));
      return Array.from(logits, (logit) => 1 / (1 + Math.exp(-logit)));
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
