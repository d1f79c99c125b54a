// Node entry of memwasm/local-embedder: instantiates the embedder's own .wasm from disk; weights and
// tokenizer may be file paths, file: / http(s) URLs or bytes. `worker` is ignored (Node has no page to block);
// `threads: n` runs n copies of the model (embedder or cross-encoder) in worker threads (threads.node.mjs).
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import init from "./dist/local_embedder.js";
import { openEmbedder, openReranker, quantizeBytes } from "./open.mjs";
import { threadsOf } from "./pool.mjs";
import { loadError } from "./sources.mjs";

let ready;

function instantiate() {
  ready ??= readFile(new URL("./dist/local_embedder_bg.wasm", import.meta.url))
    .then((module) => init({ module_or_path: module }))
    .catch((error) => {
      ready = undefined;
      throw loadError(`the embedder's .wasm: ${error.message}`, error);
    });
  return ready;
}

/** Loads all-MiniLM-L6-v2 (see index.d.ts). */
export async function createLocalEmbedder(options = {}) {
  const threads = threadsOf(options);
  if (threads > 1) return (await import("./threads.node.mjs")).openThreads(options, threads);
  await instantiate();
  return openEmbedder(options, { readFile, base: pathToFileURL(`${process.cwd()}/`).href });
}

/** Loads a cross-encoder reranker (see index.d.ts); `threads: n` scores in n worker threads. */
export async function createLocalReranker(options = {}) {
  const threads = threadsOf(options);
  if (threads > 1) return (await import("./threads.node.mjs")).openThreads(options, threads, "reranker");
  await instantiate();
  return openReranker(options, { readFile, base: pathToFileURL(`${process.cwd()}/`).href });
}

/** The int8 weights file for the bytes of an f32, f16 or bf16 model.safetensors (see index.d.ts). */
export async function quantizeWeights(weights) {
  await instantiate();
  return quantizeBytes(weights);
}

export { CACHE_NAME, isCached } from "./sources.mjs";
