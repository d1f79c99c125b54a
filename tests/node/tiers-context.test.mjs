// The context tier (LangMem's summarize_messages): `memory.context({…scope, maxTokens, keepLast})`
// returns a window whose `push(messages)` keeps the conversation within the budget. When a push overflows it,
// the oldest turns are folded into a running summary with ONE call that carries the previous summary and the
// turns leaving the window, never the whole history; the summary is stored per scope, so a reload continues it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory, T, chatCalls, makeMemory, rejectsWith, scriptedServer, userContent } from "./helpers.mjs";

const server = scriptedServer();
const SUMMARY = "You keep the running summary";

/** Every summary call answers with a summary naming the last turn it was given. */
function summarizing() {
  server.script({ kind: "chat", match: [SUMMARY], reply: "Summary so far: travel plans for Lisbon and Porto." });
}

const turn = (i) => ({ role: i % 2 ? "assistant" : "user", content: `Turn ${i}: shall we visit Lisbon or Porto first, option ${i}?` });

describe("context tier", () => {
  test("a 200-turn conversation stays within budget, one incremental summary call per overflow", T, async () => {
    summarizing();
    const mem = makeMemory(server);
    const ctx = mem.context({ userId: "alice", maxTokens: 400, keepLast: 6 });
    let overflows = 0;
    let previous = null;
    for (let i = 0; i < 200; i++) {
      const res = await ctx.push([turn(i)]);
      assert.ok(res.totalTokens <= 400, `turn ${i}: ${res.totalTokens} tokens`);
      assert.equal(res.messages.at(-1).content, turn(i).content, "the newest turn is always there");
      if (res.summarized > 0) {
        overflows++;
        const calls = chatCalls(server, SUMMARY);
        assert.equal(calls.length, overflows, "exactly one summary call per overflow");
        const prompt = userContent(calls.at(-1));
        assert.ok(prompt.includes(previous ?? "(none)"), "the prompt carries the previous summary");
        if (overflows > 1) assert.ok(!prompt.includes("Turn 0:"), "the whole history is never sent again");
        assert.equal(res.messages[0].role, "system");
        assert.match(res.messages[0].content, /Summary so far: travel plans/);
        assert.ok(res.messages.length <= 7, "summary + at most keepLast turns right after a fold");
      } else {
        assert.equal(res.summary, previous);
      }
      previous = res.summary;
    }
    assert.ok(overflows >= 10, `${overflows} overflows`);
    assert.equal(chatCalls(server, SUMMARY).length, overflows);
  });

  test("while it fits, messages come back as they are and no call is made", T, async () => {
    const mem = makeMemory(server);
    const ctx = mem.context({ userId: "alice", maxTokens: 1000 });
    const res = await ctx.push([{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }]);
    assert.deepEqual(res, { messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }], summary: null, summarized: 0, totalTokens: res.totalTokens });
    assert.ok(res.totalTokens > 0 && res.totalTokens < 20);
    assert.equal(server.count("chat"), 0);
  });

  test("the summary is stored per scope: a reloaded memory continues it", T, async () => {
    summarizing();
    const storage = { provider: "memory" };
    const mem = makeMemory(server, { storage });
    const ctx = mem.context({ userId: "alice", maxTokens: 120, keepLast: 2 });
    let last;
    for (let i = 0; i < 12; i++) last = await ctx.push(turn(i).content);
    assert.ok(last.summary, "it overflowed");
    const again = mem.context({ userId: "alice", maxTokens: 120, keepLast: 2 });
    const next = await again.push("one more");
    assert.equal(next.summary, last.summary, "a new window of the same scope continues the summary");
    const other = await mem.context({ userId: "bob", maxTokens: 120 }).push("hello");
    assert.equal(other.summary, null, "windows are per scope");
  });

  test("bad options throw INVALID_INPUT or SCOPE_REQUIRED; a failed summary call rejects and keeps the window", T, async () => {
    const mem = makeMemory(server, { retry: { maxRetries: 0 } });
    for (const bad of [{ userId: "u" }, { userId: "u", maxTokens: 0 }, { userId: "u", maxTokens: 10, keepLast: 1.5 }, { userId: "u", maxTokens: 10, limit: 3 }, { userId: "u", maxTokens: 10, date: "2025-01-01" }]) {
      assert.throws(() => mem.context(bad), (e) => e.code === "INVALID_INPUT", JSON.stringify(bad));
    }
    assert.throws(() => mem.context({ maxTokens: 10 }), (e) => e.code === "SCOPE_REQUIRED");
    const ctx = mem.context({ userId: "u", maxTokens: 60, keepLast: 1 });
    await ctx.push("first turn");
    server.script({ kind: "chat", match: [SUMMARY], status: 500, message: "down" });
    await rejectsWith(() => ctx.push("a much longer second turn that will not fit in the small window. ".repeat(4)), "LLM_HTTP");
    await rejectsWith(() => ctx.push([{ role: "", content: "x" }]), "INVALID_INPUT");
    server.reset();
    summarizing();
    const res = await ctx.push("third");
    assert.ok(res.messages.some((m) => m.content === "third"));
    assert.ok(!(await mem.getAll({ userId: "u" })).results.length, "the context tier stores no memories");
  });
});
