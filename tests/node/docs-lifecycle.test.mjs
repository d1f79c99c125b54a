// The blocks of docs/lifecycle.md run as written against the scripted server, each with the standard test
// config as `config` and, where it uses one, a `memory` holding what the page implies; what their comments
// claim is asserted, quoted word for word above each assertion.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, Memory, addsFor, decision, extraction, makeMemory, scriptedServer, testConfig } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { keepClaimed, runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const blocks = blocksRunBy("tests/node/docs-lifecycle.test.mjs");
const block = (start) => blocks.find((b) => b.code.startsWith(start)) ?? assert.fail(`a block starting ${start} is marked run by this file`);

/** Runs `code` with the page's names; resolves with the values its claiming comments were about. */
async function run(code, memory) {
  const claimed = new Map();
  await runBlock(keepClaimed(code), { Memory, config: testConfig(server), memory, __claimed: claimed });
  return claimed;
}

test("docs/lifecycle.md: decay() and stats() answer with the fields the first block names", T, async () => {
  server.script([extraction("I prefer dark mode", ["User prefers dark mode"]), decision("User prefers dark mode", addsFor(["User prefers dark mode"]))]);
  const claimed = await run(block("let now").code);
  // {decayed, forgotten}
  const decayed = claimed.get("{decayed, forgotten}");
  assert.deepEqual(["decayed", "forgotten"].map((key) => typeof decayed[key]), ["number", "number"]);
  // {totalEntries, keyed, byScope, byType, pinned, expired, keywordOnly}
  const stats = claimed.get("{totalEntries, keyed, byScope, byType, pinned, expired, keywordOnly}");
  for (const key of ["totalEntries", "keyed", "byScope", "byType", "pinned", "expired", "keywordOnly"]) assert.ok(key in stats, key);
  // A month later the preference is live and decayed, and the boarding gate's hour has run out.
  assert.deepEqual([decayed.decayed, stats.totalEntries, stats.expired, stats.byType.procedural], [1, 1, 1, 1]);
});

test("docs/lifecycle.md: share() copies the two lessons that match the pattern", T, async () => {
  const memory = makeMemory(server);
  const claimed = await run(block("await memory.store(").code, memory);
  // {copied: 2}
  assert.equal(claimed.get("{copied: 2}").copied, 2);
  const copied = await memory.getAll({ agentId: "student" });
  assert.deepEqual(copied.results.map((m) => m.key).sort(), ["lesson_1", "lesson_2"]);
});

test("docs/lifecycle.md: getAll() pages through 57 memories with totalCount and hasMore", T, async () => {
  const memory = makeMemory(server);
  for (let i = 1; i <= 57; i++) await memory.add(`Note number ${i}`, { userId: "u", infer: false });
  const first = await runBlock(`${block("const first").code}\nreturn first;`, { memory });
  // {results, totalCount: 57, hasMore: true}
  assert.deepEqual([first.results.length, first.totalCount, first.hasMore], [20, 57, true]);
});

test("docs/lifecycle.md: moving the clock past a TTL empties getAll() without a sleep", T, async () => {
  const claimed = await run(block("const clock").code);
  // {results: [], totalCount: 0, hasMore: false}
  const page = claimed.get("{results: [], totalCount: 0, hasMore: false}");
  assert.deepEqual([page.results, page.totalCount, page.hasMore], [[], 0, false]);
});
