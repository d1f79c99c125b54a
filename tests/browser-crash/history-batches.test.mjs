// History on IndexedDB in batches (schema 6): a write's entries are stored as records of up to 500. An import
// of 1,200 memories (one ADD each) stores three batch records of 500, 500 and 200 entries; after a reopen,
// `history(id)` of memories at each batch's edges gives their entries, and a later update's entry lands in a
// record of its own and is read back after the ADD from the first batch.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./harness.mjs";
import { readExport } from "../../bench/lib/export-file.mjs";

const N = 1200;
const { text: TEXT, memories: MEMORIES, history: HISTORY } = readExport(N);

let h;
before(async () => (h = await harness()));
after(() => h?.close());

/** The entries per batch record of `dbName`'s history store, in store order. */
function batchSizes(page, dbName) {
  return page.evaluate(async (dbName) => {
    const db = await new Promise((ok) => (indexedDB.open(dbName).onsuccess = (e) => ok(e.target.result)));
    const batches = await new Promise((ok) =>
      (db.transaction("history").objectStore("history").getAll().onsuccess = (e) => ok(e.target.result)));
    db.close();
    return batches.map((batch) => JSON.parse(batch.records).length);
  }, dbName);
}

test("a write's history is stored in batches of 500 and read back across them", { timeout: 120_000 }, async () => {
  const browser = await h.launch(h.profile());
  const config = { ...h.config("history-batches"), embedder: { provider: "none" } };
  let page = await h.openPage(browser.context);
  const summary = await page.evaluate(async ({ config, text }) =>
    (await window.memwasm.Memory.open(config)).importMemories(text), { config, text: TEXT });
  assert.deepEqual(summary, { memories: N, history: N });
  assert.deepEqual(await batchSizes(page, "history-batches"), [500, 500, 200]);

  await page.close();
  page = await h.openPage(browser.context);
  const edges = [0, 499, 500, 999, 1000, 1199].map((i) => MEMORIES[i].id);
  const got = await page.evaluate(async ({ config, ids }) => {
    const memory = await window.memwasm.Memory.open(config);
    const before = await Promise.all(ids.map((id) => memory.history(id)));
    await memory.update(ids[0], "User now prefers tea");
    return { before, updated: await memory.history(ids[0]), exported: await memory.exportMemories({}) };
  }, { config, ids: edges });
  const returned = ({ kind, ...entry }) => ({ ...entry, user_id: entry.userId });
  assert.deepEqual(got.before, edges.map((id) => HISTORY.filter((e) => e.memoryId === id).map(returned)));
  assert.deepEqual(got.updated.map((e) => [e.event, e.newValue]), [["ADD", MEMORIES[0].memory], ["UPDATE", "User now prefers tea"]]);
  assert.deepEqual(await batchSizes(page, "history-batches"), [500, 500, 200, 1]);
  const exported = got.exported.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(exported.filter((line) => line.kind === "history").slice(0, N), HISTORY, "all of the import's entries, in order");
  await browser.kill();
});
