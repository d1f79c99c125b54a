// docs/node-storage.md's move from memory to a file runs as written against the scripted server (through
// OPENAI_API_KEY / OPENAI_BASE_URL), in a folder of its own: the import writes what the comment says, and the
// file holds the memory once the block has closed it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, Memory, scriptedServer } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { keepClaimed, runBlock, withEnv } from "./docs-run.mjs";
import { scratchFolder } from "./sqlite-support.mjs";

const server = scriptedServer();
const [block] = blocksRunBy("tests/node/docs-node-storage.test.mjs");

test("docs/node-storage.md: importMemories() moves an in-memory memory and its history into a SQLite file", T, async () => {
  assert.equal(block?.page, "docs/node-storage.md", "the block is marked run by this file");
  process.chdir(scratchFolder());
  const claimed = new Map();
  await withEnv({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl }, () =>
    runBlock(keepClaimed(block.code), { __import: (specifier) => import(specifier), __claimed: claimed }));
  // → { memories: 1, history: 1 }
  assert.deepEqual(claimed.get("→ { memories: 1, history: 1 }"), { memories: 1, history: 1 });
  const reopened = await Memory.open({ llm: { provider: "none" }, embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key" } },
    storage: { provider: "sqlite", config: { path: "moved.db" } } });
  try {
    assert.deepEqual((await reopened.getAll({ userId: "alice" })).results.map((m) => m.memory), ["I prefer window seats."]);
  } finally {
    reopened.close();
  }
});
