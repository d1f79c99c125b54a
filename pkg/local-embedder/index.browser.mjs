// Browser entry of memwasm/local-embedder: fetches the embedder's own .wasm only when called. With
// `worker: true` everything (the .wasm, the weights, each forward pass) runs in a module Web Worker. The
// cross-encoder reranker (createLocalReranker) runs in the same module.
import init from "./dist/local_embedder.js";
import { openEmbedder, openReranker, quantizeBytes } from "./open.mjs";
import { loadError } from "./sources.mjs";
import { openInWorker } from "./worker-client.mjs";

let ready;

function instantiate() {
  ready ??= init().catch((error) => {
    ready = undefined;
    throw loadError(`the embedder's .wasm: ${error.message}`, error);
  });
  return ready;
}

/** Loads all-MiniLM-L6-v2 (see index.d.ts). */
export async function createLocalEmbedder(options = {}) {
  const base = globalThis.location?.href;
  if (options.worker) return openInWorker(options, base);
  await instantiate();
  return openEmbedder(options, { base });
}

/** Loads a cross-encoder reranker (see index.d.ts); with `worker: true` it scores in a Web Worker. */
export async function createLocalReranker(options = {}) {
  const base = globalThis.location?.href;
  if (options.worker) return openInWorker(options, base, "reranker");
  await instantiate();
  return openReranker(options, { base });
}

/** The int8 weights file for the bytes of an f32, f16 or bf16 model.safetensors (see index.d.ts). */
export async function quantizeWeights(weights) {
  await instantiate();
  return quantizeBytes(weights);
}

export { CACHE_NAME, isCached } from "./sources.mjs";
