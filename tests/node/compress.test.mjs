// compress(): when a scope holds more than `threshold` uncompressed episodic sessions, the oldest
// `sessionsToCompress` (default threshold / 2) are summarised with the compression prompt, one LLM call per session,
// all at once, into semantic memories (`sourceSessionId`, `compressionSource: true`). The originals are marked
// `compressed: true` (an UPDATE in their history, nothing deleted) and reads hide them unless
// `includeCompressed: true`. A session whose call fails stays uncompressed, with a COMPRESSION_FAILED warning.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory, T, chatCalls, rejectsWith, scriptedServer, testConfig, userContent } from "./helpers.mjs";
import { conversationMemory, oneMessageEpisode } from "./conversations-helpers.mjs";

const server = scriptedServer();

/** Start of the compression prompt. */
const COMPRESS = "Summarize the following conversation into 2-3 sentences";

/** The summary call for the session whose content has `match` answers `Summary of <match>`. */
const summary = (match, extra = {}) => ({ kind: "chat", match: [COMPRESS, match], reply: { summary: `Summary of ${match}` }, ...extra });

/** Episodes of g1 from alice, one per day from 15 January: "Chat about topic N". No retries. */
async function sessions(count = 5) {
  const ctx = conversationMemory(server, { retry: { maxRetries: 0 } });
  const ids = [];
  for (let n = 0; n < count; n++) {
    const message = { messageId: `m${n}`, createTime: `2025-01-${15 + n}T10:00:00Z`, content: `topic ${n}` };
    ids.push(await oneMessageEpisode(server, ctx, message));
  }
  return { ...ctx, ids };
}

const texts = (res) => res.results.map((m) => m.memory);

describe("compress", () => {
  test("the oldest sessions become summaries; their originals are hidden until includeCompressed", T, async () => {
    const { mem, ids } = await sessions();
    server.script([summary("topic 0", { delayMs: 150 }), summary("topic 1", { delayMs: 150 })]);
    const res = await mem.compress({ groupId: "g1", threshold: 4 });
    const calls = chatCalls(server, COMPRESS);
    assert.equal(calls.length, 2, "one LLM call per session: threshold / 2 sessions");
    const arrivals = calls.map((c) => c.time);
    assert.ok(Math.max(...arrivals) - Math.min(...arrivals) < 150, "the calls run at once, not one after the other");
    assert.match(userContent(calls[0]), /^Conversation:\n\[2025-01-1[56]T10:00:00.000Z\] Chat about topic [01]$/);
    assert.equal(res.sessions, 5);
    assert.deepEqual(res.compressed.map((c) => c.sessionId), ids.slice(0, 2), "oldest first");
    assert.deepEqual(res.warnings, []);
    const [first] = res.compressed;
    assert.equal(first.summary, "Summary of topic 0");
    assert.deepEqual([first.startTime, first.endTime], ["2025-01-15T10:00:00.000Z", "2025-01-15T10:00:00.000Z"]);

    assert.deepEqual(texts(await mem.getAll({ groupId: "g1" })), ["Chat about topic 2", "Chat about topic 3", "Chat about topic 4"]);
    assert.equal((await mem.getAll({ groupId: "g1", includeCompressed: true })).totalCount, 5);
    const originals = await mem.getAll({ groupId: "g1", includeCompressed: true, filters: { compressed: true } });
    assert.deepEqual(texts(originals), ["Chat about topic 0", "Chat about topic 1"]);
    const summaries = (await mem.getAll({ groupId: "g1", memoryType: "semantic" })).results;
    assert.deepEqual(summaries.map((m) => m.memory), ["Summary of topic 0", "Summary of topic 1"]);
    assert.equal(summaries[0].id, first.summaryId);
    assert.equal(summaries[0].runId, "g1");
    assert.deepEqual(
      [summaries[0].metadata.sourceSessionId, summaries[0].metadata.compressionSource, summaries[0].metadata.sourceMemoryIds],
      [ids[0], true, first.memoryIds],
    );

    const original = await mem.get(first.memoryIds[0]);
    assert.equal(original.metadata.compressed, true, "get() still reads it by id");
    assert.equal(original.metadata.compressedInto, first.summaryId);
    assert.deepEqual((await mem.history(original.id)).map((h) => h.event), ["ADD", "UPDATE"]);

    const found = await mem.search("topic 0", { groupId: "g1", method: "keyword" });
    assert.ok(texts(found).includes("Summary of topic 0"));
    assert.ok(!texts(found).includes("Chat about topic 0"));
    const both = await mem.search("topic 0", { groupId: "g1", method: "keyword", includeCompressed: true });
    assert.ok(texts(both).includes("Chat about topic 0") && texts(both).includes("Summary of topic 0"));
    const recalled = await mem.recall("topic 0", { runId: "g1", topK: 10 });
    assert.ok(!recalled.memories.some((m) => m.id === original.id));

    const again = await mem.compress({ group_id: "g1", threshold: 4 });
    assert.deepEqual([again.sessions, again.compressed.length], [3, 0]);
    assert.equal(chatCalls(server, COMPRESS).length, 2, "not above the threshold: no call");
  });

  test("restoring a deleted summary hides its originals again, as before the delete", T, async () => {
    const { mem } = await sessions();
    server.script([summary("topic 0"), summary("topic 1")]);
    const [first] = (await mem.compress({ groupId: "g1", threshold: 4 })).compressed;
    const before = texts(await mem.getAll({ groupId: "g1", memoryTypes: ["episodic", "semantic"] }));
    await mem.delete(first.summaryId, { soft: true });
    assert.ok(texts(await mem.getAll({ groupId: "g1" })).includes("Chat about topic 0"), "the delete shows the original");
    await mem.restore(first.summaryId);
    assert.deepEqual(texts(await mem.getAll({ groupId: "g1", memoryTypes: ["episodic", "semantic"] })), before);
    const original = await mem.get(first.memoryIds[0]);
    assert.equal(original.metadata.compressedInto, first.summaryId);
    assert.deepEqual((await mem.history(original.id)).map((h) => h.event), ["ADD", "UPDATE", "UPDATE", "UPDATE"]);
  });

  test("a session whose call fails stays uncompressed with a warning", T, async () => {
    const { mem, ids } = await sessions();
    server.script([summary("topic 0"), summary("topic 1", { status: 500 }), summary("topic 2")]);
    const res = await mem.compress({ groupId: "g1", threshold: 2, sessionsToCompress: 3 });
    assert.deepEqual(res.compressed.map((c) => c.sessionId), [ids[0], ids[2]]);
    assert.equal(res.warnings.length, 1);
    assert.deepEqual([res.warnings[0].code, res.warnings[0].cause, res.warnings[0].status], ["COMPRESSION_FAILED", "LLM_HTTP", 500]);
    assert.ok(res.warnings[0].message.includes(ids[1]));
    assert.deepEqual(texts(await mem.getAll({ groupId: "g1" })), ["Chat about topic 1", "Chat about topic 3", "Chat about topic 4"]);
  });

  test("bad options, and no LLM, reject with a code and change nothing", T, async () => {
    const { mem } = await sessions(3);
    const before = await mem.getAll({ runId: "g1", includeCompressed: true });
    const chats = server.count("chat");
    for (const [options, code] of [
      [{ groupId: "g1" }, "INVALID_INPUT"],
      [{ groupId: "g1", threshold: -1 }, "INVALID_INPUT"],
      [{ groupId: "g1", threshold: 1.5 }, "INVALID_INPUT"],
      [{ groupId: "g1", threshold: 1, sessionsToCompress: 0 }, "INVALID_INPUT"],
      [{ groupId: "g1", threshold: 1, limit: 3 }, "INVALID_INPUT"],
      [{ userId: "__all__", groupId: "__all__", threshold: 1 }, "SCOPE_REQUIRED"],
      [{ threshold: 1 }, "SCOPE_REQUIRED"],
      [undefined, "SCOPE_REQUIRED"],
    ]) {
      await rejectsWith(() => mem.compress(options), code);
    }
    assert.equal(server.count("chat"), chats);
    assert.deepEqual(await mem.getAll({ runId: "g1", includeCompressed: true }), before);
    const none = new Memory({ ...testConfig(server), llm: { provider: "none" } });
    await rejectsWith(() => none.compress({ userId: "u", threshold: 0 }), "INVALID_INPUT");
  });
});
