// One retry budget per model call: the HTTP layer retries 408, 429, 5xx, network errors and timeouts up to
// `retry.maxRetries` times, and the background writer does not run a batch again after such a failure (nor
// after a refused request: any other 4xx is never retried). A reply that could not be read is retried at
// batch level only, within the same `maxRetries`. Requests are counted at the scripted server.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { EXTRACT, T, addsFor, chatCalls, decision, extraction, makeMemory, scriptedServer, userContent as userContentOf } from "./helpers.mjs";

const server = scriptedServer();
const lisbon = () => [
  extraction("Lisbon", ["Lives in Lisbon"]),
  decision("Lives in Lisbon", addsFor(["Lives in Lisbon"])),
];

/** Flushes one turn with the default `maxRetries` (3) and fast delays; resolves to the events. */
async function flushOnce() {
  const mem = makeMemory(server, { background: { debounceMs: 0 } });
  const events = { error: [], change: [] };
  mem.on("error", (event) => events.error.push(event));
  mem.on("change", (event) => events.change.push(event));
  await mem.flush([{ role: "user", content: "I live in Lisbon" }], { userId: "alice" });
  await mem.idle();
  return { mem, ...events };
}

describe("one retry budget per model call", () => {
  test("a 503 model: one flush makes at most maxRetries + 1 extraction requests", T, async () => {
    server.script({ kind: "chat", match: [EXTRACT], status: 503, message: "overloaded" });
    const { mem, error, change } = await flushOnce();
    assert.equal(chatCalls(server, EXTRACT).length, 4, "4 HTTP tries, not 4 per batch attempt");
    assert.equal(error.length, 1);
    assert.deepEqual([error[0].error.code, error[0].error.status, error[0].attempts, error[0].kept], ["LLM_HTTP", 503, 1, true]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(chatCalls(server, EXTRACT).length, 4, "no timer runs the held batch again");

    // The next flush takes the held turn along, once the model answers again: nothing was lost.
    server.reset();
    server.script([
      extraction("Lisbon", ["Lives in Lisbon", "Likes trams"]),
      decision("Lives in Lisbon", addsFor(["Lives in Lisbon", "Likes trams"])),
    ]);
    await mem.flush([{ role: "user", content: "I like the trams" }], { userId: "alice" });
    await mem.idle();
    assert.equal(chatCalls(server, EXTRACT).length, 1, "one add for the held turn and the new one");
    assert.ok(userContentOf(chatCalls(server, EXTRACT)[0]).includes("I live in Lisbon"));
    assert.equal(change.length, 1);
    assert.deepEqual((await mem.getAll({ userId: "alice" })).results.map((r) => r.memory).sort(), ["Likes trams", "Lives in Lisbon"]);
  });

  test("a 401 is never retried, at either level", T, async () => {
    server.script({ kind: "chat", match: [EXTRACT], status: 401, message: "bad key" });
    const { error } = await flushOnce();
    assert.equal(chatCalls(server, EXTRACT).length, 1);
    assert.deepEqual([error[0].error.code, error[0].error.status, error[0].attempts, error[0].kept], ["LLM_HTTP", 401, 1, false]);
    for (const status of [400, 403, 404, 422]) {
      server.reset();
      server.script({ kind: "chat", match: [EXTRACT], status });
      await flushOnce();
      assert.equal(chatCalls(server, EXTRACT).length, 1, `HTTP ${status}`);
    }
  });

  test("408 and 429 are retried", T, async () => {
    for (const status of [408, 429]) {
      server.reset();
      server.script([{ kind: "chat", match: [EXTRACT], status, times: 1 }, ...lisbon()]);
      const mem = makeMemory(server);
      const res = await mem.add("I live in Lisbon", { userId: "alice" });
      assert.deepEqual(res.warnings, [], `HTTP ${status}`);
      assert.deepEqual(res.results.map((r) => r.memory), ["Lives in Lisbon"]);
      assert.equal(chatCalls(server, EXTRACT).length, 2, `HTTP ${status}: one retry`);
    }
    server.reset();
    server.script([{ kind: "chat", match: [EXTRACT], status: 429, times: 2 }, ...lisbon()]);
    const { error, change } = await flushOnce();
    assert.deepEqual([error.length, change.length], [0, 1]);
    assert.equal(chatCalls(server, EXTRACT).length, 3, "two 429s and the answer, within one batch run");
  });

  test("an unreadable reply runs the batch again, within the same maxRetries", T, async () => {
    server.script({ kind: "chat", match: [EXTRACT], reply: "this is not JSON" });
    const { error } = await flushOnce();
    assert.equal(chatCalls(server, EXTRACT).length, 4, "1 + maxRetries runs of one request each");
    assert.deepEqual([error.length, error[0].error.code, error[0].attempts], [1, "LLM_RESPONSE", 4]);
  });
});
