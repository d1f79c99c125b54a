// The module Web Worker behind `worker: true`: opens the embedder (or, with `kind: "reranker"`, the
// cross-encoder) here and answers its requests, so the page's thread never runs a forward pass. Messages:
// {id, op: "open" | "embed" | "tokenIds" | "rerank" | "close", …}.
import init from "./dist/local_embedder.js";
import { openEmbedder, openReranker } from "./open.mjs";

let embedder;

self.onmessage = async ({ data: { id, op, kind, options, texts, text, query, documents, base } }) => {
  try {
    if (op === "open") {
      await init();
      const onProgress = (progress) => self.postMessage({ id, progress });
      const open = kind === "reranker" ? openReranker : openEmbedder;
      embedder = await open({ ...options, onProgress }, { base });
      self.postMessage({ id, result: { dimensions: embedder.dimensions, model: embedder.model, quantization: embedder.quantization } });
    } else if (op === "rerank") {
      self.postMessage({ id, result: await embedder.rerank(query, documents) });
    } else if (op === "embed") {
      const vectors = await embedder.embed(texts);
      const flat = new Float32Array(vectors.length * embedder.dimensions);
      vectors.forEach((v, i) => flat.set(v, i * embedder.dimensions));
      self.postMessage({ id, result: flat }, [flat.buffer]);
    } else if (op === "tokenIds") {
      self.postMessage({ id, result: await embedder.tokenIds(text) });
    } else if (op === "close") {
      embedder?.close();
      self.postMessage({ id, result: null });
    }
  } catch (error) {
    const code = error.code ?? (op === "open" ? "EMBEDDER_LOAD" : "EMBEDDER_INFERENCE");
    self.postMessage({ id, error: { message: error.message, code, name: error.name } });
  }
};
