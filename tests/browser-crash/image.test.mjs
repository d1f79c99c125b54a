// The open image of IndexedDB storage (schema 7) when the browser is SIGKILLed around its write: a page
// opens a memory whose image is missing or out of date (so the open reads every record and writes a fresh
// image half a second later, in a transaction of its own), and the whole browser is killed at a different
// moment of each round, before, during or after that write. A fresh browser on the same profile must then
// open to exactly what the records say (the ids and texts in the raw `memories` and `packs` stores, each id
// once), with no warning,
// and find a memory by its own vector; between rounds a few memories are added and deleted, so later
// opens read an image and its journal. A round where Chromium deleted the whole database after finding its
// files corrupt is checked as in packs.test.mjs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { exportLines as exportFile } from "./export-lines.mjs";
import { CHROMIUM_DELETED_CORRUPT_INDEXEDDB, harness } from "./harness.mjs";

const USER = "image";
const START = 1500;
/** Kill delays after the open resolved (ms): around the write, which starts 500 ms after the open. */
const DELAYS = [0, 450, 480, 495, 505, 515, 530, 600, 1500];

let h;
before(async () => {
  h = await harness();
});
after(() => h?.close());

/** The ids and texts of the raw `memories` store, by id, and `[image seq, last change]`. */
const RAW = async (dbName) => {
  const out = await window.readStores(dbName, ["memories", "packs", "image"], (tx) => {
    const out = {};
    // Imports (bulk writes) are packed, a few hundred memories to a record of JSON texts (schema 8).
    tx.objectStore("memories").getAll().onsuccess = (e) => (out.singles = e.target.result.map((m) => [m.id, m.memory]));
    tx.objectStore("packs").getAll().onsuccess = (e) =>
      (out.packed = e.target.result.flatMap((p) => p.texts.map((text) => JSON.parse(text))).map((m) => [m.id, m.memory]));
    tx.objectStore("image").get("memories").onsuccess = (e) => (out.image = e.target.result?.seq ?? null);
    tx.objectStore("image").get("changes").onsuccess = (e) => (out.last = e.target.result?.last ?? null);
    return out;
  }, { singles: [], packed: [], image: null, last: null, absent: true });
  return { ...out, records: [...out.singles, ...out.packed].sort() };
};

/** An export file of `count` memories from number `from`, 8-d vectors. */
const exportLines = (from, count) => exportFile({ from, count, dim: 8, prefix: "m", user: USER });

test("a browser killed around the open image's write reopens to what the records say", async (t) => {
  const profile = h.profile();
  const dbName = "crash-image";
  const config = h.config(dbName);
  let browser = await h.launch(profile);
  try {
    let page = await h.openPage(browser.context);
    await page.evaluate(async ({ config, text }) => {
      const memory = await window.memwasm.Memory.open(config);
      await memory.importMemories(text);
    }, { config, text: exportLines(0, START) });
    let next = START;
    let expected = START; // the memories the acknowledged writes left
    let last = START - 1; // the memory a round deletes: the last stored before it (after a wipe, its own first)
    for (const delay of DELAYS) {
      // Opening reads every record (a large journal, or no image yet) and writes a fresh image after 500 ms.
      await page.evaluate(async ({ config, text, gone }) => {
        const memory = await window.memwasm.Memory.open(config);
        await memory.importMemories(text);
        await memory.delete(gone);
        window.opened = await window.memwasm.Memory.open(config);
      }, { config, text: exportLines(next, 300), gone: `m${String(last).padStart(5, "0")}` });
      next += 300;
      last = next - 1;
      await new Promise((resolve) => setTimeout(resolve, delay));
      await browser.kill();
      browser = await h.launch(profile);
      page = await h.openPage(browser.context);
      const seen = await page.evaluate(async ({ config, dbName, user, raw }) => {
        const stored = await (0, eval)(raw)(dbName);
        const warnings = [];
        const warn = console.warn;
        console.warn = (...args) => (warnings.push(args.join(" ")), warn(...args));
        const memory = await window.memwasm.Memory.open(config);
        console.warn = warn;
        const all = (await memory.getAll({ userId: user, limit: 100000 })).results;
        const probe = all[all.length - 1];
        const lines = (await memory.exportMemories({ userId: user })).trim().split("\n").map((line) => JSON.parse(line));
        const own = lines.find((line) => line.kind === "memory" && line.id === probe?.id);
        const bytes = own?.embedding ? Uint8Array.from(atob(own.embedding), (c) => c.charCodeAt(0)) : undefined;
        const found = bytes ? (await memory.search({ embedding: Array.from(new Float32Array(bytes.buffer)) }, { userId: user, limit: 1 })).results : [];
        return { absent: stored.absent, records: stored.records, packed: stored.packed.length, image: stored.image, last: stored.last, loaded: all.map((m) => [m.id, m.memory]).sort(), warnings, top: found[0]?.id, probe: probe?.id };
      }, { config, dbName, user: USER, raw: RAW.toString() });
      assert.deepEqual(seen.warnings, [], `killed ${delay} ms after the open: no warning`);
      expected += 300 - 1;
      if (seen.absent) {
        // Nothing of the database is left: only Chromium deletes a whole database (see packs.test.mjs).
        assert.ok(await browser.logged(CHROMIUM_DELETED_CORRUPT_INDEXEDDB), `killed ${delay} ms after the open: the database is gone`);
        t.diagnostic(`killed ${delay} ms after the open: Chromium found its IndexedDB files corrupt and deleted them`);
        assert.deepEqual(seen.loaded, []);
        expected = 0;
        last = next; // nothing stored before the next round: it deletes the first memory it imports
        continue;
      }
      t.diagnostic(`killed ${delay} ms after the open: image of change ${seen.image}, last change ${seen.last}`);
      assert.equal(seen.loaded.length, expected, "every import kept, one delete per round");
      assert.deepEqual(seen.loaded, seen.records, `killed ${delay} ms after the open: what the records say`);
      assert.ok(seen.packed > 0, "the imports were packed");
      assert.equal(seen.top, seen.probe, "a memory is found by its own vector");
    }
  } finally {
    await browser.kill();
    rmSync(profile, { recursive: true, force: true });
  }
});
