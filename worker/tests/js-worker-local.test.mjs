// The on-device embedder in a Cloudflare Worker: the npm package's workerd entry has none, and says so
// (INVALID_CONFIG, not available in Workers, what to use instead) rather than "unknown provider".
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Miniflare } from "miniflare";
import { WORKER_DIR, tempDir } from "./helpers.mjs";

test("embedder provider local in a JS Worker is INVALID_CONFIG saying it is not available there", { timeout: 120_000 }, async (t) => {
  const outdir = tempDir(t);
  execFileSync(
    join(WORKER_DIR, "node_modules/.bin/wrangler"),
    ["deploy", "--dry-run", "--outdir", outdir, "--config", "tests/js-worker-local/wrangler.toml"],
    { cwd: WORKER_DIR, env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" }, stdio: "pipe" },
  );
  assert.match(readFileSync(join(outdir, "index.js"), "utf8"), /\/index\.workerd\.mjs/, "the workerd entry");
  const worker = new Miniflare({
    modules: true,
    scriptPath: join(outdir, "index.js"),
    modulesRoot: outdir,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01",
  });
  t.after(() => worker.dispose());
  const answer = await (await worker.dispatchFetch("http://local.test/")).json();
  assert.equal(answer.code, "INVALID_CONFIG", JSON.stringify(answer));
  assert.ok(answer.isMemoryError);
  assert.doesNotMatch(answer.message, /unknown provider/);
  for (const part of ["embedder.provider", "not available", "Cloudflare Workers", '"workers-ai"']) {
    assert.ok(answer.message.includes(part), `${part} in ${answer.message}`);
  }
});
