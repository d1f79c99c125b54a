// Model hosts that accept the request and never answer: every LLM and embedder gives up after its
// `config.timeoutMs` with LLM_TIMEOUT / EMBEDDING_TIMEOUT, retried per `retry` like a 5xx, so a host that is
// silent once and then answers still works. The scripted server stays silent with a long `delayMs`.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { LLMError, MemoryError } from "memwasm";
import {
  T,
  EXTRACT,
  Memory,
  addsFor,
  decision,
  extraction,
  makeMemory,
  rejectsWith,
  scriptedServer,
  throwsInvalidConfig,
  warningCodes,
} from "./helpers.mjs";
import { PROVIDERS, providerConfig } from "./provider-configs.mjs";

const server = scriptedServer();

const SILENT = 10_000;
const TIMEOUT = 300;
/** One retry, so a silent host costs two timeouts. */
const retry = { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 };
const HTTP = ["openai", "azure_openai", "groq", "anthropic", "gemini", "ollama"];

/** Provider `name` with `timeoutMs` in both model configs. */
function timedMemory(name, timeoutMs = TIMEOUT) {
  const { config } = providerConfig(name, server, { retry });
  const timed = (part) => ({ ...part, config: { ...part.config, timeoutMs } });
  return new Memory({ ...config, llm: timed(config.llm), embedder: timed(config.embedder) });
}

const chess = (wire) => [
  extraction("I like chess", ["User likes chess"], { wire }),
  decision("User likes chess", addsFor(["User likes chess"]), { wire }),
];

/** Resolves to [value, ms taken]. */
async function timed(promise) {
  const started = Date.now();
  const value = await promise;
  return [value, Date.now() - started];
}

describe("an LLM that never answers", () => {
  for (const name of HTTP) {
    const { chatWire } = PROVIDERS[name];

    test(`${name}: add() ends within the timeouts with LLM_TIMEOUT, after one retry`, T, async () => {
      server.script({ kind: "chat", wire: chatWire, match: EXTRACT, delayMs: SILENT });
      const mem = timedMemory(name);
      const [res, ms] = await timed(mem.add("I like chess", { userId: "u" }));
      assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
      assert.equal(res.warnings[0].cause, "LLM_TIMEOUT");
      assert.match(res.warnings[0].message, /no response within 300 ms/);
      assert.ok(ms < 3_000, `took ${ms} ms`);
      assert.equal(server.requests(chatWire).filter((r) => r.kind === "chat").length, 2, "one try and one retry");
    });

    test(`${name}: silent once, then answering: the retry stores the memory`, T, async () => {
      server.script([{ kind: "chat", wire: chatWire, match: EXTRACT, delayMs: SILENT, times: 1 }, ...chess(chatWire)]);
      const mem = timedMemory(name);
      const res = await mem.add("I like chess", { userId: "u" });
      assert.deepEqual(res.warnings, []);
      assert.deepEqual(res.results.map((r) => r.memory), ["User likes chess"]);
    });
  }

  test("a call that rejects on a model failure rejects with an LLMError coded LLM_TIMEOUT", T, async () => {
    const SUMMARY = "You keep the running summary";
    const mem = makeMemory(server, { llm: { timeoutMs: 200 }, retry: { maxRetries: 0 } });
    const ctx = mem.context({ userId: "u", maxTokens: 60, keepLast: 1 });
    await ctx.push("first turn");
    server.script({ kind: "chat", match: [SUMMARY], delayMs: SILENT });
    const started = Date.now();
    const error = await rejectsWith(() => ctx.push("a much longer second turn that will not fit in the small window. ".repeat(4)), "LLM_TIMEOUT");
    assert.ok(error instanceof LLMError && error instanceof MemoryError, String(error));
    assert.ok(Date.now() - started < 2_000);
  });
});

// method "vector": hybrid (the default) ranks by keywords when the embedder times out (degraded-reads.test.mjs)
const VECTOR = { userId: "u", method: "vector" };

describe("an embedder that never answers", () => {
  for (const name of HTTP) {
    const { embeddingWire } = PROVIDERS[name];

    test(`${name}: search rejects with EMBEDDING_TIMEOUT within the timeouts; silent once is retried`, T, async () => {
      server.script({ kind: "embedding", wire: embeddingWire, match: "query", delayMs: SILENT, times: 2 });
      const mem = timedMemory(name);
      const started = Date.now();
      await rejectsWith(() => mem.search("query", VECTOR), "EMBEDDING_TIMEOUT", (e) => {
        assert.ok(!(e instanceof LLMError));
        assert.match(e.message, /no response within 300 ms/);
      });
      assert.ok(Date.now() - started < 3_000);
      server.script({ kind: "embedding", wire: embeddingWire, match: "query", delayMs: SILENT, times: 1 });
      assert.deepEqual((await mem.search("query", VECTOR)).results, []);
    });
  }
});

describe("models the platform brings: no default timeout, and no retry", () => {
  test("workers-ai: a run() that never settles fails after config.timeoutMs, once", T, async () => {
    server.script([
      { kind: "chat", wire: "workers-ai", match: EXTRACT, delayMs: SILENT },
      { kind: "embedding", wire: "workers-ai", match: "query", delayMs: SILENT },
    ]);
    const mem = timedMemory("workers-ai", 200);
    const [res, ms] = await timed(mem.add("I like chess", { userId: "u" }));
    assert.deepEqual([warningCodes(res), res.warnings[0].cause], [["EXTRACTION_FAILED"], "LLM_TIMEOUT"]);
    assert.ok(ms < 2_000, `took ${ms} ms`);
    assert.equal(server.requests("chat").length, 1, "the binding has no retry of its own");
    await rejectsWith(() => mem.search("query", VECTOR), "EMBEDDING_TIMEOUT");
  });

  const never = () => new Promise(() => {});
  const embed = (texts) => texts.map(() => [1, 0, 0]);

  test("custom: a generate or embed whose promise never settles fails after config.timeoutMs", T, async () => {
    const mem = new Memory({
      llm: { provider: "custom", generate: never, config: { timeoutMs: 200 } },
      embedder: { provider: "custom", embed, dimensions: 3 },
    });
    const [res, ms] = await timed(mem.add("I like chess", { userId: "u" }));
    assert.deepEqual([warningCodes(res), res.warnings[0].cause], [["EXTRACTION_FAILED"], "LLM_TIMEOUT"]);
    assert.ok(ms < 2_000, `took ${ms} ms`);

    const blind = new Memory({
      llm: { provider: "none" },
      embedder: { provider: "custom", embed: never, dimensions: 3, config: { timeoutMs: 200 } },
    });
    await rejectsWith(() => blind.search("query", VECTOR), "EMBEDDING_TIMEOUT");
  });
});

describe("timeoutMs config", () => {
  test("must be a whole number of milliseconds from 1 to 3600000, for every provider", () => {
    for (const bad of [0, -1, 2.5, "300", 3_600_001]) {
      throwsInvalidConfig({ llm: { provider: "openai", config: { apiKey: "k", timeoutMs: bad } } });
      throwsInvalidConfig({ embedder: { provider: "ollama", config: { timeoutMs: bad } } });
    }
    assert.doesNotThrow(() => new Memory({ llm: { provider: "custom", generate: () => "", config: { timeoutMs: 5 } }, embedder: { provider: "none" } }));
  });

  test("connectTimeoutMs and coolDownMs: whole milliseconds from 0, for the HTTP providers only", () => {
    for (const bad of [-1, 2.5, "300", 3_600_001]) {
      throwsInvalidConfig({ llm: { provider: "openai", config: { apiKey: "k", connectTimeoutMs: bad } } });
      throwsInvalidConfig({ embedder: { provider: "ollama", config: { coolDownMs: bad } } });
    }
    throwsInvalidConfig({ llm: { provider: "custom", generate: () => "", config: { coolDownMs: 0 } }, embedder: { provider: "none" } });
    const options = { apiKey: "k", connectTimeoutMs: 0, coolDownMs: 0 };
    assert.doesNotThrow(() => new Memory({ llm: { provider: "anthropic", config: options }, embedder: { provider: "gemini", config: options } }));
  });
});
