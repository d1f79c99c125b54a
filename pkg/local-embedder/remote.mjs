// An embedder (or a reranker) whose calls are messages to a worker (a Web Worker with `worker: true`, a
// Node thread with `threads`): `request(message)` answers one message; `info` is what the worker's model
// reported on open.

export function messagedEmbedder(request, { dimensions, model, quantization }, terminate, extra = {}) {
  return {
    model,
    dimensions,
    quantization,
    ...extra,
    async embed(texts) {
      const flat = await request({ op: "embed", texts: Array.from(texts, String) });
      return Array.from({ length: flat.length / dimensions }, (_, i) => flat.subarray(i * dimensions, (i + 1) * dimensions));
    },
    tokenIds: (text) => request({ op: "tokenIds", text: String(text) }),
    close() {
      terminate();
    },
  };
}

export function messagedReranker(request, { model, quantization }, terminate, extra = {}) {
  return {
    model,
    quantization,
    ...extra,
    rerank: (query, documents) => request({ op: "rerank", query: String(query), documents: Array.from(documents, String) }),
    close() {
      terminate();
    },
  };
}
