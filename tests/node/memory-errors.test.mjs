// Failure handling: graceful add() degradation, retries,
// typed errors for embedding failures and bad input.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  T,
  EXTRACT,
  DECIDE,
  startServer,
  makeMemory,
  extraction,
  decision,
  addsFor,
  seed,
  texts,
  chatCalls,
  decisionPayload,
  assertAddResult,
  warningCodes,
  rejectsWith,
  scriptedServer,
} from "./helpers.mjs";

const server = scriptedServer();

/** Script a successful extraction + decision for "I like chess". */
const chessOk = () => [
  extraction("I like chess", ["User likes chess"]),
  decision("User likes chess", addsFor(["User likes chess"])),
];
const gaps = (reqs) => reqs.slice(1).map((r, i) => r.time - reqs[i].time);

async function assertNothingStored(mem, scope = { userId: "u" }) {
  assert.deepEqual((await mem.getAll(scope)).results, []);
}

describe("add() degrades gracefully", () => {
  test("LLM down (503 on every attempt): empty results + EXTRACTION_FAILED, no throw (exact pipeline; case 36)", T, async () => {
    const mem = makeMemory(server, { pipeline: "exact" });
    server.script({ kind: "chat", match: EXTRACT, status: 503 });
    const res = await mem.add("I like chess", { userId: "u" });
    assertAddResult(res);
    assert.deepEqual(res.results, []);
    assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
    assert.equal(server.count("chat"), 4, "1 attempt + 3 retries");
    assert.equal(server.count("embedding"), 0);
    await assertNothingStored(mem);
  });

  test("LLM unreachable (connection refused): EXTRACTION_FAILED", T, async () => {
    const dead = await startServer();
    const deadUrl = dead.baseUrl;
    await dead.close();
    const mem = makeMemory(server, { llm: { baseUrl: deadUrl } });
    const res = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(res.results, []);
    assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
  });

  const badExtractions = {
    "network drop on every attempt": { drop: true },
    "HTTP 400": { status: 400 },
    "a non-JSON HTTP body": { body: "{not json" },
    "a reply without JSON": { reply: "Sorry, I cannot do that." },
    "facts of the wrong type": { reply: { facts: 5 } },
    "facts that are not strings": { reply: { facts: [{ text: 1 }] } },
  };
  for (const [name, rule] of Object.entries(badExtractions)) {
    test(`extraction failure (${name}) → EXTRACTION_FAILED, nothing stored`, T, async () => {
      const mem = makeMemory(server);
      server.script([{ kind: "chat", match: [EXTRACT, "I like chess"], ...rule }, decision("User likes chess", addsFor(["User likes chess"]))]);
      const res = await mem.add("I like chess", { userId: "u" });
      assertAddResult(res);
      assert.deepEqual(res.results, []);
      assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
      assert.equal(chatCalls(server, DECIDE).length, 0);
      await assertNothingStored(mem);
    });
  }

  for (const [name, rule] of Object.entries({ "HTTP 500": { status: 500 }, "a reply without JSON": { reply: "no idea" } })) {
    test(`decision failure (${name}) → DECISION_FAILED, nothing stored`, T, async () => {
      const mem = makeMemory(server);
      server.script([extraction("I like chess", ["User likes chess"]), { kind: "chat", match: [DECIDE, "User likes chess"], ...rule }]);
      const res = await mem.add("I like chess", { userId: "u" });
      assertAddResult(res);
      assert.deepEqual(res.results, []);
      assert.deepEqual(warningCodes(res), ["DECISION_FAILED"]);
      if (rule.status) assert.equal(chatCalls(server, DECIDE).length, 4, "decision call retried 3 times");
      await assertNothingStored(mem);
    });
  }

  test("embedding fails for 1 of 3 facts: the other 2 are stored, EMBEDDING_FAILED reported (exact pipeline; case 37)", T, async () => {
    const mem = makeMemory(server, { pipeline: "exact" });
    const facts = ["User likes chess", "User owns a boat", "User speaks French"];
    const good = ["User likes chess", "User speaks French"];
    server.script([
      { kind: "embedding", match: "User owns a boat", status: 500 },
      extraction("three facts", facts),
      decision(good, addsFor(good)),
    ]);
    const res = await mem.add("three facts", { userId: "u" });
    assertAddResult(res);
    assert.deepEqual(warningCodes(res), ["EMBEDDING_FAILED"]);
    assert.deepEqual(texts(res.results), good);
    assert.ok(res.results.every((e) => e.event === "ADD"));
    assert.deepEqual(decisionPayload(chatCalls(server, DECIDE)[0]).facts, good, "the failed fact is skipped");
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), good);
  });

  test("every fact failing to embed: no decision call, all skipped (exact pipeline)", T, async () => {
    const mem = makeMemory(server, { pipeline: "exact" });
    server.script([{ kind: "embedding", match: "User", status: 400 }, extraction("two facts", ["User likes a", "User likes b"])]);
    const res = await mem.add("two facts", { userId: "u" });
    assert.deepEqual(res.results, []);
    assert.deepEqual(warningCodes(res), ["EMBEDDING_FAILED", "EMBEDDING_FAILED"]);
    assert.equal(chatCalls(server, DECIDE).length, 0);
    await assertNothingStored(mem);
  });
});

describe("retries", () => {
  test("429 with Retry-After is retried once; the wait is capped by maxDelayMs", T, async () => {
    const mem = makeMemory(server); // maxDelayMs 50
    server.script([{ kind: "chat", match: EXTRACT, status: 429, headers: { "Retry-After": "30" }, times: 1 }, ...chessOk()]);
    const started = Date.now();
    const res = await mem.add("I like chess", { userId: "u" });
    assert.ok(Date.now() - started < 5000, "Retry-After of 30 s must be capped at 50 ms");
    assert.equal(chatCalls(server, EXTRACT).length, 2);
    assert.deepEqual(texts(res.results), ["User likes chess"]);
  });

  test("Retry-After seconds are honoured when below maxDelayMs", T, async () => {
    const mem = makeMemory(server, { retry: { baseDelayMs: 5, maxDelayMs: 5000 } });
    server.script([{ kind: "chat", match: EXTRACT, status: 429, headers: { "Retry-After": "1" }, times: 1 }, ...chessOk()]);
    await mem.add("I like chess", { userId: "u" });
    const [gap] = gaps(chatCalls(server, EXTRACT));
    assert.ok(gap >= 900, `waited ${gap} ms, expected ~1000`);
  });

  test("500 twice then success: 3 attempts, memory stored", T, async () => {
    const mem = makeMemory(server);
    server.script([{ kind: "chat", match: EXTRACT, status: 500, times: 2 }, ...chessOk()]);
    const res = await mem.add("I like chess", { userId: "u" });
    assert.equal(chatCalls(server, EXTRACT).length, 3);
    assert.deepEqual(res.warnings, []);
    assert.deepEqual(texts(res.results), ["User likes chess"]);
  });

  test("400 is not retried", T, async () => {
    const mem = makeMemory(server);
    server.script({ kind: "chat", match: EXTRACT, status: 400 });
    const res = await mem.add("I like chess", { userId: "u" });
    assert.equal(server.count("chat"), 1);
    assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
  });

  test("a dropped connection is retried", T, async () => {
    const mem = makeMemory(server);
    server.script([{ kind: "chat", match: EXTRACT, drop: true, times: 1 }, ...chessOk()]);
    const res = await mem.add("I like chess", { userId: "u" });
    assert.equal(chatCalls(server, EXTRACT).length, 2);
    assert.deepEqual(texts(res.results), ["User likes chess"]);
  });

  test("maxRetries bounds the attempts; back-off grows", T, async () => {
    server.script({ kind: "chat", match: EXTRACT, status: 503 });
    await makeMemory(server, { retry: { maxRetries: 0, baseDelayMs: 5, maxDelayMs: 50 } }).add("x", { userId: "u" });
    assert.equal(server.count("chat"), 1);
    server.reset();
    server.script({ kind: "chat", match: EXTRACT, status: 503 });
    await makeMemory(server, { retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 } }).add("x", { userId: "u" });
    const waits = gaps(server.requests("chat"));
    assert.equal(waits.length, 3);
    assert.ok(waits.reduce((a, b) => a + b, 0) >= 350, `back-off waits ${waits} (base 100 ms, doubling)`);
  });

  test("a search embedding failing with 500 once is retried", T, async () => {
    const mem = makeMemory(server);
    server.script({ kind: "embedding", match: "where do I live", status: 500, times: 1 });
    const res = await mem.search("where do I live", { userId: "u" });
    assert.deepEqual(res.results, []);
    assert.equal(server.count("embedding"), 2);
  });
});

describe("embedding errors are typed", () => {
  const cases = [
    ["HTTP 500 after retries", { status: 500 }, "EMBEDDING_HTTP", 4, (e) => assert.equal(e.status, 500)],
    ["HTTP 400, not retried", { status: 400 }, "EMBEDDING_HTTP", 1, (e) => assert.equal(e.status, 400)],
    ["network drop", { drop: true }, "EMBEDDING_NETWORK", 4],
    ["non-JSON body", { body: "garbage" }, "EMBEDDING_RESPONSE"],
    ["JSON without embeddings", { body: JSON.stringify({ data: "nope" }) }, "EMBEDDING_RESPONSE"],
  ];
  for (const [name, rule, code, attempts, check] of cases) {
    test(`search: ${name} → ${code}`, T, async () => {
      const mem = makeMemory(server);
      server.script({ kind: "embedding", match: "query text", ...rule });
      // method "vector": hybrid (the default) ranks by keywords when the embedder is down (degraded-reads.test.mjs)
      await rejectsWith(() => mem.search("query text", { userId: "u", method: "vector" }), code, check);
      if (attempts) assert.equal(server.count("embedding"), attempts);
    });
  }

  test("search: a vector of the wrong length → DIMENSION_MISMATCH", T, async () => {
    const mem = makeMemory(server);
    server.script({ kind: "embedding", match: "query text", vector: [1, 0, 0] });
    await rejectsWith(() => mem.search("query text", { userId: "u", method: "vector" }), "DIMENSION_MISMATCH");
  });

  test("update: embedding failure rejects and leaves the memory unchanged", T, async () => {
    const mem = makeMemory(server);
    const id = (await seed(mem, server, ["User likes chess"], { userId: "u" })).results[0].id;
    const before = await mem.get(id);
    server.script({ kind: "embedding", match: "User likes go", status: 503 });
    await rejectsWith(() => mem.update(id, "User likes go"), "EMBEDDING_HTTP", (e) => assert.equal(e.status, 503));
    server.script({ kind: "embedding", match: "User likes shogi", drop: true });
    await rejectsWith(() => mem.update(id, "User likes shogi"), "EMBEDDING_NETWORK");
    assert.deepEqual(await mem.get(id), before);
    assert.deepEqual((await mem.history(id)).map((h) => h.event), ["ADD"]);
  });
});

describe("bad input", () => {
  test("typed INVALID_INPUT errors, no LLM call, nothing lost", T, async () => {
    const mem = makeMemory(server);
    const id = (await seed(mem, server, ["User likes chess"], { userId: "u" })).results[0].id;
    const snapshot = await mem.getAll({ userId: "u" });
    const chats = server.count("chat");
    const embeds = server.count("embedding");
    await rejectsWith(() => mem.search(123, { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.search(null, { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.add(42, { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.add(null, { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.add({ role: "user", content: "hi" }, { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.update(id, {}), "INVALID_INPUT"); // nothing to change ("" is a text, as in mem0)
    await rejectsWith(() => mem.update(id, { text: "x", colour: "red" }), "INVALID_INPUT");
    await rejectsWith(() => mem.update(id, { expirationDate: "12/31/2099" }), "INVALID_INPUT");
    await rejectsWith(() => mem.update(id, 42), "INVALID_INPUT");
    await rejectsWith(() => mem.update(id, null), "INVALID_INPUT");
    assert.equal(server.count("chat"), chats);
    assert.equal(server.count("embedding"), embeds);
    assert.deepEqual(await mem.getAll({ userId: "u" }), snapshot);
    assert.deepEqual((await mem.history(id)).map((h) => h.event), ["ADD"]);
  });
});
