// pkg/openai-agents.d.ts type-checks against the installed SDK's types (tests/openai-agents/types.ts, with tsc).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

test("types.ts: a MemwasmSession is the SDK's Session, and wrong calls do not type-check", { timeout: 120_000 }, async () => {
  const tsc = `${here}node_modules/typescript/bin/tsc`;
  const result = await new Promise((resolve) => {
    execFile(process.execPath, [tsc, "-p", here, "--pretty", "false"], (error, stdout, stderr) => resolve({ error, out: stdout + stderr }));
  });
  assert.equal(result.error, null, result.out);
});
