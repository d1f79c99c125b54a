// Packs of IndexedDB storage (schema 8) when the browser is SIGKILLed during an import: an import of 1,000
// memories is one bulk write, its memories a few hundred to a `packs` record. Each round starts an import
// and kills the whole browser a little later, at a different moment of the write; a fresh browser on the
// same profile must then hold all of that import or none of it, open to exactly what the raw `memories`
// and `packs` stores say (each id once), with no warning, with the change counter's count of packed
// memories equal to the packs' ids, and take a next write. Chromium itself sometimes deletes the whole
// database when a kill left its LevelDB files corrupt (see harness.mjs): such a round checks that Chromium
// said so and that the memory opens the new, empty database and writes to it, and the next round starts over.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { exportLines as exportFile } from "./export-lines.mjs";
import { CHROMIUM_DELETED_CORRUPT_INDEXEDDB, harness } from "./harness.mjs";

const USER = "packs";
const BATCH = 1000;
/** Kill delays after the import started (ms). */
const DELAYS = [20, 120, 170, 200, 230, 260, 300, 1000];

let h;
before(async () => (h = await harness()));
after(() => h?.close());

/** The ids of the raw `memories` store, of every pack, and the counter's `packed` (none of them, and
 * `absent`, once Chromium deleted the database). */
const RAW = (dbName) => window.readStores(dbName, ["memories", "packs", "image"], (tx) => {
  const out = {};
  tx.objectStore("memories").getAllKeys().onsuccess = (e) => (out.singles = e.target.result);
  tx.objectStore("packs").getAll().onsuccess = (e) => (out.packed = e.target.result.flatMap((p) => p.ids));
  tx.objectStore("image").get("changes").onsuccess = (e) => (out.counted = e.target.result?.packed ?? 0);
  return out;
}, { singles: [], packed: [], counted: 0, absent: true });

/** An export of `BATCH` memories numbered from `from`, with vectors of the scripted embedder's 64 dimensions
 * (the add after each round stores one of its own). */
const exportLines = (from) => exportFile({ from, count: BATCH, dim: 64, prefix: "p", user: USER, spread: false });

test("a browser killed during an import keeps all of it or none, each memory in one place", async (t) => {
  const profile = h.profile();
  const dbName = "crash-packs";
  const config = h.config(dbName);
  let browser = await h.launch(profile);
  let kept = 0;
  let keptWhole = 0; // rounds whose import was kept whole
  try {
    for (const [round, delay] of DELAYS.entries()) {
      const page = await h.openPage(browser.context);
      await page.evaluate(async ({ config, text }) => {
        window.memory = await window.memwasm.Memory.open(config);
        window.text = text;
      }, { config, text: exportLines(round * BATCH) });
      await page.evaluate(() => void window.memory.importMemories(window.text));
      await new Promise((resolve) => setTimeout(resolve, delay));
      await browser.kill();
      browser = await h.launch(profile);
      const fresh = await h.openPage(browser.context);
      const seen = await fresh.evaluate(async ({ config, dbName, user, raw, later }) => {
        const stored = await (0, eval)(raw)(dbName);
        const warnings = [];
        const warn = console.warn;
        console.warn = (...args) => (warnings.push(args.join(" ")), warn(...args));
        const memory = await window.memwasm.Memory.open(config);
        console.warn = warn;
        const all = (await memory.getAll({ userId: user, limit: 100000 })).results.map((m) => m.id);
        const added = await memory.add(later, { userId: "later", infer: false });
        return { ...stored, all, warnings, added: added.results.map((r) => r.event) };
      }, { config, dbName, user: USER, raw: RAW.toString(), later: `written after round ${round}` });
      const imported = seen.all.filter((id) => Number(id.slice(1)) >= round * BATCH).length;
      assert.deepEqual(seen.warnings, [], `killed at ${delay} ms: no warning`);
      assert.deepEqual(seen.added, ["ADD"], "a next write");
      if (seen.absent) {
        // Nothing of the database is left. Only the browser deletes a whole database: Chromium must have said
        // so. The memory then opened the new, empty one and wrote to it (above); the next round starts over.
        assert.ok(await browser.logged(CHROMIUM_DELETED_CORRUPT_INDEXEDDB), `killed at ${delay} ms: the database is gone`);
        t.diagnostic(`killed ${delay} ms into the import: Chromium found its IndexedDB files corrupt and deleted them`);
        assert.deepEqual(seen.all, []);
        kept = 0;
        continue;
      }
      t.diagnostic(`killed ${delay} ms into the import: ${imported === BATCH ? "all" : "none"} of it kept`);
      assert.ok(imported === 0 || imported === BATCH, `killed at ${delay} ms: all or none, not ${imported}`);
      kept += imported;
      keptWhole += imported === BATCH ? 1 : 0;
      assert.equal(seen.all.length, kept, "every earlier import kept");
      const ids = seen.singles.filter((id) => id.startsWith("p")).concat(seen.packed);
      assert.deepEqual([...seen.all].sort(), [...ids].sort(), "what the raw stores say, each id once");
      assert.equal(seen.counted, seen.packed.length, "the counter counts the packed memories");
    }
    assert.ok(keptWhole > 0, "at least one import was kept");
  } finally {
    await browser.kill();
    rmSync(profile, { recursive: true, force: true });
  }
});
