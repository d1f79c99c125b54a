// The README's first quickstart block runs as written in Node: the on-device embedder with the weights that
// `bash scripts/setup.sh minilm-weights` fetched (MINILM_DIR when set; only the block's folder is replaced), no
// LLM, no key, no network.
import assert from "node:assert/strict";
import { test } from "node:test";
import { blocksRunBy } from "../node/docs-pages.mjs";
import { runBlock } from "../node/docs-run.mjs";
import { MODEL_DIR } from "./fixtures.mjs";

const [block] = blocksRunBy("tests/local-embedder/readme-quickstart.test.mjs");

test("README quickstart: offline search by meaning finds the memory that shares no word with the query", { timeout: 240_000 }, async () => {
  assert.equal(block?.page, "README.md", "the block is marked run by this file");
  assert.match(block.code, /provider: "local"/);
  const folder = "`${process.env.HOME}/.cache/memwasm/minilm`";
  assert.ok(block.code.includes(folder), "the block names the folder setup.sh fills");
  const code = block.code.replace(folder, JSON.stringify(MODEL_DIR));
  const found = await runBlock(`${code}\nreturn found;`, { __import: (specifier) => import(specifier) });
  // found.results[0].memory → "I am allergic to peanuts"
  assert.deepEqual(found.results.map((m) => m.memory), ["I am allergic to peanuts"]);
});
