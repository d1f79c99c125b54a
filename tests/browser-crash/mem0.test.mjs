// `memwasm/mem0` in real Chromium (docs/mem0.md#where-memories-are-kept): mem0 code's `new Memory(config)`
// keeps memories in the browser's equivalent of mem0's file, the IndexedDB database named by
// `vectorStore.config.collectionName`, so a page opened later finds what an earlier page added; `dbPath:
// ":memory:"` keeps them in the page's RAM, as in mem0.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./harness.mjs";

let h;
before(async () => (h = await harness()));
after(() => h?.close());

/** In a page: `new Memory(config)` of memwasm/mem0 adds `text` for alice (unless null), then lists hers. */
function mem0Page(page, config, text) {
  return page.evaluate(async ({ config, text }) => {
    const { Memory } = await import("/pkg/mem0.browser.mjs");
    const memory = new Memory(config);
    if (text) await memory.add(text, { userId: "alice", infer: false });
    const { results } = await memory.getAll({ filters: { user_id: "alice" } });
    const databases = (await indexedDB.databases()).map((d) => d.name);
    return { memories: results.map((m) => m.memory).sort(), databases };
  }, { config, text });
}

test("memwasm/mem0 keeps memories in IndexedDB: a later page finds them; dbPath \":memory:\" stays in RAM", { timeout: 120_000 }, async () => {
  const browser = await h.launch(h.profile());
  const { storage: _, ...models } = h.config("unused");
  const kept = { ...models, vectorStore: { provider: "memory", config: { collectionName: "mem0-notes" } } };
  const first = await mem0Page(await h.openPage(browser.context), kept, "User likes tea");
  assert.deepEqual(first.memories, ["User likes tea"]);
  assert.ok(first.databases.includes("mem0-notes"), `the IndexedDB database is the collection's: ${first.databases}`);

  const later = await mem0Page(await h.openPage(browser.context), kept, "User plays chess");
  assert.deepEqual(later.memories, ["User likes tea", "User plays chess"]);

  const inRam = { ...models, vectorStore: { provider: "memory", config: { dbPath: ":memory:" } } };
  assert.deepEqual((await mem0Page(await h.openPage(browser.context), inRam, "User runs")).memories, ["User runs"]);
  assert.deepEqual((await mem0Page(await h.openPage(browser.context), inRam, null)).memories, []);
  await browser.kill();
});
