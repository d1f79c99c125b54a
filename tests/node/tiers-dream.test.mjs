// The daily journal, dream consolidation and formatForInjection. Every flushed turn is appended
// to its scope's journal for the day (UTC); `dream` reads the core profile and the journals of the last
// `lookbackDays` not yet consolidated and, with ONE call, rewrites the profile and proposes facts that go
// through the ADD/UPDATE/DELETE decision with history; a journal already consolidated is never sent again.
// `formatForInjection` puts the profile, pinned and procedural memories, then the most important others in a
// `<memory>` block that never exceeds its budget and escapes tag-like text.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DECIDE, EXTRACT, T, addsFor, chatCalls, clockedMemory, decision, rejectsWith, scriptedServer, userContent } from "./helpers.mjs";

const server = scriptedServer();
const DREAM = "You consolidate an AI assistant's memory";
const DAY = 86_400_000;

/** Lets the background writer finish the flushed turns (extracting nothing), so no timer outlives the test. */
async function drain(mem, clock) {
  server.script({ kind: "chat", match: [EXTRACT], reply: { facts: [] } });
  clock.t += 3_600_000;
  await mem.idle();
}

function dreamReply(profile, facts, reason = "moved cities") {
  return { kind: "chat", match: [DREAM], reply: { profile, facts, reason }, times: 1 };
}

describe("journal and dream", () => {
  test("turns are journaled per scope and day, as Markdown", T, async () => {
    const { mem, clock } = clockedMemory(server);
    await mem.flush([{ role: "user", content: "I moved to Lisbon" }, { role: "assistant", content: "Nice!" }], { userId: "alice" });
    clock.t += DAY;
    await mem.flush("I adopted a cat", { userId: "alice" });
    await mem.flush("unrelated", { userId: "bob" });
    assert.equal(
      await mem.journal({ userId: "alice", date: "2025-01-01" }),
      "# Journal 2025-01-01\n\n## 00:00:00 UTC\n- **user:** I moved to Lisbon\n- **assistant:** Nice!\n",
    );
    assert.match(await mem.journal({ userId: "alice" }), /^# Journal 2025-01-02\n[\s\S]*I adopted a cat/);
    assert.equal(await mem.journal({ userId: "alice", date: "2024-12-31" }), null);
    const days = await mem.journals({ userId: "alice" });
    assert.deepEqual(days.map((d) => [d.date, d.turns, d.consolidated]), [["2025-01-01", 2, false], ["2025-01-02", 1, false]]);
    assert.match(days[0].hash, /^[0-9a-f]{32}$/);
    assert.deepEqual((await mem.journals({ userId: "alice", since: "2025-01-02" })).map((d) => d.date), ["2025-01-02"]);
    await rejectsWith(() => mem.journal({ userId: "alice", date: "01/02/2025" }), "INVALID_INPUT");
    await rejectsWith(() => mem.journals({ userId: "alice", date: "2025-01-02" }), "INVALID_INPUT");
    await rejectsWith(() => mem.journals({}), "SCOPE_REQUIRED");
    await drain(mem, clock);
  });

  test("dream rewrites the profile once with one call; a second dream over the same journals makes none", T, async () => {
    const { mem, clock } = clockedMemory(server);
    await mem.flush("I moved from Berlin to Lisbon", { userId: "alice" });
    server.script([dreamReply("# Alice\n- Lives in Lisbon", ["Lives in Lisbon"]), decision("Lives in Lisbon", addsFor(["Lives in Lisbon"]))]);
    const first = await mem.dream({ userId: "alice" });
    assert.equal(chatCalls(server, DREAM).length, 1);
    assert.match(userContent(chatCalls(server, DREAM)[0]), /Core profile:\n\(empty\)[\s\S]*I moved from Berlin to Lisbon/);
    assert.equal(first.dreamed, true);
    assert.deepEqual(first.journals, ["2025-01-01"]);
    assert.equal(first.profile.markdown, "# Alice\n- Lives in Lisbon");
    assert.deepEqual(first.results.map((e) => [e.event, e.memory]), [["ADD", "Lives in Lisbon"]]);
    assert.equal(first.reason, "moved cities");
    const history = await mem.history(first.results[0].id);
    assert.deepEqual(history.map((h) => h.event), ["ADD"], "applied through the normal path, with history");
    assert.deepEqual(await mem.coreProfile({ userId: "alice" }), first.profile);

    const calls = server.count("chat");
    const second = await mem.dream({ userId: "alice" });
    assert.equal(server.count("chat"), calls, "no LLM call for journals already consolidated");
    assert.equal(second.dreamed, false);
    assert.deepEqual(second.results, []);
    assert.ok((await mem.journals({ userId: "alice" }))[0].consolidated);

    clock.t += DAY;
    await mem.flush("I adopted a cat named Miso", { userId: "alice" });
    server.script([dreamReply("# Alice\n- Lives in Lisbon\n- Has a cat, Miso", ["Has a cat named Miso"]), decision("Miso", addsFor(["Has a cat named Miso"]))]);
    const third = await mem.dream({ userId: "alice", lookbackDays: 1 });
    assert.deepEqual(third.journals, ["2025-01-02"], "only the new journal");
    const prompt = userContent(chatCalls(server, DREAM).at(-1));
    assert.ok(prompt.includes("- Lives in Lisbon") && !prompt.includes("Berlin"), "the profile, not the old journal");
    const diary = await mem.dreamDiary({ userId: "alice" });
    assert.deepEqual(diary.map((d) => [d.journals, d.profileChanged, d.events.length]), [[["2025-01-01"], true, 1], [["2025-01-02"], true, 1]]);
    assert.equal(await mem.coreProfile({ userId: "bob" }), null);
    await drain(mem, clock);
  });

  test("a failed dream rejects with the model's code and writes nothing", T, async () => {
    const { mem, clock } = clockedMemory(server, { retry: { maxRetries: 0 } });
    await mem.flush("I moved to Lisbon", { userId: "alice" });
    server.script({ kind: "chat", match: [DREAM], status: 503, message: "busy", times: 1 });
    await rejectsWith(() => mem.dream({ userId: "alice" }), "LLM_HTTP");
    server.script({ kind: "chat", match: [DREAM], reply: "no json here", times: 1 });
    await rejectsWith(() => mem.dream({ userId: "alice" }), "LLM_RESPONSE");
    assert.equal(await mem.coreProfile({ userId: "alice" }), null);
    assert.equal((await mem.journals({ userId: "alice" }))[0].consolidated, false);
    await rejectsWith(() => mem.dream({ userId: "alice", lookbackDays: -1 }), "INVALID_INPUT");
    await drain(mem, clock);
  });
});

describe("formatForInjection", () => {
  test("profile, then pinned and procedural, then the most important, never over budget, tags escaped", T, async () => {
    const { mem, clock } = clockedMemory(server);
    await mem.flush("hi", { userId: "alice" });
    server.script([dreamReply("# Alice\n- Says </memory> a lot", []), { kind: "chat", match: [DECIDE], reply: { memory: [] } }]);
    await mem.dream({ userId: "alice" });
    await mem.add("Drinks green tea", { userId: "alice", infer: false, importance: 0.9 });
    await mem.add("Wrote <script>alert(1)</script>", { userId: "alice", infer: false, importance: 0.5 });
    await mem.add("Allergic to peanuts", { userId: "alice", infer: false, importance: 0.3, pinned: true });
    await mem.add("Always answer in French", { userId: "alice", infer: false, importance: 0.3, memoryType: "procedural" });
    const full = await mem.formatForInjection({ userId: "alice", maxTokens: 500 });
    assert.ok(full.text.startsWith("<memory>\n# Alice\n- Says &lt;/memory&gt; a lot\n"), full.text);
    assert.equal(full.text.match(/<\/memory>/g).length, 1, "only the block's own closing tag");
    assert.ok(full.text.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert.deepEqual(full.memories.map((m) => m.memory).slice(0, 2).sort(), ["Allergic to peanuts", "Always answer in French"]);
    assert.equal(full.memories[2].memory, "Drinks green tea");
    assert.equal(full.profile, true);
    for (let budget = 5; budget <= 120; budget += 5) {
      const cut = await mem.formatForInjection({ userId: "alice", maxTokens: budget });
      assert.ok(cut.totalTokens <= budget, `budget ${budget}: ${cut.totalTokens}`);
      assert.ok(cut.text === "" || cut.text.endsWith("</memory>"));
    }
    assert.deepEqual(await mem.formatForInjection({ userId: "nobody", maxTokens: 100 }), { text: "", totalTokens: 0, profile: false, memories: [] });
    await rejectsWith(() => mem.formatForInjection({ userId: "alice" }), "INVALID_INPUT");
    await rejectsWith(() => mem.formatForInjection({ userId: "alice", maxTokens: 10, tokenBudget: 3 }), "INVALID_INPUT");
    await drain(mem, clock);
  });
});
