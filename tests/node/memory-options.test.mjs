// Options are read once and strictly: an unknown key, or one the call does not use, rejects with
// INVALID_INPUT naming it (nothing is silently ignored, nothing lost); `topK` is `limit` by another name;
// deleteAll honours filters; errors are MemoryError instances; add() warnings keep the code and HTTP
// status of the failure behind them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryError } from "memwasm";
import { T, EXTRACT, Memory, makeMemory, rejectsWith, scriptedServer, seed } from "./helpers.mjs";

const server = scriptedServer();
const FACTS = ["User likes tea", "User likes coffee", "User likes chess", "User likes go"];

/** A memory holding FACTS for user "u", tagged kind: drink (the first two) or game. */
async function stocked() {
  const mem = makeMemory(server);
  await seed(mem, server, FACTS.slice(0, 2), { userId: "u" }, { metadata: { kind: "drink" } });
  await seed(mem, server, FACTS.slice(2), { userId: "u" }, { metadata: { kind: "game" } });
  return mem;
}

const stored = async (mem) => (await mem.getAll({ userId: "u" })).results.map((m) => m.memory).sort();

test("an unknown or unused option key rejects with INVALID_INPUT naming it, and nothing changes", T, async () => {
  const mem = await stocked();
  const cases = [
    [() => mem.search("tea", { userId: "u", topk: 2 }), "topk"],
    [() => mem.getAll({ userId: "u", threshold: 0.5 }), "threshold"],
    [() => mem.getAll({ userId: "u", method: "keyword" }), "method"],
    [() => mem.deleteAll({ userId: "u", limit: 1 }), "limit"],
    [() => mem.deleteAll({ userId: "u", filter: { kind: "game" } }), "filter"],
    [() => mem.recall("tea", { userId: "u", threshold: 0.2 }), "threshold"],
    [() => mem.add("hi", { userId: "u", metdata: {} }), "metdata"],
    [() => mem.getEntities({ userId: "u", limit: 3 }), "limit"],
    [() => mem.exportMemories({ userId: "u", filters: {} }), "filters"],
  ];
  for (const [call, key] of cases) {
    const error = await rejectsWith(call, "INVALID_INPUT");
    assert.match(error.message, new RegExp(key), `${key}: ${error.message}`);
  }
  assert.deepEqual(await stored(mem), [...FACTS].sort(), "nothing was deleted or added");
});

test("deleteAll with filters deletes only the scope's memories that match", T, async () => {
  const mem = await stocked();
  await mem.deleteAll({ userId: "u", filters: { kind: "game" } });
  assert.deepEqual(await stored(mem), ["User likes coffee", "User likes tea"]);
  await rejectsWith(() => mem.deleteAll({ userId: "u", filters: { AND: 5 } }), "INVALID_FILTER");
  assert.deepEqual(await stored(mem), ["User likes coffee", "User likes tea"]);
  await mem.deleteAll({ userId: "u" });
  assert.deepEqual(await stored(mem), []);
});

test("topK is limit by another name in search, getAll and recall; both at once must agree", T, async () => {
  const mem = await stocked();
  assert.equal((await mem.search("likes", { userId: "u", topK: 2 })).results.length, 2);
  assert.equal((await mem.search("likes", { user_id: "u", limit: 3 })).results.length, 3);
  assert.equal((await mem.getAll({ userId: "u", topK: 1 })).results.length, 1);
  assert.equal((await mem.recall("likes", { userId: "u", limit: 1 })).memories.length, 1);
  assert.equal((await mem.search("likes", { userId: "u", limit: 2, topK: 2 })).results.length, 2);
  const both = await rejectsWith(() => mem.search("likes", { userId: "u", limit: 2, topK: 3 }), "INVALID_INPUT");
  assert.match(both.message, /topK/);
});

test("every rejection is a MemoryError exported by the package, with its code", T, async () => {
  const mem = makeMemory(server);
  const error = await mem.search("x", {}).catch((e) => e);
  assert.ok(error instanceof MemoryError, "instanceof MemoryError");
  assert.ok(error instanceof Error, "instanceof Error");
  assert.equal(error.name, "MemoryError");
  assert.equal(error.code, "SCOPE_REQUIRED");
  assert.ok(error.stack.includes("MemoryError"));
  let thrown;
  try {
    new Memory({ llm: { provider: "nope" } });
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof MemoryError);
  assert.equal(thrown.code, "INVALID_CONFIG");
});

test("add() warnings keep the code and HTTP status of the failure behind them", T, async () => {
  const mem = makeMemory(server, { retry: { maxRetries: 0 } });
  for (const status of [401, 503]) {
    server.reset();
    server.script({ kind: "chat", match: EXTRACT, status, message: `scripted ${status}` });
    const res = await mem.add(`I like tea ${status}`, { userId: "u" });
    assert.deepEqual(res.results, []);
    assert.deepEqual(
      res.warnings.map((w) => [w.code, w.cause, w.status]),
      [["EXTRACTION_FAILED", "LLM_HTTP", status]],
    );
    assert.match(res.warnings[0].message, new RegExp(`scripted ${status}`));
  }
  server.reset();
  server.script({ kind: "chat", match: EXTRACT, body: "not json at all" });
  const bad = await mem.add("I like tea", { userId: "u" });
  assert.deepEqual(bad.warnings.map((w) => [w.code, w.cause, w.status]), [["EXTRACTION_FAILED", "LLM_RESPONSE", undefined]]);
  assert.deepEqual(await stored(mem), []);
});
