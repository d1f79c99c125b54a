// Bring-your-own models from JS (the offline path): `generate` / `embed` callbacks with no network at all,
// callbacks that throw or answer nonsense, live values given to the wrong provider, and vectors of the
// wrong length (DIMENSION_MISMATCH, nothing stored).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defaultEmbedding } from "../support/scripted-server.mjs";
import { T, EXTRACT, DECIDE, Memory, rejectsWith, throwsInvalidConfig, warningCodes, scriptedServer } from "./helpers.mjs";
import { workersAiBinding } from "../support/workers-ai-binding.mjs";

const server = scriptedServer();

/** A tiny rule-based "model": extraction turns "I like X" into "User likes X"; decisions ADD every fact. */
function localModel() {
  const requests = [];
  const generate = async (request) => {
    requests.push(request);
    if (request.system.startsWith(EXTRACT)) {
      const likes = [...request.user.matchAll(/I like (\w+)/g)].map((m) => `User likes ${m[1]}`);
      return JSON.stringify({ facts: likes });
    }
    const facts = JSON.parse(request.user.slice(request.user.indexOf("New facts:") + 10).split("\n\n")[0]);
    return "```json\n" + JSON.stringify({ memory: facts.map((text) => ({ text, event: "ADD" })) }) + "\n```";
  };
  const embedded = [];
  // Float32Array for even batches, number[] for odd ones: both are accepted.
  const embed = (texts) => {
    embedded.push(texts);
    const vectors = texts.map((t) => defaultEmbedding(t, 32));
    return embedded.length % 2 ? vectors : vectors.map((v) => Float32Array.from(v));
  };
  return { requests, embedded, generate, embed };
}

/** Runs `fn` with `globalThis.fetch` replaced by one that records and refuses every call. */
async function withoutNetwork(fn) {
  const real = globalThis.fetch;
  const attempts = [];
  globalThis.fetch = (...args) => {
    attempts.push(args);
    return Promise.reject(new TypeError("network disabled in this test"));
  };
  try {
    await fn();
  } finally {
    globalThis.fetch = real;
  }
  return attempts;
}

const customConfig = (model, extra = {}) => ({
  llm: { provider: "custom", generate: model.generate },
  embedder: { provider: "custom", embed: model.embed, dimensions: 32 },
  ...extra,
});

describe("custom JS models", () => {
  test("generate and embed callbacks run the whole memory with the network never touched", T, async () => {
    const model = localModel();
    const attempts = await withoutNetwork(async () => {
      const mem = new Memory(customConfig(model, { pipeline: "exact" }));
      const res = await mem.add("I like tea and I like chess", { userId: "u" });
      assert.deepEqual(res.warnings, []);
      assert.deepEqual(
        res.results.map((e) => [e.event, e.memory]),
        [
          ["ADD", "User likes tea"],
          ["ADD", "User likes chess"],
        ],
      );
      const found = await mem.search("chess", { userId: "u" });
      assert.equal(found.results[0].memory, "User likes chess");
      await mem.update(found.results[0].id, "User likes speed chess");
      assert.equal((await mem.get(found.results[0].id)).memory, "User likes speed chess");
      const reopened = await Memory.open(customConfig(model));
      assert.deepEqual((await reopened.getAll({ userId: "u" })).results, []);
    });
    assert.equal(attempts.length, 0, "fetch was never called");
    assert.equal(server.requests().length, 0, "the scripted server saw nothing");
    assert.deepEqual(
      model.requests.map((r) => [r.system.slice(0, 20), typeof r.user, r.json]),
      [
        [EXTRACT.slice(0, 20), "string", true],
        [DECIDE.slice(0, 20), "string", true],
      ],
    );
    assert.match(model.requests[0].user, /I like tea and I like chess/);
    assert.deepEqual(model.embedded, [["User likes tea", "User likes chess"], ["chess"], ["User likes speed chess"]]);
  });

  test("a generate callback that throws or rejects: LLM_CALLBACK, add() degrades, nothing stored", T, async () => {
    for (const generate of [
      () => {
        throw new Error("model not loaded");
      },
      async () => Promise.reject(new Error("model not loaded")),
    ]) {
      const model = localModel();
      const mem = new Memory(customConfig({ ...model, generate }));
      const res = await mem.add("I like tea", { userId: "u" });
      assert.deepEqual(res.results, []);
      assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
      assert.match(res.warnings[0].message, /LLM callback failed: model not loaded/);
      assert.deepEqual((await mem.getAll({ userId: "u" })).results, []);
    }
  });

  test("an embed callback that throws: EMBEDDING_CALLBACK on search, skipped facts on add", T, async () => {
    const model = localModel();
    const mem = new Memory(customConfig({ ...model, embed: () => Promise.reject(new RangeError("GPU lost")) }));
    await rejectsWith(
      () => mem.search("tea", { userId: "u" }),
      "EMBEDDING_CALLBACK",
      (e) => assert.match(e.message, /GPU lost/),
    );
    const res = await mem.add("I like tea and I like chess", { userId: "u" });
    assert.deepEqual(warningCodes(res), ["EMBEDDING_FAILED", "EMBEDDING_FAILED"]);
    assert.equal(model.requests.length, 1, "no decision call when no fact could be embedded");
    assert.deepEqual((await mem.getAll({ userId: "u" })).results, []);
    const thrower = new Memory(
      customConfig({
        ...model,
        embed: () => {
          throw "plain string";
        },
      }),
    );
    await rejectsWith(
      () => thrower.search("x", { userId: "u" }),
      "EMBEDDING_CALLBACK",
      (e) => assert.match(e.message, /plain string/),
    );
  });

  test("callbacks that answer in the wrong shape: LLM_RESPONSE / EMBEDDING_RESPONSE", T, async () => {
    const model = localModel();
    const mem = new Memory(customConfig({ ...model, generate: async () => ({ facts: [] }) }));
    const res = await mem.add("I like tea", { userId: "u" });
    assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
    assert.match(res.warnings[0].message, /generate must resolve to a string, got object/);
    for (const embed of [() => "nope", () => [[1, "2"]], () => [], () => [new Uint8Array(32)], () => [[]]]) {
      const mem = new Memory(customConfig({ ...model, embed }));
      await rejectsWith(() => mem.search("tea", { userId: "u" }), "EMBEDDING_RESPONSE");
    }
  });

  test("vectors of the wrong length: DIMENSION_MISMATCH, and add() stores nothing", T, async () => {
    const model = localModel();
    const short = { ...model, embed: (texts) => texts.map(() => [1, 0, 0]) };
    const mem = new Memory(customConfig(short));
    await rejectsWith(
      () => mem.search("tea", { userId: "u" }),
      "DIMENSION_MISMATCH",
      (e) => assert.match(e.message, /3 dimensions, expected 32/),
    );
    await rejectsWith(() => mem.add("I like tea", { userId: "u" }), "DIMENSION_MISMATCH");
    assert.deepEqual((await mem.getAll({ userId: "u" })).results, []);
  });

  test("vectors that match the config but not the stored ones: DIMENSION_MISMATCH, nothing stored", T, async () => {
    // No configured dimension: the first vectors stored (64 long) fix the index's length.
    const embedder = { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "k", model: "e" } };
    const mem = new Memory({
      llm: { provider: "custom", generate: localModel().generate },
      embedder,
      retry: { maxRetries: 0 },
    });
    await mem.add("I like tea", { userId: "u" });
    server.script({ kind: "embedding", match: "chess", vector: [0.6, 0.8] });
    await rejectsWith(
      () => mem.add("I like chess", { userId: "u" }),
      "DIMENSION_MISMATCH",
      (e) => assert.match(e.message, /2 dimensions, expected 64/),
    );
    await rejectsWith(() => mem.search("chess", { userId: "u" }), "DIMENSION_MISMATCH");
    assert.deepEqual(
      (await mem.getAll({ userId: "u" })).results.map((m) => m.memory),
      ["User likes tea"],
    );
  });
});

describe("live values go to the provider that takes them", () => {
  const generate = async () => "{}";
  const embed = async (texts) => texts.map(() => [1]);
  const ai = { run: async () => ({}) };

  test("missing, mistyped or misplaced callbacks and bindings name the field", () => {
    const cases = [
      [{ llm: { provider: "custom" } }, /llm\.generate: is required/],
      [{ llm: { provider: "custom", generate: "() => 1" } }, /llm\.generate: must be a function/],
      [{ llm: { provider: "openai", generate } }, /llm\.generate: only the "custom" provider takes this/],
      [{ llm: { provider: "custom", generate, config: {} } }, /llm\.config: the custom provider takes no config/],
      [{ embedder: { provider: "custom", embed } }, /embedder\.dimensions: is required/],
      [{ embedder: { provider: "custom", embed, dimensions: "8" } }, /embedder\.dimensions/],
      [{ embedder: { provider: "custom", dimensions: 8 } }, /embedder\.embed: is required/],
      [{ embedder: { provider: "gemini", config: { apiKey: "k" }, embed } }, /embedder\.embed: only the "custom" provider/],
      [{ embedder: { provider: "openai", dimensions: 8 } }, /embedder\.dimensions: only the custom provider/],
      [{ llm: { provider: "workers-ai" } }, /llm\.binding: is required/],
      [{ llm: { provider: "workers-ai", binding: {} } }, /llm\.binding: must be the Worker's AI binding/],
      [{ llm: { provider: "workers-ai", binding: "AI" } }, /llm\.binding: must be the Worker's AI binding/],
      [{ llm: { provider: "anthropic", config: { apiKey: "k" }, binding: ai } }, /llm\.binding: only the "workers-ai" provider/],
      [{ embedder: { provider: "workers-ai", binding: { run: 1 } } }, /embedder\.binding: must be/],
      [
        { embedder: { provider: "custom", embed, dimensions: 8, binding: ai } },
        /embedder\.binding: only the "workers-ai"/,
      ],
    ];
    // The part a case leaves out is the default OpenAI one, which needs a key: give it one, so each case's own
    // error is the one reported.
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-test";
    try {
      for (const [config, message] of cases) {
        throwsInvalidConfig(config);
        assert.throws(
          () => new Memory(config),
          (e) => message.test(e.message),
          `${message} for ${JSON.stringify(config)}`,
        );
      }
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  test("Memory.open rejects the same way, and valid live configs construct", T, async () => {
    await rejectsWith(() => Memory.open({ llm: { provider: "custom" } }), "INVALID_CONFIG");
    assert.ok(
      new Memory({ llm: { provider: "custom", generate }, embedder: { provider: "custom", embed, dimensions: 1 } }),
    );
    const binding = workersAiBinding(server);
    assert.ok(new Memory({ llm: { provider: "workers-ai", binding }, embedder: { provider: "workers-ai", binding } }));
    assert.equal(server.requests().length, 0, "constructing calls nothing");
  });
});
