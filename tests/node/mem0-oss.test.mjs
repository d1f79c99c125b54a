// mem0 OSS code, unchanged but for the import: its config keys with their mem0 meaning, v3 scoping through
// `filters`, `update(id, {text, metadata, expirationDate})`, `expirationDate` / `showExpired`, mem0's input
// checks, `Memory.fromConfig`, and `LLMError`.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { LLMError, MemoryError } from "memwasm";
import {
  T,
  EXTRACT,
  Memory,
  makeMemory,
  testConfig,
  extraction,
  chatCalls,
  rejectsWith,
  throwsInvalidConfig,
  scriptedServer,
  seed,
} from "./helpers.mjs";

const server = scriptedServer();
const verbatim = (mem, text, extra = {}) =>
  mem.add(text, { infer: false, filters: { user_id: "u" }, ...extra }).then((r) => r.results[0].id);
const memories = (result) => result.results.map((m) => m.memory);
const says = (pattern) => (error) => assert.match(error.message, pattern);

describe("mem0 OSS config keys", () => {
  test("a mem0 config is accepted as it is; Memory.fromConfig is new Memory", T, async () => {
    const mem0 = {
      version: "v1.1",
      vectorStore: { provider: "memory", config: { collectionName: "notes", dimension: 64, dbPath: ":memory:" } },
      historyDbPath: ":memory:",
      historyStore: { provider: "sqlite", config: { historyDbPath: ":memory:" } },
    };
    for (const mem of [makeMemory(server, mem0), Memory.fromConfig(testConfig(server, mem0))]) {
      assert.ok(mem instanceof Memory);
      await verbatim(mem, "User likes tea");
      assert.deepEqual(memories(await mem.getAll({ filters: { user_id: "u" } })), ["User likes tea"]);
    }
  });

  test("vectorStore.config.dimension must match the embedder's", () => {
    const config = (dimension) =>
      testConfig(server, {
        embedder: { dimensions: 64 },
        vectorStore: { provider: "memory", config: { dimension } },
      });
    assert.ok(new Memory(config(64)));
    throwsInvalidConfig(config(1536));
    throwsInvalidConfig(config(0));
    assert.throws(() => new Memory(config(1536)), /vectorStore\.config\.dimension: 1536.*64/);
  });

  test("customPrompt replaces and customInstructions extend the extraction prompt", T, async () => {
    server.script(extraction("tea fact", ["User likes tea"], { match: ["Only list drinks.", "tea fact"] }));
    const custom = makeMemory(server, { customPrompt: "Only list drinks." });
    await custom.add("tea fact", { userId: "u" });
    assert.ok(server.requests("chat").some((r) => r.body.messages[0].content === "Only list drinks."));
    const extended = makeMemory(server, { customInstructions: "Skip small talk." });
    await extended.add("tea again", { userId: "u" }).catch(() => {});
    const last = chatCalls(server, EXTRACT).at(-1).body.messages[0].content;
    assert.ok(last.endsWith("Custom instructions:\nSkip small talk."), last.slice(-80));
    throwsInvalidConfig(testConfig(server, { customPrompt: "x", customPrompts: { factExtraction: "y" } }));
  });

  test("disableHistory keeps no records; enableGraph is graph.enabled", T, async () => {
    const quiet = makeMemory(server, { disableHistory: true });
    const id = await verbatim(quiet, "Quiet");
    await quiet.update(id, "Quieter");
    assert.deepEqual(await quiet.history(id), []);
    assert.equal((await quiet.get(id)).memory, "Quieter");
    throwsInvalidConfig(testConfig(server, { enableGraph: true, graph: { enabled: false } }));
    assert.ok(makeMemory(server, { enableGraph: true, graphStore: { provider: "neo4j", config: { url: "bolt://x" } } }));
  });
});

describe("mem0 v3 calls", () => {
  test("entity ids in filters scope add, search, getAll and deleteAll", T, async () => {
    const mem = makeMemory(server);
    await verbatim(mem, "User likes tea", { metadata: { category: "drinks", user_id: "intruder" } });
    const [item] = (await mem.getAll({ filters: { user_id: "u" } })).results;
    assert.equal(item.userId, "u");
    assert.equal(item.metadata.user_id, undefined, "scope keys never land in metadata");
    assert.equal((await mem.search("tea", { filters: { user_id: "u", category: "drinks" } })).results.length, 1);
    assert.equal((await mem.search("tea", { filters: { user_id: "u", category: "food" } })).results.length, 0);
    await rejectsWith(() => mem.getAll({ filters: { category: "drinks" } }), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.search("tea", { userId: "v", filters: { user_id: "u" } }), "INVALID_INPUT");
    await rejectsWith(() => mem.getAll({ filters: { user_id: "a b" } }), "INVALID_INPUT", says(/whitespace/));
    await mem.deleteAll({ filters: { user_id: "u" } });
    assert.deepEqual(memories(await mem.getAll({ userId: "u" })), []);
  });

  test("update takes a text or {text, data, metadata, expirationDate}", T, async () => {
    const mem = makeMemory(server);
    const id = await verbatim(mem, "Before", { metadata: { a: 1 } });
    assert.deepEqual(await mem.update(id, { metadata: { b: 2 } }), { message: "Memory updated successfully!" });
    let item = await mem.get(id);
    assert.deepEqual([item.memory, item.metadata.a, item.metadata.b], ["Before", 1, 2]);
    await mem.update(id, { text: "", data: "ignored" });
    assert.equal((await mem.get(id)).memory, "");
    const warned = [];
    const warn = console.warn;
    console.warn = (text) => warned.push(String(text));
    try {
      await mem.update(id, { data: "From data" });
    } finally {
      console.warn = warn;
    }
    assert.equal((await mem.get(id)).memory, "From data");
    assert.ok(warned.some((w) => w.includes("deprecated")), warned.join());
    for (const nothing of [{}, { data: null }, { metadata: null }]) {
      await rejectsWith(() => mem.update(id, nothing), "INVALID_INPUT", says(/At least one of text, metadata, or expirationDate/));
    }
    await rejectsWith(() => mem.update("no-such-id", "x"), "NOT_FOUND");
  });

  test("expirationDate hides a memory after its day unless showExpired; null brings it back", T, async () => {
    const mem = makeMemory(server);
    await verbatim(mem, "Live");
    const today = new Date().toISOString().slice(0, 10);
    await verbatim(mem, "Today", { expirationDate: today });
    const dead = await verbatim(mem, "Dead", { expirationDate: "2020-01-01" });
    assert.deepEqual(memories(await mem.getAll({ filters: { user_id: "u" } })), ["Live", "Today"]);
    assert.deepEqual(memories(await mem.getAll({ filters: { user_id: "u" }, showExpired: true })), ["Live", "Today", "Dead"]);
    assert.equal((await mem.search("Dead", { filters: { user_id: "u" } })).results.some((m) => m.memory === "Dead"), false);
    assert.ok((await mem.search("Dead", { filters: { user_id: "u" }, showExpired: true })).results.some((m) => m.memory === "Dead"));
    assert.equal((await mem.get(dead)).metadata.expiration_date, "2020-01-01");
    await mem.update(dead, { expirationDate: null });
    assert.equal((await mem.getAll({ filters: { user_id: "u" } })).results.length, 3);
    for (const bad of ["12/31/2099", "2099-12-31T23:00:00", "2099-02-30", "2100-02-29"]) {
      await rejectsWith(() => verbatim(mem, "Bad", { expirationDate: bad }), "INVALID_INPUT", says(/YYYY-MM-DD/));
    }
    await rejectsWith(() => mem.update(dead, { expirationDate: "12/31/2099" }), "INVALID_INPUT", says(/YYYY-MM-DD/));
  });

  test("mem0's input checks: empty messages, out-of-range threshold, nothing stored", T, async () => {
    const mem = makeMemory(server);
    const chats = server.count("chat");
    await rejectsWith(() => mem.add("  ", { userId: "u" }), "INVALID_INPUT", says(/messages string cannot be empty/));
    await rejectsWith(() => mem.add([], { userId: "u" }), "INVALID_INPUT", says(/messages array cannot be empty/));
    await rejectsWith(() => mem.add([{ role: "user", content: " " }], { userId: "u" }), "INVALID_INPUT", says(/only blank/));
    for (const threshold of [-0.1, 1.5]) {
      await rejectsWith(() => mem.search("x", { userId: "u", threshold }), "INVALID_INPUT", says(/between 0 and 1/));
    }
    assert.equal(server.count("chat"), chats);
    assert.deepEqual(memories(await mem.getAll({ userId: "u" })), []);
  });

  test("an unreachable LLM is an LLMError where a call rejects; add() keeps its warning", T, async () => {
    const mem = makeMemory(server, { retry: { maxRetries: 0 } });
    await seed(mem, server, ["User likes tea"], { userId: "u" });
    server.script({ kind: "chat", match: ["down-now"], status: 429, message: "rate limited" });
    const added = await mem.add("down-now", { userId: "u" });
    assert.deepEqual([added.results.length, added.warnings[0].code, added.warnings[0].status], [0, "EXTRACTION_FAILED", 429]);
    server.script({ kind: "chat", match: ["keep the running summary"], status: 429, message: "rate limited" });
    const window = mem.context({ userId: "u", maxTokens: 60, keepLast: 1 });
    const long = Array.from({ length: 12 }, (_, i) => ({ role: "user", content: `down-now turn ${i} `.repeat(4) }));
    const error = await window.push(long).then(() => null, (e) => e);
    assert.ok(error instanceof LLMError && error instanceof MemoryError, String(error));
    assert.deepEqual([error.name, error.code, error.status], ["LLMError", "LLM_HTTP", 429]);
    await rejectsWith(() => mem.get(""), "INVALID_INPUT", (e) => assert.ok(!(e instanceof LLMError)));
  });
});
