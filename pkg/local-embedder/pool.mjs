// `threads: n`: n embedders (Node worker threads, or browser Web Workers), each with its own copy of the model,
// behind the one API of createLocalEmbedder (or n cross-encoders behind createLocalReranker's). A request's texts are sorted by length and dealt out in turn
// (the shortest to the first embedder, the next to the second, …), so every embedder gets as much work and
// rows of like lengths (a forward pass pads every row to its longest); the vectors come back in order.

export function pooled(embedders) {
  const [first] = embedders;
  let next = 0;
  return {
    model: first.model,
    dimensions: first.dimensions,
    quantization: first.quantization,
    threads: embedders.length,
    async embed(texts) {
      const list = Array.from(texts, String);
      if (list.length <= 1) return embedders[next++ % embedders.length].embed(list);
      const order = list.map((_, i) => i).sort((a, b) => list[a].length - list[b].length);
      const parts = embedders.map(() => []);
      order.forEach((i, k) => parts[k % embedders.length].push(i));
      const results = await Promise.all(parts.map((part, e) => (part.length ? embedders[e].embed(part.map((i) => list[i])) : [])));
      const out = new Array(list.length);
      parts.forEach((part, e) => part.forEach((i, k) => (out[i] = results[e][k])));
      return out;
    },
    tokenIds: (text) => first.tokenIds(text),
    close() {
      for (const embedder of embedders) embedder.close();
    },
  };
}

/** `threads: n` for the cross-encoder: a request's documents dealt out as the embedder's texts are (by
 * length, in turn), every thread scoring its share against the same query; the relevances come back in order. */
export function pooledRerankers(rerankers) {
  const [first] = rerankers;
  return {
    model: first.model,
    quantization: first.quantization,
    threads: rerankers.length,
    async rerank(query, documents) {
      const list = Array.from(documents, String);
      const order = list.map((_, i) => i).sort((a, b) => list[a].length - list[b].length);
      const parts = rerankers.map(() => []);
      order.forEach((i, k) => parts[k % rerankers.length].push(i));
      const results = await Promise.all(parts.map((part, r) => (part.length ? rerankers[r].rerank(query, part.map((i) => list[i])) : [])));
      const out = new Array(list.length);
      parts.forEach((part, r) => part.forEach((i, k) => (out[i] = results[r][k])));
      return out;
    },
    close() {
      for (const reranker of rerankers) reranker.close();
    },
  };
}

/** The number of embedders `options.threads` asks for: 1 when not given; else a positive integer. */
export function threadsOf(options) {
  const threads = options.threads ?? 1;
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) {
    throw Object.assign(new Error(`EMBEDDER_LOAD: threads must be an integer from 1 to 64, got ${threads}`), { code: "EMBEDDER_LOAD" });
  }
  return threads;
}
