// A Node worker thread behind `threads: n`: opens the embedder (or, with `kind: "reranker"`, the
// cross-encoder) here and answers its requests (the messages of worker.mjs: {id, op: "open" | "embed" |
// "tokenIds" | "rerank" | "close", …}).
import { parentPort } from "node:worker_threads";
import { createLocalEmbedder, createLocalReranker } from "./index.node.mjs";

let embedder;

parentPort.on("message", async ({ id, op, kind, options, texts, text, query, documents }) => {
  try {
    if (op === "open") {
      embedder = await (kind === "reranker" ? createLocalReranker : createLocalEmbedder)(options);
      parentPort.postMessage({ id, result: { dimensions: embedder.dimensions, model: embedder.model, quantization: embedder.quantization } });
    } else if (op === "embed") {
      const vectors = await embedder.embed(texts);
      const flat = new Float32Array(vectors.length * embedder.dimensions);
      vectors.forEach((v, i) => flat.set(v, i * embedder.dimensions));
      parentPort.postMessage({ id, result: flat }, [flat.buffer]);
    } else if (op === "rerank") {
      parentPort.postMessage({ id, result: await embedder.rerank(query, documents) });
    } else if (op === "tokenIds") {
      parentPort.postMessage({ id, result: await embedder.tokenIds(text) });
    } else if (op === "close") {
      embedder?.close();
      parentPort.postMessage({ id, result: null });
    }
  } catch (error) {
    const code = error.code ?? (op === "open" ? "EMBEDDER_LOAD" : "EMBEDDER_INFERENCE");
    parentPort.postMessage({ id, error: { message: error.message, code, name: error.name } });
  }
});
