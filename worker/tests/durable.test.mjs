// STORAGE = "do": one Durable Object per tenant. Read-your-writes, idle eviction and the rebuild from storage,
// workerd killed between two adds and an object failing before its writes are stored (nothing acknowledged is
// lost, nothing half-written is kept), the KV → object migration, and the backend switch.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, INITECH, T, allKeys, assertError, seed, startServer, startWorker, tempDir } from "./helpers.mjs";

/** Every test here runs on the objects, whatever MEMWASM_WORKER_STORAGE says. */
const DO = { STORAGE: "do" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls an object's own `/__do/` route (test hooks) for `tenant`. */
async function hook(worker, tenant, method, route) {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const stub = namespace.get(namespace.idFromName(tenant));
  try {
    const response = await stub.fetch(`http://memwasm.internal/__do/${route}`, { method, headers: { "x-memwasm-tenant": tenant } });
    return { status: response.status, body: await response.json().catch(() => null) };
  } catch (error) {
    return { status: 0, error };
  }
}

const add = (worker, text, user = "alice", token = ACME) =>
  worker.call("POST", "/v1/memories/", { token, body: { messages: text, user_id: user, infer: false } });
const listed = async (worker, user = "alice", token = ACME) =>
  (await worker.call("GET", `/v1/memories/?user_id=${user}&limit=1000`, { token })).body.results.map((m) => m.memory).sort();

test("every add is seen by the next request, at concurrency 10", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: DO });
  t.after(() => worker.dispose());
  let stale = 0;
  await Promise.all(
    Array.from({ length: 10 }, async (_, lane) => {
      for (let i = 0; i < 5; i++) {
        const text = `Lane ${lane} fact ${i}`;
        const added = await add(worker, text, `user-${lane % 3}`);
        assert.equal(added.status, 200, JSON.stringify(added.body));
        const id = added.body.results[0].id;
        const got = await worker.call("GET", `/v1/memories/${id}/`);
        assert.equal(got.body.memory, text);
        if (!(await listed(worker, `user-${lane % 3}`)).includes(text)) stale++;
      }
    }),
  );
  assert.equal(stale, 0);
  const all = [0, 1, 2].map((u) => listed(worker, `user-${u}`));
  assert.equal((await Promise.all(all)).flat().length, 50);
});

test("an idle object drops its index and rebuilds it from storage", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: { ...DO, DO_IDLE_SECONDS: "1" } });
  t.after(() => worker.dispose());
  const ids = await seed(worker.call, server, ["User likes mountain hiking", "User has a dog named Rex"], { user_id: "alice" });
  assert.deepEqual((await hook(worker, "acme", "GET", "status")).body, { warm: true });
  let warm = true;
  for (let i = 0; i < 40 && warm; i++) {
    await sleep(250);
    warm = (await hook(worker, "acme", "GET", "status")).body.warm;
  }
  assert.equal(warm, false, "the idle alarm evicted the engine");
  const found = await worker.call("GET", "/v1/memories/search/?q=dog%20Rex&user_id=alice");
  assert.equal(found.body.results[0].id, ids[1]);
  assert.deepEqual((await hook(worker, "acme", "GET", "status")).body, { warm: true });
  const history = await worker.call("GET", `/v1/memories/${ids[0]}/history/`);
  assert.deepEqual(history.body.map((r) => r.event), ["ADD"]);
  assert.deepEqual((await hook(worker, "acme", "POST", "evict")).body, { evicted: true });
  assert.deepEqual(await listed(worker), ["User has a dog named Rex", "User likes mountain hiking"]);
});

test("a workerd killed between two adds loses nothing acknowledged", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const before = await startWorker(server, { persist, vars: DO });
  const first = await add(before, "User's first fact");
  assert.equal(first.status, 200);
  await before.dispose();
  const after = await startWorker(server, { persist, vars: DO });
  t.after(() => after.dispose());
  const second = await add(after, "User's second fact");
  assert.equal(second.status, 200, JSON.stringify(second.body));
  assert.deepEqual(await listed(after), ["User's first fact", "User's second fact"]);
  const history = await after.call("GET", `/v1/memories/${first.body.results[0].id}/history/`);
  assert.deepEqual(history.body.map((r) => r.event), ["ADD"]);
});

test("an object that fails before its writes are stored acknowledges nothing and keeps what it did", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: DO });
  t.after(() => worker.dispose());
  const first = await add(worker, "User's first fact");
  assert.equal(first.status, 200);
  assert.deepEqual((await hook(worker, "acme", "POST", "fail-next-flush")).body, { armed: true });
  const failed = await add(worker, "User's lost fact");
  assert.ok(failed.status >= 500, JSON.stringify(failed.body));
  assert.equal(failed.body.error.code, "STORAGE");
  const stored = await allKeys(await worker.kv(), "t/acme/");
  assert.equal(stored.filter((key) => key.startsWith("t/acme/mem/")).length, 1, "no memory without its history");
  assert.equal(stored.filter((key) => key.startsWith("t/acme/hist/")).length, 1);
  const second = await add(worker, "User's second fact");
  assert.equal(second.status, 200, JSON.stringify(second.body));
  assert.deepEqual(await listed(worker), ["User's first fact", "User's second fact"]);
  const found = await worker.call("GET", "/v1/memories/search/?q=first%20fact&user_id=alice");
  assert.equal(found.body.results[0].id, first.body.results[0].id);
});

test("POST /v1/storage/migrate copies a tenant's KV data into its object", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const onKv = await startWorker(server, { persist, vars: { STORAGE: "kv" } });
  const ids = await seed(onKv.call, server, ["User likes tea", "User lives in Oslo"], { user_id: "alice" });
  await seed(onKv.call, server, ["User likes coffee"], { user_id: "bob" }, INITECH);
  assertError(await onKv.call("POST", "/v1/storage/migrate"), 404, "NOT_FOUND");
  await onKv.dispose();

  const onDo = await startWorker(server, { persist, vars: { STORAGE: "do" } });
  t.after(() => onDo.dispose());
  assert.deepEqual(await listed(onDo), [], "objects start empty");
  assertError(await onDo.call("GET", "/v1/storage/migrate"), 405, "METHOD_NOT_ALLOWED");
  const migrated = await onDo.call("POST", "/v1/storage/migrate");
  assert.equal(migrated.status, 200, JSON.stringify(migrated.body));
  assert.equal(migrated.body.done, true);
  assert.ok(migrated.body.copied >= 6, JSON.stringify(migrated.body));
  assert.deepEqual(await listed(onDo), ["User likes tea", "User lives in Oslo"]);
  const found = await onDo.call("GET", "/v1/memories/search/?q=Oslo&user_id=alice");
  assert.equal(found.body.results[0].id, ids[1]);
  assert.deepEqual((await onDo.call("GET", `/v1/memories/${ids[0]}/history/`)).body.map((r) => r.event), ["ADD"]);
  assert.deepEqual(await listed(onDo, "bob", INITECH), [], "another tenant is migrated by its own token");
  const again = await onDo.call("POST", "/v1/storage/migrate");
  assert.equal(again.body.copied, migrated.body.copied, "migrating twice converges");
  assert.deepEqual(await listed(onDo), ["User likes tea", "User lives in Oslo"]);
});

test("STORAGE must be \"do\" or \"kv\"", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: { STORAGE: "d1" } });
  t.after(() => worker.dispose());
  assertError(await worker.call("GET", "/v1/memories/?user_id=alice"), 500, "INVALID_CONFIG");
});
