// Type tests for the local provider (pkg/index.d.ts) and memwasm/local-embedder (pkg/local-embedder/index.d.ts);
// each `@ts-expect-error` fails the check if its line compiles. Checked by scripts/suites/35-local-embedder.sh.
import { Memory } from "../../pkg/index.js";
import type { EmbedderConfig, MemoryConfig } from "../../pkg/index.js";
import { createLocalEmbedder, createLocalReranker, quantizeWeights } from "../../pkg/local-embedder/index.js";
import type { LocalEmbedder, LocalReranker } from "../../pkg/local-embedder/index.js";

export function configs(bytes: ArrayBuffer): Memory[] {
  const local: EmbedderConfig = { provider: "local", config: { model: "all-MiniLM-L6-v2", weights: "/m/model.safetensors", tokenizer: "/m/tokenizer.json" } };
  const config: MemoryConfig = { llm: { provider: "none" }, embedder: local };
  const worker = new Memory({ embedder: { provider: "local", config: { weights: bytes, tokenizer: "{}", worker: true } } });
  // @ts-expect-error the weights are required
  new Memory({ embedder: { provider: "local", config: { tokenizer: "/t.json" } } });
  // @ts-expect-error worker is a boolean
  new Memory({ embedder: { provider: "local", config: { weights: bytes, tokenizer: "{}", worker: "yes" } } });
  new Memory({ embedder: { provider: "local", config: { weights: bytes, tokenizer: "{}", threads: 2 } } });
  // @ts-expect-error threads is a number
  new Memory({ embedder: { provider: "local", config: { weights: bytes, tokenizer: "{}", threads: "2" } } });
  new Memory({ embedder: { provider: "local", config: { weights: bytes, tokenizer: "{}", quantization: "int8" } } });
  // @ts-expect-error quantization is "none" or "int8"
  new Memory({ embedder: { provider: "local", config: { weights: bytes, tokenizer: "{}", quantization: "int4" } } });
  const openai = new Memory({ embedder: { provider: "openai", config: { apiKey: "k" } } });
  return [new Memory(config), worker, openai];
}

export async function direct(): Promise<number> {
  const embedder: LocalEmbedder = await createLocalEmbedder({
    weights: new URL("https://example.com/model.safetensors"),
    tokenizer: "https://example.com/tokenizer.json",
    onProgress: ({ what, loaded, total }) => console.log(what, loaded, total),
  });
  const [vector] = await embedder.embed(["hello"]);
  // @ts-expect-error embed takes a list
  await embedder.embed("hello");
  embedder.close();
  const int8File: Uint8Array = await quantizeWeights(new ArrayBuffer(8));
  const quantization: "none" | "int8" = embedder.quantization;
  return vector.length + embedder.dimensions + (await embedder.tokenIds("x")).length + int8File.length + quantization.length;
}

export async function rerankers(bytes: ArrayBuffer): Promise<number> {
  const local = new Memory({ reranker: { provider: "local", config: { weights: bytes, tokenizer: "{}", topK: 10, worker: true, quantization: "int8" } } });
  const custom = new Memory({ reranker: { provider: "custom", rerank: async (query, documents) => documents.map((d) => d.length + query.length), config: { topK: 5, timeoutMs: 2000 } } });
  new Memory({ reranker: { provider: "cohere", config: { apiKey: "k" } } });
  // @ts-expect-error the local reranker needs its weights
  new Memory({ reranker: { provider: "local", config: { tokenizer: "{}" } } });
  // @ts-expect-error the custom reranker needs its rerank function
  new Memory({ reranker: { provider: "custom" } });
  // @ts-expect-error rerank resolves to numbers
  new Memory({ reranker: { provider: "custom", rerank: () => ["high"] } });
  const reranker: LocalReranker = await createLocalReranker({ weights: "/x/model.safetensors", tokenizer: "/x/tokenizer.json", threads: 2 });
  // @ts-expect-error threads is a number
  await createLocalReranker({ weights: "/x/model.safetensors", tokenizer: "/x/tokenizer.json", threads: "2" });
  const relevance: number[] = await reranker.rerank("query", ["a", "b"]);
  // @ts-expect-error rerank takes the documents as a list
  await reranker.rerank("query", "a");
  reranker.close();
  return relevance.length + [local, custom].length;
}
