// A dead embedder during `add()` is never hidden (docs/mem0.md#when-the-embedder-is-down): `memwasm/mem0`
// rejects the add as mem0 does, with the embedding error's code; `memwasm`'s additive add() resolves with a
// `NOT_EMBEDDED` warning. Either way nothing is lost: the memory is stored, keyword search finds it, and it
// is embedded once the embedder answers. A host found down (the circuit breaker) fails the next add at once
// with EMBEDDING_UNAVAILABLE. Through the real fetch, against the scripted server (503) and a closed port.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { Memory as Mem0Memory } from "memwasm/mem0";
import { MemoryError } from "memwasm";
import { T, makeMemory, scriptedServer, testConfig, texts, warningCodes } from "./helpers.mjs";

const server = scriptedServer();
const ADDITIVE = "You are a memory extractor";
const alice = { userId: "alice" };
const DOWN = { kind: "embedding", status: 503, message: "embedder down" };
/** The next additive call's reply: one fact. */
const extracts = (fact) => ({ kind: "chat", match: ADDITIVE, reply: { memory: [{ id: "0", text: fact, attributed_to: "user" }] }, times: 1 });
/** `memwasm/mem0` in RAM (no file), no retries. */
const mem0InRam = (more = {}) =>
  new Mem0Memory(testConfig(server, { retry: { maxRetries: 0 }, vectorStore: { provider: "memory", config: { dbPath: ":memory:" } }, ...more }));

/** Once the embedder answers again, a vector search finds `fact`: it was kept and is embedded now. */
async function embeddedLater(memory, fact) {
  server.reset();
  const found = await memory.search(fact, { ...alice, method: "vector" });
  assert.equal(found.results[0]?.memory, fact);
  assert.equal(found.warnings, undefined, "it has its vector");
}

describe("an embedder that fails during add()", () => {
  test("memwasm/mem0 rejects with the embedding error; the memory is kept, found by keywords, embedded later", T, async () => {
    const memory = mem0InRam();
    server.script([extracts("User plays the piano"), DOWN]);
    const error = await memory.add("I play the piano", alice).then(() => null, (e) => e);
    assert.ok(error instanceof MemoryError, `add() resolved or threw ${error}`);
    assert.deepEqual([error.code, error.status], ["EMBEDDING_HTTP", 503]);
    assert.match(error.message, /embedder down.*stored.*embedded when the embedder answers again/);
    assert.deepEqual(error.result.results.map((e) => [e.event, e.memory]), [["ADD", "User plays the piano"]]);
    assert.deepEqual(texts((await memory.getAll({ filters: { user_id: "alice" } })).results), ["User plays the piano"]);
    await embeddedLater(memory, "User plays the piano");
  });

  test("memwasm/mem0 with infer: false rejects too (mem0 embeds before it stores)", T, async () => {
    const memory = mem0InRam();
    server.script(DOWN);
    await assert.rejects(memory.add("I play the piano", { ...alice, infer: false }), (e) => e.code === "EMBEDDING_HTTP" && e.status === 503);
    await embeddedLater(memory, "I play the piano");
  });

  test("memwasm's additive add() resolves with NOT_EMBEDDED and keeps the fact, near-duplicate check on or off", T, async () => {
    for (const nearDuplicate of [false, undefined]) {
      server.reset();
      const memory = makeMemory(server, { pipeline: "additive", retry: { maxRetries: 0 }, ...(nearDuplicate === false ? { nearDuplicate } : {}) });
      server.script([extracts("User plays the piano"), DOWN]);
      const added = await memory.add("I play the piano", alice);
      assert.deepEqual(warningCodes(added), ["NOT_EMBEDDED"], `nearDuplicate ${nearDuplicate}`);
      assert.deepEqual([added.warnings[0].cause, added.warnings[0].status], ["EMBEDDING_HTTP", 503]);
      assert.deepEqual(added.results.map((e) => [e.event, e.memory]), [["ADD", "User plays the piano"]]);
      const byKeyword = await memory.search("piano", { ...alice, method: "keyword" });
      assert.equal(byKeyword.results[0]?.memory, "User plays the piano", "kept meanwhile");
      await embeddedLater(memory, "User plays the piano");
    }
  });

  test("a host found down: the first add rejects with EMBEDDING_NETWORK, the next at once with EMBEDDING_UNAVAILABLE", T, async () => {
    const closed = net.createServer();
    await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${closed.address().port}/v1`;
    await new Promise((resolve) => closed.close(resolve));
    const memory = mem0InRam({ embedder: { baseUrl: url } });
    server.script(extracts("User plays the piano"));
    await assert.rejects(memory.add("I play the piano", alice), (e) => e.code === "EMBEDDING_NETWORK");
    server.script(extracts("User sings"));
    await assert.rejects(memory.add("I sing", alice), (e) => e.code === "EMBEDDING_UNAVAILABLE" && e.message.includes(url.slice(0, -3)));
    assert.deepEqual(texts((await memory.getAll({ filters: { user_id: "alice" } })).results), ["User plays the piano", "User sings"]);
  });
});
