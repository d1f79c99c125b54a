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
