// Configuration: validation, defaults, env fallbacks, and the wire format of requests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  T,
  EXTRACT,
  DECIDE,
  Memory,
  makeMemory,
  testConfig,
  extraction,
  decision,
  addsFor,
  texts,
  chatCalls,
  throwsInvalidConfig,
  scriptedServer,
} from "./helpers.mjs";

const server = scriptedServer();

/** Run `fn` with process.env patched, restoring it afterwards. */
async function withEnv(vars, fn) {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe("config validation", () => {
  test("invalid configs throw INVALID_CONFIG synchronously", () => {
    throwsInvalidConfig({ llm: { provider: "nope" } });
    throwsInvalidConfig({ embedder: { provider: "nope" } });
    throwsInvalidConfig({ retry: { maxRetries: -1 } });
    throwsInvalidConfig({ embedder: { provider: "openai", config: { dimensions: "x" } } });
    throwsInvalidConfig({ vectorStore: { provider: "qdrant" } });
  });

  test("typos are rejected and the message names the field", T, async () => {
    const cases = [
      [{ llmm: {} }, /llmm/],
      [{ llm: { provider: "openai", config: { apikey: "x" } } }, /llm\.config\.apikey/],
      [{ retry: { maxRetries: -1 } }, /retry\.maxRetries/],
      [{ embedder: { provider: "openai", config: { dimensions: "x" } } }, /embedder\.config\.dimensions/],
    ];
    await withEnv({ OPENAI_API_KEY: "sk-test" }, () => {
      for (const [config, field] of cases) {
        assert.throws(() => new Memory(config), (e) => e instanceof Error && e.code === "INVALID_CONFIG" && field.test(e.message));
      }
    });
    const none = { llm: { provider: "none" }, embedder: { provider: "none" } };
    assert.ok(new Memory({ version: "v1.1", historyDbPath: "memory.db", ...none }) instanceof Memory, "mem0's extra keys are tolerated");
  });

  test("badly typed options name the field and change nothing", T, async () => {
    const memory = makeMemory(server);
    const cases = [
      [() => memory.add("x", { userId: "u", metadata: 5 }), /metadata: invalid type/],
      [() => memory.add("x", { userId: "u", metadata: { f() {} } }), /options\.metadata\.f must be plain JSON/],
      [() => memory.add("x", { userId: "u", metadata: { n: 10n } }), /options\.metadata\.n is a BigInt/],
      [() => memory.add("x", { userId: "u", infer: false, metadata: { tags: [1, 2n] } }), /options\.metadata\.tags\[1\] is a BigInt/],
      [() => memory.search("q", { userId: "u", filters: { n: 10n } }), /options\.filters\.n is a BigInt/],
      [() => memory.add("x", { userId: "u", metadata: { s: Symbol("s") } }), /options\.metadata\.s must be plain JSON/],
      [() => memory.add("x", { userId: "u", metadata: { v: new Float32Array(2) } }), /options\.metadata\.v must be plain JSON/],
      [() => memory.getAll({ userId: 5 }), /userId: invalid type/],
      [() => memory.search("q", { userId: "u", limit: "3" }), /limit: invalid type/],
    ];
    for (const [call, message] of cases) {
      await assert.rejects(call, (e) => e instanceof Error && e.code === "INVALID_INPUT" && message.test(e.message));
    }
    assert.equal(server.count("chat") + server.count("embedding"), 0);
  });

  test("valid configs construct", T, async () => {
    await withEnv({ OPENAI_API_KEY: "sk-test" }, () => {
      assert.ok(new Memory() instanceof Memory);
      assert.ok(new Memory({}) instanceof Memory);
      assert.ok(new Memory({ vectorStore: { provider: "memory" } }) instanceof Memory);
    });
    assert.ok(makeMemory(server) instanceof Memory);
  });
});

describe("llm provider none", () => {
  test("add() stores messages as they are, and infer: true is refused", T, async () => {
    const memory = new Memory({
      llm: { provider: "none" },
      embedder: { provider: "openai", config: { baseUrl: server.baseUrl, dimensions: 64 } },
    });
    const { results } = await memory.add([{ role: "user", content: "I like green tea" }], { userId: "u" });
    assert.deepEqual(results.map((e) => [e.event, e.memory, e.metadata.role]), [["ADD", "I like green tea", "user"]]);
    await assert.rejects(memory.add("more", { userId: "u", infer: true }), (e) => e.code === "INVALID_INPUT" && /needs an LLM/.test(e.message));
    assert.equal(server.count("chat"), 0);
    assert.equal((await memory.getAll({ userId: "u" })).results.length, 1);
  });
});

describe("default config (case 42)", () => {
  test("new Memory() without OPENAI_API_KEY is INVALID_CONFIG saying what to do", T, async () => {
    await withEnv({ OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined }, () => {
      assert.throws(() => new Memory(), (e) => e.code === "INVALID_CONFIG" && /pass llm\.config\.apiKey \(or set OPENAI_API_KEY/.test(e.message));
    });
  });

  test("new Memory() works offline for reads of an empty store", T, async () => {
    await withEnv({ OPENAI_BASE_URL: undefined, OPENAI_API_KEY: "sk-test" }, async () => {
      const mem = new Memory();
      assert.equal(await mem.get("x"), null);
      assert.deepEqual(await mem.getAll({ userId: "u" }), { results: [], totalCount: 0, hasMore: false });
      assert.deepEqual(await mem.history("x"), []);
    });
  });

  test("new Memory() uses OPENAI_BASE_URL / OPENAI_API_KEY with gpt-4o-mini and text-embedding-3-small", T, async () => {
    const vector = Array.from({ length: 1536 }, (_, i) => (i === 0 ? 1 : 0));
    server.script([
      { kind: "embedding", match: "", vector },
      extraction("I like chess", ["User likes chess"]),
      decision("User likes chess", addsFor(["User likes chess"])),
    ]);
    await withEnv({ OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "env-key" }, async () => {
      const mem = new Memory();
      assert.equal(await mem.get("x"), null);
      assert.deepEqual((await mem.getAll({ userId: "u" })).results, []);
      assert.equal(server.requests().length, 0, "reads of an empty store make no requests");
      const res = await mem.add("I like chess", { userId: "u" });
      assert.deepEqual(texts(res.results), ["User likes chess"]);
    });
    const chats = server.requests("chat");
    assert.equal(chats.length, 2);
    for (const c of chats) {
      assert.equal(c.body.model, "gpt-4o-mini");
      assert.equal(c.headers.authorization, "Bearer env-key");
    }
    const embeds = server.requests("embedding");
    assert.ok(embeds.length >= 1);
    for (const e of embeds) {
      assert.equal(e.body.model, "text-embedding-3-small");
      assert.equal(e.headers.authorization, "Bearer env-key");
      assert.equal(e.body.dimensions, undefined, "dimensions is only sent when configured");
    }
  });

  test("explicit config wins over the environment", T, async () => {
    server.script(extraction("I like chess", []));
    await withEnv({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "env-key" }, async () => {
      await makeMemory(server).add("I like chess", { userId: "u" });
    });
    const [c] = server.requests("chat");
    assert.equal(c.headers.authorization, "Bearer test-key");
    assert.equal(c.body.model, "test-llm");
  });
});

describe("request format", () => {
  test("chat and embedding requests follow the OpenAI wire format", T, async () => {
    const mem = makeMemory(server);
    server.script([extraction("I like chess", ["User likes chess"]), decision("User likes chess", addsFor(["User likes chess"]))]);
    await mem.add("I like chess", { userId: "u" });
    const chats = server.requests("chat");
    assert.equal(chats.length, 2);
    for (const c of chats) {
      assert.equal(c.path, "/v1/chat/completions");
      assert.equal(c.headers.authorization, "Bearer test-key");
      assert.match(c.headers["content-type"], /application\/json/);
      assert.equal(c.body.model, "test-llm");
      assert.equal(c.body.temperature, 0);
      assert.equal(c.body.max_tokens, 2000);
      assert.deepEqual(c.body.response_format, { type: "json_object" });
      assert.deepEqual(c.body.messages.map((m) => m.role), ["system", "user"]);
    }
    assert.ok(chats[0].body.messages[0].content.startsWith(EXTRACT));
    assert.ok(chats[1].body.messages[0].content.startsWith(DECIDE));
    const embeds = server.requests("embedding");
    assert.ok(embeds.length >= 1);
    for (const e of embeds) {
      assert.equal(e.path, "/v1/embeddings");
      assert.equal(e.headers.authorization, "Bearer test-key");
      assert.equal(e.body.model, "test-embed");
      assert.equal(e.body.dimensions, 64);
      assert.ok(Array.isArray(e.body.input), "input is an array");
    }
    await mem.search("chess", { userId: "u" });
    const last = server.requests("embedding").at(-1);
    assert.deepEqual(last.body.input, ["chess"]);
  });

  test("llm options: temperature, maxTokens, jsonMode: false; separate keys per provider", T, async () => {
    const mem = makeMemory(server, {
      llm: { temperature: 0.5, maxTokens: 123, jsonMode: false, apiKey: "llm-key" },
      embedder: { apiKey: "embed-key", model: "embed-2", dimensions: 32 },
    });
    server.script([extraction("I like chess", ["User likes chess"]), decision("User likes chess", addsFor(["User likes chess"]))]);
    const res = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(texts(res.results), ["User likes chess"]);
    const [c] = server.requests("chat");
    assert.equal(c.body.temperature, 0.5);
    assert.equal(c.body.max_tokens, 123);
    assert.equal(c.body.response_format, undefined);
    assert.equal(c.headers.authorization, "Bearer llm-key");
    const [e] = server.requests("embedding");
    assert.equal(e.headers.authorization, "Bearer embed-key");
    assert.equal(e.body.model, "embed-2");
    assert.equal(e.body.dimensions, 32);
    const hit = await mem.search("User likes chess", { userId: "u" });
    assert.ok(hit.results[0].score > 0.99);
  });

  test("the OpenAI SDK spelling baseURL is accepted", T, async () => {
    const cfg = testConfig(server);
    for (const part of [cfg.llm.config, cfg.embedder.config]) {
      part.baseURL = part.baseUrl;
      delete part.baseUrl;
    }
    const mem = new Memory(cfg);
    server.script([extraction("I like chess", ["User likes chess"]), decision("User likes chess", addsFor(["User likes chess"]))]);
    const res = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(texts(res.results), ["User likes chess"]);
    assert.equal(chatCalls(server, EXTRACT).length, 1);
    assert.ok(server.count("embedding") >= 1);
    assert.equal((await mem.search("chess", { userId: "u" })).results.length, 1);
  });
});
