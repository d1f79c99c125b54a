// Type tests for the provider configs in pkg/index.d.ts: every provider's documented config type-checks,
// and the mistakes below must not (each `@ts-expect-error` fails the check if its line compiles).
// Run by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory } from "../../pkg/index.js";
import type { MemoryConfig, LlmConfig, EmbedderConfig, MemoryErrorCode } from "../../pkg/index.js";
declare const env: { AI: { run(model: string, inputs: Record<string, unknown>): Promise<unknown> } };
const configs: MemoryConfig[] = [
  { llm: { provider: "openai", config: { model: "gpt-4o-mini", apiKey: "sk" } } },
  { llm: { provider: "azure_openai", config: { endpoint: "https://x", deployment: "d" } },
    embedder: { provider: "azure_openai", config: { deployment: "e", dimensions: 3 } } },
  { llm: { provider: "groq", config: { model: "llama" } }, embedder: { provider: "vllm", config: { model: "e5" } } },
  { llm: { provider: "openai_compatible", config: { baseUrl: "http://x", model: "m", jsonMode: false } } },
  { llm: { provider: "anthropic", config: { dangerouslyAllowBrowser: true, toolOutput: false } } },
  { llm: { provider: "gemini" }, embedder: { provider: "gemini", config: { dimensions: 768 } } },
  { llm: { provider: "ollama", config: { model: "llama3.1" } }, embedder: { provider: "ollama" } },
  { llm: { provider: "workers-ai", binding: env.AI }, embedder: { provider: "workers-ai", binding: env.AI, config: { model: "@cf/baai/bge-small-en-v1.5" } } },
  { llm: { provider: "custom", generate: async ({ system, user, json }) => `${system}${user}${json}` },
    embedder: { provider: "custom", dimensions: 2, embed: async (texts) => texts.map(() => new Float32Array(2)) } },
  { llm: { provider: "custom", generate: ({ user }) => user }, embedder: { provider: "custom", dimensions: 2, embed: (t) => t.map(() => [1, 2]) } },
  { llm: { provider: "none" }, embedder: { provider: "none" } },
  { llm: { provider: "openai", config: { timeoutMs: 20000 } }, embedder: { provider: "gemini", config: { timeoutMs: 5000 } } },
  { llm: { provider: "anthropic", config: { timeoutMs: 1 } }, embedder: { provider: "ollama", config: { timeoutMs: 1 } } },
  { llm: { provider: "custom", generate: () => "", config: { timeoutMs: 120000 } },
    embedder: { provider: "custom", dimensions: 2, embed: (t) => t.map(() => [1, 2]), config: { timeoutMs: 1000 } } },
  { llm: { provider: "workers-ai", binding: env.AI, config: { timeoutMs: 1 } } },
  { llm: { provider: "openai", config: { connectTimeoutMs: 2000, coolDownMs: 0 } },
    embedder: { provider: "ollama", config: { timeoutMs: 10000, connectTimeoutMs: 0, coolDownMs: 60000 } } },
  { vectorStore: { provider: "memory", config: { quantization: "int8" } } },
  { vectorStore: { provider: "chroma", config: { url: "http://127.0.0.1:8000", collectionName: "memories" } } },
  { vectorStore: { provider: "chroma", config: { url: "https://c", collectionName: "m-1", tenant: "t", database: "d",
    apiKey: "k", timeoutMs: 5000, dimension: 1536 } } },
  // mem0's names: Ollama's url, Azure's modelProperties and model, "google", embeddingDims, the sampling keys,
  // Chroma's host and port, a reranker, unknownKeys.
  { llm: { provider: "ollama", config: { url: "http://localhost:11434", temperature: 0.1, topP: 0.9, top_k: 40 } },
    embedder: { provider: "ollama", config: { url: "http://localhost:11434", embeddingDims: 768 } } },
  { llm: { provider: "azure_openai", config: { apiKey: "k", model: "gpt-4o",
      modelProperties: { endpoint: "https://r.openai.azure.com", deployment: "d", apiVersion: "2024-10-21" } } },
    embedder: { provider: "azure_openai", config: { model: "e", modelProperties: { endpoint: "r.openai.azure.com" } } } },
  { llm: { provider: "google", config: { topK: 40 } }, embedder: { provider: "google", config: { embeddingDims: 1536 } } },
  { llm: { provider: "deepseek", config: { model: "deepseek-chat", top_p: 1.0, max_tokens: 2000 } },
    embedder: { provider: "together", config: { model: "m", embeddingDims: 1024 } } },
  { llm: { provider: "anthropic", config: { topP: 0.9, topK: 5 } }, embedder: { provider: "gemini", config: { embedding_dims: 8 } } },
  { vectorStore: { provider: "chroma", config: { host: "localhost", port: 8000, ssl: false, collectionName: "memories" } } },
  { reranker: { provider: "cohere", config: { apiKey: "k", topK: 5 } }, unknownKeys: "warn" },
];
// @ts-expect-error the OpenAI format has no topK
const noTopK: LlmConfig = { provider: "openai", config: { topK: 4 } };
// @ts-expect-error a reranker that runs a local model, which memwasm cannot
const badReranker: MemoryConfig = { reranker: { provider: "sentence_transformer" } };
// @ts-expect-error unknownKeys is "error" or "warn"
const badUnknownKeys: MemoryConfig = { unknownKeys: "ignore" };
// @ts-expect-error chroma needs a url and a collection
const badChroma: MemoryConfig = { vectorStore: { provider: "chroma", config: { url: "http://x" } } };
// @ts-expect-error quantization belongs to the in-memory index
const badChroma2: MemoryConfig = { vectorStore: { provider: "chroma", config: { url: "http://x", collectionName: "abc", quantization: "int8" } } };
const chromaDown: MemoryErrorCode = "VECTOR_STORE_UNAVAILABLE";
// @ts-expect-error anthropic has no embedder
const bad1: EmbedderConfig = { provider: "anthropic" };
// @ts-expect-error custom needs generate
const bad2: LlmConfig = { provider: "custom" };
// @ts-expect-error groq needs a model
const bad3: LlmConfig = { provider: "groq", config: {} };
// @ts-expect-error custom embedder needs dimensions
const bad4: EmbedderConfig = { provider: "custom", embed: async () => [] };
const code: MemoryErrorCode = "LLM_CALLBACK";
const code2: MemoryErrorCode = "EMBEDDING_CALLBACK";
const timeouts: MemoryErrorCode[] = ["LLM_TIMEOUT", "EMBEDDING_TIMEOUT", "LLM_UNAVAILABLE", "EMBEDDING_UNAVAILABLE"];
// @ts-expect-error your own model has no host to watch
const bad6: LlmConfig = { provider: "custom", generate: () => "", config: { coolDownMs: 0 } };
// @ts-expect-error timeoutMs is a number of milliseconds
const bad5: LlmConfig = { provider: "openai", config: { timeoutMs: "5s" } };
export { configs, bad1, bad2, bad3, bad4, bad5, bad6, noTopK, badReranker, badUnknownKeys, code, code2, timeouts, Memory };
