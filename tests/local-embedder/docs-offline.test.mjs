// docs/offline-embedder.md's block runs as written in Node with the weights that `bash scripts/setup.sh
// minilm-weights` fetched (MINILM_DIR when set): only its weights and tokenizer paths are those files. Search by
// meaning finds the memory that shares no word with the query, where keyword search finds nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { blocksRunBy } from "../node/docs-pages.mjs";
import { runBlock } from "../node/docs-run.mjs";
import { TOKENIZER, WEIGHTS } from "./fixtures.mjs";

const [block] = blocksRunBy("tests/local-embedder/docs-offline.test.mjs");

test("docs/offline-embedder.md: the on-device embedder finds \"User likes Python\" for \"programming languages\"", { timeout: 240_000 }, async () => {
  assert.equal(block?.page, "docs/offline-embedder.md", "the block is marked run by this file");
  const paths = { "model.safetensors": WEIGHTS, "tokenizer.json": TOKENIZER };
  const code = block.code.replace(/"\/models\/all-MiniLM-L6-v2\/(model\.safetensors|tokenizer\.json)"/g, (_, file) => JSON.stringify(paths[file]));
  assert.ok(code.includes(JSON.stringify(WEIGHTS)) && code.includes(JSON.stringify(TOKENIZER)), "both paths are the weights'");
  const { memory, results } = await runBlock(`${code}\nreturn { memory, results };`, { __import: (specifier) => import(specifier) });
  assert.equal(results[0].memory, "User likes Python");
  const keyword = await memory.search("programming languages", { userId: "alice", method: "keyword" });
  assert.deepEqual(keyword.results, [], "keyword search finds nothing for this query");
});
