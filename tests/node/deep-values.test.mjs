// A value nested 10,000 levels deep, or one that contains itself, passed to any entry point is refused with
// a coded error inside the promise: nothing is thrown outside it, and the process and the module keep working
// (a stack overflow in wasm would leave every instance in the process unusable). The calls run in a child
// process, so a crash fails this test instead of the whole run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const child = fileURLToPath(new URL("./deep-values.child.mjs", import.meta.url));

test("deep and cyclic values: every entry point refuses them with a code, and the process keeps working", { timeout: 120_000 }, async () => {
  const { code, stdout, stderr } = await new Promise((resolve) =>
    execFile(process.execPath, [child], { cwd: fileURLToPath(new URL(".", import.meta.url)), maxBuffer: 1 << 24, timeout: 110_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
  assert.equal(code, 0, `the child process exited ${code}: ${stderr.slice(-2000)}`);
  const report = JSON.parse(stdout.trim().split("\n").at(-1));
  assert.deepEqual(report.uncaught, [], "nothing thrown outside a promise");
  const wrong = Object.entries(report.calls).filter(([call, got]) => {
    const wanted = /^(new Memory|Memory\.open)/.test(call) ? "INVALID_CONFIG" : "INVALID_INPUT";
    const sync = /^(new Memory|context\(options\)|tools\(scope\))/.test(call);
    return got !== `${sync ? "threw" : "rejected"} ${wanted}`;
  });
  assert.deepEqual(wrong, [], "every call is refused with its code");
  assert.equal(report.requests, 0, "no model was called");
  assert.deepEqual(report.after, { fresh: ["User likes green tea"], first: ["User likes green tea"] });
});
