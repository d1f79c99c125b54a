// The Cron Trigger in workerd: Miniflare invokes the worker's scheduled handler, which purges expired
// memories in every tenant of MEMORY_TOKENS and decays the importance of their key/value entries (and of
// nothing else: a /v1 memory is kept).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ACME, T, WORKER_DIR, allKeys, assertError, startServer } from "./helpers.mjs";
import { INITECH, OTHER, USER1, as, listedKeys, route, sleep, startMemoryWorker, store } from "./memory-helpers.mjs";

const CRON = "0 3 * * *";

/** Runs the scheduled handler once, as the cron would. */
async function runCron(worker) {
  const fetcher = await worker.mf.getWorker();
  const result = await fetcher.scheduled({ cron: CRON, scheduledTime: new Date() });
  assert.equal(result.outcome, "ok", JSON.stringify(result));
}

/** How many memories a tenant holds in KV. */
const memories = async (worker, tenant) => (await allKeys(await worker.kv(), `t/${tenant}/mem/`)).length;

test("wrangler.toml schedules the decay", T, () => {
  const toml = readFileSync(join(WORKER_DIR, "wrangler.toml"), "utf8");
  assert.match(toml, /^\[triggers\]\ncrons = \["0 3 \* \* \*"\]$/m);
});

test("the cron forgets decayed key/value entries in every tenant, keeps pinned ones and decays nothing else", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startMemoryWorker(server, { DECAY_HALF_LIFE_DAYS: "0.000000000001" });
  t.after(() => worker.dispose());
  const [acme, initech] = [as(worker, USER1), as(worker, OTHER)];
  for (const call of [acme, initech]) {
    await store(call, "agent", "fading", "Forgotten by the cron");
    await store(call, "agent", "kept", "Pinned, so never decays");
    assert.equal((await call("POST", route("agent", "/kept/pin"), { body: { pinned: true } })).status, 200);
  }
  const added = await worker.call("POST", "/v1/memories/", {
    token: ACME,
    body: { messages: "User likes green tea", user_id: "alice", infer: false },
  });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const [{ id }] = added.body.results;
  assert.deepEqual([await memories(worker, "acme"), await memories(worker, "initech")], [3, 2]);
  await sleep(20);

  await runCron(worker);
  assert.deepEqual(await listedKeys(acme, "agent"), ["kept"]);
  assert.deepEqual(await listedKeys(initech, "agent"), ["kept"]);
  assert.deepEqual([await memories(worker, "acme"), await memories(worker, "initech")], [2, 1]);
  const history = await worker.call("GET", `/v1/memories/${id}/history/`, { token: ACME });
  assert.deepEqual(history.body.map((record) => record.event), ["ADD"], "a /v1 memory is not the sweep's to forget");
  const stats = await worker.call("GET", "/api/v1/memory/stats", { token: INITECH });
  assert.deepEqual([stats.body.total_entries, stats.body.pinned], [1, 1]);
  // total_entries counts the key/value entries; all_memories every memory of the tenant (here a /v1 one too).
  const acmeStats = (await worker.call("GET", "/api/v1/memory/stats", { token: ACME })).body;
  assert.deepEqual([acmeStats.total_entries, acmeStats.all_memories, acmeStats.total_agents], [1, 2, 1]);
  assert.deepEqual([acmeStats.pg_enabled, acmeStats.pgvector_enabled], [false, false]);
});

test("with the default half-life the cron keeps fresh memories and purges expired ones", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startMemoryWorker(server);
  t.after(() => worker.dispose());
  const acme = as(worker, USER1);
  await store(acme, "agent", "fresh", "Stays for a month at least");
  await store(acme, "agent", "brief", "Expires at once", { ttl: 1 });
  await sleep(20);
  assert.equal(await memories(worker, "acme"), 2, "nothing read the expired entry yet");

  await runCron(worker);
  assert.equal(await memories(worker, "acme"), 1);
  assert.deepEqual(await listedKeys(acme, "agent"), ["fresh"]);
  assertError(await acme("GET", route("agent", "/brief")), 404, "NOT_FOUND");
});
