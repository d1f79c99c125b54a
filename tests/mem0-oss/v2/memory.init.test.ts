// Ported from mem0ai/mem0 mem0-ts/src/oss/tests/memory.init.test.ts
// at c239d8a483120143707c42e459b48fb3c7261afb (v2 API: mem0ai 2.4.6).
// Port changes, and nothing else: the import of mem0's sources (now "memwasm/mem0");
// the jest.mock() of the LLM and embedder (now the same replies from a local scripted model server); the
// llm/embedder configs built outside the test bodies point at that server (baseURL). Everything else is mem0's file as it is.
/**
 * OSS Memory unit tests — constructor, initialization, config validation, reset.
 * Mocks LLM/Embedder at module level. No API keys needed.
 */
/// <reference types="jest" />
import { Memory } from "memwasm/mem0";
import type { MemoryConfig, SearchResult } from "memwasm/mem0";
import { mem0Mock, models } from "../support/models";

jest.setTimeout(15000);

// Port: mem0's jest.mock() of the LLM and embedder is replaced by the same replies from the local scripted
// OpenAI-compatible server (support/models.ts), which the llm/embedder configs point at (baseURL). mem0's
// MockEmbedder gave a constant 1536-dim vector of 0.1; its MockLLM answered a call with a system message with
// {facts: [<constant>]} and one without with {memory: [{id: "new", event: "ADD", text: <constant>, ...}]}.
models.script(mem0Mock.v2ContentLLM("test fact"), mem0Mock.embedder());

function createMemory(overrides: Partial<MemoryConfig> = {}): Memory {
  return new Memory({
    version: "v1.1",
    embedder: {
      provider: "openai",
      config: { apiKey: "test-key", model: "text-embedding-3-small", baseURL: models.baseURL },
    },
    vectorStore: {
      provider: "memory",
      config: { collectionName: "test-init", dimension: 1536 },
    },
    llm: {
      provider: "openai",
      config: { apiKey: "test-key", model: "gpt-4-turbo-preview", baseURL: models.baseURL },
    },
    historyDbPath: ":memory:",
    ...overrides,
  });
}

describe("Memory - Initialization", () => {
  test("constructs without throwing with valid config", () => {
    expect(() => createMemory()).not.toThrow();
  });

  test("fromConfig creates instance from config dict", () => {
    const config = {
      version: "v1.1",
      embedder: {
        provider: "openai",
        config: { apiKey: "test-key", model: "text-embedding-3-small" },
      },
      vectorStore: {
        provider: "memory",
        config: { collectionName: "test", dimension: 1536 },
      },
      llm: {
        provider: "openai",
        config: { apiKey: "test-key", model: "gpt-4" },
      },
    };
    const mem = Memory.fromConfig(config);
    expect(mem).toBeInstanceOf(Memory);
  });

  test("fromConfig throws on invalid config", () => {
    expect(() => Memory.fromConfig({ invalid: true } as any)).toThrow();
  });

  test("disableHistory=true uses DummyHistoryManager (no crash on history)", async () => {
    const mem = createMemory({ disableHistory: true });
    // If DummyHistoryManager is used, history returns [] without error
    const result = await mem.history("nonexistent-id");
    expect(Array.isArray(result)).toBe(true);
  });
});

describe("Memory - reset()", () => {
  test("reset clears all stored memories", async () => {
    const mem = createMemory();
    const userId = `reset_test_${Date.now()}`;

    await mem.add("Remember this fact", { userId });
    const before: SearchResult = await mem.getAll({ userId });
    expect(before.results.length).toBeGreaterThan(0);

    await mem.reset();

    const after: SearchResult = await mem.getAll({ userId });
    expect(after.results).toHaveLength(0);
  });
});
