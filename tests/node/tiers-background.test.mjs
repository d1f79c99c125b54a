// The background writer: `flush(messages, scope)` resolves as soon as the turns are journaled and
// queued; turns of one scope within `background.debounceMs` become ONE add(); scopes run concurrently up to
// `background.concurrency`; `idle()` resolves when nothing waits or runs; model failures never reject flush —
// they are retried per `retry` (one budget per model call, see tiers-retry-budget), then reported as an
// "error" event ("change" carries each add's events).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DECIDE, EXTRACT, T, addsFor, chatCalls, clockedMemory, decision, extraction, makeMemory, rejectsWith, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("background writer", () => {
  test("ten flushes within the debounce window make exactly one extraction call", T, async () => {
    const facts = Array.from({ length: 10 }, (_, i) => `Likes fruit number ${i}`);
    server.script([extraction("fruit number 9", facts), decision(facts[0], addsFor(facts))]);
    const { mem, clock } = clockedMemory(server);
    const changes = [];
    mem.on("change", (event) => changes.push(event));
    for (let i = 0; i < 10; i++) {
      await mem.flush([{ role: "user", content: `I like fruit number ${i}` }], { userId: "alice" });
      clock.t += 100;
    }
    await tick();
    assert.equal(server.count("chat"), 0, "nothing runs while the debounce window is open");
    clock.t += 2000;
    await mem.idle();
    const calls = chatCalls(server, EXTRACT);
    assert.equal(calls.length, 1, "one extraction for the ten turns");
    for (let i = 0; i < 10; i++) assert.ok(calls[0].user.includes(`fruit number ${i}`), `turn ${i} is in the one call`);
    assert.equal(chatCalls(server, DECIDE).length, 1);
    assert.equal(changes.length, 1);
    assert.deepEqual(changes[0].scope, { userId: "alice" });
    assert.equal(changes[0].results.length, 10);
    assert.equal((await mem.getAll({ userId: "alice" })).results.length, 10);
  });

  test("flush resolves before the add; two scopes run at once, a third waits for a slot", T, async () => {
    for (const user of ["a", "b", "c"]) {
      server.script([extraction(`from ${user}`, [`Fact of ${user}`], { delayMs: 250 }), decision(`Fact of ${user}`, addsFor([`Fact of ${user}`]))]);
    }
    const mem = makeMemory(server, { background: { debounceMs: 0, concurrency: 2 } });
    const started = Date.now();
    for (const user of ["a", "b", "c"]) await mem.flush(`from ${user}`, { userId: user });
    assert.ok(Date.now() - started < 200, "flush does not wait for the model");
    await mem.idle();
    const times = chatCalls(server, EXTRACT).map((c) => c.time);
    assert.equal(times.length, 3);
    assert.ok(Math.abs(times[1] - times[0]) < 150, "the first two scopes run concurrently");
    assert.ok(times[2] - times[0] >= 200, "the third waits until a slot is free");
    for (const user of ["a", "b", "c"]) assert.equal((await mem.getAll({ userId: user })).results[0].memory, `Fact of ${user}`);
  });

  test("a failing model never rejects flush: retried per `retry` once, then an error event with the turns, kept for the next flush", T, async () => {
    server.script({ kind: "chat", match: [EXTRACT], status: 500, message: "model down" });
    const mem = makeMemory(server, { background: { debounceMs: 0 }, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 } });
    const errors = [];
    const changes = [];
    mem.on("error", (event) => errors.push(event));
    mem.on("change", (event) => changes.push(event));
    await mem.flush([{ role: "user", content: "I live in Lisbon" }], { userId: "alice" });
    await mem.idle();
    assert.equal(errors.length, 1);
    const [{ error, scope, attempts, messages, kept }] = errors;
    assert.equal(kept, true, "a model down for now: the turns wait for the next flush");
    assert.equal(error.name, "MemoryError");
    assert.equal(error.code, "LLM_HTTP");
    assert.equal(error.status, 500);
    assert.deepEqual([scope, attempts, messages], [{ userId: "alice" }, 1, [{ role: "user", content: "I live in Lisbon" }]]);
    assert.equal(chatCalls(server, EXTRACT).length, 2, "1 HTTP retry; the batch does not start the budget over");
    assert.deepEqual(changes, []);
    assert.match(await mem.journal({ userId: "alice" }), /I live in Lisbon/, "the journal kept the turn");
  });

  test("listeners come and go; bad input rejects with a code and queues nothing", T, async () => {
    const mem = makeMemory(server, { background: { debounceMs: 0 } });
    assert.throws(() => mem.on("done", () => {}), (e) => e.code === "INVALID_INPUT");
    const seen = [];
    const listener = (event) => seen.push(event);
    mem.on("change", listener);
    mem.off("change", listener);
    server.script([extraction("hello", ["Says hello"]), decision("Says hello", addsFor(["Says hello"]))]);
    await mem.flush("hello", { userId: "u" });
    await mem.idle();
    assert.deepEqual(seen, [], "off() removed the listener");
    await rejectsWith(() => mem.flush("x", {}), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.flush([], { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.flush([{ role: "user" }], { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.flush("x", { userId: "u", maxTokens: 5 }), "INVALID_INPUT");
    assert.equal((await mem.journals({ userId: "u" }))[0].turns, 1, "only the good flush was journaled");
    await assert.doesNotReject(mem.idle(), "idle resolves at once when nothing waits");
    assert.throws(() => makeMemory(server, { background: { debounceMs: -1 } }), (e) => e.code === "INVALID_CONFIG");
    assert.throws(() => makeMemory(server, { background: { concurrency: 0 } }), (e) => e.code === "INVALID_CONFIG");
    assert.throws(() => makeMemory(server, { background: { delay: 1 } }), (e) => e.code === "INVALID_CONFIG");
  });
});
