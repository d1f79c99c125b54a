// Sync between browsers and Node through the Worker in workerd: two headless Chromium contexts (Debian's, from
// tests/browser-crash/harness.mjs; each context its own IndexedDB) and a Node memory on SQLite, all calling
// `memory.sync()` over HTTP. Each device writes offline (the test cuts its network), then all sync until every
// device holds the same memories, history and graph, and byte-for-byte the same export; and a tab closed while
// it applies a large pull loses nothing and doubles nothing once a new tab syncs.
//
// The pages reach the Worker (another origin) through its CORS; the context's offline emulation cuts them. The
// embedder is a JS callback (the same on every device) that gets its vectors from the scripted server through
// Node: the browsers' own requests stay cut offline.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Memory } from "memwasm";
import { harness } from "../../tests/browser-crash/harness.mjs";
import { startWorker, tempDir } from "./helpers.mjs";

const ALICE = "tok-alice-0123456789";
const BOB = "tok-bob-0123456789";
const TOKENS = { [ALICE]: { tenant: "acme", user: "alice" }, [BOB]: { tenant: "acme", user: "bob" } };
const KEY = Array(32).fill(7);
const SCOPE = { userId: "alice" };

let h, worker, url, browser;
before(async () => {
  h = await harness();
  // Compaction only when asked (sync-compact.test.mjs): the closed-tab test needs its pull to come in pages.
  worker = await startWorker(h.llm, { vars: { MEMORY_TOKENS: JSON.stringify(TOKENS), SYNC_COMPACT_AFTER: "1000000" } });
  url = String(await worker.mf.ready).replace(/\/$/, "");
  browser = (await h.launch(h.profile())).context.browser();
});
after(async () => {
  await h?.close();
  await worker?.dispose();
});

/** Vectors of the scripted server (its default bag-of-tokens embedding, 64 dimensions). */
async function embed(texts) {
  const response = await fetch(`${h.llm.baseUrl}/embeddings`, {
    method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" },
    body: JSON.stringify({ model: "test-embed", input: texts, dimensions: 64 }) });
  assert.equal(response.status, 200);
  return (await response.json()).data.map((row) => row.embedding);
}

/** What an error thrown in a page or in Node looks like to the test: an Error with the library's code. */
const coded = ({ code, message }) => Object.assign(new Error(message), { code });

/** A browser device: a fresh context (its own IndexedDB), the requests it sends the Worker counted. */
async function browserDevice(name, token = ALICE) {
  const context = await browser.newContext();
  const device = { name, context, offline: false, forwarded: [] };
  await context.exposeFunction("embedVia", embed);
  await context.exposeFunction("applying", (call) => device.onApplying?.(call));
  context.on("request", (request) => {
    if (request.url().startsWith(url) && request.method() !== "OPTIONS") device.forwarded.push(new URL(request.url()).pathname);
  });
  device.cut = async (offline) => {
    device.offline = offline;
    await context.setOffline(offline);
  };
  device.open = async () => {
    const page = (device.page = await h.openPage(context));
    await page.evaluate(async ({ name, url, token, key }) => {
      window.memory = await window.memwasm.Memory.open({
        llm: { provider: "none" }, graph: { enabled: true }, embedder: { provider: "custom", dimensions: 64, embed: (texts) => window.embedVia(texts) },
        storage: { provider: "indexeddb", config: { dbName: `sync-${name}` } } });
      window.syncOptions = { url, token, key: new Uint8Array(key), timeoutMs: 20_000 };
    }, { name, url, token, key: KEY });
    return page;
  };
  device.call = async (method, ...args) => {
    const out = await device.page.evaluate(async ({ method, args }) => {
      try {
        return { value: await window.memory[method](...(method === "sync" ? [window.syncOptions] : args)) };
      } catch (error) {
        return { error: { code: error?.code, message: error?.message ?? String(error) } };
      }
    }, { method, args });
    if (out.error) throw coded(out.error);
    return out.value;
  };
  await device.open();
  return device;
}

/** The Node device: a memory on its own SQLite file; its sync's `fetch` fails while it is cut. */
async function nodeDevice(t, name, token = ALICE) {
  const memory = await Memory.open({
    llm: { provider: "none" }, graph: { enabled: true }, embedder: { provider: "custom", dimensions: 64, embed },
    storage: { provider: "sqlite", config: { path: join(tempDir(t), `${name}.db`) } } });
  t.after(() => memory.close());
  const device = { name, offline: false, cut: async (offline) => void (device.offline = offline) };
  const fetchVia = (input, init) => (device.offline ? Promise.reject(new TypeError("fetch failed: network is down")) : fetch(input, init));
  const options = { url, token, key: new Uint8Array(KEY), fetch: fetchVia, timeoutMs: 20_000 };
  device.call = (method, ...args) => (method === "sync" ? memory.sync(options) : memory[method](...args));
  return device;
}

/** `promise`, or a failure naming `what` after `ms`. */
async function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const remember = (device, text) => device.call("add", text, { ...SCOPE, infer: false }).then((r) => r.results[0].id);
const texts = async (device) => (await device.call("getAll", { ...SCOPE, limit: 5000 })).results.map((m) => m.memory).sort();
/** The graph as a device holds it: its entities and their relations, every field. */
async function graph(device) {
  const entities = (await device.call("getEntities", SCOPE)).results.sort((a, b) => a.name.localeCompare(b.name));
  const relations = new Map();
  for (const { name } of entities)
    for (const r of (await device.call("getRelations", name, SCOPE)).results) relations.set(`${r.source} -${r.relation}-> ${r.target}`, r);
  return { entities, relations: [...relations].sort(([a], [b]) => a.localeCompare(b)) };
}

test("two browsers and a Node process that wrote offline end with the same memories, history, graph and export", { timeout: 180_000 }, async (t) => {
  const laptop = await browserDevice("laptop");
  const tablet = await browserDevice("tablet");
  const cli = await nodeDevice(t, "cli");
  const devices = [laptop, tablet, cli];
  await laptop.call("sync");
  const job = await remember(laptop, "Alice works at Acme");
  for (const device of devices) await device.call("sync");
  for (const device of devices) assert.deepEqual(await texts(device), ["Alice works at Acme"], `${device.name} has the first memory`);

  for (const device of devices) await device.cut(true);
  for (const device of devices) await assert.rejects(device.call("sync"), { code: "SYNC_NETWORK" }, `${device.name} is cut off`);
  assert.equal(await laptop.page.evaluate(() => navigator.onLine), false);
  await remember(laptop, "Alice likes green tea");
  await remember(tablet, "Alice has a cat named Miso");
  await remember(cli, "Alice lives in Lisbon");
  await laptop.call("update", job, "Alice works at Globex");
  await tablet.call("update", job, "Alice works at Initech");
  await laptop.call("addToGraph", { relations: [{ source: "Alice", relation: "drinks", target: "Green tea" }] }, SCOPE);
  await cli.call("addToGraph", { entities: [{ name: "Lisbon", type: "location" }], relations: [{ source: "Alice", relation: "lives_in", target: "Lisbon" }] }, SCOPE);
  for (const device of devices) assert.ok((await device.call("syncStatus")).pending > 0, `${device.name} holds its offline writes`);

  for (const device of devices) await device.cut(false);
  for (const device of [tablet, laptop, cli, tablet, laptop]) await device.call("sync");

  const expected = ["Alice has a cat named Miso", "Alice likes green tea", "Alice lives in Lisbon", "Alice works at Globex"];
  for (const device of devices) assert.deepEqual(await texts(device), expected, `${device.name}'s memories`);
  const graphs = await Promise.all(devices.map(graph));
  assert.deepEqual(graphs[0].relations.map(([triple]) => triple), ["Alice -drinks-> Green Tea", "Alice -lives_in-> Lisbon"], "both offline graph writes arrived");
  for (const [i, device] of devices.entries()) assert.deepEqual(graphs[i], graphs[0], `${device.name}'s graph`);
  const said = (await cli.call("history", job)).map((record) => record.newValue ?? record.new_value);
  assert.ok(said.includes("Alice works at Initech") && said.includes("Alice works at Globex"), `both offline versions are in history: ${said}`);
  const exports = await Promise.all(devices.map((device) => device.call("exportMemories", {})));
  assert.ok(exports[0].includes("Alice works at Globex") && exports[0].includes("Alice works at Initech"));
  assert.equal(exports[1], exports[0], "the tablet's export is byte for byte the laptop's");
  assert.equal(exports[2], exports[0], "the CLI's export is byte for byte the laptop's");
  for (const device of devices) {
    const report = await device.call("sync");
    assert.deepEqual([report.pushed, report.pulled, report.pending], [0, 0, 0], `${device.name}: a sync with nothing new moves nothing`);
  }
  t.diagnostic(`laptop sent ${laptop.forwarded.length} requests to the Worker, the tablet ${tablet.forwarded.length}`);
  await Promise.all([laptop.context.close(), tablet.context.close()]);
});

const MANY = 1200;

test(`a tab closed while it applies a pull of ${MANY} memories loses nothing and doubles nothing`, { timeout: 240_000 }, async (t) => {
  const cli = await nodeDevice(t, "writer", BOB);
  const wanted = Array.from({ length: MANY }, (_, i) => `Bob noted fact number ${i}`);
  await cli.call("sync"); // sync on from here: each add is an entry of its own, so the pull comes in pages
  for (let i = 0; i < MANY; i += 100) await Promise.all(wanted.slice(i, i + 100).map((text) => remember(cli, text)));
  const pushed = await cli.call("sync");
  assert.equal(pushed.pending, 0);
  const reader = await browserDevice("reader", BOB);
  // The second page of the pull: the page tells Node as syncApply starts on it, and Node closes the tab then.
  await reader.page.evaluate(() => {
    const apply = window.memory.syncApply.bind(window.memory);
    let calls = 0;
    window.memory.syncApply = (logId, entries) => {
      if (++calls === 2) window.applying(entries.length);
      return apply(logId, entries);
    };
  });
  let closedAfter;
  const started = Date.now();
  const closed = new Promise((resolve) => (reader.onApplying = (n) => {
    closedAfter = Date.now() - started;
    return reader.page.close().then(() => resolve(n));
  }));
  const syncing = reader.call("sync").then(() => "finished", (error) => `failed: ${error.message}`);
  const entries = await within(closed, 60_000, "the second apply");
  assert.ok(entries > 0, "the page was applying a non-empty page of entries");
  assert.match(await syncing, /failed: .*(closed|Target)/i, "the sync did not finish: the tab went away under it");

  await reader.open();
  const cut = await reader.call("syncStatus");
  const partial = (await texts(reader)).length;
  t.diagnostic(`tab closed ${closedAfter} ms after the sync started, in an apply of ${entries} entries; ` +
    `left: checkpoint ${cut.checkpoint} of ${pushed.checkpoint}, ${partial} memories`);
  assert.ok(cut.checkpoint > 0 && cut.checkpoint < pushed.checkpoint, "the first page was applied and kept, not the whole pull");
  assert.equal(partial, cut.checkpoint, "the store holds exactly the entries its checkpoint says (an entry per memory)");
  await reader.call("sync");
  assert.deepEqual(await texts(reader), [...wanted].sort(), "every memory once after the next sync");
  const lines = (await reader.call("exportMemories", {})).trim().split("\n").map((line) => JSON.parse(line));
  const history = lines.filter((line) => line.kind === "history");
  assert.equal(history.length, MANY, "one history record per memory");
  assert.equal(new Set(history.map((record) => record.memoryId)).size, MANY);
  assert.ok(history.every((record) => record.event === "ADD"), "each an ADD");
  const report = await cli.call("sync");
  assert.deepEqual([report.pushed, report.pulled], [0, 0], "the reader sent nothing back");
  assert.equal(await reader.call("exportMemories", {}), await cli.call("exportMemories", {}), "the reader's export is byte for byte the writer's");
  await reader.context.close();
});
