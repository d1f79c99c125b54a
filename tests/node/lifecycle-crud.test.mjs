// Memory lifecycle: soft deletion (delete(id, {soft}), deleteAll({…, soft}), restore(id),
// getAll({includeDeleted})), pagination (getAll's limit/offset → totalCount, hasMore; search's totalCount) and
// search by a caller's vector (search({embedding}, options)).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, texts, rejectsWith, scriptedServer, clockedMemory, START } from "./helpers.mjs";

const server = scriptedServer();

const iso = (ms) => new Date(ms).toISOString();
const axis = (i, dim = 64) => Array.from({ length: dim }, (_, j) => (j === i ? 1 : 0));

const clocked = (over) => clockedMemory(server, over);

async function remember(mem, text, options = {}) {
  const res = await mem.add(text, { userId: "u", infer: false, ...options });
  return res.results[0].id;
}

describe("soft delete and restore", () => {
  test("a soft-deleted memory is hidden from every read but getAll({includeDeleted}), until restored", T, async () => {
    const { mem, clock } = clocked();
    const id = await remember(mem, "User's old address is Elm Street");
    await remember(mem, "User moved to Oak Street");
    clock.t += 1000;
    assert.deepEqual(await mem.delete(id, { soft: true }), { message: "Memory deleted successfully!" });
    assert.equal(await mem.get(id), null);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["User moved to Oak Street"]);
    assert.deepEqual(texts((await mem.search("Street", { userId: "u" })).results), ["User moved to Oak Street"]);
    assert.deepEqual(texts((await mem.recall("Street", { userId: "u" })).memories), ["User moved to Oak Street"]);
    assert.equal((await mem.stats()).totalEntries, 1);
    const all = await mem.getAll({ userId: "u", includeDeleted: true });
    assert.equal(all.totalCount, 2);
    const deleted = all.results.find((m) => m.id === id);
    assert.equal(deleted.deletedAt, iso(START + 1000));
    assert.deepEqual((await mem.history(id)).map((r) => r.event), ["ADD", "DELETE"]);
    await rejectsWith(() => mem.delete(id), "NOT_FOUND", undefined);

    clock.t += 1000;
    assert.deepEqual(await mem.restore(id), { message: "Memory restored successfully!" });
    const back = await mem.get(id);
    assert.equal(back.deletedAt, undefined);
    assert.equal(back.updatedAt, iso(START + 2000));
    assert.deepEqual((await mem.history(id)).map((r) => r.event), ["ADD", "DELETE", "ADD"]);
    assert.equal((await mem.search("Elm", { userId: "u", method: "keyword" })).results[0].id, id);
  });

  test("a hard delete is final; restore refuses unknown and live memories", T, async () => {
    const { mem } = clocked();
    const id = await remember(mem, "User has a parrot");
    await rejectsWith(() => mem.restore(id), "INVALID_INPUT");
    await mem.delete(id);
    await rejectsWith(() => mem.restore(id), "NOT_FOUND");
    assert.deepEqual((await mem.getAll({ userId: "u", includeDeleted: true })).results, []);
    await rejectsWith(() => mem.restore("no-such-id"), "NOT_FOUND");
    await rejectsWith(() => mem.delete(id, { soft: "yes" }), "INVALID_INPUT");
    await rejectsWith(() => mem.delete(id, { hard: true }), "INVALID_INPUT");
  });

  test("deleteAll({soft}) marks every matching memory deleted, each restorable", T, async () => {
    const { mem } = clocked();
    const a = await remember(mem, "User likes jazz", { metadata: { tag: "music" } });
    const b = await remember(mem, "User likes blues", { metadata: { tag: "music" } });
    await remember(mem, "User likes chess", { metadata: { tag: "games" } });
    await mem.deleteAll({ userId: "u", filters: { tag: "music" }, soft: true });
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["User likes chess"]);
    const withDeleted = await mem.getAll({ userId: "u", includeDeleted: true });
    assert.deepEqual(texts(withDeleted.results), ["User likes blues", "User likes chess", "User likes jazz"]);
    await mem.restore(a);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["User likes chess", "User likes jazz"]);
    assert.deepEqual((await mem.history(b)).map((r) => r.event), ["ADD", "DELETE"]);
    await mem.deleteAll({ userId: "u" });
    const left = await mem.getAll({ userId: "u", includeDeleted: true });
    assert.deepEqual(texts(left.results), ["User likes blues"], "a hard deleteAll leaves soft-deleted ones alone");
  });

  test("includeDeleted and soft are options of their own calls only", T, async () => {
    const { mem } = clocked();
    await rejectsWith(() => mem.search("x", { userId: "u", includeDeleted: true }), "INVALID_INPUT");
    await rejectsWith(() => mem.getAll({ userId: "u", soft: true }), "INVALID_INPUT");
    await rejectsWith(() => mem.deleteAll({ userId: "u", includeDeleted: true }), "INVALID_INPUT");
    await rejectsWith(() => mem.deleteAll({ userId: "u", soft: "yes" }), "INVALID_INPUT");
  });
});

describe("pagination", () => {
  async function five() {
    const { mem, clock } = clocked();
    for (const n of [1, 2, 3, 4, 5]) {
      await remember(mem, `note number ${n}`);
      clock.t += 1000;
    }
    return mem;
  }

  test("getAll pages oldest first with totalCount and hasMore", T, async () => {
    const mem = await five();
    const page = async (limit, offset) => {
      const res = await mem.getAll({ userId: "u", limit, offset });
      return [res.results.map((m) => m.memory.at(-1)).join(""), res.totalCount, res.hasMore];
    };
    assert.deepEqual(await page(2, 0), ["12", 5, true]);
    assert.deepEqual(await page(2, 2), ["34", 5, true]);
    assert.deepEqual(await page(2, 4), ["5", 5, false]);
    assert.deepEqual(await page(5, 0), ["12345", 5, false]);
    assert.deepEqual(await page(3, 9), ["", 5, false]);
    assert.deepEqual(await page(undefined, 3), ["45", 5, false]);
    const topK = await mem.getAll({ userId: "u", topK: 1, offset: 1 });
    assert.deepEqual([texts(topK.results), topK.hasMore], [["note number 2"], true]);
  });

  test("totalCount counts what the filters and types keep", T, async () => {
    const mem = await five();
    await remember(mem, "a preference: User prefers notes", { metadata: { kind: "pref" } });
    const filtered = await mem.getAll({ userId: "u", filters: { kind: "pref" }, limit: 1 });
    assert.deepEqual([filtered.totalCount, filtered.hasMore], [1, false]);
    const procedural = await mem.getAll({ userId: "u", memoryTypes: ["semantic"], limit: 2 });
    assert.deepEqual([procedural.totalCount, procedural.hasMore], [5, true]);
  });

  test("search's totalCount is how many memories the ranking chose from, whatever the limit", T, async () => {
    const mem = await five();
    await remember(mem, "another user's note", { userId: "w" });
    const res = await mem.search("note", { userId: "u", limit: 2 });
    assert.equal(res.results.length, 2);
    assert.equal(res.totalCount, 5);
    const keyword = await mem.search("number 3", { userId: "u", method: "keyword", limit: 1 });
    assert.equal(keyword.totalCount, 5);
  });

  test("getAll's memories are those get() returns, field for field", T, async () => {
    const { mem, clock } = clocked();
    const metadata = { kind: "pref", nested: { list: [1, 2.5, -3e-7, null, true], big: 9007199254740993 }, text: "Grüße, 東京 \u2028 \"q\"" };
    const ids = [
      await remember(mem, "User likes tea ☕", { metadata }),
      await remember(mem, "User's helper notes", { agentId: "helper", runId: "r1", ttl: 3600, memoryType: "procedural" }),
      await remember(mem, "A pinned fact", { pinned: true, importance: 0.875 }),
    ];
    clock.t += 1000;
    await mem.update(ids[0], "User likes green tea ☕");
    const page = await mem.getAll({ userId: "u", limit: 10 });
    assert.deepEqual(page.results, await Promise.all(ids.map((id) => mem.get(id))));
    assert.deepEqual([page.totalCount, page.hasMore], [3, false]);
  });

  test("a negative, fractional or non-numeric offset is INVALID_INPUT; offset is getAll's alone", T, async () => {
    const mem = await five();
    for (const offset of [-1, 1.5, "2"]) {
      await rejectsWith(() => mem.getAll({ userId: "u", offset }), "INVALID_INPUT");
    }
    await rejectsWith(() => mem.search("note", { userId: "u", offset: 1 }), "INVALID_INPUT");
    await rejectsWith(() => mem.getAll({ userId: "u", limit: 0 }), "INVALID_INPUT");
  });
});

describe("search by vector", () => {
  test("search({embedding}) ranks by cosine to the caller's vector, without calling the embedder", T, async () => {
    const { mem } = clocked();
    const east = (await mem.store("east", "points east", { userId: "u", embedding: axis(0) })).id;
    const north = (await mem.store("north", "points north", { userId: "u", embedding: axis(1) })).id;
    const northeast = axis(0).map((x, i) => x + (i === 1 ? 2 : 0));
    await mem.store("other", "someone else's", { userId: "w", embedding: axis(1) });
    const before = server.count("embedding");
    const res = await mem.search({ embedding: northeast }, { userId: "u" });
    assert.equal(server.count("embedding"), before);
    assert.deepEqual(res.results.map((m) => m.id), [north, east]);
    assert.ok(Math.abs(res.results[0].score - 2 / Math.sqrt(5)) < 1e-5, String(res.results[0].score));
    assert.ok(Math.abs(res.results[1].score - 1 / Math.sqrt(5)) < 1e-5, String(res.results[1].score));
    assert.equal(res.method, "vector");
    assert.equal(res.totalCount, 2);
    const typed = await mem.search({ embedding: new Float32Array(axis(0)) }, { userId: "u", limit: 1, threshold: 0.5 });
    assert.deepEqual(typed.results.map((m) => m.id), [east]);
  });

  test("the vector must match the index; a malformed query is INVALID_INPUT", T, async () => {
    const { mem } = clocked();
    await mem.store("east", "points east", { userId: "u", embedding: axis(0) });
    await rejectsWith(() => mem.search({ embedding: axis(0, 3) }, { userId: "u" }), "DIMENSION_MISMATCH");
    await rejectsWith(() => mem.search({ embedding: [] }, { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.search({ vector: axis(0) }, { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.search(42, { userId: "u" }), "INVALID_INPUT");
    await rejectsWith(() => mem.search({ embedding: axis(0) }, {}), "SCOPE_REQUIRED");
  });
});
