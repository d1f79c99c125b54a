// The upgrade of a schema version 5 database (history one record per entry) to version 6 (history in
// batches): the page builds the version 5 layout with raw IndexedDB calls (stores, indexes and records as
// version 5 wrote them: 300 memories of a realistic export with their vectors in one chunk, 600 history
// entries, more than one batch), then `Memory.open` upgrades it. The same from version 4 (vectors inline
// in the memory records), where both upgrades run in one go. Every memory and every history entry
// comes back: export equals the expected file byte for byte and `history(id)` gives each memory's entries
// oldest first. A database whose upgrade cannot finish (an entry that cannot be written as JSON) fails to
// open with a coded error (and a warning naming the entry) and is left at version 5 exactly as it was.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./harness.mjs";
import { readExport } from "../../bench/lib/export-file.mjs";

const N = 300;
const { memories: MEMORIES, history: ADDED } = readExport(N);
/** Two entries per memory: the file's ADD, then an UPDATE that leaves the text as it is. */
const HISTORY = [...ADDED,
  ...MEMORIES.map((m, i) => ({ kind: "history", id: `update-${i}`, memoryId: m.id, event: "UPDATE", oldValue: m.memory,
    newValue: m.memory, timestamp: "2026-02-01T00:00:00.000Z", isDeleted: false, userId: "bench" }))];
/** History as an export orders it: by time, then ADD, UPDATE, NONE, DELETE, then id. */
const RANK = { ADD: 0, UPDATE: 1, NONE: 2, DELETE: 3 };
const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
const byTime = (a, b) => cmp(a.timestamp, b.timestamp) || RANK[a.event] - RANK[b.event] || cmp(a.id, b.id);
const EXPECTED = [{ kind: "memwasm-export", version: 2, memories: N, history: HISTORY.length }, ...MEMORIES, ...[...HISTORY].sort(byTime)]
  .map((line) => JSON.stringify(line)).join("\n") + "\n";

let h;
before(async () => (h = await harness()));
after(() => h?.close());

/** Creates `dbName` with the layout of `version` (4: vectors inline in the memory records; 5: in one
 * `vectors` chunk), holding MEMORIES and HISTORY. */
function writeOld(page, dbName, version = 5) {
  return page.evaluate(async ({ dbName, memories, history, version }) => {
    const db = await new Promise((ok, no) => {
      const request = indexedDB.open(dbName, version);
      request.onupgradeneeded = () => {
        const db = request.result;
        db.createObjectStore("memories", { keyPath: "id" }).createIndex("key", "key");
        const h = db.createObjectStore("history", { keyPath: "seq", autoIncrement: true });
        h.createIndex("id", "id", { unique: true });
        h.createIndex("memoryId", "memoryId");
        h.createIndex("timestamp", "timestamp");
        db.createObjectStore("graph");
        db.createObjectStore("side");
        if (version === 5) db.createObjectStore("vectors", { keyPath: "chunk" });
      };
      request.onsuccess = () => ok(request.result);
      request.onerror = () => no(request.error);
    });
    const t = db.transaction([...db.objectStoreNames], "readwrite");
    const vectors = new Float32Array(memories.length * 384);
    memories.forEach(({ kind, embedding, ...record }, order) => {
      const bytes = Uint8Array.from(atob(embedding), (c) => c.charCodeAt(0));
      vectors.set(new Float32Array(bytes.buffer), order * 384);
      t.objectStore("memories").put(version === 5 ? { ...record, order, chunk: 0 } : { ...record, order, embedding: bytes });
    });
    if (version === 5) {
      t.objectStore("vectors").put({ chunk: 0, dim: 384, ids: JSON.stringify(memories.map((m) => m.id)), vectors });
    }
    for (const { kind, ...entry } of history) t.objectStore("history").add(entry);
    await new Promise((ok, no) => ((t.oncomplete = ok), (t.onerror = () => no(t.error))));
    db.close();
  }, { dbName, memories: MEMORIES, history: HISTORY, version });
}

/** Version, store names, history index names and record counts of `dbName`, read without upgrading it. */
function layout(page, dbName) {
  return page.evaluate(async (dbName) => {
    const db = await new Promise((ok, no) => {
      const request = indexedDB.open(dbName);
      request.onsuccess = () => ok(request.result);
      request.onerror = () => no(request.error);
    });
    const stores = [...db.objectStoreNames];
    const t = db.transaction(stores);
    const count = (name) => new Promise((ok) => (t.objectStore(name).count().onsuccess = (e) => ok(e.target.result)));
    const found = { version: db.version, stores, historyIndexes: [...t.objectStore("history").indexNames],
      memories: await count("memories"), history: await count("history") };
    db.close();
    return found;
  }, dbName);
}

for (const version of [5, 4]) {
  test(`a version ${version} database opens with every memory and history entry`, { timeout: 120_000 }, async () => {
    const browser = await h.launch(h.profile());
    const page = await h.openPage(browser.context);
    const dbName = `upgrade-from-${version}`;
    await writeOld(page, dbName, version);
    const config = { ...h.config(dbName), embedder: { provider: "none" } };
    const got = await page.evaluate(async ({ config, ids }) => {
      const memory = await window.memwasm.Memory.open(config);
      return { exported: await memory.exportMemories({}), histories: await Promise.all(ids.map((id) => memory.history(id))) };
    }, { config, ids: MEMORIES.map((m) => m.id) });
    assert.equal(got.exported, EXPECTED);
    const returned = ({ kind, ...entry }) => ({ ...entry, user_id: entry.userId });
    assert.deepEqual(got.histories, MEMORIES.map((m) => HISTORY.filter((e) => e.memoryId === m.id).map(returned)));
    assert.deepEqual(await layout(page, dbName), { version: 9, stores: ["gone", "graph", "history", "image", "memories", "packs", "side", "vectors"],
      historyIndexes: ["memoryIds"], memories: N, history: 2 }, "600 entries in two batches");

    const reopened = await page.evaluate(async (config) => {
      const memory = await window.memwasm.Memory.open(config);
      await memory.add("written after the upgrade", { userId: "bench", infer: false });
      return (await memory.exportMemories({})).trim().split("\n").map((line) => JSON.parse(line));
    }, config);
    assert.deepEqual(reopened[0], { kind: "memwasm-export", version: 2, memories: N + 1, history: HISTORY.length + 1, side: 1 },
      "the add's source travels too");
    await browser.kill();
  });
}

test("an upgrade that cannot finish leaves the version 5 database as it was", { timeout: 120_000 }, async () => {
  const browser = await h.launch(h.profile());
  const page = await h.openPage(browser.context);
  const unwritable = { kind: "history", id: "unwritable", memoryId: MEMORIES[0].id, event: "ADD", oldValue: null,
    newValue: "x", timestamp: "2026-03-01T00:00:00.000Z", isDeleted: false, userId: "bench" };
  await page.evaluate(() => {
    // A BigInt is stored by IndexedDB but has no JSON form.
    window.bigint = (entry) => ({ ...entry, size: 1n });
  });
  await writeOld(page, "upgrade-refused");
  await page.evaluate(async (entry) => {
    const db = await new Promise((ok) => (indexedDB.open("upgrade-refused").onsuccess = (e) => ok(e.target.result)));
    const t = db.transaction("history", "readwrite");
    const { kind, ...stored } = entry;
    t.objectStore("history").add(window.bigint(stored));
    await new Promise((ok) => (t.oncomplete = ok));
    db.close();
  }, unwritable);
  const before = await layout(page, "upgrade-refused");
  assert.deepEqual(before, { version: 5, stores: ["graph", "history", "memories", "side", "vectors"],
    historyIndexes: ["id", "memoryId", "timestamp"], memories: N, history: HISTORY.length + 1 });

  const warnings = [];
  page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
  const config = { ...h.config("upgrade-refused"), embedder: { provider: "none" } };
  const error = await page.evaluate(async (config) => {
    try {
      await window.memwasm.Memory.open(config);
      return null;
    } catch (error) {
      return { code: error.code, message: error.message };
    }
  }, config);
  assert.ok(error, "the open fails");
  assert.match(error.code, /^STORAGE/);
  assert.ok(warnings.some((text) => text.includes('"unwritable"') && text.includes("schema version 6")), warnings.join("\n"));
  assert.deepEqual(await layout(page, "upgrade-refused"), before, "nothing changed, nothing lost");
  await browser.kill();
});
