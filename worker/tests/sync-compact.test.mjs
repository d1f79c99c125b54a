// Compaction of a user's sync log (/v1/sync/compact): once every active device has applied the log up to a
// point, a device uploads its state as a snapshot that replaces the entries (tombstones included) up to it;
// new devices start from the snapshot, a device away longer than SYNC_DEVICE_TTL_SECONDS is 409
// SYNC_COMPACTED and rebuilds, and the storage the log holds shrinks. First the protocol, then devices.
import assert from "node:assert/strict";
import { test } from "node:test";
import { device } from "./sync-device.mjs";
import { assertError, startServer, startWorker, T } from "./helpers.mjs";

const ALICE = "tok-alice-0123456789";
const TOKENS = { [ALICE]: { tenant: "acme", user: "alice" } };
const KEY = new Uint8Array(32).fill(7);

/** A scripted model server and the Worker (Durable Objects, one object per user) for one test. */
async function rig(t, vars = {}) {
  const server = await startServer();
  const worker = await startWorker(server, { vars: { STORAGE: "do", DO_SHARDS: "scope", MEMORY_TOKENS: JSON.stringify(TOKENS), ...vars } });
  t.after(async () => {
    await worker.dispose();
    await server.close();
  });
  const url = String(await worker.mf.ready).replace(/\/$/, "");
  return { server, worker, url };
}

/** The keys of alice's object (its own under scope sharding) under `prefix`. */
async function storedKeys(worker, prefix = "sync/alice/") {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const headers = { "x-memwasm-tenant": "acme", "x-memwasm-shard": "alice" };
  const stub = namespace.get(namespace.idFromName("\0" + "4\0acme\0alice"));
  const response = await stub.fetch(`http://memwasm.internal/__do/storage/list?prefix=${encodeURIComponent(prefix)}`, { headers });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()).keys;
}

const call = (worker, method, path, body) => worker.call(method, path, { token: ALICE, body });
async function ok(worker, method, path, body) {
  const response = await call(worker, method, path, body);
  assert.equal(response.status, 200, `${method} ${path}: ${JSON.stringify(response.body)}`);
  return response.body;
}
const pull = (worker, query) => ok(worker, "GET", `/v1/sync/pull?${new URLSearchParams(query)}`);
const entries = (from, to, prefix = "e") => Array.from({ length: to - from + 1 }, (_, i) => ({ n: from + i, data: `${prefix}${from + i}` }));
const entryKeys = (keys) => keys.filter((key) => /\/e\/\d+$/.test(key));

test("a snapshot replaces the entries every active device applied; new devices start from it", T, async (t) => {
  const { worker } = await rig(t, { SYNC_COMPACT_AFTER: "5" });
  await ok(worker, "POST", "/v1/sync/push", { clientId: "c1", entries: entries(1, 10) });
  await pull(worker, { since: 0, deviceId: "d1" }); // d1 has applied nothing yet
  const ahead = await pull(worker, { since: 0, deviceId: "d2" });
  assert.equal(ahead.compact, null, "d1 has not applied the log: no compaction");
  const early = await call(worker, "POST", "/v1/sync/compact", { deviceId: "d2", snapshotId: "snap1", upTo: 10, entries: entries(1, 3, "s"), total: 3 });
  assertError(early, 409, "SYNC_COMPACT_STALE");

  await pull(worker, { since: 10, deviceId: "d1" });
  const asked = await pull(worker, { since: 10, deviceId: "d2" });
  assert.equal(asked.compact, 10, "every device has applied 10 entries (5 or more past the floor 0)");
  const first = await ok(worker, "POST", "/v1/sync/compact", { deviceId: "d2", snapshotId: "snap1", upTo: 10, entries: entries(1, 2, "s") });
  assert.deepEqual([first.staged, first.compacted], [2, false]);
  const again = await ok(worker, "POST", "/v1/sync/compact", { deviceId: "d2", snapshotId: "snap1", upTo: 10, entries: entries(1, 2, "s") });
  assert.equal(again.staged, 2, "an upload sent twice is staged once");
  const short = await call(worker, "POST", "/v1/sync/compact", { deviceId: "d2", snapshotId: "snap1", upTo: 10, entries: [], total: 3 });
  assertError(short, 400, "INVALID_INPUT");
  const done = await ok(worker, "POST", "/v1/sync/compact", { deviceId: "d2", snapshotId: "snap1", upTo: 10, entries: entries(3, 3, "s"), total: 3 });
  assert.deepEqual([done.compacted, done.floor], [true, 10]);

  const status = await ok(worker, "GET", "/v1/sync");
  assert.deepEqual([status.head, status.floor, status.entries, status.bytes, status.mode], [10, 10, 3, 6, "relay"]);
  assert.deepEqual(entryKeys(await storedKeys(worker)), [], "the replaced entries are deleted");
  const replay = await ok(worker, "POST", "/v1/sync/push", { clientId: "c1", entries: entries(5, 5) });
  assert.equal(replay.accepted, 0, "an entry pushed again after compaction is still stored once");

  const fresh = await pull(worker, { since: 0, limit: 2, deviceId: "d3" });
  assert.deepEqual(fresh.entries.map((e) => [e.seq, e.clientId, e.n, e.data]), [[8, "snap1", 1, "s1"], [9, "snap1", 2, "s2"]]);
  assert.equal(fresh.more, true);
  const rest = await pull(worker, { since: 9, deviceId: "d3" });
  assert.deepEqual(rest.entries.map((e) => e.seq), [10]);
  assertError(await call(worker, "GET", "/v1/sync/pull?since=5&deviceId=d4"), 409, "SYNC_COMPACTED");
  assertError(await call(worker, "GET", "/v1/sync/pull?since=8&deviceId=d1"), 409, "SYNC_COMPACTED");

  // The next snapshot must sit above the floor: 2 new entries leave room for a snapshot of 2, not 3.
  await ok(worker, "POST", "/v1/sync/push", { clientId: "c1", entries: entries(11, 12) });
  const big = await call(worker, "POST", "/v1/sync/compact", { deviceId: "d2", snapshotId: "snap2", upTo: 12, entries: entries(1, 3, "t"), total: 3 });
  assertError(big, 409, "SYNC_COMPACT_STALE");
  for (const device of ["d1", "d3"]) await pull(worker, { since: 12, deviceId: device });
  await ok(worker, "POST", "/v1/sync/compact", { deviceId: "d2", snapshotId: "snap3", upTo: 12, entries: entries(1, 2, "u"), total: 2 });
  const keys = await storedKeys(worker);
  assert.deepEqual(keys.filter((key) => key.includes("/s/")).map((key) => key.split("/s/")[1]), ["snap3/00000000000000000001", "snap3/00000000000000000002"]);
  assert.deepEqual((await pull(worker, { since: 0 })).entries.map((e) => [e.seq, e.data]), [[11, "u1"], [12, "u2"]]);
});

test("bad compaction requests are coded errors and change nothing", T, async (t) => {
  const { worker } = await rig(t);
  await ok(worker, "POST", "/v1/sync/push", { clientId: "c1", entries: entries(1, 4) });
  const cases = [
    [{ snapshotId: "s", upTo: 4, entries: [] }, 400, "INVALID_INPUT"],
    [{ deviceId: "d", snapshotId: "bad id", upTo: 4, entries: [] }, 400, "INVALID_INPUT"],
    [{ deviceId: "d", snapshotId: "s", upTo: 0, entries: [] }, 400, "INVALID_INPUT"],
    [{ deviceId: "d", snapshotId: "s", upTo: 9, entries: [] }, 409, "SYNC_COMPACT_STALE"],
    [{ deviceId: "d", snapshotId: "s", upTo: 4, entries: [{ n: 1, data: "" }] }, 400, "INVALID_INPUT"],
    [{ deviceId: "d", snapshotId: "s", upTo: 4, entries: [], total: 0 }, 400, "INVALID_INPUT"],
    [{ deviceId: "d", snapshotId: "s", upTo: 4, entries: [], extra: 1 }, 400, "INVALID_INPUT"],
    [{ deviceId: "d", snapshotId: "s", upTo: 4, entries: entries(1, 5), total: 5 }, 409, "SYNC_COMPACT_STALE"],
  ];
  for (const [body, status, code] of cases) assertError(await call(worker, "POST", "/v1/sync/compact", body), status, code);
  const state = await ok(worker, "GET", "/v1/sync");
  assert.deepEqual([state.head, state.floor, state.entries], [4, 0, 4]);
  assert.deepEqual((await pull(worker, { since: 0 })).entries.map((e) => e.data), ["e1", "e2", "e3", "e4"]);

  // One upload at a time: another device's waits until this one is done (or given up).
  await ok(worker, "POST", "/v1/sync/compact", { deviceId: "d", snapshotId: "mine", upTo: 4, entries: entries(1, 1, "m") });
  const theirs = await call(worker, "POST", "/v1/sync/compact", { deviceId: "other", snapshotId: "theirs", upTo: 4, entries: entries(1, 1, "t") });
  assertError(theirs, 409, "SYNC_COMPACT_STALE");
  const mine = await ok(worker, "POST", "/v1/sync/compact", { deviceId: "d", snapshotId: "mine", upTo: 4, entries: entries(2, 2, "m"), total: 2 });
  assert.deepEqual([mine.compacted, mine.floor], [true, 4]);
  assert.deepEqual((await pull(worker, { since: 0 })).entries.map((e) => [e.seq, e.data]), [[3, "m1"], [4, "m2"]]);
});

const remember = (memory, text) => memory.add(text, { userId: "alice", infer: false }).then((r) => r.results[0].id);
const texts = async (memory) => (await memory.getAll({ userId: "alice" })).results.map((m) => m.memory).sort();

test("devices compact the log as they sync: storage shrinks, a new device starts from the snapshot with the same export", { timeout: 120_000 }, async (t) => {
  const { server, worker, url } = await rig(t, { SYNC_COMPACT_AFTER: "5" });
  const [laptop, phone] = [await device(t, server, "laptop"), await device(t, server, "phone")];
  const options = { url, token: ALICE, key: KEY };
  const ids = [];
  for (const food of ["tea", "rye bread", "olives", "figs", "soup", "plums"]) ids.push(await remember(laptop, `Alice likes ${food}`));
  await laptop.delete(ids[1]);
  await laptop.update(ids[2], "Alice likes green olives");
  await laptop.sync(options);
  await phone.sync(options);
  for (const food of ["pears", "leeks", "rice", "kale", "dates", "limes"]) await remember(phone, `Alice likes ${food}`);
  await phone.delete(ids[3]);
  await phone.sync(options);
  await phone.sync(options); // the server learns how far a device applied at its next pull
  const before = await ok(worker, "GET", "/v1/sync");
  const report = await laptop.sync(options);
  assert.ok(report.compacted, `the laptop compacted the log: ${JSON.stringify(report)}`);
  const after = await ok(worker, "GET", "/v1/sync");
  assert.equal(after.floor, report.compacted.upTo);
  assert.ok(after.entries < before.entries, `fewer entries stored: ${before.entries} → ${after.entries}`);
  assert.ok(after.bytes < before.bytes, `fewer bytes stored: ${before.bytes} → ${after.bytes}`);
  assert.equal(entryKeys(await storedKeys(worker)).length, after.head - after.floor, "only entries after the floor are kept");
  for (const deleted of ["rye bread", "figs"]) assert.ok(!(await storedKeys(worker)).some((key) => key.includes(deleted)));

  const tablet = await device(t, server, "tablet");
  await tablet.sync(options);
  await phone.sync(options);
  const expected = await texts(laptop);
  assert.equal(expected.length, 10);
  for (const memory of [phone, tablet]) assert.deepEqual(await texts(memory), expected);
  const exports = await Promise.all([laptop, phone, tablet].map((memory) => memory.exportMemories()));
  assert.equal(exports[2], exports[0], "the tablet, started from the snapshot, exports byte for byte what the laptop does");
  assert.equal(exports[1], exports[0]);
  const olives = (await tablet.history(ids[2])).map((record) => record.newValue ?? record.new_value);
  assert.deepEqual(olives, ["Alice likes olives", "Alice likes green olives"], "history travels in the snapshot");
});

test("a device away longer than the TTL is retired: the log is compacted past it, and it rebuilds on return with its offline writes kept", { timeout: 120_000 }, async (t) => {
  const { server, url } = await rig(t, { SYNC_COMPACT_AFTER: "2", SYNC_DEVICE_TTL_SECONDS: "2" });
  const [laptop, phone] = [await device(t, server, "laptop"), await device(t, server, "phone")];
  const options = { url, token: ALICE, key: KEY };
  const tea = await remember(laptop, "Alice likes tea");
  await laptop.sync(options);
  await phone.sync(options);
  const away = await phone.syncStatus();
  // The phone goes offline and writes; meanwhile the laptop deletes, writes, and compacts once the phone is retired.
  await remember(phone, "Alice has a cat named Miso");
  await laptop.delete(tea);
  for (const food of ["figs", "plums", "dates"]) await remember(laptop, `Alice likes ${food}`);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const compacted = await laptop.sync(options);
  assert.ok(compacted.compacted && compacted.compacted.upTo > away.checkpoint, `compacted past the phone: ${JSON.stringify(compacted.compacted)}`);

  const back = await phone.sync(options);
  assert.equal(back.rebuilt, true, "the phone rebuilt from the snapshot");
  await laptop.sync(options);
  const expected = ["Alice has a cat named Miso", "Alice likes dates", "Alice likes figs", "Alice likes plums"];
  assert.deepEqual(await texts(phone), expected, "the tea deleted while it was away is gone, its cat is kept");
  assert.deepEqual(await texts(laptop), expected);
  assert.equal(await phone.exportMemories(), await laptop.exportMemories());
});
