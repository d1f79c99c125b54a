// Who owns a group's memories, through the package: what a group conversation yields (episodes, event log,
// plans) belongs to the group and each participant reads all of it; a participant's
// deleteMemories({userId, groupId}) deletes their own memories and takes them off the shared ones, which the
// others still read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, addsFor, decision, scriptedServer } from "./helpers.mjs";
import { conversationMemory, episode, noBoundary, profileOf } from "./conversations-helpers.mjs";

const server = scriptedServer();
const FACT = "The launch review moved to Thursday";
const PLAN = "Bob will prepare the slides by Wednesday";
const TYPES = ["episodic", "event_log", "foresight"];

async function launchEpisode() {
  server.script([
    noBoundary(),
    episode("launch review", {
      summary: "Alice and Bob planned the launch review.",
      eventLog: [FACT],
      foresight: [{ text: PLAN, valid_until: "2025-01-22" }],
      profiles: [profileOf("alice", { role: "PM" }), profileOf("bob", { role: "designer" })],
    }, { times: 1 }),
    decision(FACT, addsFor([FACT]), { times: 1 }),
  ]);
  const ctx = conversationMemory(server);
  await ctx.send({ groupId: "g1", messageId: "m1", createTime: "2025-01-15T10:00:00Z", sender: "alice", content: "The launch review moved to Thursday." });
  await ctx.send({ groupId: "g1", messageId: "m2", createTime: "2025-01-15T10:01:00Z", sender: "bob", content: "I'll prepare the slides." });
  await ctx.mem.flushGroup("g1");
  return ctx.mem;
}

/** What `userId` reads of g1, by type. */
const readAs = async (mem, userId) =>
  Promise.all(TYPES.map(async (memoryType) => (await mem.getAll({ userId, groupId: "g1", memoryType })).results.map((m) => m.memory)));

const EVERYTHING = [["Alice and Bob planned the launch review."], [FACT], [PLAN]];

test("a participant reads the group's episodes, event log and plans; carol, who did not take part, none", T, async () => {
  const mem = await launchEpisode();
  assert.deepEqual(await readAs(mem, "bob"), EVERYTHING);
  assert.deepEqual(await readAs(mem, "carol"), [[], [], []]);
  const found = await mem.search("launch review Thursday", { userId: "bob", groupId: "g1", memoryTypes: TYPES, method: "keyword" });
  assert.ok(found.results.some((m) => m.memory === FACT), JSON.stringify(found.results.map((m) => m.memory)));
});

test("a participant's delete takes their profile and membership; the others still read the group's memories", T, async () => {
  const mem = await launchEpisode();
  const res = await mem.deleteMemories({ userId: "alice", groupId: "g1" });
  assert.deepEqual(res, { count: 1, left: 3, filters: ["userId", "groupId"] });
  assert.deepEqual(await readAs(mem, "bob"), EVERYTHING, "bob still reads them");
  assert.deepEqual(await readAs(mem, "alice"), [[], [], []]);
  assert.equal((await mem.getAll({ userId: "alice", groupId: "g1", memoryType: "profile" })).totalCount, 0);
  assert.equal((await mem.getAll({ userId: "bob", groupId: "g1", memoryType: "profile" })).totalCount, 1);
});
