// Memory lifecycle: TTL and expiry. Every test drives the injectable clock (`now` in the config); nothing
// sleeps. An expired memory is invisible to every read (search, getAll, get, recall, tools, the update
// decision's neighbours), getByKey tells EXPIRED from NOT_FOUND, and expired memories are deleted with a
// DELETE history record, by purgeExpired() or lazily by the reads that come across them.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  T,
  DECIDE,
  makeMemory,
  extraction,
  decision,
  addsFor,
  seed,
  texts,
  chatCalls,
  decisionPayload,
  rejectsWith,
  scriptedServer,
  clockedMemory,
  START,
} from "./helpers.mjs";

const server = scriptedServer();

const SECOND = 1000;
const iso = (ms) => new Date(ms).toISOString();

const clocked = (over) => clockedMemory(server, over);

/** Adds `text` verbatim (no LLM) for user `u`; returns its id. */
async function remember(mem, text, options = {}) {
  const res = await mem.add(text, { userId: "u", infer: false, ...options });
  assert.equal(res.results.length, 1, JSON.stringify(res));
  return res.results[0].id;
}

describe("ttl and expiresAt", () => {
  test("ttl sets expiresAt from the injected clock; timestamps come from it too", T, async () => {
    const { mem } = clocked();
    const id = await remember(mem, "Parking spot is level 3", { ttl: 90 * SECOND });
    const item = await mem.get(id);
    assert.equal(item.expiresAt, iso(START + 90 * SECOND));
    assert.equal(item.createdAt, iso(START));
    assert.equal(item.updatedAt, iso(START));
    const [added] = await mem.history(id);
    assert.equal(added.timestamp, iso(START));
    const forever = await remember(mem, "Home town is Lyon", { ttl: 0 });
    assert.equal((await mem.get(forever)).expiresAt, undefined, "ttl 0 means no expiry");
  });

  test("a clock that returns a Date works like one returning milliseconds", T, async () => {
    const clock = { t: START };
    const mem = makeMemory(server, { now: () => new Date(clock.t) });
    const id = await remember(mem, "Temporary code 4711", { ttl: SECOND });
    assert.equal((await mem.get(id)).createdAt, iso(START));
    clock.t += SECOND;
    assert.equal(await mem.get(id), null);
  });

  test("expiresAt (any zone) is normalised to UTC; the memory is live until that instant", T, async () => {
    const { mem, clock } = clocked();
    const id = await remember(mem, "Conference badge pickup", { expiresAt: "2025-01-01T02:00:00+01:00" });
    assert.equal((await mem.get(id)).expiresAt, "2025-01-01T01:00:00.000Z", "02:00 at +01:00 is 01:00 UTC");
    const later = await remember(mem, "Hotel checkout", { expiresAt: "2025-01-02T00:00:00Z" });
    clock.t = Date.parse("2025-01-01T23:59:59.999Z");
    assert.equal((await mem.get(later)).id, later, "live one millisecond before");
    clock.t += 1;
    assert.equal(await mem.get(later), null, "expired at the instant itself");
  });
});

describe("expired memories are invisible", () => {
  test("search, getAll, get, recall and the tools never show an expired memory", T, async () => {
    const { mem, clock } = clocked();
    const brief = await remember(mem, "User is visiting Paris this week", { ttl: 10 * SECOND });
    await remember(mem, "User lives in Paris");
    const before = await mem.search("Paris", { userId: "u" });
    assert.deepEqual(texts(before.results), ["User is visiting Paris this week", "User lives in Paris"]);

    clock.t += 10 * SECOND;
    const search = await mem.search("Paris", { userId: "u" });
    assert.deepEqual(texts(search.results), ["User lives in Paris"]);
    assert.equal(search.totalCount, 1);
    const byKeyword = await mem.search("visiting Paris", { userId: "u", method: "keyword" });
    assert.deepEqual(texts(byKeyword.results), ["User lives in Paris"]);
    const recalled = await mem.recall("Paris", { userId: "u" });
    assert.deepEqual(texts(recalled.memories), ["User lives in Paris"]);
    assert.ok(!recalled.text.includes("visiting"), recalled.text);
    const tool = await mem.tools({ userId: "u" }).runTool("search_memory", { query: "visiting Paris" });
    assert.deepEqual(texts(tool.results), ["User lives in Paris"]);
    const all = await mem.getAll({ userId: "u" });
    assert.deepEqual(texts(all.results), ["User lives in Paris"]);
    assert.equal(all.totalCount, 1);
    assert.equal(await mem.get(brief), null);
  });

  test("update keeps the expiry; once expired, update/delete/pin say NOT_FOUND and deleteByKey EXPIRED", T, async () => {
    const { mem, clock } = clocked();
    const id = await remember(mem, "Locker 12", { ttl: 10 * SECOND });
    await mem.update(id, "Locker 14");
    assert.equal((await mem.get(id)).expiresAt, iso(START + 10 * SECOND));
    await mem.store("door", "code 1234", { userId: "u", ttl: 10 * SECOND });
    clock.t += 10 * SECOND;
    await rejectsWith(() => mem.update(id, "Locker 16"), "NOT_FOUND");
    await rejectsWith(() => mem.delete(id), "NOT_FOUND");
    await rejectsWith(() => mem.pin(id), "NOT_FOUND");
    await rejectsWith(() => mem.deleteByKey("door", { userId: "u" }), "EXPIRED");
    await rejectsWith(() => mem.deleteByKey("door", { userId: "u" }), "NOT_FOUND");
  });

  test("the update decision is never shown an expired neighbour", T, async () => {
    const { mem, clock } = clocked();
    await seed(mem, server, ["User is in Rome for the weekend"], { userId: "u", ttl: 60 * SECOND });
    await seed(mem, server, ["User likes Rome"], { userId: "u" });
    clock.t += 60 * SECOND;
    const fact = "User loves Rome in spring";
    server.script([extraction("Rome in spring", [fact]), decision(fact, addsFor([fact]))]);
    await mem.add("I love Rome in spring", { userId: "u" });
    const { existing } = decisionPayload(chatCalls(server, DECIDE).at(-1));
    assert.deepEqual(existing.map((e) => e.text), ["User likes Rome"]);
  });

  test("add() with ttl through the LLM path gives every new fact the same expiry", T, async () => {
    const { mem } = clocked();
    const facts = ["User has a dentist appointment", "User needs to buy milk"];
    const res = await seed(mem, server, facts, { userId: "u", ttl: 3600 * SECOND });
    for (const { id } of res.results) assert.equal((await mem.get(id)).expiresAt, iso(START + 3600 * SECOND));
  });

  test("after expiry the same text can be added again as a new memory", T, async () => {
    const { mem, clock } = clocked();
    const first = await remember(mem, "Gate B12", { ttl: SECOND });
    clock.t += SECOND;
    const second = await mem.add("Gate B12", { userId: "u", infer: false });
    assert.equal(second.results[0].event, "ADD");
    assert.notEqual(second.results[0].id, first);
  });
});

describe("getByKey: EXPIRED vs NOT_FOUND", () => {
  test("a key whose TTL ran out rejects EXPIRED once, then NOT_FOUND (it was purged)", T, async () => {
    const { mem, clock } = clocked();
    const { id } = await mem.store("session", "token abc", { userId: "u", ttl: 5 * SECOND });
    assert.equal((await mem.getByKey("session", { userId: "u" })).memory, "token abc");
    clock.t += 5 * SECOND;
    await rejectsWith(() => mem.getByKey("session", { userId: "u" }), "EXPIRED");
    await rejectsWith(() => mem.getByKey("session", { userId: "u" }), "NOT_FOUND");
    await rejectsWith(() => mem.getByKey("never-stored", { userId: "u" }), "NOT_FOUND");
    const events = (await mem.history(id)).map((r) => r.event);
    assert.deepEqual(events, ["ADD", "DELETE"]);
  });

  test("a key of another scope is NOT_FOUND", T, async () => {
    const { mem } = clocked();
    await mem.store("k", "v", { userId: "u" });
    await rejectsWith(() => mem.getByKey("k", { userId: "someone-else" }), "NOT_FOUND");
  });
});

describe("purging", () => {
  test("purgeExpired deletes expired memories of the scope, each with a DELETE at the clock's time", T, async () => {
    const { mem, clock } = clocked();
    const a = await remember(mem, "Flight AB123 boards at 9", { ttl: 10 * SECOND });
    const b = await remember(mem, "Taxi number 42", { ttl: 20 * SECOND });
    const other = (await mem.add("Code 99", { userId: "w", infer: false, ttl: SECOND })).results[0].id;
    await remember(mem, "User's passport is blue");
    clock.t += 15 * SECOND;
    assert.equal((await mem.stats({ userId: "u" })).expired, 1, "stats counts expired-but-not-purged");
    assert.deepEqual(await mem.purgeExpired({ userId: "u" }), { purged: 1 });
    const history = await mem.history(a);
    assert.deepEqual(history.map((r) => r.event), ["ADD", "DELETE"]);
    assert.equal(history[1].timestamp, iso(START + 15 * SECOND));
    assert.equal(history[1].isDeleted, true);
    assert.equal(history[1].oldValue, "Flight AB123 boards at 9");
    assert.deepEqual((await mem.history(other)).map((r) => r.event), ["ADD"], "other scopes untouched");
    assert.deepEqual(await mem.purgeExpired({ userId: "u" }), { purged: 0 });

    clock.t += 5 * SECOND;
    assert.deepEqual(await mem.purgeExpired(), { purged: 2 }, "no scope: every scope");
    assert.deepEqual((await mem.history(b)).map((r) => r.event), ["ADD", "DELETE"]);
    const stats = await mem.stats();
    assert.equal(stats.expired, 0);
    assert.equal(stats.totalEntries, 1);
  });

  test("get() purges the expired memory it comes across", T, async () => {
    const { mem, clock } = clocked();
    const id = await remember(mem, "Wifi password hunter2", { ttl: SECOND });
    clock.t += 2 * SECOND;
    assert.equal(await mem.get(id), null);
    const history = await mem.history(id);
    assert.deepEqual(history.map((r) => r.event), ["ADD", "DELETE"]);
    assert.equal(history[1].timestamp, iso(START + 2 * SECOND));
    assert.deepEqual(await mem.purgeExpired(), { purged: 0 }, "already purged");
  });

  test("getAll() purges every expired memory of its scope", T, async () => {
    const { mem, clock } = clocked();
    const ids = [await remember(mem, "one-off A", { ttl: SECOND }), await remember(mem, "one-off B", { ttl: SECOND })];
    await remember(mem, "keeper");
    clock.t += SECOND;
    assert.equal((await mem.stats()).expired, 2);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["keeper"]);
    assert.equal((await mem.stats()).expired, 0);
    for (const id of ids) assert.deepEqual((await mem.history(id)).map((r) => r.event), ["ADD", "DELETE"]);
  });

  test("a memory that expires stays counted until then, and a clock moved back revives nothing purged", T, async () => {
    const { mem, clock } = clocked();
    const id = await remember(mem, "Ephemeral note", { ttl: 10 * SECOND });
    clock.t += 9 * SECOND;
    assert.equal((await mem.stats()).totalEntries, 1);
    clock.t += SECOND;
    assert.equal((await mem.stats()).totalEntries, 0);
    assert.equal(await mem.get(id), null);
    clock.t = START;
    assert.equal(await mem.get(id), null, "purged for good");
  });
});
