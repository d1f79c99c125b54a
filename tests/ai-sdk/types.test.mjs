// pkg/ai.d.ts against the installed `ai`'s own types: tsc checks types/usage.ts (the tools in generateText
// and streamText, withMemory, the middleware in wrapLanguageModel, and calls that must not compile).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

test("memwasm/ai's types check against ai's", { timeout: 120_000 }, () => {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const tsc = spawnSync(process.execPath, [`${here}node_modules/typescript/bin/tsc`, "-p", `${here}types`], { encoding: "utf8" });
  assert.equal(tsc.status, 0, `tsc found errors:\n${tsc.stdout}${tsc.stderr}`);
});
