// The raw store reader the crash tests check the library against (stored.mjs): it must settle whatever the
// browser holds, since a test that waits for good stalls the whole CI run. After Chromium deleted a database
// it found corrupt (see harness.mjs) there is none; a plain `indexedDB.open(name)` created an empty one there
// and its reader never settled.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./harness.mjs";

let h;
before(async () => (h = await harness()));
after(() => h?.close());

test("the raw store reader settles on a database that is absent, incomplete or written", { timeout: 60_000 }, async () => {
  const browser = await h.launch(h.profile());
  try {
    const page = await h.openPage(browser.context);
    const seen = await page.evaluate(async (config) => {
      const ids = (tx) => {
        const out = {};
        tx.objectStore("memories").getAllKeys().onsuccess = (e) => (out.ids = e.target.result);
        return out;
      };
      const absent = await window.readStores("never-written", ["memories"], ids, "absent");
      const listed = (await indexedDB.databases()).map((d) => d.name);
      // A database without the store asked for: an error, not a wait.
      await new Promise((ok) => (indexedDB.open("no-stores").onsuccess = (e) => (e.target.result.close(), ok())));
      const missing = await window.readStores("no-stores", ["memories"], ids, "absent").catch((e) => e.name);
      const memory = await window.memwasm.Memory.open(config);
      const { results } = await memory.add("the reader sees this", { userId: "u", infer: false });
      const written = await window.readStores("written", ["memories"], ids, "absent");
      return { absent, listed, missing, added: results[0].id, written: written.ids };
    }, h.config("written"));
    assert.equal(seen.absent, "absent", "a database the browser does not hold reads as absent");
    assert.ok(!seen.listed.includes("never-written"), "and reading it created nothing");
    assert.equal(seen.missing, "NotFoundError");
    assert.deepEqual(seen.written, [seen.added], "a written database reads as written");
  } finally {
    await browser.kill();
  }
});
