// asOf reads through the package: getAll and search over the memories as they were at a past time, rebuilt
// from history (add → update → delete on a clock the test moves), with the in-memory default and SQLite
// storage; and the block of docs/search-and-recall.md that shows it, run as written.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory, START, T, clockedMemory, rejectsWith, scriptedServer, testConfig } from "./helpers.mjs";
import { DRIVERS, databaseFolder, sqliteStorage } from "./sqlite-support.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const HOUR = 3_600_000;
const alice = { userId: "alice" };
const at = (ms) => new Date(START + ms).toISOString();
const texts = (page) => page.results.map((m) => m.memory);

/** Alice's tea (1h) became coffee (2h) and was deleted (3h); her bicycle (1.5h) is unchanged. Now is 4h. */
async function story(memory, clock) {
  const add = async (text, time) => {
    clock.t = START + time;
    return (await memory.add(text, { ...alice, infer: false })).results[0].id;
  };
  const tea = await add("User likes tea", HOUR);
  await add("User owns a bicycle", 1.5 * HOUR);
  clock.t = START + 2 * HOUR;
  await memory.update(tea, "User likes coffee");
  clock.t = START + 3 * HOUR;
  await memory.delete(tea);
  clock.t = START + 4 * HOUR;
}

/** A memory on the storage `kind` names, with the clock the test moves. */
async function clocked(kind) {
  if (kind === "memory") return clockedMemory(server);
  const clock = { t: START };
  const storage = sqliteStorage(databaseFolder()(), kind);
  return { mem: await Memory.open(testConfig(server, { storage, now: () => clock.t })), clock };
}

for (const kind of ["memory", ...DRIVERS.slice(0, 1)]) {
  describe(`asOf on ${kind === "memory" ? "the in-memory default" : `SQLite (${kind})`}`, () => {
    test("getAll and search read the memories as they were, deleted ones included", T, async () => {
      const { mem, clock } = await clocked(kind);
      await story(mem, clock);
      assert.deepEqual(texts(await mem.getAll({ ...alice, asOf: at(HOUR / 2) })), []);
      const before = await mem.getAll({ ...alice, asOf: at(1.75 * HOUR) });
      assert.deepEqual(texts(before), ["User likes tea", "User owns a bicycle"]);
      assert.equal(before.results[0].updatedAt, at(HOUR));
      const keyword = { ...alice, asOf: at(1.75 * HOUR), method: "keyword" };
      assert.deepEqual(texts(await mem.search("tea", keyword)), ["User likes tea"]);
      assert.deepEqual(texts(await mem.search("coffee", keyword)), []);
      assert.deepEqual(texts(await mem.getAll({ ...alice, asOf: at(2.5 * HOUR) })), ["User likes coffee", "User owns a bicycle"]);
      assert.deepEqual(texts(await mem.getAll({ ...alice, asOf: at(3 * HOUR) })), ["User owns a bicycle"]);
      assert.deepEqual(texts(await mem.getAll(alice)), ["User owns a bicycle"]);
      mem.close?.();
    });

    test("a hybrid search embeds the texts changed since in one request, beside the query", T, async () => {
      const { mem, clock } = await clocked(kind);
      await story(mem, clock);
      const seen = server.requests("embedding").length;
      const found = await mem.search("likes tea", { ...alice, asOf: at(1.75 * HOUR) });
      assert.equal(found.results[0].memory, "User likes tea");
      assert.deepEqual(found.warnings ?? [], []);
      const inputs = server.requests("embedding").slice(seen).map((r) => r.inputs);
      assert.deepEqual(inputs, [["likes tea"], ["User likes tea"]], "the bicycle keeps its stored vector");
      mem.close?.();
    });

    test("an asOf without a time zone is INVALID_INPUT", T, async () => {
      const { mem } = await clocked(kind);
      for (const asOf of ["2025-01-01", "2025-01-01T10:00:00", "yesterday"]) {
        await rejectsWith(() => mem.search("tea", { ...alice, asOf }), "INVALID_INPUT");
        await rejectsWith(() => mem.getAll({ ...alice, asOf }), "INVALID_INPUT");
      }
      mem.close?.();
    });
  });
}

test("docs/search-and-recall.md: asOf shows the memory as it was before its update and delete", T, async () => {
  const [block] = blocksRunBy("tests/node/as-of.test.mjs");
  const { mem: memory, clock } = clockedMemory(server);
  clock.t = Date.parse("2025-01-10T00:00:00Z");
  const { id } = (await memory.add("User likes tea", { ...alice, infer: false })).results[0];
  clock.t = Date.parse("2025-03-01T00:00:00Z");
  await memory.update(id, "User likes coffee");
  clock.t = Date.parse("2025-04-01T00:00:00Z");
  await memory.delete(id);
  clock.t = Date.parse("2025-05-01T00:00:00Z");
  const { then, found, now } = await runBlock(`${block.code}\nreturn { then, found, now };`, { memory });
  // then.results.map((m) => m.memory) → ["User likes tea"]
  assert.deepEqual(then.results.map((m) => m.memory), ["User likes tea"]);
  // found.results[0].memory → "User likes tea"
  assert.equal(found.results[0].memory, "User likes tea");
  // now.results → []
  assert.deepEqual(now.results, []);
});
