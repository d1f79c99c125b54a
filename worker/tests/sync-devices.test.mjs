// Sync between devices through the Worker in workerd, as users run it: Node memories on SQLite files
// (`memory.sync({url, token, key})` over real HTTP), each writing offline, then syncing until every device
// holds the same memories and history; with faults on the way (a reply lost after the server stored a push,
// a pull cut, a wrong key, a changed ciphertext) and a look into the Durable Object's storage.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Memory } from "memwasm";
import { device } from "./sync-device.mjs";
import { startServer, startWorker } from "./helpers.mjs";

const ALICE = "tok-alice-0123456789";
const BOB = "tok-bob-0123456789";
const TOKENS = { [ALICE]: { tenant: "acme", user: "alice" }, [BOB]: { tenant: "acme", user: "bob" } };
const KEY = new Uint8Array(32).fill(7);

/** A scripted model server and the Worker (Durable Objects) for one test. */
async function rig(t, vars = {}) {
  const server = await startServer();
  const worker = await startWorker(server, { vars: { MEMORY_TOKENS: JSON.stringify(TOKENS), ...vars } });
  t.after(async () => {
    await worker.dispose();
    await server.close();
  });
  const url = String(await worker.mf.ready).replace(/\/$/, "");
  return { server, worker, url };
}

/** Every key and value in `tenant`'s Durable Object (the test-only `/__do/storage/` routes), as one text. */
async function objectDump(worker, tenant) {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const stub = namespace.get(namespace.idFromName(tenant));
  const ask = async (route, param) => {
    const url = `http://memwasm.internal/__do/storage/${route}?${new URLSearchParams(param)}`;
    const response = await stub.fetch(url, { headers: { "x-memwasm-tenant": tenant } });
    assert.equal(response.status, 200, await response.clone().text());
    return response.json();
  };
  const { keys } = await ask("list", { prefix: "" });
  const values = await Promise.all(keys.map(async (key) => (await ask("get", { key })).value));
  return keys.map((key, i) => `${key}\t${values[i]}`).join("\n");
}

const remember = (memory, text) => memory.add(text, { userId: "alice", infer: false }).then((r) => r.results[0].id);
const texts = async (memory) => (await memory.getAll({ userId: "alice" })).results.map((m) => m.memory).sort();

test("three devices that wrote offline end with the same memories, history and export", { timeout: 120_000 }, async (t) => {
  const { server, url } = await rig(t);
  const [laptop, cli, phone] = [await device(t, server, "laptop"), await device(t, server, "cli"), await device(t, server, "phone")];
  const options = { url, token: ALICE, key: KEY };
  await laptop.sync(options);
  const job = await remember(laptop, "Alice works at Acme");
  await laptop.sync(options);
  await cli.sync(options);
  // Offline: each device writes, and two of them change the same memory.
  await remember(laptop, "Alice likes green tea");
  await remember(cli, "Alice has a cat named Miso");
  await remember(phone, "Alice lives in Lisbon");
  await laptop.update(job, "Alice works at Globex");
  await cli.update(job, "Alice works at Initech");
  for (const memory of [cli, laptop, phone, cli, laptop]) await memory.sync(options);

  const expected = ["Alice has a cat named Miso", "Alice likes green tea", "Alice lives in Lisbon", "Alice works at Globex"];
  for (const memory of [laptop, cli, phone]) assert.deepEqual(await texts(memory), expected);
  const exports = await Promise.all([laptop, cli, phone].map((memory) => memory.exportMemories()));
  assert.equal(exports[1], exports[0], "the CLI's export is byte for byte the laptop's");
  assert.equal(exports[2], exports[0], "the phone's export is byte for byte the laptop's");
  const said = (await phone.history(job)).map((record) => record.newValue ?? record.new_value);
  assert.ok(said.includes("Alice works at Initech"), `the losing version stays in history: ${said}`);
  const report = await phone.sync(options);
  assert.deepEqual([report.pushed, report.pulled, report.pending], [0, 0, 0], "a sync with nothing new moves nothing");
});

test("a push whose reply is lost, and a pull cut halfway, are retried with nothing lost or doubled", { timeout: 120_000 }, async (t) => {
  const { server, url } = await rig(t);
  const [laptop, phone] = [await device(t, server, "laptop"), await device(t, server, "phone")];
  let cut = null; // "push-reply" drops the reply of the next push after the server took it; "pull" fails the next pull
  const flaky = async (input, init) => {
    const which = cut;
    if (which === "pull" && String(input).includes("/pull")) {
      cut = null;
      throw new TypeError("fetch failed: connection reset");
    }
    const response = await fetch(input, init);
    if (which === "push-reply" && String(input).includes("/push")) {
      cut = null;
      throw new TypeError("fetch failed: the reply was lost");
    }
    return response;
  };
  const options = { url, token: ALICE, key: KEY, fetch: flaky };
  await remember(laptop, "Alice likes green tea");
  cut = "push-reply";
  await assert.rejects(laptop.sync(options), { code: "SYNC_NETWORK" });
  assert.ok((await laptop.syncStatus()).pending > 0, "unacknowledged entries stay in the outbox");
  await laptop.sync(options);
  cut = "pull";
  await assert.rejects(phone.sync(options), { code: "SYNC_NETWORK" });
  await phone.sync(options);
  assert.deepEqual(await texts(phone), ["Alice likes green tea"]);
  assert.equal((await phone.history((await phone.getAll({ userId: "alice" })).results[0].id)).length, 1, "one ADD, not two");
});

test("the server keeps ciphertext only; a wrong key and a changed entry are refused with nothing applied", { timeout: 120_000 }, async (t) => {
  const { server, worker, url } = await rig(t);
  const [laptop, phone] = [await device(t, server, "laptop"), await device(t, server, "phone")];
  const secret = "Alice's door code is 4711";
  await laptop.add(secret, { userId: "alice", infer: false, metadata: { room: "pantry-9f3e" } });
  await laptop.sync({ url, token: ALICE, key: KEY });

  const dump = await objectDump(worker, "acme");
  assert.ok(dump.includes("sync/alice/"), "the object holds alice's log");
  for (const written of [secret, "4711", "pantry-9f3e", "room"]) assert.ok(!dump.includes(written), `${written} is not stored in the clear`);

  await remember(phone, "Alice likes rye bread");
  const before = await worker.call("GET", "/v1/sync", { token: ALICE });
  await assert.rejects(phone.sync({ url, token: ALICE, key: new Uint8Array(32).fill(8) }), { code: "SYNC_KEY" });
  const after = await worker.call("GET", "/v1/sync", { token: ALICE });
  assert.equal(after.body.entries, before.body.entries, "a wrong key pushes nothing the other devices could not read");
  await assert.rejects(phone.sync({ url, token: ALICE }), { code: "SYNC_KEY" }, "an encrypted log needs the key");
  const tamper = async (input, init) => {
    const response = await fetch(input, init);
    // The key check's one-entry pull passes untouched: the changed entries reach the apply.
    if (!String(input).includes("/pull") || /[?&]limit=1(&|$)/.test(String(input))) return response;
    const body = await response.json();
    for (const entry of body.entries.filter((e) => e.data !== null)) entry.data = entry.data.slice(0, -4) + (entry.data.endsWith("AAAA") ? "BBBB" : "AAAA");
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
  await assert.rejects(phone.sync({ url, token: ALICE, key: KEY, fetch: tamper }), { code: "SYNC_KEY" });
  assert.deepEqual(await texts(phone), ["Alice likes rye bread"], "nothing of a refused pull is applied");
  assert.equal((await phone.syncStatus()).checkpoint, 0);
  await phone.sync({ url, token: ALICE, key: KEY });
  assert.deepEqual(await texts(phone), ["Alice likes rye bread", secret]);
});

test("one user's token reaches only that user's log", { timeout: 120_000 }, async (t) => {
  const { server, url } = await rig(t);
  const [alice, bob] = [await device(t, server, "alice"), await device(t, server, "bob")];
  await remember(alice, "Alice likes green tea");
  await alice.sync({ url, token: ALICE, key: KEY });
  await bob.sync({ url, token: BOB, key: KEY });
  assert.deepEqual(await texts(bob), [], "Bob's log is his own");
  await assert.rejects(bob.sync({ url, token: BOB, key: KEY, userId: "alice" }), (error) => error.code === "SYNC_HTTP" && error.status === 403);
  await assert.rejects(bob.sync({ url, token: "tok-nobody-000000000", key: KEY }), (error) => error.code === "SYNC_HTTP" && error.status === 401);
});

test("a wiped log gets everything a device holds on its next sync", { timeout: 120_000 }, async (t) => {
  const { server, worker, url } = await rig(t);
  const [laptop, phone] = [await device(t, server, "laptop"), await device(t, server, "phone")];
  await remember(laptop, "Alice likes green tea");
  await laptop.sync({ url, token: ALICE, key: KEY });
  const wiped = await worker.call("DELETE", "/v1/sync", { token: ALICE });
  assert.equal(wiped.status, 200, JSON.stringify(wiped.body));
  const report = await laptop.sync({ url, token: ALICE, key: KEY });
  assert.equal(report.rebased, true);
  await phone.sync({ url, token: ALICE, key: KEY });
  assert.deepEqual(await texts(phone), ["Alice likes green tea"]);
});

test("bad sync options are coded errors", async () => {
  const memory = new Memory({ llm: { provider: "none" }, embedder: { provider: "openai", config: { baseUrl: "http://127.0.0.1:9", apiKey: "k", model: "m", dimensions: 8 } } });
  await assert.rejects(memory.sync({ url: "ftp://x", token: "t" }), { code: "INVALID_CONFIG" });
  await assert.rejects(memory.sync({ url: "http://127.0.0.1:9", token: "t", key: new Uint8Array(3) }), { code: "INVALID_CONFIG" });
  await assert.rejects(memory.sync({ url: "http://127.0.0.1:9", token: "t", key: KEY, passphrase: "long enough" }), { code: "INVALID_CONFIG" });
  await assert.rejects(memory.sync({ url: "http://127.0.0.1:9", token: "t", live: true }), { code: "INVALID_CONFIG" });
  await assert.rejects(memory.sync({ url: "http://127.0.0.1:9", token: "t", timeoutMs: 500 }), { code: "SYNC_NETWORK" });
});

test("two syncs of one memory at once (a manual sync beside syncLive's round) end as one would", { timeout: 120_000 }, async (t) => {
  const { server, url } = await rig(t);
  const [laptop, phone] = [await device(t, server, "laptop"), await device(t, server, "phone")];
  const options = { url, token: ALICE, key: KEY };
  for (let i = 0; i < 20; i++) await remember(laptop, `Alice noted fact ${i}`);
  await laptop.sync(options);
  await phone.sync(options); // from here each write of the phone is an entry of its own
  for (let i = 0; i < 5; i++) await remember(phone, `Alice's phone noted ${i}`);
  const reports = await Promise.all([phone.sync(options), phone.sync(options), laptop.sync(options)]);
  assert.equal(reports[0].pushed + reports[1].pushed, 5, "the phone's entries are pushed once between the two");
  await laptop.sync(options);
  await phone.sync(options);
  assert.equal((await texts(phone)).length, 25);
  assert.deepEqual(await texts(laptop), await texts(phone));
  const lines = (await phone.exportMemories()).trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(lines.filter((line) => line.kind === "history").length, 25, "one ADD per memory, none doubled");
  assert.equal(await phone.exportMemories(), await laptop.exportMemories());
});
