// Conversation metadata (the conversation API's conversation-meta: save = upsert, get with the default config as fallback,
// patch of the updatable fields) and soft delete by filter (the conversation API's DELETE: eventId / userId / groupId, AND).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, addsFor, chatCalls, decision, rejectsWith, scriptedServer, userContent } from "./helpers.mjs";
import { EPISODE, conversationMemory, episode, noBoundary, profileOf } from "./conversations-helpers.mjs";

const server = scriptedServer();

const DEFAULT_META = {
  version: "1.0.0",
  scene: "assistant",
  scene_desc: { description: "Help desk", type: "support" },
  name: "Default config",
  created_at: "2025-01-01T00:00:00Z",
};
const TEAM_META = {
  version: "1.0.0",
  scene: "group_chat",
  sceneDesc: { description: "Project discussion group chat", type: "project_discussion" },
  name: "Engineering Team",
  description: "Backend team discussions",
  groupId: "group_123",
  createdAt: "2025-01-15T10:00:00+01:00",
  defaultTimezone: "America/New_York",
  userDetails: {
    alice: { fullName: "Alice Smith", role: "user", customRole: "Tech Lead" },
    bot: { full_name: "Helper", role: "assistant" },
  },
  tags: ["engineering", "backend"],
};

describe("conversation metadata", () => {
  test("saveConversationMeta upserts; getConversationMeta falls back to the default config", T, async () => {
    const { mem, clock } = conversationMemory(server);
    assert.equal(await mem.getConversationMeta("group_123"), null);
    assert.equal(await mem.getConversationMeta(), null);
    const saved = await mem.saveConversationMeta(DEFAULT_META);
    assert.deepEqual(
      { isDefault: saved.isDefault, sceneDesc: saved.sceneDesc, createdAt: saved.createdAt, updatedAt: saved.updatedAt },
      { isDefault: true, sceneDesc: DEFAULT_META.scene_desc, createdAt: "2025-01-01T00:00:00.000Z", updatedAt: new Date(clock.t).toISOString() },
    );
    const fallback = await mem.getConversationMeta("group_123");
    assert.deepEqual([fallback.isDefault, fallback.name, fallback.groupId], [true, "Default config", undefined]);

    const team = await mem.saveConversationMeta(TEAM_META);
    assert.deepEqual([team.isDefault, team.groupId, team.createdAt], [false, "group_123", "2025-01-15T09:00:00.000Z"]);
    assert.deepEqual(team.userDetails.bot, { fullName: "Helper", role: "assistant" });
    clock.t += 60_000;
    const again = await mem.saveConversationMeta({ ...TEAM_META, name: "Engineering" });
    assert.deepEqual([again.id, again.name, again.updatedAt], [team.id, "Engineering", new Date(clock.t).toISOString()]);
    assert.equal((await mem.getConversationMeta("group_123")).name, "Engineering");
    assert.equal((await mem.getConversationMeta()).name, "Default config");
  });

  test("updateConversationMeta changes only updatable fields and names them", T, async () => {
    const { mem, clock } = conversationMemory(server);
    await mem.saveConversationMeta(TEAM_META);
    clock.t += 3_600_000;
    const updated = await mem.updateConversationMeta({ groupId: "group_123", name: "Updated Team Name", tags: ["engineering", "python"] });
    assert.deepEqual(updated.updatedFields, ["name", "tags"]);
    assert.deepEqual([updated.name, updated.tags, updated.scene, updated.updatedAt], [
      "Updated Team Name", ["engineering", "python"], "group_chat", new Date(clock.t).toISOString(),
    ]);
    const details = await mem.updateConversationMeta({ group_id: "group_123", user_details: { bob: { fullName: "Bob Jones" } } });
    assert.deepEqual(details.updatedFields, ["userDetails"]);
    assert.deepEqual(Object.keys((await mem.getConversationMeta("group_123")).userDetails), ["bob"], "userDetails is replaced whole");
    for (const patch of [{ groupId: "group_123", scene: "assistant" }, { groupId: "group_123", version: "2" }, { groupId: "group_123" }, "name"]) {
      await rejectsWith(() => mem.updateConversationMeta(patch), "INVALID_INPUT");
    }
    await rejectsWith(() => mem.updateConversationMeta({ groupId: "nobody", name: "x" }), "NOT_FOUND");
    await rejectsWith(() => mem.updateConversationMeta({ name: "no default saved" }), "NOT_FOUND");
    assert.equal((await mem.getConversationMeta("group_123")).name, "Updated Team Name", "refused patches change nothing");
  });

  test("participants' names, roles and the scene reach the extraction prompt; assistants get no profile", T, async () => {
    server.script([
      noBoundary(),
      episode("schema migration", {
        summary: "Alice Smith and Helper discussed the schema migration.",
        profiles: [profileOf("alice", { focus: "schema migration" }), profileOf("bot", { model: "gpt" })],
      }),
    ]);
    const { mem, send } = conversationMemory(server);
    await mem.saveConversationMeta(TEAM_META);
    const base = { groupId: "group_123", createTime: "2025-01-15T10:00:00Z" };
    await send({ ...base, messageId: "1", sender: "alice", content: "Let's plan the schema migration" });
    await send({ ...base, messageId: "2", sender: "bot", content: "Sure, here is a plan", createTime: "2025-01-15T10:01:00Z" });
    const res = await mem.flushGroup("group_123");
    const prompt = userContent(chatCalls(server, EPISODE)[0]);
    assert.match(prompt, /Group: Engineering Team \(group_123\)\nScene: group_chat \(Project discussion group chat\)\n/);
    assert.match(prompt, /- alice: Alice Smith, Tech Lead\n- bot: Helper, AI assistant\n/);
    assert.match(prompt, /\[2025-01-15T10:00:00\.000Z\] Alice Smith: Let's plan the schema migration\n\[2025-01-15T10:01:00\.000Z\] Helper: Sure/);
    assert.deepEqual(res.memories.filter((m) => m.memoryType === "profile").map((m) => m.memory), ["Profile of Alice Smith (alice): focus: schema migration"]);
    assert.deepEqual(res.warnings.map((w) => w.code), ["INVALID_DECISION"], "the assistant's profile is ignored");
  });
});

describe("deleteMemories", () => {
  test("soft-deletes the memories matching every filter given: eventId, userId, groupId", T, async () => {
    const facts = ["Alice owns a red bike", "Alice drinks tea"];
    server.script([
      noBoundary(),
      episode("red bike", { summary: "Alice talked about her bike.", eventLog: facts, profiles: [profileOf("alice", { owns: "red bike" })] }, { times: 1 }),
      episode("second chat", { summary: "Bob joined.", profiles: [profileOf("bob", { likes: "tea" })] }, { times: 1 }),
      episode("other group", { summary: "Alice in another group.", profiles: [profileOf("alice", { owns: "blue car" })] }, { times: 1 }),
      decision(facts[0], addsFor(facts), { times: 1 }),
    ]);
    const { mem, send } = conversationMemory(server);
    const g1 = { groupId: "g1" };
    await send({ ...g1, messageId: "1", createTime: "2025-01-15T10:00:00Z", sender: "alice", content: "my red bike" });
    const first = await send({ ...g1, messageId: "2", createTime: "2025-01-16T10:00:00Z", sender: "bob", content: "second chat" });
    await mem.flushGroup("g1");
    await send({ groupId: "g2", messageId: "1", createTime: "2025-01-16T11:00:00Z", sender: "alice", content: "other group" });
    await mem.flushGroup("g2");
    const live = async (scope) => (await mem.getAll(scope)).totalCount;
    assert.deepEqual([await live({ runId: "g1" }), await live({ runId: "g2" })], [6, 2]);

    const byEvent = await mem.deleteMemories({ eventId: first.episodes[0].sessionId });
    assert.deepEqual(byEvent, { count: 3, filters: ["eventId"] }, "the episode's episodic and event-log memories; the profile stays");
    const byUserInGroup = await mem.deleteMemories({ user_id: "alice", group_id: "g1" });
    assert.deepEqual(byUserInGroup, { count: 1, filters: ["userId", "groupId"] });
    assert.equal(await live({ userId: "alice" }), 1, "alice's profile in g2 is untouched");
    const byGroup = await mem.deleteMemories({ groupId: "g2", eventId: "__all__" });
    assert.deepEqual(byGroup, { count: 2, filters: ["groupId"] });
    assert.deepEqual([await live({ runId: "g1" }), await live({ runId: "g2" })], [2, 0]);

    const deleted = (await mem.getAll({ runId: "g1", includeDeleted: true })).results.filter((m) => m.deletedAt);
    assert.equal(deleted.length, 4);
    assert.equal((await mem.history(deleted[0].id)).at(-1).event, "DELETE");
    await mem.restore(deleted[0].id);
    assert.equal(await live({ runId: "g1" }), 3, "a soft delete can be undone");
    assert.deepEqual(await mem.deleteMemories({ eventId: "no-such-event" }), { count: 0, filters: ["eventId"] });
  });
});
