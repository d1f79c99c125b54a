// `strict: true`: a call that would resolve with `warnings` rejects instead, with the first warning's code,
// every warning in `err.warnings` and the result it would have resolved with in `err.result` (what the
// call wrote is kept). Without it, the same calls resolve with their warnings as before.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MemoryError } from "memwasm";
import { T, makeMemory, startServer, extraction, decision, addsFor, warningCodes, rejectsWith, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const embeddingDown = { kind: "embedding", status: 503, message: "overloaded" };

/** A base URL where nothing listens. */
async function deadUrl() {
  const dead = await startServer();
  const url = dead.baseUrl;
  await dead.close();
  return url;
}

describe("strict: true", () => {
  test("a dead model host makes add() reject with EXTRACTION_FAILED, and nothing is stored", T, async () => {
    const mem = makeMemory(server, { strict: true, llm: { baseUrl: await deadUrl() }, retry: { maxRetries: 0 } });
    const err = await rejectsWith(() => mem.add("I like chess", { userId: "u" }), "EXTRACTION_FAILED");
    assert.ok(err instanceof MemoryError);
    assert.deepEqual(warningCodes(err), ["EXTRACTION_FAILED"]);
    assert.equal(err.warnings[0].cause, "LLM_NETWORK");
    assert.match(err.message, /strict: true/);
    assert.deepEqual(err.result.results, [], "the result it would have resolved with");
    assert.deepEqual((await mem.getAll({ userId: "u" })).results, []);
  });

  test("an erroring model service: the code and status of the first warning", T, async () => {
    const mem = makeMemory(server, { strict: true, retry: { maxRetries: 0 } });
    server.script({ kind: "chat", status: 503, message: "overloaded" });
    const err = await rejectsWith(() => mem.add("I like chess", { userId: "u" }), "EXTRACTION_FAILED");
    assert.equal(err.status, 503);
    assert.equal(err.warnings[0].cause, "LLM_HTTP");
  });

  test("a write that happened is kept and reported: add(…, {infer: false}) with the embedder down", T, async () => {
    const mem = makeMemory(server, { strict: true, retry: { maxRetries: 0 } });
    server.script(embeddingDown);
    const err = await rejectsWith(() => mem.add("User plays the oboe", { userId: "u", infer: false }), "NOT_EMBEDDED");
    assert.deepEqual(err.result.results.map((e) => [e.event, e.memory]), [["ADD", "User plays the oboe"]]);
    assert.match(err.message, /anything the call wrote is kept/);
    const kept = await mem.search("oboe", { userId: "u", method: "keyword" });
    assert.deepEqual(kept.results.map((m) => m.id), [err.result.results[0].id]);
  });

  test("reads reject too: a hybrid search or a recall with the embedder down", T, async () => {
    const mem = makeMemory(server, { strict: true });
    await mem.add("User likes green tea", { userId: "u", infer: false });
    server.reset();
    server.script(embeddingDown);
    await rejectsWith(() => mem.search("green tea", { userId: "u", method: "hybrid" }), "EMBEDDING_UNAVAILABLE");
    await rejectsWith(() => mem.recall("green tea", { userId: "u" }), "EMBEDDING_UNAVAILABLE");
    assert.equal((await mem.search("green tea", { userId: "u", method: "keyword" })).results.length, 1);
  });

  test("calls without warnings resolve as usual", T, async () => {
    const mem = makeMemory(server, { strict: true });
    server.script([extraction("I like chess", ["User likes chess"]), decision("User likes chess", addsFor(["User likes chess"]))]);
    const added = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(added.results.map((e) => e.memory), ["User likes chess"]);
    assert.deepEqual(warningCodes(added), []);
    const found = await mem.search("chess", { userId: "u", method: "hybrid" });
    assert.equal(found.results[0].memory, "User likes chess");
    assert.equal((await mem.recall("chess", { userId: "u" })).memories.length, 1);
    const stored = await mem.store("editor", "User prefers vim", { userId: "u" });
    assert.deepEqual(warningCodes(stored), []);
  });

  test("strict must be a boolean", T, () => {
    assert.throws(() => makeMemory(server, { strict: "yes" }), (err) => err.code === "INVALID_CONFIG" && /strict/.test(err.message));
  });
});

describe("without strict", () => {
  test("a dead model host still resolves add() with an EXTRACTION_FAILED warning", T, async () => {
    const mem = makeMemory(server, { llm: { baseUrl: await deadUrl() }, retry: { maxRetries: 0 } });
    const res = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(res.results, []);
    assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
  });
});
