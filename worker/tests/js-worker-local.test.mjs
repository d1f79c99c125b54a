// The on-device embedder in a Cloudflare Worker: the npm package's workerd entry has none, and says so
// (INVALID_CONFIG, not available in Workers, what to use instead) rather than "unknown provider".
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { bundleJsWorker, startBundle, tempDir } from "./helpers.mjs";

test("embedder provider local in a JS Worker is INVALID_CONFIG saying it is not available there", { timeout: 120_000 }, async (t) => {
  const outdir = tempDir(t);
  bundleJsWorker("js-worker-local", outdir);
  assert.match(readFileSync(join(outdir, "index.js"), "utf8"), /\/index\.workerd\.mjs/, "the workerd entry");
  const worker = startBundle(outdir);
  t.after(() => worker.dispose());
  const answer = await (await worker.dispatchFetch("http://local.test/")).json();
  assert.equal(answer.code, "INVALID_CONFIG", JSON.stringify(answer));
  assert.ok(answer.isMemoryError);
  assert.doesNotMatch(answer.message, /unknown provider/);
  for (const part of ["embedder.provider", "not available", "Cloudflare Workers", '"workers-ai"']) {
    assert.ok(answer.message.includes(part), `${part} in ${answer.message}`);
  }
});
