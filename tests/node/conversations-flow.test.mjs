// Message-by-message memory: a multi-day group chat fed one message at a time. The buffer
// accumulates; a 45-minute gap and the LLM's "boundary" reply each close it, and the episode becomes typed
// memories (episodic, event_log, foresight, profile) whose metadata carries the messages' times. Duplicate
// ids, flushGroup, concurrent calls, a restart over the same KV, the default group and the boundary config.
// The clock is injected (`now`); nothing sleeps.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  T, Memory, addsFor, chatCalls, decision, rejectsWith, scriptedServer, testConfig, throwsInvalidConfig, userContent,
} from "./helpers.mjs";
import {
  BOUNDARY, EPISODE, assertMessageResult, boundaryAt, conversationMemory, episode, memoryKv, noBoundary, pendingIds,
  profileOf,
} from "./conversations-helpers.mjs";

const server = scriptedServer();

const G = { groupId: "rocket", groupName: "Rocket team" };
const DAY1 = [
  { messageId: "m1", createTime: "2025-03-03T10:00:00+01:00", sender: "alice", senderName: "Alice", role: "user", content: "Morning! The launch review moved to Thursday." },
  { messageId: "m2", createTime: "2025-03-03T09:05:00Z", sender: "bob", senderName: "Bob", content: "Got it, I will prepare the slides by Wednesday." },
  { messageId: "m3", createTime: "2025-03-03T09:12:00Z", sender: "alice", senderName: "Alice", content: "Thanks Bob. I am flying to Berlin tonight.", referList: ["m2"] },
  // 45 minutes later: the gap closes m1–m3 before this one.
  { messageId: "m4", createTime: "2025-03-03T09:57:00Z", sender: "bob", senderName: "Bob", content: "Has anyone tried the new coffee machine?" },
  { messageId: "m5", createTime: "2025-03-03T09:58:30Z", sender: "carol", senderName: "Carol", content: "Yes, the espresso is great." },
  // The LLM says this one starts a new episode: m4–m5 close before it.
  { messageId: "m6", createTime: "2025-03-03T10:02:00Z", sender: "carol", senderName: "Carol", content: "Budget question: can we get two more GPUs?" },
].map((m) => ({ ...G, ...m }));
const DAY2 = [
  { messageId: "m7", createTime: "2025-03-04T08:30:00Z", sender: "alice", senderName: "Alice", content: "Landed in Berlin, working from the office here this week." },
  { messageId: "m8", createTime: "2025-03-04T08:31:00Z", sender: "bob", senderName: "Bob", content: "Welcome! Say hi to the Berlin team." },
].map((m) => ({ ...G, ...m }));

const LAUNCH_FACTS = ["The launch review moved to Thursday 2025-03-06", "Alice flies to Berlin on 2025-03-03"];
const COFFEE_FACTS = ["The office has a new coffee machine"];

function scriptDays() {
  server.script([
    boundaryAt("two more GPUs", "the talk turns to the budget"),
    noBoundary(),
    episode("launch review moved to Thursday", {
      title: "Launch review moved",
      summary: "On 3 March 2025, 09:00–09:12 UTC, Alice told Bob the launch review moved to Thursday; Bob will prepare slides and Alice flies to Berlin.",
      eventLog: LAUNCH_FACTS,
      foresight: [{ text: "Bob will prepare the review slides by Wednesday", valid_from: "2025-03-03", valid_until: "2025-03-05" }],
      profiles: [profileOf("alice", { travel: "flying to Berlin" }), profileOf("bob", { responsibility: "review slides" })],
    }, { times: 1 }),
    episode("new coffee machine", {
      summary: "On 3 March 2025 Bob and Carol talked about the new coffee machine.",
      eventLog: COFFEE_FACTS,
      profiles: [profileOf("carol", { likes: "espresso" })],
    }, { times: 1 }),
    episode("two more GPUs", {
      summary: "On 3 March 2025 Carol asked for two more GPUs.",
      foresight: [{ text: "Carol wants two more GPUs in the budget", valid_until: "2025-03-31T23:59:59+02:00" }],
    }, { times: 1 }),
    episode("Landed in Berlin", {
      summary: "On 4 March 2025 Alice arrived in Berlin and Bob welcomed her.",
      profiles: [profileOf("alice", { travel: "", location: "Berlin" })],
    }, { times: 1 }),
    decision(LAUNCH_FACTS[0], addsFor(LAUNCH_FACTS), { times: 1 }),
    decision(COFFEE_FACTS[0], addsFor(COFFEE_FACTS), { times: 1 }),
  ]);
}

/** Memories by `memoryType`. */
const byType = (memories) => {
  const out = {};
  for (const m of memories) (out[m.memoryType] ??= []).push(m);
  return out;
};

describe("a multi-day group chat, message by message", () => {
  test("the buffer accumulates; a 45-minute gap and the LLM's boundary each extract typed memories", T, async () => {
    scriptDays();
    const { mem, clock, send } = conversationMemory(server);
    for (const [i, message] of DAY1.slice(0, 3).entries()) {
      const res = assertMessageResult(await send(message));
      assert.deepEqual([res.status, res.count, res.memories, res.groupId], ["accumulated", 0, [], "rocket"]);
      assert.deepEqual(pendingIds(res), DAY1.slice(0, i + 1).map((m) => m.messageId));
    }
    assert.equal(chatCalls(server, BOUNDARY).length, 2, "the first message is never judged");
    assert.equal(chatCalls(server, EPISODE).length, 0);

    // m4, 45 minutes after m3: the gap closes m1–m3.
    const gap = assertMessageResult(await send(DAY1[3]));
    assert.equal(gap.status, "extracted");
    assert.deepEqual(gap.episodes.map(({ cause, startTime, endTime, messageIds }) => ({ cause, startTime, endTime, messageIds })), [
      { cause: "gap", startTime: "2025-03-03T09:00:00.000Z", endTime: "2025-03-03T09:12:00.000Z", messageIds: ["m1", "m2", "m3"] },
    ]);
    assert.deepEqual(pendingIds(gap), ["m4"]);
    assert.deepEqual(gap.memories.map((m) => [m.event, m.memoryType]), [
      ["ADD", "event_log"], ["ADD", "event_log"], ["ADD", "episodic"], ["ADD", "foresight"], ["ADD", "profile"], ["ADD", "profile"],
    ]);
    assert.equal(gap.count, 6);
    assert.equal(chatCalls(server, BOUNDARY).length, 2, "a gap needs no judgement");
    const prompt = userContent(chatCalls(server, EPISODE)[0]);
    assert.match(prompt, /Group: Rocket team \(rocket\)\nTime span: 2025-03-03T09:00:00\.000Z to 2025-03-03T09:12:00\.000Z\n/);
    assert.match(prompt, /Participants:\n- alice: Alice\n- bob: Bob\n/);
    assert.match(prompt, /\[2025-03-03T09:00:00\.000Z\] Alice: Morning! The launch review moved to Thursday\./);
    assert.ok(!prompt.includes("coffee"), "the message after the gap is not part of the episode");

    const stored = (await mem.getAll({ runId: "rocket" })).results;
    const created = new Date(clock.t).toISOString();
    const session = gap.episodes[0].sessionId;
    for (const item of stored) {
      assert.equal(item.createdAt, created, "createdAt is the memory's clock");
      assert.deepEqual([item.metadata.startTime, item.metadata.endTime], ["2025-03-03T09:00:00.000Z", "2025-03-03T09:12:00.000Z"]);
      assert.equal(item.metadata.groupId, "rocket");
      assert.ok(item.importance > 0 && item.importance <= 1);
    }
    const types = byType(stored);
    const [episodic] = types.episodic;
    assert.equal(episodic.runId, "rocket");
    assert.equal(episodic.userId, undefined, "a group's memories are the group's, not one user's");
    assert.deepEqual(
      { sessionId: episodic.metadata.sessionId, participants: episodic.metadata.participants, messageIds: episodic.metadata.messageIds, title: episodic.metadata.title },
      { sessionId: session, participants: ["alice", "bob"], messageIds: ["m1", "m2", "m3"], title: "Launch review moved" },
    );
    assert.deepEqual(types.event_log.map((m) => m.memory).sort(), [...LAUNCH_FACTS].sort());
    assert.deepEqual([types.foresight[0].metadata.validFrom, types.foresight[0].metadata.validUntil], ["2025-03-03", "2025-03-05"]);
    const alice = types.profile.find((m) => m.userId === "alice");
    assert.deepEqual([alice.runId, alice.key, alice.memory], ["rocket", "profile:alice", "Profile of Alice (alice): travel: flying to Berlin"]);

    // m5 continues; m6 is judged a new episode: m4–m5 close before it.
    assert.equal((await send(DAY1[4])).status, "accumulated");
    const turn = assertMessageResult(await send(DAY1[5]));
    assert.equal(turn.status, "extracted");
    assert.deepEqual([turn.episodes[0].cause, turn.episodes[0].reason, turn.episodes[0].messageIds], ["llm", "the talk turns to the budget", ["m4", "m5"]]);
    assert.deepEqual(pendingIds(turn), ["m6"]);
    assert.deepEqual(turn.memories.map((m) => m.memoryType).sort(), ["episodic", "event_log", "profile"]);
    const judged = userContent(chatCalls(server, BOUNDARY).at(-1));
    assert.match(judged, /Conversation so far \(oldest first\):\n\[2025-03-03T09:57:00\.000Z\] Bob: Has anyone tried/);
    assert.match(judged, /New message:\n\[2025-03-03T10:02:00\.000Z\] Carol: Budget question/);

    // Day 2: the overnight gap closes m6; flushGroup closes m7–m8.
    const morning = await send(DAY2[0]);
    assert.deepEqual([morning.episodes[0].cause, morning.episodes[0].messageIds], ["gap", ["m6"]]);
    const [budget] = morning.memories.filter((m) => m.memoryType === "foresight");
    assert.equal(budget.metadata.validUntil, "2025-03-31T21:59:59.000Z");
    assert.equal((await send(DAY2[1])).status, "accumulated");
    const flushed = assertMessageResult(await mem.flushGroup("rocket"));
    assert.deepEqual([flushed.status, flushed.episodes[0].cause, flushed.pendingMessages], ["extracted", "flush", []]);
    const moved = flushed.memories.find((m) => m.memoryType === "profile");
    assert.deepEqual([moved.event, moved.id, moved.oldMemory], ["UPDATE", alice.id, alice.memory]);

    const episodes = (await mem.getAll({ runId: "rocket", memoryTypes: ["episodic"] })).results;
    assert.deepEqual(episodes.map((m) => [m.metadata.startTime, m.metadata.endTime]), [
      ["2025-03-03T09:00:00.000Z", "2025-03-03T09:12:00.000Z"],
      ["2025-03-03T09:57:00.000Z", "2025-03-03T09:58:30.000Z"],
      ["2025-03-03T10:02:00.000Z", "2025-03-03T10:02:00.000Z"],
      ["2025-03-04T08:30:00.000Z", "2025-03-04T08:31:00.000Z"],
    ]);
    const profiles = (await mem.getAll({ userId: "alice", runId: "rocket", memoryTypes: ["profile"] })).results;
    assert.deepEqual(profiles.map((m) => m.memory), ["Profile of Alice (alice): location: Berlin"], "one profile per user and group");
    assert.deepEqual((await mem.history(alice.id)).map((r) => r.event), ["ADD", "UPDATE"]);
    assert.deepEqual(profiles[0].metadata.attributes, { location: "Berlin" });
    const found = await mem.search("coffee machine", { runId: "rocket", memoryTypes: ["event_log"], method: "keyword" });
    assert.deepEqual(found.results.map((m) => m.memory), COFFEE_FACTS);
  });
});

describe("the buffer", () => {
  test("a duplicate message id is ignored, before and after extraction", T, async () => {
    server.script([noBoundary(), episode("first words", { summary: "Alice said her first words." })]);
    const { send } = conversationMemory(server);
    const one = { ...G, messageId: "d1", createTime: "2025-03-03T09:00:00Z", sender: "alice", content: "first words" };
    await send(one);
    const calls = server.count("chat");
    const again = await send({ ...one, createTime: "2025-03-03T09:01:00Z", content: "first words, resent" });
    assert.deepEqual([again.duplicate, again.status, pendingIds(again), again.pendingMessages[0].content], [true, "accumulated", ["d1"], "first words"]);
    assert.equal(server.count("chat"), calls, "a duplicate costs no model call");
    const later = await send({ ...G, messageId: "d2", createTime: "2025-03-03T11:00:00Z", sender: "bob", content: "later on" });
    assert.deepEqual([later.status, later.episodes[0].messageIds], ["extracted", ["d1"]]);
    const resent = await send({ ...one, createTime: "2025-03-03T11:01:00Z" });
    assert.deepEqual([resent.duplicate, resent.count, pendingIds(resent)], [true, 0, ["d2"]]);
  });

  test("concurrent addMessage calls to one group lose nothing", T, async () => {
    server.script([noBoundary({ delayMs: 30 }), episode("msg", { summary: "A burst of messages." })]);
    const { mem, clock } = conversationMemory(server);
    clock.t = Date.parse("2025-03-03T09:10:00Z");
    const burst = ["c1", "c2", "c3", "c4"].map((id, i) =>
      mem.addMessage({ ...G, messageId: id, createTime: `2025-03-03T09:0${i}:00Z`, sender: "alice", content: `msg ${id}` }),
    );
    const results = await Promise.all(burst);
    assert.ok(results.every((r) => r.status === "accumulated" && r.warnings.length === 0), JSON.stringify(results));
    const flushed = await mem.flushGroup("rocket");
    assert.deepEqual([...flushed.episodes[0].messageIds].sort(), ["c1", "c2", "c3", "c4"]);
  });

  test("a restart over the same KV namespace sees the pending messages", T, async () => {
    server.script([noBoundary(), episode("kept across", { summary: "Two messages kept across a restart." })]);
    const kv = memoryKv();
    const clock = { t: Date.parse("2025-03-03T09:00:00Z") };
    const config = testConfig(server, { storage: { provider: "cloudflare-kv", binding: kv }, now: () => clock.t });
    const first = new Memory(config);
    await first.addMessage({ ...G, messageId: "k1", createTime: "2025-03-03T09:00:00Z", sender: "alice", content: "kept across a restart" });
    assert.ok([...kv.data.keys()].some((k) => k.includes("message-buffer")), [...kv.data.keys()].join(", "));
    const second = new Memory(config);
    const res = await second.addMessage({ ...G, messageId: "k2", createTime: "2025-03-03T09:01:00Z", sender: "bob", content: "still here" });
    assert.deepEqual(pendingIds(res), ["k1", "k2"]);
    assert.equal((await second.addMessage({ ...G, messageId: "k1", createTime: "2025-03-03T09:02:00Z", sender: "alice", content: "again" })).duplicate, true);
    const flushed = await new Memory(config).flushGroup("rocket");
    assert.deepEqual(flushed.episodes[0].messageIds, ["k1", "k2"]);
    assert.equal((await new Memory(config).getAll({ runId: "rocket" })).totalCount, 1);
  });

  test("without groupId a message goes to its sender's default group", T, async () => {
    server.script([episode("dentist", { summary: "Dave noted a dentist appointment.", profiles: [profileOf("dave", { dentist: "Dr. Who" })] })]);
    const { mem, send } = conversationMemory(server);
    const res = await send({ messageId: "x1", createTime: "2025-03-03T09:00:00Z", sender: "dave", content: "dentist on monday" });
    assert.equal(res.groupId, "default:dave");
    const flushed = await mem.flushGroup("default:dave");
    assert.equal(flushed.count, 2);
    const mine = (await mem.getAll({ userId: "dave" })).results;
    assert.deepEqual(mine.map((m) => [m.memoryType, m.userId, m.runId]).sort(), [
      ["episodic", "dave", "default:dave"],
      ["profile", "dave", "default:dave"],
    ]);
  });
});

describe("boundary config", () => {
  test("maxMessages and llm: false close by size with no judgement; maxGapMinutes sets the gap", T, async () => {
    server.script([episode("size", { summary: "Two messages." }), episode("gap", { summary: "One message." })]);
    const { send } = conversationMemory(server, { boundary: { maxMessages: 2, maxGapMinutes: 5, llm: false } });
    const base = { ...G, sender: "alice" };
    assert.equal((await send({ ...base, messageId: "s1", createTime: "2025-03-03T09:00:00Z", content: "size one" })).status, "accumulated");
    const full = await send({ ...base, messageId: "s2", createTime: "2025-03-03T09:01:00Z", content: "size two" });
    assert.deepEqual([full.episodes[0].cause, full.episodes[0].messageIds, full.pendingMessages], ["maxMessages", ["s1", "s2"], []]);
    await send({ ...base, messageId: "s3", createTime: "2025-03-03T09:02:00Z", content: "gap one" });
    const gap = await send({ ...base, messageId: "s4", createTime: "2025-03-03T09:08:00Z", content: "after six minutes" });
    assert.deepEqual([gap.episodes[0].cause, gap.episodes[0].messageIds], ["gap", ["s3"]]);
    assert.equal(chatCalls(server, BOUNDARY).length, 0);
  });

  test("bad boundary settings throw INVALID_CONFIG", T, async () => {
    for (const boundary of [{ maxGapMinutes: 0 }, { maxGapMinutes: -1 }, { maxMessages: 1.5 }, { maxTokens: 0 }, { maxTokens: "many" }, { llm: "yes" }, { gap: 3 }]) {
      throwsInvalidConfig(testConfig(server, { boundary }));
    }
    await rejectsWith(() => new Memory(testConfig(server)).flushGroup(42), "INVALID_INPUT");
  });
});
