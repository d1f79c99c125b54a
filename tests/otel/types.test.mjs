// pkg/otel.d.ts against the installed @opentelemetry/api's own types: tsc checks types/usage.ts (a tracer and
// the api module as options, memwasm's and memwasm/mem0's Memory, and calls that must not compile).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

test("memwasm/otel's types check against @opentelemetry/api's", { timeout: 120_000 }, () => {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const tsc = spawnSync(process.execPath, [`${here}node_modules/typescript/bin/tsc`, "-p", `${here}types`], { encoding: "utf8" });
  assert.equal(tsc.status, 0, `tsc found errors:\n${tsc.stdout}${tsc.stderr}`);
});
