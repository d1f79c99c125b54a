// Without a registered OpenTelemetry SDK the traced memory works as the plain one (the API's spans record
// nothing); without @opentelemetry/api installed, memwasm/otel still loads and withTracing returns the class.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { Memory } from "memwasm";
import { withTracing } from "memwasm/otel";
import { addRules, scriptedServer, T, testConfig } from "./helpers.mjs";

const server = scriptedServer();
const alice = { userId: "alice" };

test("no registered provider: add, search, recall and a failure behave as without tracing", T, async () => {
  const heard = [];
  const Traced = withTracing(Memory);
  assert.notEqual(Traced, Memory);
  const memory = new Traced(testConfig(server, { observe: (event) => heard.push(event) }));
  server.script(addRules("I like green tea", ["User likes green tea"]));
  const added = await memory.add("I like green tea", alice);
  assert.deepEqual(added.results.map((r) => [r.event, r.memory]), [["ADD", "User likes green tea"]]);
  assert.equal((await memory.search("tea", alice)).results[0].memory, "User likes green tea");
  assert.match((await memory.recall("tea", alice)).text, /User likes green tea/);
  assert.ok(heard.length > 0 && heard.length % 2 === 0);
  await assert.rejects(memory.update("no-such-id", "x"), { code: "NOT_FOUND" });
});

test("@opentelemetry/api not installed: the module loads and withTracing returns the class unchanged", T, () => {
  const code = `
    import { Memory } from "memwasm";
    import { withTracing, tracingAvailable } from "memwasm/otel";
    const hidden = await import("@opentelemetry/api").then(() => false, () => true);
    console.log(JSON.stringify({ hidden, tracingAvailable, same: withTracing(Memory) === Memory }));`;
  const out = execFileSync(process.execPath, ["--import", "./hide-otel.mjs", "--input-type=module", "-e", code], {
    cwd: new URL(".", import.meta.url),
    encoding: "utf8",
  });
  assert.deepEqual(JSON.parse(out), { hidden: true, tracingAvailable: false, same: true });
});
