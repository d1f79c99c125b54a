// A Node ESM project that installs the tarball and runs a script: the on-device embedder (weights from
// MINILM_DIR) adds and searches with no LLM, and a memory tool runs from a model-style call.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { MODEL_DIR, project, run } from "./helpers.mjs";

test("a Node ESM project: add + search with the on-device embedder, no LLM", { timeout: 180_000 }, async (t) => {
  const dir = await project(t, "node-app");
  const output = await run(process.execPath, [join(dir, "index.mjs"), MODEL_DIR], dir);
  t.diagnostic(output.took);
  assert.deepEqual(JSON.parse(output.trim().split("\n").pop()), {
    dimensions: 384,
    top: "User likes Python",
    viaTool: "User lives in Berlin",
    refused: "INVALID_INPUT",
  });
});

test("a Node project with better-sqlite3: memories in a SQLite file outlive the process", { timeout: 300_000 }, async (t) => {
  const dir = await project(t, "node-sqlite-app");
  const path = join(dir, "memory.db");
  const first = JSON.parse((await run(process.execPath, [join(dir, "index.mjs"), path], dir)).trim().split("\n").pop());
  const second = JSON.parse((await run(process.execPath, [join(dir, "index.mjs"), path], dir)).trim().split("\n").pop());
  assert.deepEqual(first, { before: 0, top: "User lives in Berlin" });
  assert.deepEqual(second, { before: 2, top: "User lives in Berlin" }, "the second process finds the first one's memories");
});
