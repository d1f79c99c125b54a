// Reads while the embedder is down or memories lack a vector (docs/degraded-reads.md): hybrid, rrf, agentic
// and recall rank by keywords with an EMBEDDING_UNAVAILABLE warning when the embedding service fails with
// 5xx; vector search and configuration errors still reject; add(…, {infer: false}) stores keyword-only and
// embeds later; a text whose embedding keeps failing is tried a bounded number of times, reported by reads
// (VECTORS_PENDING) and counted by stats().
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { T, makeMemory, extraction, decision, warningCodes, rejectsWith, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const embedded = (text) => server.requests("embedding").filter((r) => [].concat(r.body.input).includes(text));
const down = (extra = {}) => ({ kind: "embedding", status: 503, message: "overloaded", ...extra });

async function remember(mem, texts, scope = { userId: "u" }) {
  const res = await mem.add(texts.map((content) => ({ role: "user", content })), { ...scope, infer: false });
  assert.deepEqual(warningCodes(res), []);
}

describe("reads with the embedder unavailable", () => {
  test("hybrid, rrf and recall rank by keywords with a warning; vector search rejects", T, async () => {
    const mem = makeMemory(server);
    await remember(mem, ["User likes green tea", "User lives in Lyon"]);
    server.script(down());
    for (const method of ["hybrid", "rrf"]) {
      const found = await mem.search("green tea", { userId: "u", method });
      assert.equal(found.method, "keyword", method);
      assert.equal(found.results[0].memory, "User likes green tea", method);
      assert.equal(found.warnings?.length, 1, JSON.stringify(found.warnings));
      const [warning] = found.warnings;
      assert.equal(warning.code, "EMBEDDING_UNAVAILABLE");
      assert.equal(warning.cause, "EMBEDDING_HTTP");
      assert.equal(warning.status, 503);
    }
    const recalled = await mem.recall("green tea", { userId: "u" });
    assert.match(recalled.text, /\[SEMANTIC\] User likes green tea/);
    assert.equal(recalled.method, "keyword");
    assert.deepEqual(warningCodes(recalled), ["EMBEDDING_UNAVAILABLE"]);
    await rejectsWith(() => mem.search("green tea", { userId: "u", method: "vector" }), "EMBEDDING_HTTP");
    // The default method is hybrid: it degrades to keywords with the same warning instead of rejecting.
    const plain = await mem.search("green tea", { userId: "u" });
    assert.deepEqual([plain.method, plain.results[0].memory, warningCodes(plain)], ["keyword", "User likes green tea", ["EMBEDDING_UNAVAILABLE"]]);
    const keyword = await mem.search("green tea", { userId: "u", method: "keyword" });
    assert.equal(keyword.warnings, undefined, "keyword search needs no embedder: nothing to report");
  });

  test("a network failure falls back too; a configuration error (401) does not", T, async () => {
    const mem = makeMemory(server);
    await remember(mem, ["User likes green tea"]);
    server.script(down({ status: undefined, drop: true }));
    const found = await mem.search("green tea", { userId: "u", method: "hybrid" });
    assert.deepEqual([found.method, warningCodes(found)], ["keyword", ["EMBEDDING_UNAVAILABLE"]]);
    assert.equal(found.warnings[0].cause, "EMBEDDING_NETWORK");
    server.reset();
    server.script(down({ status: 401, message: "bad key" }));
    await rejectsWith(() => mem.search("green tea", { userId: "u", method: "hybrid" }), "EMBEDDING_HTTP");
    await rejectsWith(() => mem.recall("green tea", { userId: "u" }), "EMBEDDING_HTTP");
  });

  test("add(…, {infer: false}) stores the text keyword-only with NOT_EMBEDDED and embeds it later", T, async () => {
    const mem = makeMemory(server);
    server.script(down());
    const res = await mem.add("User plays the oboe", { userId: "u", infer: false });
    assert.deepEqual(res.results.map((e) => [e.event, e.memory]), [["ADD", "User plays the oboe"]]);
    assert.deepEqual(warningCodes(res), ["NOT_EMBEDDED"]);
    assert.equal(res.warnings[0].status, 503);
    const found = await mem.search("oboe", { userId: "u", method: "keyword" });
    assert.equal(found.results[0].memory, "User plays the oboe");
    assert.equal((await mem.stats({ userId: "u" })).keywordOnly, 1);

    server.reset(); // the embedder is back: the next read embeds the text first
    const ranked = await mem.search("oboe", { userId: "u", method: "vector" });
    assert.equal(ranked.results[0]?.memory, "User plays the oboe");
    assert.equal(ranked.warnings, undefined);
    assert.equal(embedded("User plays the oboe").length, 1);
    assert.equal((await mem.stats({ userId: "u" })).keywordOnly, 0);
  });
});

describe("a rewrite whose embedding keeps failing", () => {
  test("is tried at most 3 times by reads, reported by each read and counted by stats()", T, async () => {
    const mem = makeMemory(server, { retry: { maxRetries: 0 } });
    await remember(mem, ["User lives in NYC"]);
    server.reset();
    const rewrite = "User lives in Boston, not NYC";
    server.script([
      down({ match: rewrite }),
      extraction("Boston", ["User moved to Boston"]),
      decision("User moved to Boston", [{ id: "0", text: rewrite, event: "UPDATE" }]),
    ]);
    const res = await mem.add("I moved to Boston.", { userId: "u" });
    assert.deepEqual(res.results.map((e) => [e.event, e.memory]), [["UPDATE", rewrite]]);
    for (let i = 0; i < 6; i++) {
      const found = await mem.search("Boston", { userId: "u", method: "hybrid" });
      assert.equal(found.results[0]?.memory, rewrite, "keywords still find it");
      assert.deepEqual(warningCodes(found), ["VECTORS_PENDING"], `search ${i}`);
      assert.match(found.warnings[0].message, /1 memory without a vector/);
    }
    const recalled = await mem.recall("Boston", { userId: "u" });
    assert.deepEqual(warningCodes(recalled), ["VECTORS_PENDING"]);
    const tries = embedded(rewrite).length;
    assert.ok(tries >= 1 && tries <= 3, `sent ${tries} times`);
    const stats = await mem.stats({ userId: "u" });
    assert.equal(stats.keywordOnly, 1);
    assert.equal(stats.totalEntries, 1);
    assert.equal(embedded(rewrite).length, tries, "stats() sends nothing");
  });
});
