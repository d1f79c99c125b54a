// docs/conversations.md's first block runs as written against the scripted server (the standard test config
// as `config`): two messages wait in the buffer, a 45-minute gap closes them into an episode that the stand-in
// model turns into five typed memories, and deleting alice's memories of the group leaves the three Bob still
// reads; its compress block summarises the 10 oldest of 23 sessions. What the comments claim is asserted, quoted
// above each check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, Memory, addsFor, decision, scriptedServer, testConfig } from "./helpers.mjs";
import { conversationMemory, episode, noBoundary, oneMessageEpisode, profileOf } from "./conversations-helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { keepClaimed, runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const blocks = blocksRunBy("tests/node/docs-conversations.test.mjs");
const FACT = "The launch review moved to Thursday 2025-03-06";
const SUMMARY = "On 3 March 2025 Alice Smith told Bob the launch review moved to Thursday; Bob prepares the slides.";

test("docs/conversations.md: messages accumulate, a gap extracts the episode, and a delete by filter leaves Bob's", T, async () => {
  const [block] = blocks.filter((b) => b.code.includes("addMessage"));
  assert.ok(block, "the block is marked run by this file");
  server.script([
    noBoundary(),
    episode("launch review moved to Thursday", {
      summary: SUMMARY,
      eventLog: [FACT],
      foresight: [{ text: "Bob will prepare the review slides by Wednesday", valid_until: "2025-03-05" }],
      profiles: [profileOf("alice", { role: "PM" }), profileOf("bob", { task: "review slides" })],
    }, { times: 1 }),
    decision(FACT, addsFor([FACT]), { times: 1 }),
  ]);
  const claimed = new Map();
  const code = block.code.replace(/^await memory\.addMessage\(/m, "const first = await memory.addMessage(");
  const { first, res, memory } = await runBlock(`${keepClaimed(code)}\nreturn { first, res, memory };`,
    { Memory, config: testConfig(server), __claimed: claimed });
  // → {status: "accumulated", groupId: "rocket", count: 0, memories: [], pendingMessages: [{messageId: "m1", …}], …}
  assert.deepEqual([first.status, first.groupId, first.count, first.memories], ["accumulated", "rocket", 0, []]);
  assert.deepEqual(first.pendingMessages.map((m) => m.messageId), ["m1"]);
  // → {status: "extracted", count: 5, pendingMessages: [m3],
  assert.deepEqual([res.status, res.count, res.pendingMessages.map((m) => m.messageId)], ["extracted", 5, ["m3"]]);
  // episodes: [{sessionId: "…", cause: "gap", startTime: "2025-03-03T09:00:00.000Z", endTime: "…09:05:00.000Z", messageIds: ["m1", "m2"]}],
  assert.deepEqual(res.episodes.map((e) => [typeof e.sessionId, e.cause, e.startTime, e.endTime, e.messageIds]),
    [["string", "gap", "2025-03-03T09:00:00.000Z", "2025-03-03T09:05:00.000Z", ["m1", "m2"]]]);
  // memories: [{event: "ADD", memoryType: "event_log", memory: "The launch review moved to Thursday 2025-03-06", …},
  //               {event: "ADD", memoryType: "episodic", memory: "On 3 March 2025 Alice Smith told Bob …", …},
  //               {event: "ADD", memoryType: "foresight", …}, {event: "ADD", memoryType: "profile", …}, …]}
  assert.deepEqual(res.memories.map((m) => [m.event, m.memoryType]),
    [["ADD", "event_log"], ["ADD", "episodic"], ["ADD", "foresight"], ["ADD", "profile"], ["ADD", "profile"]]);
  assert.deepEqual(res.memories.slice(0, 2).map((m) => m.memory), [FACT, SUMMARY]);
  // → {count: 1, left: 3, filters: ["userId", "groupId"]}
  assert.deepEqual(claimed.get('→ {count: 1, left: 3, filters: ["userId", "groupId"]}'), { count: 1, left: 3, filters: ["userId", "groupId"] });
  // her profile is deleted; she leaves the m1–m2 episode, its fact and its plan, which Bob still reads
  const group = async (userId) => (await memory.getAll({ userId, groupId: "rocket", memoryTypes: ["episodic", "event_log", "foresight"] })).results.map((m) => m.memory).sort();
  assert.deepEqual(await group("bob"), [FACT, SUMMARY, "Bob will prepare the review slides by Wednesday"].sort());
  assert.deepEqual(await group("alice"), []);
  assert.equal((await memory.getAll({ userId: "alice", groupId: "rocket", memoryTypes: ["profile"] })).totalCount, 0);
});

test("docs/conversations.md: compress() with threshold 20 summarises the 10 oldest of 23 sessions", T, async () => {
  const [block] = blocks.filter((b) => b.code.includes("memory.compress("));
  assert.ok(block, "the compress block is marked run by this file");
  const ctx = conversationMemory(server, { retry: { maxRetries: 0 } });
  for (let n = 0; n < 23; n++) {
    const createTime = new Date(Date.UTC(2025, 0, 1 + n, 10)).toISOString();
    await oneMessageEpisode(server, ctx, { groupId: "rocket", messageId: `m${n}`, createTime, content: `topic ${n}` });
  }
  server.script({ kind: "chat", match: ["Summarize the following conversation"], reply: ({ user }) => ({ summary: `Summary of ${/topic \d+/.exec(user)[0]}` }) });
  const { sessions, compressed, warnings } = await runBlock(`${block.code}\nreturn { sessions, compressed, warnings };`, { memory: ctx.mem });
  // sessions: 23 → the 10 oldest are summarised; compressed: [{sessionId, summaryId, summary, memoryIds, startTime, endTime}, …]
  assert.equal(sessions, 23);
  assert.deepEqual(warnings, []);
  assert.deepEqual(compressed.map((c) => c.summary), Array.from({ length: 10 }, (_, n) => `Summary of topic ${n}`));
  for (const entry of compressed) {
    assert.deepEqual(Object.keys(entry).sort(), ["endTime", "memoryIds", "sessionId", "startTime", "summary", "summaryId"]);
  }
});
