// Config factories for every provider, pointed at the scripted server (or, for Workers AI, at a binding
// stand-in that calls it), plus the checks each provider's requests must pass. Shared by the
// providers-*.test.mjs suites.
import assert from "node:assert/strict";
import { workersAiBinding } from "../support/workers-ai-binding.mjs";

const retry = { baseDelayMs: 5, maxDelayMs: 50 };
const openaiEmbedder = (server) => ({
  provider: "openai",
  config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-embed", dimensions: 64 },
});

/** name → { config(server) → {config, binding?}, chatWire, embeddingWire, dimensions } */
export const PROVIDERS = {
  openai: {
    chatWire: "openai",
    embeddingWire: "openai",
    config: (server) => ({
      llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "gpt-4o-mini" } },
      embedder: openaiEmbedder(server),
    }),
  },
  azure_openai: {
    chatWire: "azure",
    embeddingWire: "azure",
    config: (server) => ({
      llm: { provider: "azure_openai", config: { endpoint: server.url, deployment: "chat-prod", apiKey: "az-key" } },
      embedder: {
        provider: "azure_openai",
        config: { endpoint: server.url, deployment: "embed-prod", apiKey: "az-key", dimensions: 64 },
      },
    }),
  },
  groq: {
    chatWire: "openai",
    embeddingWire: "openai",
    config: (server) => ({
      llm: {
        provider: "groq",
        config: { baseUrl: server.baseUrl, apiKey: "gsk-test", model: "llama-3.3-70b-versatile" },
      },
      embedder: { provider: "vllm", config: { baseUrl: server.baseUrl, model: "intfloat/e5-small", dimensions: 64 } },
    }),
  },
  lmstudio: {
    chatWire: "openai",
    embeddingWire: "openai",
    config: (server) => ({
      llm: { provider: "lmstudio", config: { baseUrl: server.baseUrl, model: "qwen2.5-7b-instruct" } },
      embedder: { provider: "lmstudio", config: { baseUrl: server.baseUrl, model: "nomic-embed", dimensions: 64 } },
    }),
  },
  anthropic: {
    chatWire: "anthropic",
    embeddingWire: "openai",
    config: (server) => ({
      llm: {
        provider: "anthropic",
        config: { baseUrl: `${server.url}/v1`, apiKey: "sk-ant-test", model: "claude-haiku-4-5" },
      },
      embedder: openaiEmbedder(server),
    }),
  },
  gemini: {
    chatWire: "gemini",
    embeddingWire: "gemini",
    config: (server) => ({
      llm: {
        provider: "gemini",
        config: { baseUrl: `${server.url}/v1beta`, apiKey: "g-key", model: "gemini-2.5-flash" },
      },
      embedder: { provider: "gemini", config: { baseUrl: `${server.url}/v1beta`, apiKey: "g-key", dimensions: 64 } },
    }),
  },
  ollama: {
    chatWire: "ollama",
    embeddingWire: "ollama",
    config: (server) => ({
      llm: { provider: "ollama", config: { baseUrl: server.url, model: "llama3.1" } },
      embedder: { provider: "ollama", config: { baseUrl: server.url, model: "nomic-embed-text", dimensions: 64 } },
    }),
  },
  "workers-ai": {
    chatWire: "workers-ai",
    embeddingWire: "workers-ai",
    config: (server) => {
      const binding = workersAiBinding(server);
      return {
        binding,
        config: {
          llm: { provider: "workers-ai", binding },
          embedder: { provider: "workers-ai", binding, config: { model: "@cf/baai/bge-small-en-v1.5" } },
        },
      };
    },
  },
};

/** `{config, binding?}` for provider `name`, with fast retries. */
export function providerConfig(name, server, extra = {}) {
  const made = PROVIDERS[name].config(server);
  const { config, binding } = made.config ? made : { config: made };
  return { config: { ...config, retry, ...extra }, binding };
}

/** Asserts the scripted server saw no request the real API would have refused. */
export function assertAllValid(server) {
  const invalid = server.requests().filter((r) => r.invalid || r.kind === "other");
  assert.deepEqual(
    invalid.map((r) => `${r.path}: ${r.invalid ?? "unknown path"}`),
    [],
  );
}
