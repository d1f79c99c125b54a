// Tenant isolation on every memory API route: initech's user has the same user id (u-1) and uses the same
// agent and keys as acme's, and initech's admin token is tenant-wide; neither ever reads, changes, counts,
// copies or decays acme's entries.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, allKeys, assertError, startServer } from "./helpers.mjs";
import { BOSS, INITECH, OTHER, USER1, as, listedKeys, route, startMemoryWorker, store } from "./memory-helpers.mjs";

let server;
let worker;
let acme;
let initechUser;
let initechAdmin;
const AGENT = "shared-name";
before(async () => {
  server = await startServer();
  worker = await startMemoryWorker(server);
  [acme, initechUser, initechAdmin] = [USER1, OTHER, INITECH].map((token) => as(worker, token));
  await store(acme, AGENT, "secret", "Acme launch code is zebra");
  await store(acme, AGENT, "reflection:acme", "Acme reflection about zebra");
  await store(as(worker, BOSS), AGENT, "boss-secret", "Acme board meets on zebra day");
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

/** acme's entries are exactly as stored. */
async function acmeIsIntact() {
  assert.deepEqual((await listedKeys(acme, AGENT)).sort(), ["reflection:acme", "secret"]);
  assert.equal((await acme("GET", route(AGENT, "/secret"))).body.value, "Acme launch code is zebra");
}

test("another tenant's keys are unknown to get, delete and pin, user or admin", T, async () => {
  for (const call of [initechUser, initechAdmin]) {
    assertError(await call("GET", route(AGENT, "/secret")), 404, "NOT_FOUND");
    assertError(await call("DELETE", route(AGENT, "/secret")), 404, "NOT_FOUND");
    assertError(await call("POST", route(AGENT, "/secret/pin"), { body: { pinned: true } }), 404, "NOT_FOUND");
  }
  await acmeIsIntact();
});

test("search, vector-search, list and reflections see only the caller's tenant", T, async () => {
  for (const call of [initechUser, initechAdmin]) {
    assert.deepEqual((await call("GET", route(AGENT, "/search?q=zebra"))).body, { results: [] });
    const vector = await call("POST", route(AGENT, "/vector-search"), { body: { text: "acme zebra", threshold: 0 } });
    assert.deepEqual(vector.body, { results: [] });
    assert.deepEqual(await listedKeys(call, AGENT), []);
    assert.deepEqual((await call("GET", route(AGENT, "/reflections"))).body, { reflections: [] });
  }
  await acmeIsIntact();
});

test("the same key in another tenant is a separate entry; clear touches only the caller's tenant", T, async () => {
  await store(initechUser, AGENT, "secret", "Initech's own secret");
  assert.equal((await initechUser("GET", route(AGENT, "/secret"))).body.value, "Initech's own secret");
  await acmeIsIntact();
  assert.deepEqual((await initechUser("DELETE", route(AGENT, "/clear"))).body, { status: "ok", deleted: 1 });
  assert.deepEqual((await initechAdmin("DELETE", route(AGENT, "/clear"))).body, { status: "ok", deleted: 0 });
  await acmeIsIntact();
});

test("stats, share and decay by another tenant's admin leave acme untouched", T, async () => {
  await store(initechAdmin, "initech-agent", "only", "Initech entry");
  const stats = await initechAdmin("GET", "/api/v1/memory/stats");
  assert.deepEqual([stats.body.total_entries, stats.body.total_agents], [1, 1]);
  const share = await initechAdmin("POST", "/api/v1/memory/share", { body: { from: AGENT, to: "stolen", pattern: "*" } });
  assert.deepEqual(share.body, { status: "ok", copied: 0 });
  const decay = await initechAdmin("POST", "/api/v1/memory/decay", { body: { half_life_days: 1e-12 } });
  assert.equal(decay.body.forgotten, 1, JSON.stringify(decay.body));
  await acmeIsIntact();
  assert.equal((await as(worker, BOSS)("GET", "/api/v1/memory/stats")).body.total_entries, 3);
});

test("every key lives under its tenant's prefix", T, async () => {
  const keys = await allKeys(await worker.kv());
  assert.ok(keys.some((key) => key.startsWith("t/acme/scope/u-1/shared-name/")));
  for (const key of keys) assert.match(key, /^t\/(acme|initech)\//);
});
