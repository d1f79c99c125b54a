// The official PyPI client (mem0ai's MemoryClient and AsyncMemoryClient, pinned by
// scripts/setup.d/55-mem0-clients.sh), unmodified, against the worker's mem0 platform API in workerd:
// worker/tests/mem0_client.py runs the scenario and asserts as it goes; this test scripts the model,
// starts the worker and checks what the script reports.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { ACME, INITECH, scriptAdd, startServer } from "./helpers.mjs";
import { mem0Call, mem0Python, startMem0Worker } from "./mem0-helpers.mjs";

const SCRIPT = fileURLToPath(new URL("./mem0_client.py", import.meta.url));
const FACTS = ["User likes green tea", "User works at Acme"];
const run = promisify(execFile);

let server;
let worker;
let mem0Dir;
before(async () => {
  server = await startServer();
  worker = await startMem0Worker(server);
  mem0Dir = mkdtempSync(join(tmpdir(), "memwasm-mem0-py-"));
});
after(async () => {
  await worker?.dispose();
  await server?.close();
  rmSync(mem0Dir, { recursive: true, force: true });
});

/** Runs the Python scenario with `mode` (`sync` / `async`) for `user`; resolves to its report. */
async function scenario(mode, user) {
  const plan = { user, tea: scriptAdd(server, FACTS), facts: FACTS };
  const env = {
    PATH: process.env.PATH,
    HOME: mem0Dir,
    MEM0_DIR: mem0Dir,
    MEM0_TELEMETRY: "false",
    MEM0_HOST: worker.host,
    MEM0_KEY: ACME,
    MEM0_OTHER_KEY: INITECH,
    MEM0_PLAN: JSON.stringify(plan),
  };
  try {
    const { stdout } = await run(mem0Python(), [SCRIPT, mode], { env, timeout: 120_000 });
    return JSON.parse(stdout.trim().split("\n").pop());
  } catch (error) {
    assert.fail(`mem0_client.py ${mode} failed:\n${error.stderr ?? ""}${error.stdout ?? ""}${error.message}`);
  }
}

for (const mode of ["sync", "async"]) {
  test(`PyPI mem0ai ${mode === "sync" ? "MemoryClient" : "AsyncMemoryClient"}: the whole scenario`, { timeout: 180_000 }, async () => {
    const report = await scenario(mode, `py-${mode}`);
    assert.ok(report.connections >= 1, JSON.stringify(report)); // every one to the worker (the script checks)
    assert.match(report.not_implemented, /does not implement/);
    const event = await mem0Call(worker, "GET", `/mem0/v1/event/${report.event_id}/`);
    assert.equal(event.status, 200);
    assert.equal(event.body.status, "SUCCEEDED");
    assert.deepEqual(event.body.payload.messages.length, 1);
    assert.deepEqual(event.body.results.map((r) => r.memory), FACTS);
    const other = await mem0Call(worker, "GET", `/mem0/v1/event/${report.event_id}/`, { key: INITECH });
    assert.equal(other.status, 404);
  });
}
