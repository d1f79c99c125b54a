// Memory lifecycle: reflections(scope) (the scope's keys `reflection:*`), share({from, to, pattern}) (copy
// the keyed memories of one scope whose key matches a glob — `*` any run, `?` one character — into another)
// and stats(scope?) ({totalEntries, byScope, byType, pinned, expired}).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, texts, rejectsWith, scriptedServer, clockedMemory, START } from "./helpers.mjs";

const server = scriptedServer();

const iso = (ms) => new Date(ms).toISOString();

const clocked = (over) => clockedMemory(server, over);

const A = { agentId: "teacher" };
const B = { agentId: "student" };

describe("reflections", () => {
  test("the scope's live keys starting with reflection:, oldest first", T, async () => {
    const { mem, clock } = clocked();
    await mem.store("reflection:session_2", "Ask before refactoring", { ...A });
    clock.t += 1000;
    await mem.store("reflection:session_1", "Tests caught the bug", { ...A });
    await mem.store("reflection:old", "Expired lesson", { ...A, ttl: 500 });
    await mem.store("lesson_1", "Not a reflection", { ...A });
    await mem.store("Reflection:caps", "Case matters", { ...A });
    await mem.store("reflection:other_agent", "Someone else's", { ...B });
    await mem.add("reflection: not keyed", { ...A, infer: false });
    clock.t += 500;
    const { results } = await mem.reflections(A);
    assert.deepEqual(results.map((m) => [m.key, m.memory]), [
      ["reflection:session_2", "Ask before refactoring"],
      ["reflection:session_1", "Tests caught the bug"],
    ]);
    assert.deepEqual(await mem.reflections({ agentId: "nobody" }), { results: [] });
    await rejectsWith(() => mem.reflections({}), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.reflections({ ...A, limit: 1 }), "INVALID_INPUT");
  });

  test("a reflection carries mem0's scope ids, as every memory a call resolves with does", T, async () => {
    const { mem } = clocked();
    const scope = { userId: "alice", agentId: "teacher", runId: "r1" };
    await mem.store("reflection:session_1", "Ask before refactoring", scope);
    const [reflection] = (await mem.reflections(scope)).results;
    assert.deepEqual(reflection, await mem.getByKey("reflection:session_1", scope));
    assert.deepEqual([reflection.user_id, reflection.agent_id, reflection.run_id], ["alice", "teacher", "r1"]);
  });
});

describe("share", () => {
  async function teacher() {
    const rig = clocked();
    for (const [key, value] of [
      ["lesson_1", "Use early returns"],
      ["lesson_22", "Name things by intent"],
      ["lessons_x", "Plural key"],
      ["other", "Unrelated"],
    ]) {
      await rig.mem.store(key, value, { ...A, importance: 0.7 });
    }
    return rig;
  }

  test("copies the keys matching a * glob into the target scope, each with an ADD record", T, async () => {
    const { mem, clock } = await teacher();
    clock.t += 1000;
    assert.deepEqual(await mem.share({ from: A, to: B, pattern: "lesson_*" }), { copied: 2 });
    const copy = await mem.getByKey("lesson_22", B);
    assert.equal(copy.memory, "Name things by intent");
    assert.equal(copy.agentId, "student");
    assert.equal(copy.importance, 0.7, "lifecycle fields travel with the copy");
    assert.equal(copy.createdAt, iso(START + 1000));
    const original = await mem.getByKey("lesson_22", A);
    assert.notEqual(copy.id, original.id);
    assert.deepEqual((await mem.history(copy.id)).map((r) => [r.event, r.newValue, r.agentId]), [
      ["ADD", "Name things by intent", "student"],
    ]);
    await rejectsWith(() => mem.getByKey("lessons_x", B), "NOT_FOUND");
    await rejectsWith(() => mem.getByKey("other", B), "NOT_FOUND");
    assert.equal((await mem.stats(A)).totalEntries, 4, "the source keeps its memories");
  });

  test("? matches one character; a key already in the target is replaced with an UPDATE", T, async () => {
    const { mem } = await teacher();
    const mine = await mem.store("lesson_1", "My own note", { ...B });
    assert.deepEqual(await mem.share({ from: A, to: B, pattern: "lesson_?" }), { copied: 1 });
    const replaced = await mem.getByKey("lesson_1", B);
    assert.equal(replaced.id, mine.id);
    assert.equal(replaced.memory, "Use early returns");
    assert.deepEqual((await mem.history(mine.id)).map((r) => [r.event, r.oldValue, r.newValue]), [
      ["ADD", null, "My own note"],
      ["UPDATE", "My own note", "Use early returns"],
    ]);
    assert.deepEqual(await mem.share({ from: A, to: B, pattern: "lesson_??" }), { copied: 1 });
    assert.deepEqual(await mem.share({ from: A, to: B, pattern: "missing*" }), { copied: 0 });
    assert.deepEqual(await mem.share({ from: A, to: B, pattern: "*" }), { copied: 4 });
    assert.equal((await mem.stats(B)).totalEntries, 4);
  });

  test("expired and unkeyed memories are not shared; copies keep their vectors", T, async () => {
    const { mem, clock } = clocked();
    await mem.store("tip_a", "Drink water hourly", { ...A, ttl: 1000 });
    await mem.store("tip_b", "Stretch every morning", { ...A });
    await mem.add("Unkeyed tip", { ...A, infer: false });
    clock.t += 1000;
    assert.deepEqual(await mem.share({ from: A, to: B, pattern: "*" }), { copied: 1 });
    const found = await mem.search("Stretch every morning", { ...B, method: "vector" });
    assert.deepEqual(texts(found.results), ["Stretch every morning"]);
    assert.ok(found.results[0].score > 0.99, `same vector: ${found.results[0].score}`);
  });

  test("a malformed pattern or scope is a coded error and copies nothing", T, async () => {
    const { mem } = await teacher();
    for (const pattern of ["", "a\u0000b", "x".repeat(257)]) {
      await rejectsWith(() => mem.share({ from: A, to: B, pattern }), "INVALID_INPUT");
    }
    await rejectsWith(() => mem.share({ from: A, to: B }), "INVALID_INPUT");
    await rejectsWith(() => mem.share({ from: A, to: B, pattern: 5 }), "INVALID_INPUT");
    await rejectsWith(() => mem.share({ from: A, to: B, pattern: "*", soft: true }), "INVALID_INPUT");
    await rejectsWith(() => mem.share({ from: {}, to: B, pattern: "*" }), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.share({ from: A, to: {}, pattern: "*" }), "SCOPE_REQUIRED");
    await rejectsWith(() => mem.share({ from: A, pattern: "*" }), "INVALID_INPUT");
    assert.equal((await mem.stats(B)).totalEntries, 0);
  });
});

describe("stats", () => {
  test("counts live memories by scope and type, pinned ones, and expired ones not yet purged", T, async () => {
    const { mem, clock } = clocked();
    await mem.add("User prefers tabs", { userId: "u", infer: false });
    await mem.add("User met Ana", { userId: "u", infer: false, memoryType: "episodic", pinned: true });
    await mem.add("Agent note", { userId: "u", agentId: "a", infer: false });
    await mem.store("pass", "gate code 9", { userId: "w", ttl: 1000 });
    const hidden = (await mem.add("Soft deleted", { userId: "w", infer: false })).results[0].id;
    await mem.delete(hidden, { soft: true });
    clock.t += 1000;
    const zero = { semantic: 0, episodic: 0, procedural: 0, working: 0, profile: 0, foresight: 0, event_log: 0 };
    const { byScope, ...counts } = await mem.stats();
    assert.deepEqual(counts, {
      totalEntries: 3,
      byType: { ...zero, semantic: 1, episodic: 1, procedural: 1 },
      pinned: 1,
      expired: 1,
      keyed: 0,
      keywordOnly: 0,
    });
    assert.deepEqual(
      byScope.map((s) => [s.userId, s.agentId, s.runId, s.count]).sort(),
      [["u", undefined, undefined, 2], ["u", "a", undefined, 1]],
      "one entry per exact scope; w has nothing live",
    );
    const u = await mem.stats({ userId: "u" });
    assert.equal(u.totalEntries, 3, "a scope covers its narrower scopes");
    const ua = await mem.stats({ userId: "u", agentId: "a" });
    assert.deepEqual([ua.totalEntries, ua.pinned, ua.byType.semantic], [1, 0, 1]);
    assert.deepEqual(await mem.stats({}), await mem.stats(), "{} is every memory");
    const w = await mem.stats({ userId: "w" });
    assert.deepEqual([w.totalEntries, w.expired, w.byScope], [0, 1, []]);
    await rejectsWith(() => mem.stats({ userId: "u", limit: 2 }), "INVALID_INPUT");
    await mem.store("editor", "Helix", { userId: "u" });
    const keyed = await mem.stats({ userId: "u" });
    assert.deepEqual([keyed.totalEntries, keyed.keyed, keyed.byScope.find((s) => !s.agentId).keyed], [4, 1, 1]);
  });
});
