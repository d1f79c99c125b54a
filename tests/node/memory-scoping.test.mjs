// Scoping: userId / agentId / runId isolation and the scope requirement.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, seed, texts, rejectsWith, scriptedServer } from "./helpers.mjs";

const SCOPE_MESSAGE = "At least one of userId, agentId, or runId must be provided";

const server = scriptedServer();

describe("scope isolation", () => {
  test("alice's memories are invisible to bob (case 19)", T, async () => {
    const mem = makeMemory(server);
    await seed(mem, server, ["User likes skiing"], { userId: "alice" });
    await seed(mem, server, ["User likes surfing"], { userId: "bob" });
    const bobSearch = await mem.search("User likes skiing", { userId: "bob" });
    assert.deepEqual(texts(bobSearch.results), ["User likes surfing"]);
    assert.deepEqual(texts((await mem.getAll({ userId: "bob" })).results), ["User likes surfing"]);
    assert.deepEqual(texts((await mem.search("surfing", { userId: "alice" })).results), ["User likes skiing"]);
    assert.deepEqual((await mem.getAll({ userId: "carol" })).results, []);
    assert.deepEqual((await mem.search("skiing", { userId: "carol" })).results, []);
  });

  test("a memory with userId + agentId matches only queries whose every scope field agrees (case 20)", T, async () => {
    const mem = makeMemory(server);
    await seed(mem, server, ["User likes helper tips"], { userId: "alice", agentId: "helper" });
    await seed(mem, server, ["User likes plain notes"], { userId: "alice" });
    const q = async (scope) => texts((await mem.getAll(scope)).results);
    const s = async (scope) => texts((await mem.search("User likes", scope)).results);
    assert.deepEqual(await q({ userId: "alice", agentId: "helper" }), ["User likes helper tips"]);
    assert.deepEqual(await s({ userId: "alice", agentId: "helper" }), ["User likes helper tips"]);
    assert.deepEqual(await q({ userId: "alice", agentId: "other" }), []);
    assert.deepEqual(await s({ userId: "alice", agentId: "other" }), []);
    assert.deepEqual(await q({ userId: "bob", agentId: "helper" }), []);
    assert.deepEqual(await q({ agentId: "helper" }), ["User likes helper tips"]);
    assert.deepEqual(await q({ userId: "alice" }), ["User likes helper tips", "User likes plain notes"]);
    const item = (await mem.getAll({ agentId: "helper" })).results[0];
    assert.equal(item.userId, "alice");
    assert.equal(item.agentId, "helper");
    assert.equal(item.runId, undefined);
  });

  test("runId scopes are separate (case 22)", T, async () => {
    const mem = makeMemory(server);
    await seed(mem, server, ["User asked about trains"], { runId: "session-1" });
    await seed(mem, server, ["User asked about planes"], { runId: "session-2" });
    assert.deepEqual(texts((await mem.getAll({ runId: "session-1" })).results), ["User asked about trains"]);
    assert.deepEqual(texts((await mem.getAll({ runId: "session-2" })).results), ["User asked about planes"]);
    const hits = await mem.search("User asked about planes", { runId: "session-1" });
    assert.deepEqual(texts(hits.results), ["User asked about trains"]);
    assert.equal(hits.results[0].runId, "session-1");
    await mem.deleteAll({ runId: "session-1" });
    assert.deepEqual((await mem.getAll({ runId: "session-1" })).results, []);
    assert.equal((await mem.getAll({ runId: "session-2" })).results.length, 1);
  });
});

describe("scope required (cases 21, 38)", () => {
  const checkMessage = (err) => assert.equal(err.message, SCOPE_MESSAGE);

  test("add without any scope rejects SCOPE_REQUIRED with a descriptive message and calls no LLM", T, async () => {
    const mem = makeMemory(server);
    await rejectsWith(() => mem.add("I like tea", {}), "SCOPE_REQUIRED", checkMessage);
    await rejectsWith(() => mem.add("I like tea"), "SCOPE_REQUIRED", checkMessage);
    await rejectsWith(() => mem.add("I like tea", { metadata: { a: 1 } }), "SCOPE_REQUIRED", checkMessage);
    await rejectsWith(() => mem.add("I like tea", { userId: "" }), "SCOPE_REQUIRED", checkMessage);
    await rejectsWith(() => mem.add("I like tea", { userId: "", agentId: "", runId: "" }), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.add("I like tea", { infer: false }), "SCOPE_REQUIRED");
    assert.equal(server.count("chat"), 0);
    assert.equal(server.count("embedding"), 0);
  });

  test("search, getAll and deleteAll without scope reject SCOPE_REQUIRED", T, async () => {
    const mem = makeMemory(server);
    await seed(mem, server, ["User likes chess"], { userId: "keep" });
    const embeds = server.count("embedding");
    await rejectsWith(() => mem.search("chess", {}), "SCOPE_REQUIRED", checkMessage);
    await rejectsWith(() => mem.search("chess"), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.search("chess", { runId: "" }), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.getAll({}), "SCOPE_REQUIRED", checkMessage);
    await rejectsWith(() => mem.getAll(), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.deleteAll({}), "SCOPE_REQUIRED", checkMessage);
    await rejectsWith(() => mem.deleteAll({ agentId: "" }), "SCOPE_REQUIRED");
    assert.equal(server.count("embedding"), embeds, "no embedding for a rejected search");
    assert.deepEqual(texts((await mem.getAll({ userId: "keep" })).results), ["User likes chess"]);
  });
});
