// Two real tabs (two pages of one headless Chromium) on one IndexedDB database each start 100 adds at once:
// all 200 resolve, both tabs' indexes end up with all 200 (BroadcastChannel + re-read), and a third tab
// opened afterwards finds exactly 200 memories, each with one ADD record, and no orphaned history.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./harness.mjs";

const PER_TAB = 100;
const USER = "tabs";

let h;
before(async () => (h = await harness()));
after(() => h?.close());

const count = (page) => page.evaluate(async (user) => (await window.memory.getAll({ userId: user, limit: 1000 })).results.length, USER);

test(`two tabs adding ${PER_TAB} each at once lose nothing`, { timeout: 120_000 }, async (t) => {
  const config = h.config("two-tabs");
  const browser = await h.launch(h.profile());
  const tabs = [await h.openPage(browser.context), await h.openPage(browser.context)];
  for (const tab of tabs) await tab.evaluate(async (config) => (window.memory = await window.memwasm.Memory.open(config)) && null, config);

  const started = Date.now();
  const results = await Promise.all(tabs.map((tab, n) => tab.evaluate(async ({ n, per, user }) => {
    const adds = Array.from({ length: per }, (_, i) => window.memory.add(`tab${n} wrote fact${i}`, { userId: user, infer: false }));
    return (await Promise.all(adds)).map((r) => r.results.map((e) => e.event).join());
  }, { n, per: PER_TAB, user: USER })));
  assert.deepEqual(results.flat(), Array(2 * PER_TAB).fill("ADD"), "every add resolved with one ADD");

  for (const tab of tabs) {
    const deadline = Date.now() + 10_000;
    while ((await count(tab)) !== 2 * PER_TAB && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await count(tab), 2 * PER_TAB, "each tab's index follows the other's writes");
  }

  const third = await h.openPage(browser.context);
  const lines = await third.evaluate(async ({ config }) => {
    const memory = await window.memwasm.Memory.open(config);
    return (await memory.exportMemories({})).trim().split("\n").map((line) => JSON.parse(line));
  }, { config });
  await browser.kill();
  const memories = lines.filter((l) => l.kind === "memory");
  const history = lines.filter((l) => l.kind === "history");
  const expected = [0, 1].flatMap((n) => Array.from({ length: PER_TAB }, (_, i) => `tab${n} wrote fact${i}`));
  assert.deepEqual(memories.map((m) => m.memory).sort(), expected.sort(), "all 200 stored, none twice");
  const ids = new Set(memories.map((m) => m.id));
  assert.equal(history.length, memories.length);
  assert.ok(history.every((r) => r.event === "ADD" && ids.has(r.memoryId)), "one ADD per memory, 0 orphans");
  assert.equal(new Set(history.map((r) => r.memoryId)).size, memories.length);
  t.diagnostic(`2 tabs × ${PER_TAB}: ${memories.length} stored, ${history.length} ADD records, 0 lost, in ${Date.now() - started} ms`);
});
