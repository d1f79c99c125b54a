// A Worker project that installs the tarball: `wrangler dev` (local workerd, no login) bundles memwasm through
// its workerd entry and serves add + search over HTTP on a KV binding; after a restart on the same
// --persist-to dir the memories are still in KV.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { project, scriptAdd, serve, tempDir } from "./helpers.mjs";

const ENV = { CI: "true", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG: "info" };

test("a Worker project: wrangler dev serves add + search on KV, and KV outlives a restart", { timeout: 300_000 }, async (t) => {
  const dir = await project(t, "worker-app");
  const llm = await startScriptedServer({ port: 0 });
  t.after(() => llm.close());
  const persist = tempDir(t);
  const args = ["dev", "--ip", "127.0.0.1", "--port", "0", "--persist-to", persist,
    "--var", `OPENAI_BASE_URL:${llm.baseUrl}`, "--var", "OPENAI_API_KEY:test"];
  const dev = () => serve(t, join(dir, "node_modules/.bin/wrangler"), args, { cwd: dir, env: ENV, ready: /Ready on (http:\/\/127\.0\.0\.1:\d+)/ });

  const first = await dev();
  const started = Date.now();
  const input = "I drink green tea and live in Lisbon";
  scriptAdd(llm, input, ["User likes green tea", "User lives in Lisbon"]);
  const added = await fetch(first.match[1], { method: "POST", body: JSON.stringify({ text: input, userId: "alice" }) });
  const body = await added.json();
  assert.equal(added.status, 200, JSON.stringify(body));
  assert.deepEqual(body.results.map((event) => `${event.event} ${event.memory}`), ["ADD User likes green tea", "ADD User lives in Lisbon"]);
  await first.stop();

  const second = await dev();
  const found = await fetch(`${second.match[1]}/?q=${encodeURIComponent("where does she live Lisbon")}&userId=alice`);
  const { results } = await found.json();
  assert.equal(found.status, 200);
  assert.equal(results[0].memory, "User lives in Lisbon");
  assert.equal(results[0].id, body.results[1].id, "the same memory, read back from KV");
  const noScope = await fetch(`${second.match[1]}/?q=tea`);
  assert.equal(noScope.status, 400);
  assert.equal((await noScope.json()).error.code, "SCOPE_REQUIRED");
  t.diagnostic(`add, restart, search: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
