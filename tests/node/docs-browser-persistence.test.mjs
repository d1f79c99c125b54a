// docs/browser-persistence.md's first block runs in Node against the scripted server, with two changes a
// browser does not need: the route of its server (`${location.origin}/llm`, which adds the key) is the scripted
// server itself, and the memory is kept in RAM (Node has no IndexedDB; the browser suite covers IndexedDB).
// The import's counts are compared with the comment's claim, read from the page, and the memory holds again
// exactly what was exported.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, scriptedServer } from "./helpers.mjs";
import { blocksRunBy, claimedOutputs } from "./docs-pages.mjs";
import { keepClaimed, runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const [block] = blocksRunBy("tests/node/docs-browser-persistence.test.mjs");
const ROUTE = "`${location.origin}/llm`";

test("docs/browser-persistence.md: export, reset and import give back exactly what was there", T, async () => {
  assert.equal(block?.page, "docs/browser-persistence.md", "the block is marked run by this file");
  assert.ok(block.code.includes(ROUTE) && /^\s*storage: \{ provider: "indexeddb"/m.test(block.code), "the block names its route and IndexedDB");
  server.script([
    { kind: "chat", match: ["## New Messages", "I moved to Berlin"], reply: { facts: ["User moved to Berlin"] } },
    { kind: "chat", match: ["New facts:\n[\"User moved to Berlin\""], reply: { memory: [{ text: "User moved to Berlin", event: "ADD" }] } },
  ]);
  const code = keepClaimed(block.code.replace(ROUTE, JSON.stringify(server.baseUrl)).replace(/^\s*storage: .*\n/m, ""));
  const claimed = new Map();
  const { memory, backup } = await runBlock(`${code}\nreturn { memory, backup };`, { __import: (specifier) => import(specifier), __claimed: claimed });
  const [claim] = claimedOutputs(block);
  const counts = /^→ \{ memories: (\d+), history: (\d+) \}: exactly what was there$/.exec(claim.text);
  assert.ok(counts, `the import's claim: ${claim.text}`);
  assert.deepEqual(claimed.get(claim.text), { memories: Number(counts[1]), history: Number(counts[2]) });
  assert.equal(await memory.exportMemories({ userId: "alice" }), backup, "exactly what was there");
});
