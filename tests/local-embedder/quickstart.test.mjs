// examples/quickstart.mjs, the README's quickstart, run as `scripts/quickstart.sh` runs it: add → UPDATE →
// search by meaning → history, with the on-device embedder and the scripted LLM, no key and no network.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";

const run = promisify(execFile);

test("the quickstart shows an UPDATE, two searches by meaning and the history", async () => {
  const { stdout } = await run(process.execPath, ["examples/quickstart.mjs"], {
    cwd: new URL("../..", import.meta.url),
    timeout: 240_000,
  });
  assert.match(stdout, /UPDATE User works at Acme Corp as a data scientist -> User works at BigTech Inc as a data scientist/);
  assert.match(stdout, /search "Who is her employer\?":\s+0\.\d\d\s+User works at BigTech Inc as a data scientist/);
  assert.match(stdout, /search "Which deep learning framework does she like\?":\s+0\.\d\d\s+User prefers PyTorch over TensorFlow/);
  assert.match(stdout, /history of the job memory:\n\s+ADD\s+∅ -> User works at Acme Corp as a data scientist\n\s+UPDATE/);
  assert.match(stdout, /model calls: 4 chat requests/);
});
