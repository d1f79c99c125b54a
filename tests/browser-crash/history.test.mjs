// History on IndexedDB is read from the database when asked for, never at open: a realistic export (UUID ids,
// one ADD record per memory; bench/lib/export-file.mjs) is imported, then a fresh page of the same profile
// asks `history(id)` before anything else, exports (exactly the file, history included), and sees history
// after deleteAll and reset; a tab opened before another tab's update reads that update's history record.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./harness.mjs";
import { readExport } from "../../bench/lib/export-file.mjs";

const N = 300;
const { text: TEXT, memories: MEMORIES, history: HISTORY } = readExport(N);

let h;
before(async () => (h = await harness()));
after(() => h?.close());

/** A history record as `history(id)` returns it: the export line without `kind`, with `user_id` beside `userId`. */
const returned = ({ kind, ...record }) => ({ ...record, user_id: record.userId });

/** A profile holding the imported export in database `dbName`; returns the browser and its config (no
 * embedder: `update()` keeps the stored 384-d vector instead of asking the scripted server for another). */
async function imported(dbName) {
  const browser = await h.launch(h.profile());
  const config = { ...h.config(dbName), embedder: { provider: "none" } };
  const page = await h.openPage(browser.context);
  const summary = await page.evaluate(async ({ config, text }) => {
    const memory = await window.memwasm.Memory.open(config);
    return memory.importMemories(text);
  }, { config, text: TEXT });
  assert.deepEqual(summary, { memories: N, history: N });
  await page.close();
  return { browser, config };
}

/** Runs `body(memory, arg)` in a fresh page right after `Memory.open` (source text, so it runs in the page). */
async function onFreshPage(browser, config, body, arg) {
  const page = await h.openPage(browser.context);
  try {
    return await page.evaluate(async ({ config, body, arg }) => {
      const memory = await window.memwasm.Memory.open(config);
      return (0, eval)(body)(memory, arg);
    }, { config, body: body.toString(), arg });
  } finally {
    await page.close();
  }
}

test("history(id) right after Memory.open of a reopened database", { timeout: 120_000 }, async () => {
  const { browser, config } = await imported("history-reopen");
  const ids = [MEMORIES[0].id, MEMORIES[N >> 1].id, MEMORIES[N - 1].id];
  const got = await onFreshPage(browser, config, async (memory, ids) => Promise.all(ids.map((id) => memory.history(id))), ids);
  assert.deepEqual(got, ids.map((id) => HISTORY.filter((r) => r.memoryId === id).map(returned)));

  const [updated, history] = await onFreshPage(browser, config, async (memory, id) => {
    await memory.update(id, "User now prefers tea");
    return [id, await memory.history(id)];
  }, ids[0]);
  assert.deepEqual(history.map((r) => r.event), ["ADD", "UPDATE"]);
  const reopened = await onFreshPage(browser, config, async (memory, id) => memory.history(id), updated);
  assert.deepEqual(reopened, history, "the update's record is read back after reopen, oldest first");
  assert.deepEqual(await onFreshPage(browser, config, async (memory) => memory.history("no-such-id")), []);
  await browser.kill();
});

test("export after reopen is the imported file exactly, history included", { timeout: 120_000 }, async () => {
  const { browser, config } = await imported("history-export");
  const exported = await onFreshPage(browser, config, async (memory) => memory.exportMemories({}));
  assert.equal(exported, TEXT);
  await browser.kill();
});

test("deleteAll then reset: history after reopen", { timeout: 120_000 }, async () => {
  const { browser, config } = await imported("history-delete");
  const id = MEMORIES[7].id;
  await onFreshPage(browser, config, async (memory) => memory.deleteAll({ userId: "bench" }));
  const afterDelete = await onFreshPage(browser, config, async (memory, id) => ({
    history: await memory.history(id),
    lines: (await memory.exportMemories({})).trim().split("\n").map((line) => JSON.parse(line)),
  }), id);
  assert.deepEqual(afterDelete.history.map((r) => [r.event, r.isDeleted]), [["ADD", false], ["DELETE", true]]);
  assert.deepEqual(afterDelete.lines[0], { kind: "memwasm-export", version: 2, memories: 0, history: 2 * N },
    "deleted memories keep their history, and export carries it");

  await onFreshPage(browser, config, async (memory) => memory.reset());
  const afterReset = await onFreshPage(browser, config, async (memory, id) => ({
    history: await memory.history(id),
    exported: await memory.exportMemories({}),
  }), id);
  assert.deepEqual(afterReset.history, []);
  assert.equal(afterReset.exported, JSON.stringify({ kind: "memwasm-export", version: 2, memories: 0, history: 0 }) + "\n");
  await browser.kill();
});

test("a tab reads the history another tab wrote after it opened", { timeout: 120_000 }, async () => {
  const { browser, config } = await imported("history-tabs");
  const id = MEMORIES[3].id;
  const [first, second] = [await h.openPage(browser.context), await h.openPage(browser.context)];
  for (const tab of [first, second]) {
    await tab.evaluate(async (config) => void (window.memory = await window.memwasm.Memory.open(config)), config);
  }
  await first.evaluate(async (id) => void (await window.memory.update(id, "User moved to Lisbon")), id);
  const seen = await second.evaluate(async (id) => window.memory.history(id), id);
  assert.deepEqual(seen.map((r) => [r.event, r.newValue]), [["ADD", MEMORIES[3].memory], ["UPDATE", "User moved to Lisbon"]]);
  await browser.kill();
});
