// The config's `observe` callback hears every model call start and end (chat and embeddings, provider and
// model, durations, failures with their code); one that throws changes nothing, and a non-function is
// INVALID_CONFIG.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory, T, scriptedServer, testConfig, extraction, decision, addsFor } from "./helpers.mjs";

const server = scriptedServer();
const u = { userId: "u" };

test("observe hears each chat and embedding call start and end, paired by id", T, async () => {
  const events = [];
  const memory = new Memory(testConfig(server, { observe: (event) => events.push(event) }));
  server.script([extraction("I like tea", ["Likes tea"]), decision("Likes tea", addsFor(["Likes tea"]))]);
  await memory.add("I like tea", u);
  const kinds = new Set(events.map((e) => e.kind));
  assert.deepEqual([...kinds].sort(), ["chat", "embeddings"]);
  for (const start of events.filter((e) => e.phase === "start")) {
    const end = events.find((e) => e.phase === "end" && e.id === start.id);
    assert.ok(end, `call ${start.id} ended`);
    assert.deepEqual([end.kind, end.provider, end.model], [start.kind, "openai", start.kind === "chat" ? "test-llm" : "test-embed"]);
    assert.ok(end.durationMs >= 0 && end.error === undefined);
    if (start.kind === "embeddings") assert.ok(start.inputs >= 1);
  }
  assert.equal(events.filter((e) => e.kind === "chat" && e.phase === "end").length, server.count("chat"));
});

test("a failed call's end carries its code; an observer that throws changes nothing", T, async () => {
  const events = [];
  const memory = new Memory(testConfig(server, {
    retry: { maxRetries: 0 },
    observe: (event) => {
      events.push(event);
      throw new Error("observer bug");
    },
  }));
  server.script({ kind: "embedding", status: 500, message: "down" });
  const warn = console.warn;
  console.warn = () => {};
  try {
    await assert.rejects(memory.search("tea", { ...u, method: "vector" }), { code: "EMBEDDING_HTTP" });
  } finally {
    console.warn = warn;
  }
  const end = events.find((e) => e.phase === "end");
  assert.equal(end.error.code, "EMBEDDING_HTTP");
  assert.match(end.error.message, /down|500/);
});

test("observe must be a function", T, () => {
  assert.throws(() => new Memory(testConfig(server, { observe: "yes" })), (error) =>
    error.code === "INVALID_CONFIG" && /observe/.test(error.message));
});
