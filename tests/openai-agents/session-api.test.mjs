// The Session methods of memwasm/openai-agents as the SDK's own MemorySession behaves (its tests, ported), a
// session reopened on the same memory (it continues the stored window, or the one after a clear), and bad input
// rejected with MemoryError codes.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MemorySession } from "@openai/agents";
import { MemwasmSession, memorySession } from "memwasm/openai-agents";
import { DECIDE, EXTRACT, SUMMARY, T, chatCalls, makeMemory, rejectsWith, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const userMessage = (text) => ({ role: "user", content: [{ type: "input_text", text }] });
const open = (memory, options = {}) => new MemwasmSession(memory, { userId: "u", maxTokens: 2000, ...options });

describe("MemwasmSession as the SDK's MemorySession", () => {
  test("stores and retrieves items; getItems(limit), popItem, clearSession (the SDK's own test, side by side)", T, async () => {
    const memory = makeMemory(server);
    for (const session of [new MemorySession({ sessionId: "session-1" }), open(memory, { sessionId: "session-1" })]) {
      const initialItems = [userMessage("hello")];
      await session.addItems(initialItems);
      assert.equal(await session.getSessionId(), "session-1");
      assert.deepEqual(await session.getItems(), initialItems);
      const newItems = [userMessage("one"), userMessage("two")];
      await session.addItems(newItems);
      assert.deepEqual(await session.getItems(), [...initialItems, ...newItems]);
      assert.deepEqual(await session.getItems(2), newItems);
      assert.deepEqual(await session.getItems(0), []);
      assert.deepEqual(await session.getItems(-1), []);
      assert.deepEqual(await session.getItems(99), [...initialItems, ...newItems]);
      assert.deepEqual(await session.popItem(), newItems[1]);
      assert.deepEqual(await session.getItems(), [...initialItems, newItems[0]]);
      await session.clearSession();
      assert.deepEqual(await session.getItems(), []);
      assert.deepEqual(await session.getItems(3), []);
      assert.equal(await session.popItem(), undefined);
      await session.addItems([]);
      assert.deepEqual(await session.getItems(), []);
    }
  });

  test("returns clones so external mutations do not persist (ported)", T, async () => {
    const session = open(makeMemory(server));
    const initial = userMessage("start");
    await session.addItems([initial]);
    const items = await session.getItems();
    assert.notEqual(items[0], initial);
    items[0].content = "mutated";
    assert.deepEqual(await session.getItems(), [userMessage("start")]);
    const next = userMessage("next");
    await session.addItems([next]);
    next.content = "mutated";
    assert.deepEqual(await session.getItems(), [userMessage("start"), userMessage("next")]);
    const popped = await session.popItem();
    assert.deepEqual(popped, userMessage("next"));
    popped.content = "mutated";
    assert.deepEqual(await session.getItems(), [userMessage("start")]);
  });

  test("a default session id is a UUID; memorySession() makes the same session", T, async () => {
    const memory = makeMemory(server);
    assert.match(await open(memory).getSessionId(), /^[0-9a-f-]{36}$/);
    const made = memorySession(memory, { agentId: "a", sessionId: "s", maxTokens: 50 });
    assert.ok(made instanceof MemwasmSession);
    assert.equal(await made.getSessionId(), "s");
  });

  test("a session reopened on the same memory continues the stored window; after clearSession, the cleared one is gone", T, async () => {
    server.script({ kind: "chat", match: [SUMMARY], reply: "Bo is learning Portuguese." });
    const memory = makeMemory(server);
    const first = open(memory, { sessionId: "lessons", maxTokens: 100, keepLast: 2 });
    for (let i = 0; i < 12; i++) await first.addItems([{ role: i % 2 ? "assistant" : "user", content: `lesson ${i} about Portuguese verbs` }]);
    assert.equal(chatCalls(server, SUMMARY).length, 1, "the window overflowed once");
    const kept = await first.getItems();
    assert.equal(kept[0].content, "Summary of the conversation so far:\nBo is learning Portuguese.");
    const again = open(memory, { sessionId: "lessons", maxTokens: 100, keepLast: 2 });
    const resumed = await again.getItems();
    assert.deepEqual(resumed.map((i) => i.content?.[0]?.text ?? i.content), kept.map((i) => i.content?.[0]?.text ?? i.content));
    assert.equal(resumed.at(-1).role, "assistant");
    assert.deepEqual(await open(memory, { sessionId: "other" }).getItems(), [], "sessions are apart");

    await again.clearSession();
    await again.addItems([userMessage("a fresh start")]);
    const third = open(memory, { sessionId: "lessons", maxTokens: 100, keepLast: 2 });
    assert.deepEqual(await third.getItems(), [{ role: "user", content: "a fresh start" }]);
    await third.clearSession();
    assert.deepEqual(await open(memory, { sessionId: "lessons", maxTokens: 100 }).getItems(), []);
  });

  test("a popped turn is not extracted when the window later folds it", T, async () => {
    server.script({ kind: "chat", match: [SUMMARY], reply: "Small talk." });
    server.script({ kind: "chat", match: [EXTRACT], reply: { facts: ["Likes tea"] } });
    server.script({ kind: "chat", match: [DECIDE], reply: { memory: [{ text: "Likes tea", event: "ADD" }] } });
    const memory = makeMemory(server);
    const session = open(memory, { maxTokens: 30, keepLast: 1 });
    await session.addItems([{ role: "user", content: "I like tea" }, { role: "user", content: "SECRET-WORD typed by mistake" }]);
    assert.equal((await session.popItem()).content, "SECRET-WORD typed by mistake");
    await session.addItems([{ role: "user", content: "now a longer turn that makes the small window overflow for sure" }]);
    assert.equal(chatCalls(server, SUMMARY).length, 1);
    await memory.idle();
    const extraction = JSON.stringify(chatCalls(server, EXTRACT).map((c) => c.body.messages));
    assert.match(extraction, /I like tea/);
    assert.doesNotMatch(extraction, /SECRET-WORD/);
  });
});

describe("bad input", () => {
  test("the constructor throws INVALID_INPUT or SCOPE_REQUIRED", T, () => {
    const memory = makeMemory(server);
    const code = (fn) => { try { fn(); } catch (error) { assert.equal(error.name, "MemoryError"); return error.code; } return "none"; };
    assert.equal(code(() => new MemwasmSession(null, { userId: "u", maxTokens: 10 })), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession({}, { userId: "u", maxTokens: 10 })), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession(memory)), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession(memory, "u")), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession(memory, { maxTokens: 10 })), "SCOPE_REQUIRED");
    assert.equal(code(() => new MemwasmSession(memory, { userId: "u" })), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession(memory, { userId: "u", maxTokens: 0 })), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession(memory, { userId: "u", maxTokens: 10, keepLast: 1.5 })), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession(memory, { userId: "u", maxTokens: 10, sessionId: "" })), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession(memory, { userId: "u", maxTokens: 10, sessionId: 7 })), "INVALID_INPUT");
    assert.equal(code(() => new MemwasmSession(memory, { userId: "u", maxTokens: 10, limit: 3 })), "INVALID_INPUT");
  });

  test("addItems and getItems reject bad arguments with INVALID_INPUT and change nothing", T, async () => {
    const session = open(makeMemory(server));
    await session.addItems([userMessage("kept")]);
    for (const bad of [undefined, null, "hi", { role: "user" }, [null], ["hi"], [[]], [{ role: "user", content: "x", f: () => 1 }]]) {
      await rejectsWith(assert, () => session.addItems(bad), "INVALID_INPUT");
    }
    for (const bad of ["2", 1.5, NaN, null, {}]) {
      await rejectsWith(assert, () => session.getItems(bad), "INVALID_INPUT");
    }
    assert.deepEqual(await session.getItems(), [userMessage("kept")]);
  });

  test("items the window cannot read are kept as they are: odd roles, empty text, unknown types", T, async () => {
    const session = open(makeMemory(server));
    const odd = [{ role: "user", content: "" }, { role: "tool", content: "x" }, { type: "reasoning", content: [] }, { type: "unknown_kind", data: 1 }];
    await session.addItems(odd);
    assert.deepEqual(await session.getItems(), odd);
    assert.equal(server.count("chat"), 0);
  });
});
