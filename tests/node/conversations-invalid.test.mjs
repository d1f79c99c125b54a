// Message-by-message memory: bad input. Each bad message, metadata, filter or read option rejects with a coded
// error before anything is stored or any model is called.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, rejectsWith, scriptedServer } from "./helpers.mjs";
import { conversationMemory } from "./conversations-helpers.mjs";

const server = scriptedServer();

const GOOD = { messageId: "m1", createTime: "2025-03-03T09:00:00Z", sender: "alice", content: "hello", groupId: "g1" };

const BAD_MESSAGES = [
  ["a missing messageId", { messageId: undefined }],
  ["a blank messageId", { messageId: "  " }],
  ["a numeric messageId", { messageId: 7 }],
  ["a createTime without a time zone", { createTime: "2025-03-03T09:00:00" }],
  ["a createTime as a date alone", { createTime: "2025-03-03" }],
  ["an impossible createTime", { createTime: "2025-02-30T09:00:00Z" }],
  ["a createTime as a number", { createTime: Date.parse("2025-03-03T09:00:00Z") }],
  ["a missing sender", { sender: undefined }],
  ["empty content", { content: "" }],
  ["an unknown role", { role: "system" }],
  ["a referList that is not a list", { referList: "m0" }],
  ["an unknown key", { memoryType: "episodic" }],
  ["a typo'd key", { groupID: "g1" }],
];

/** Asserts that nothing is pending or stored and no model was called. */
async function assertNothingStored(mem, why) {
  const flushed = await mem.flushGroup("g1");
  assert.deepEqual([flushed.status, flushed.pendingMessages], ["accumulated", []], why);
  assert.equal((await mem.stats()).totalEntries, 0, why);
  assert.equal(server.count("chat") + server.count("embedding"), 0, `${why}: no model call`);
}

describe("addMessage refuses bad messages", () => {
  for (const [name, change] of BAD_MESSAGES) {
    test(`${name}: INVALID_INPUT, nothing stored`, T, async () => {
      const { mem } = conversationMemory(server);
      const message = { ...GOOD, ...change };
      for (const key of Object.keys(change)) if (change[key] === undefined) delete message[key];
      await rejectsWith(() => mem.addMessage(message), "INVALID_INPUT");
      await assertNothingStored(mem, name);
    });
  }

  test("not an object at all: INVALID_INPUT", T, async () => {
    const { mem } = conversationMemory(server);
    for (const bad of [undefined, "hello", 42, [GOOD]]) await rejectsWith(() => mem.addMessage(bad), "INVALID_INPUT");
    await assertNothingStored(mem, "non-objects");
  });

  test("an unknown memoryType in a read of conversation memories: INVALID_INPUT", T, async () => {
    const { mem } = conversationMemory(server);
    await rejectsWith(() => mem.getAll({ runId: "g1", memoryTypes: ["episodic_memory"] }), "INVALID_INPUT");
    await rejectsWith(() => mem.search("x", { runId: "g1", memoryTypes: ["habit"] }), "INVALID_INPUT");
  });
});

describe("deleteMemories refuses an empty filter", () => {
  for (const [name, filter] of [
    ["no argument", undefined],
    ["{}", {}],
    ["blank values", { userId: "", groupId: "  " }],
    ["only __all__", { eventId: "__all__", userId: "__all__", groupId: "__all__" }],
    ["an unknown key", { memoryType: "profile" }],
    ["a scope key it does not take", { runId: "g1" }],
  ]) {
    test(`${name}: INVALID_INPUT, nothing deleted`, T, async () => {
      const { mem } = conversationMemory(server);
      await mem.add("note", { runId: "g1", infer: false });
      await rejectsWith(() => mem.deleteMemories(filter), "INVALID_INPUT");
      assert.equal((await mem.getAll({ runId: "g1" })).totalCount, 1);
    });
  }
});

describe("conversation metadata refuses bad input", () => {
  const META = { version: "1", scene: "group_chat", sceneDesc: {}, name: "Team", createdAt: "2025-01-15T10:00:00Z", groupId: "g1" };
  for (const [name, change] of [
    ["a missing version", { version: undefined }],
    ["an unknown scene", { scene: "meeting" }],
    ["a missing sceneDesc", { sceneDesc: undefined }],
    ["a sceneDesc that is not an object", { sceneDesc: "chat" }],
    ["a blank name", { name: " " }],
    ["a createdAt without a time zone", { createdAt: "2025-01-15T10:00:00" }],
    ["an unknown user detail", { userDetails: { alice: { nickname: "Al" } } }],
    ["an unknown user role", { userDetails: { alice: { role: "admin" } } }],
    ["an unknown key", { owner: "alice" }],
  ]) {
    test(`${name}: INVALID_INPUT, nothing saved`, T, async () => {
      const { mem } = conversationMemory(server);
      const meta = { ...META, ...change };
      for (const key of Object.keys(change)) if (change[key] === undefined) delete meta[key];
      await rejectsWith(() => mem.saveConversationMeta(meta), "INVALID_INPUT");
      assert.equal(await mem.getConversationMeta("g1"), null);
    });
  }

  test("getConversationMeta takes a string group id", T, async () => {
    const { mem } = conversationMemory(server);
    await rejectsWith(() => mem.getConversationMeta(5), "INVALID_INPUT");
  });
});
