// The conversation API's reads of conversation memories (GET /memories and /memories/search): getAll with `groupId` or
// `memoryType` is a fetch by type (one type, default episodic, 40 per page, at most 500) with time ranges and
// pages; search takes a time range, `radius` (a cosine floor) and `currentTime` (foresight that ran out is
// dropped), never returns profiles, and caps `topK` at 100 with `groupId`. Bad options reject with a code
// before anything is read, and no model is called.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, addsFor, decision, rejectsWith, scriptedServer } from "./helpers.mjs";
import { conversationMemory, oneMessageEpisode, profileOf } from "./conversations-helpers.mjs";

const server = scriptedServer();

const day = (n) => `2025-01-${String(15 + n).padStart(2, "0")}T10:00:00Z`;
const TOPICS = ["topic 0 and coffee", "topic 1", "topic 2", "topic 3", "topic 4"];

/** Episodes of g1 from alice, 10:00 UTC on 15–19 January; the first also has an event-log fact, two plans (one
 * valid until 2025-01-16, one until 2025-02-01) and alice's profile. */
async function fiveDays() {
  const ctx = conversationMemory(server);
  server.script(decision("Alice drinks coffee daily", addsFor(["Alice drinks coffee daily"]), { times: 1 }));
  for (const [n, topic] of TOPICS.entries()) {
    const reply = n > 0 ? {} : {
      eventLog: ["Alice drinks coffee daily"],
      foresight: [
        { text: "Alice will buy coffee beans", valid_until: "2025-01-16" },
        { text: "Alice will repair the coffee machine", valid_until: "2025-02-01T00:00:00Z" },
      ],
      profiles: [profileOf("alice", { likes: "coffee" })],
    };
    await oneMessageEpisode(server, ctx, { messageId: `m${n}`, createTime: day(n), content: topic }, reply);
  }
  return ctx;
}

const texts = (res) => res.results.map((m) => m.memory);

describe("getAll as a fetch by type", () => {
  test("groupId: the group's episodic memories, oldest first, 40 a page; without it every type as before", T, async () => {
    const { mem } = await fiveDays();
    const page = await mem.getAll({ groupId: "g1" });
    assert.deepEqual(texts(page), TOPICS.map((t) => `Chat about ${t}`));
    assert.ok(page.results.every((m) => m.memoryType === "episodic" && m.runId === "g1"));
    assert.equal(page.totalCount, 5);
    assert.equal(page.hasMore, false);
    const all = await mem.getAll({ runId: "g1" });
    assert.equal(all.totalCount, 9, "episodes, the fact, two plans and the profile");

    const second = await mem.getAll({ group_id: "g1", limit: 2, offset: 2 });
    assert.deepEqual(texts(second), ["Chat about topic 2", "Chat about topic 3"]);
    assert.deepEqual([second.totalCount, second.hasMore], [5, true]);
    assert.deepEqual(texts(await mem.getAll({ groupId: "g1", memoryType: "event_log" })), ["Alice drinks coffee daily"]);
    const profile = await mem.getAll({ userId: "alice", groupId: "g1", memory_type: "profile" });
    assert.deepEqual(profile.results.map((m) => m.memoryType), ["profile"]);
    assert.equal((await mem.getAll({ userId: "__all__", groupId: "g1" })).totalCount, 5, '"__all__" is no id');
  });

  test("the default page is 40, a page is at most 500", T, async () => {
    const { mem } = conversationMemory(server);
    for (let n = 0; n < 45; n++) {
      await mem.add(`note ${n}`, { runId: "g2", infer: false, memoryType: "episodic" });
    }
    const page = await mem.getAll({ groupId: "g2" });
    assert.deepEqual([page.results.length, page.totalCount, page.hasMore], [40, 45, true]);
    assert.equal((await mem.getAll({ groupId: "g2", limit: 500 })).results.length, 45);
    assert.equal((await mem.getAll({ runId: "g2", limit: 1000 })).results.length, 45, "no cap without groupId or memoryType");
    assert.equal((await mem.getAll({ runId: "g2" })).results.length, 45, "the library's default of 100 stays");
  });

  test("startTime / endTime keep the memories whose time span overlaps them", T, async () => {
    const { mem } = await fiveDays();
    const range = await mem.getAll({ groupId: "g1", startTime: "2025-01-16T00:00:00Z", endTime: "2025-01-18T11:00:00+01:00" });
    assert.deepEqual(texts(range), ["Chat about topic 1", "Chat about topic 2", "Chat about topic 3"]);
    assert.equal(range.totalCount, 3);
    const late = await mem.getAll({ groupId: "g1", start_time: "2025-01-18T10:00:00+00:00" });
    assert.deepEqual(texts(late), ["Chat about topic 3", "Chat about topic 4"]);
    const early = await mem.getAll({ runId: "g1", end_time: "2025-01-15T12:00:00+02:00" });
    assert.equal(early.totalCount, 5, "day one's episode, fact, plans and profile: their span is 10:00 UTC");
  });
});

describe("search of conversation memories", () => {
  const keyword = (mem, extra = {}) => mem.search("coffee", { groupId: "g1", method: "keyword", ...extra });

  test("profiles are never searched; currentTime drops foresight that ran out; a time range narrows", T, async () => {
    const { mem } = await fiveDays();
    const all = await keyword(mem);
    assert.equal(all.results.length, 4, JSON.stringify(texts(all)));
    assert.ok(all.results.every((m) => m.memoryType !== "profile"));
    assert.equal(all.totalCount, 8, "the pool has no profile either");
    const now = await keyword(mem, { currentTime: "2025-01-20T00:00:00Z" });
    assert.equal(now.results.length, 3);
    assert.ok(!texts(now).includes("Alice will buy coffee beans"));
    assert.equal((await keyword(mem, { current_time: "2025-01-16T23:59:59Z" })).results.length, 4, "a date is valid all day");
    assert.equal((await keyword(mem, { startTime: "2025-01-16T00:00:00Z" })).results.length, 0);
    assert.equal((await keyword(mem, { endTime: "2025-01-15T10:00:00Z" })).results.length, 4);
  });

  test("radius is the lowest cosine of the vector ranking; hybrid keeps its keyword side", T, async () => {
    const { mem } = await fiveDays();
    const loose = await mem.search("coffee", { groupId: "g1", method: "vector", radius: 0 });
    const tight = await mem.search("coffee", { groupId: "g1", method: "vector", radius: 0.3 });
    assert.ok(tight.results.length > 0 && tight.results.length < loose.results.length, `${tight.results.length} of ${loose.results.length}`);
    assert.ok(tight.results.every((m) => m.score >= 0.3));
    assert.ok(loose.results.every((m) => m.score >= 0));
    assert.equal((await mem.search("coffee", { groupId: "g1", method: "vector", radius: 1 })).results.length, 0);
    const hybrid = await mem.search("coffee", { groupId: "g1", method: "hybrid", radius: 1 });
    assert.equal(hybrid.results.length, 4, "the four keyword hits");
  });

  test("radius with method keyword is accepted and changes nothing (keywords have no cosine)", T, async () => {
    const { mem } = await fiveDays();
    const plain = await mem.search("coffee", { groupId: "g1", method: "keyword" });
    const withRadius = await mem.search("coffee", { groupId: "g1", method: "keyword", radius: 0.9 });
    assert.ok(plain.results.length > 0);
    assert.deepEqual(withRadius.results.map((m) => [m.id, m.score]), plain.results.map((m) => [m.id, m.score]));
  });

  test("topK is at most 100 with groupId (the conversation API's cap), unlimited without", T, async () => {
    const { mem } = await fiveDays();
    assert.equal((await mem.search("coffee", { groupId: "g1", topK: 100 })).results.length, 8);
    assert.equal((await mem.search("coffee", { runId: "g1", topK: 101 })).results.length, 8);
  });
});

describe("bad options reject with a code, read nothing and call no model", () => {
  test("getAll and search", T, async () => {
    const { mem } = await fiveDays();
    const before = server.requests().length;
    const stats = await mem.stats();
    const cases = [
      [() => mem.getAll({ groupId: "g1", limit: 501 }), "INVALID_INPUT"],
      [() => mem.getAll({ groupId: "g1", top_k: 501 }), "INVALID_INPUT"],
      [() => mem.getAll({ groupId: "g1", startTime: "2025-01-15T10:00:00" }), "INVALID_INPUT"],
      [() => mem.getAll({ groupId: "g1", endTime: "2025-01-15" }), "INVALID_INPUT"],
      [() => mem.getAll({ groupId: "g1", startTime: day(2), endTime: day(1) }), "INVALID_INPUT"],
      [() => mem.getAll({ groupId: "g1", memoryType: "episodic_memory" }), "INVALID_INPUT"],
      [() => mem.getAll({ groupId: "g1", memoryType: "episodic", memoryTypes: ["episodic"] }), "INVALID_INPUT"],
      [() => mem.getAll({ userId: "__all__", groupId: "__all__" }), "SCOPE_REQUIRED"],
      [() => mem.getAll({ runId: "g1", groupId: "g2" }), "INVALID_INPUT"],
      [() => mem.getAll({ groupId: "g1", radius: 0.5 }), "INVALID_INPUT"],
      [() => mem.search("coffee", { groupId: "g1", topK: 101 }), "INVALID_INPUT"],
      [() => mem.search("coffee", { groupId: "g1", radius: 1.5 }), "INVALID_INPUT"],
      [() => mem.search("coffee", { groupId: "g1", radius: -0.1 }), "INVALID_INPUT"],
      [() => mem.search("coffee", { groupId: "g1", currentTime: "tomorrow" }), "INVALID_INPUT"],
      [() => mem.search("coffee", { groupId: "g1", startTime: "2025-01-15T10:00:00" }), "INVALID_INPUT"],
      [() => mem.search("coffee", { groupId: "g1", memoryTypes: ["profile"] }), "INVALID_INPUT"],
      [() => mem.search("coffee", { groupId: "g1", memoryTypes: ["habit"] }), "INVALID_INPUT"],
      [() => mem.search("coffee", { groupId: "g1", memoryType: "episodic" }), "INVALID_INPUT"],
      [() => mem.search("coffee", { user_id: "__all__", group_id: "__all__" }), "SCOPE_REQUIRED"],
      [() => mem.recall("coffee", { groupId: "g1", method: "agentic" }), "INVALID_INPUT"],
    ];
    for (const [call, code] of cases) await rejectsWith(call, code);
    assert.equal(server.requests().length, before, "no model or embedding request");
    assert.deepEqual(await mem.stats(), stats, "nothing changed");
  });
});
