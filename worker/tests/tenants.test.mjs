// Two tenants with the same user ids: every endpoint is tried across tenants, and neither ever reads,
// searches, updates, deletes or resets the other's memories.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ACME, INITECH, T, allKeys, assertError, seed, startServer, startWorker } from "./helpers.mjs";

let server;
let worker;
let acmeIds;
let initechIds;
before(async () => {
  server = await startServer();
  worker = await startWorker(server);
  acmeIds = await seed(worker.call, server, ["User likes tea at Acme", "User plays chess at Acme"], { user_id: "alice" }, ACME);
  initechIds = await seed(worker.call, server, ["User likes coffee at Initech"], { user_id: "alice" }, INITECH);
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

const as = (token) => (method, path, options = {}) => worker.call(method, path, { ...options, token });
const acme = as(ACME);
const initech = as(INITECH);
const texts = (response) => response.body.results.map((r) => r.memory).sort();

/** Acme's memories are exactly as seeded, history included. */
async function acmeIsIntact() {
  assert.deepEqual(texts(await acme("GET", "/v1/memories/?user_id=alice")), [
    "User likes tea at Acme",
    "User plays chess at Acme",
  ]);
  for (const id of acmeIds) {
    assert.equal((await acme("GET", `/v1/memories/${id}/`)).status, 200);
    assert.deepEqual((await acme("GET", `/v1/memories/${id}/history/`)).body.map((r) => r.event), ["ADD"]);
  }
}

test("listing and searching the same user id see only the caller's tenant", T, async () => {
  assert.deepEqual(texts(await initech("GET", "/v1/memories/?user_id=alice")), ["User likes coffee at Initech"]);
  const search = await initech("GET", "/v1/memories/search/?q=tea%20chess%20Acme&user_id=alice");
  assert.deepEqual(texts(search), ["User likes coffee at Initech"]);
  const post = await initech("POST", "/v1/memories/search/", { body: { query: "tea at Acme", user_id: "alice" } });
  assert.deepEqual(texts(post), ["User likes coffee at Initech"]);
  const byAgentless = await initech("GET", "/v1/memories/search/?q=tea&user_id=alice&limit=100");
  assert.ok(byAgentless.body.results.every((r) => !acmeIds.includes(r.id)));
  await acmeIsIntact();
});

test("another tenant's ids are unknown: get, update, delete and history are 404", T, async () => {
  for (const id of acmeIds) {
    assertError(await initech("GET", `/v1/memories/${id}/`), 404, "NOT_FOUND");
    assertError(await initech("PUT", `/v1/memories/${id}/`, { body: { text: "hijacked" } }), 404, "NOT_FOUND");
    assertError(await initech("DELETE", `/v1/memories/${id}/`), 404, "NOT_FOUND");
    assertError(await initech("GET", `/v1/memories/${id}/history/`), 404, "NOT_FOUND");
  }
  for (const id of initechIds) {
    assertError(await acme("GET", `/v1/memories/${id}/`), 404, "NOT_FOUND");
  }
  await acmeIsIntact();
});

test("adding the same facts in another tenant does not deduplicate across tenants", T, async () => {
  const [copy] = await seed(worker.call, server, ["User likes tea at Acme"], { user_id: "alice" }, INITECH);
  assert.ok(!acmeIds.includes(copy));
  await initech("DELETE", `/v1/memories/${copy}/`);
  await acmeIsIntact();
});

test("delete all and reset act on the caller's tenant only", T, async () => {
  const deleted = await initech("DELETE", "/v1/memories/?user_id=alice");
  assert.equal(deleted.status, 200);
  assert.deepEqual(texts(await initech("GET", "/v1/memories/?user_id=alice")), []);
  await acmeIsIntact();

  await seed(worker.call, server, ["User likes coffee at Initech"], { user_id: "alice" }, INITECH);
  assert.equal((await initech("POST", "/v1/reset/")).status, 200);
  assert.deepEqual(texts(await initech("GET", "/v1/memories/?user_id=alice")), []);
  // All but a Durable Object's open-image token (a random id, no memory data): it refuses an image read before the reset.
  assert.deepEqual((await allKeys(await worker.kv(), "t/initech/")).filter((key) => key !== "t/initech/imggen"), []);
  await acmeIsIntact();
});

test("every key lives under its tenant's prefix", T, async () => {
  const keys = await allKeys(await worker.kv());
  assert.ok(keys.length > 0);
  for (const key of keys) assert.match(key, /^t\/(acme|initech)\//);
  assert.ok(keys.some((key) => key.startsWith("t/acme/mem/")));
});

test("exports, entities, tiers and mem0 reads by another tenant's token show none of acme's data", T, async () => {
  const acmeText = "User likes tea at Acme";
  const leaked = (response) => JSON.stringify(response.body).includes("Acme");
  const mem0 = (method, path, body) =>
    worker.call(method, `/mem0${path}`, { token: null, body, headers: { authorization: `Token ${INITECH}` } });
  const created = await mem0("POST", "/v1/exports/", { schema: {}, filters: { user_id: "alice" } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const exported = await mem0("POST", "/v1/exports/get/", { memory_export_id: created.body.id });
  assert.ok(!leaked(exported), JSON.stringify(exported.body));
  for (const response of [
    await mem0("POST", "/v3/memories/", { filters: { user_id: "alice" } }),
    await mem0("POST", "/v3/memories/search/", { query: acmeText, filters: { user_id: "alice" } }),
    await mem0("GET", "/v1/entities/"),
    await mem0("GET", `/v1/memories/${acmeIds[0]}/`),
    await mem0("GET", `/v1/memories/${acmeIds[0]}/history/`),
    await worker.call("GET", "/v1/tiers/profile?user_id=alice", { token: INITECH }),
    await worker.call("GET", "/v1/tiers/inject?user_id=alice&max_tokens=500", { token: INITECH }),
    await worker.call("GET", "/v1/tiers/journals?user_id=alice", { token: INITECH }),
  ]) {
    assert.ok(response.status < 500 && !leaked(response), `${response.status} ${JSON.stringify(response.body)}`);
  }
  const deleted = await mem0("DELETE", `/v1/memories/${acmeIds[0]}/`);
  assert.equal(deleted.status, 404);
  const entity = await mem0("DELETE", "/v2/entities/user/alice/");
  assert.ok(entity.status < 500);
  await acmeIsIntact();
});
