// Ported from mem0ai/mem0 mem0-ts/src/oss/tests/memory.llm-error.test.ts
// at 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378 (v3 API: mem0ai 3.x, mem0's HEAD when ported).
// Port changes, and nothing else: the import of mem0's sources (now "memwasm/mem0");
// the jest.mock() of the LLM and embedder (now the same replies from a local scripted model server); the
// llm/embedder configs built outside the test bodies point at that server (baseURL). Everything else is mem0's file as it is.
/**
 * Regression test for #6101 / #5903: LLM extraction transport failures
 * (rate limits, timeouts, connection errors) must propagate as a typed
 * `LLMError`, not be silently swallowed into an empty result. Mirrors the
 * Python SDK regression test added in #5878
 * (`test_llm_extraction_exception_is_reraised`).
 */
/// <reference types="jest" />
import { Memory, LLMError } from "memwasm/mem0";
import type { SearchResult } from "memwasm/mem0";
import { mem0Mock, models } from "../support/models";

jest.setTimeout(15000);

// Port: mem0's jest.mock() of the LLM and embedder is replaced by the same replies from the local scripted
// OpenAI-compatible server (support/models.ts), which the llm/embedder configs point at (baseURL). mem0's
// MockEmbedder gave a constant 1536-dim vector of 0.1; its mocked OpenAILLM rejected
// generateResponse with new _ProviderError("429 rate limit"): here the server answers HTTP 429 with that message.
class _ProviderError extends Error {}

models.script(mem0Mock.failingLLM(429, "429 rate limit"), mem0Mock.embedder());

function createMemory(): Memory {
  return new Memory({
    version: "v1.1",
    embedder: {
      provider: "openai",
      config: { apiKey: "test-key", model: "text-embedding-3-small", baseURL: models.baseURL },
    },
    vectorStore: {
      provider: "memory",
      config: {
        collectionName: `test-llm-error-${Date.now()}`,
        dimension: 1536,
        dbPath: ":memory:",
      },
    },
    llm: {
      provider: "openai",
      config: { apiKey: "test-key", model: "gpt-5-mini", baseURL: models.baseURL },
    },
    historyDbPath: ":memory:",
  });
}

describe("Memory - LLM extraction transport failures", () => {
  let memory: Memory;
  const userId = `llm_error_test_${Date.now()}`;

  beforeAll(async () => {
    memory = createMemory();
  });

  afterAll(async () => {
    await memory.reset();
  });

  test("add() rejects with LLMError instead of returning an empty result", async () => {
    await expect(
      memory.add("this should trigger a provider failure", { userId }),
    ).rejects.toBeInstanceOf(LLMError);
  });

  test("thrown LLMError preserves the original error as its cause", async () => {
    let caught: unknown;
    try {
      const result: SearchResult = await memory.add("trigger failure again", {
        userId,
      });
      // Should never reach here — fail loudly if the call resolves.
      throw new Error(
        `Expected add() to reject, but it resolved with: ${JSON.stringify(result)}`,
      );
    } catch (e) {
      caught = e;
    }

    expect(caught).toBeInstanceOf(LLMError);
    expect((caught as LLMError).cause).toBeInstanceOf(_ProviderError);
    expect((caught as LLMError).message).toContain("429 rate limit");
  });
});
