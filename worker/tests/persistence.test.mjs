// Memories outlive the worker: KV persisted to disk is read back by a restarted worker, loaded scope by scope.
// Once through Miniflare, once through `wrangler dev` exactly as docs/worker.md runs it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ACME, T, TOKENS, WORKER_DIR, seed, serviceVars, startServer, startWorker, tempDir } from "./helpers.mjs";
import { stopGroup } from "./workerd-process.mjs";

test("a restarted worker finds memories, scopes and history in persisted KV", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);

  const first = await startWorker(server, { persist });
  const ids = await seed(first.call, server, ["User likes hiking", "User has a dog named Rex"], { user_id: "alice" });
  const [bobs] = await seed(first.call, server, ["User likes sailing"], { user_id: "bob" });
  await first.call("PUT", `/v1/memories/${ids[0]}/`, { body: { text: "User likes mountain hiking" } });
  await first.dispose();

  const second = await startWorker(server, { persist });
  t.after(() => second.dispose());
  const all = await second.call("GET", "/v1/memories/?user_id=alice");
  assert.deepEqual(all.body.results.map((r) => [r.id, r.memory]), [
    [ids[0], "User likes mountain hiking"],
    [ids[1], "User has a dog named Rex"],
  ]);
  const found = await second.call("GET", "/v1/memories/search/?q=dog%20Rex&user_id=alice");
  assert.equal(found.body.results[0].id, ids[1]);
  assert.equal((await second.call("GET", `/v1/memories/${bobs}/`)).body.memory, "User likes sailing");
  const history = await second.call("GET", `/v1/memories/${ids[0]}/history/`);
  assert.deepEqual(history.body.map((r) => r.event), ["ADD", "UPDATE"]);
});

/** `wrangler dev` on a free port; resolves with its URL once it is ready. */
async function wranglerDev(t, persist, vars) {
  const args = ["dev", "--ip", "127.0.0.1", "--port", "0", "--persist-to", persist];
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  const child = spawn(join(WORKER_DIR, "node_modules/.bin/wrangler"), args, {
    cwd: WORKER_DIR,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      CI: "true",
      WRANGLER_SEND_METRICS: "false",
      PATH: `${join(homedir(), ".cargo/bin")}:${process.env.PATH}`,
    },
  });
  let output = "";
  const stop = () => stopGroup(child, "SIGTERM");
  t.after(stop);
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${output}`)), 170_000);
    const read = (chunk) => {
      output += chunk;
      const ready = output.match(/Ready on (http:\/\/127\.0\.0\.1:\d+)/);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => reject(new Error(`wrangler dev exited with ${code}:\n${output}`)));
  });
  return { url, stop };
}

test("wrangler dev --persist-to keeps memories across a restart", { timeout: 400_000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const vars = serviceVars(server);
  const headers = { authorization: `Bearer ${ACME}`, "content-type": "application/json" };
  assert.equal(TOKENS[ACME], "acme");

  const first = await wranglerDev(t, persist, vars);
  const added = await fetch(`${first.url}/v1/memories/`, {
    method: "POST",
    headers,
    body: JSON.stringify({ messages: "User's favourite colour is green", user_id: "carol", infer: false }),
  });
  assert.equal(added.status, 200);
  const addedBody = await added.json();
  const [event] = addedBody.results;
  assert.equal(event?.event, "ADD", JSON.stringify(addedBody));
  await first.stop();

  const second = await wranglerDev(t, persist, vars);
  const found = await fetch(`${second.url}/v1/memories/search/?q=favourite%20colour&user_id=carol`, { headers });
  assert.equal(found.status, 200);
  const { results } = await found.json();
  assert.deepEqual(results.map((r) => [r.id, r.memory]), [[event.id, "User's favourite colour is green"]]);
  const unauthorized = await fetch(`${second.url}/v1/memories/?user_id=carol`);
  assert.equal(unauthorized.status, 401);
});
