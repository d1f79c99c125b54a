// Local-first sync (/v1/sync/…): each user's server-ordered log of opaque entries in Durable Objects, with
// either shard mode. Pushes are idempotent per (client, n), in any order, each accepted entry gets the user's
// next seq, pulls page by seq (limit, about 4 MiB), a pull records the client's checkpoint, a wipe starts a
// new log (a new logId), one user's token never reaches another's log, the limits answer 413, KV storage 501,
// and a restarted worker keeps the log.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, T, assertError, startServer, startWorker, tempDir } from "./helpers.mjs";

const READER = "tok-acme-reader";
const ADMIN_CAROL = "tok-acme-admin-carol";
const USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "oscar"];
/** A user token for each user of acme: `tok-<user>`. */
const tok = (user) => `tok-${user}`;
const TOKENS = {
  [ACME]: "acme",
  [READER]: { tenant: "acme" },
  [ADMIN_CAROL]: { tenant: "acme", user: "carol", admin: true },
  "tok-initech-alice": { tenant: "initech", user: "alice" },
  ...Object.fromEntries(USERS.map((user) => [tok(user), { tenant: "acme", user }])),
};

/** A started worker with sync's tokens, over its own scripted server, stopped after test `t`. */
async function startSync(t, vars = {}, options = {}) {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: { STORAGE: "do", MEMORY_TOKENS: JSON.stringify(TOKENS), ...vars }, ...options });
  t.after(() => worker.dispose());
  return worker;
}

/** `worker.call` asserting a 200, returning the body. */
async function ok(worker, method, path, options) {
  const response = await worker.call(method, path, options);
  assert.equal(response.status, 200, `${method} ${path}: ${JSON.stringify(response.body)}`);
  return response.body;
}

const entries = (from, to, prefix = "e") => Array.from({ length: to - from + 1 }, (_, i) => ({ n: from + i, data: `${prefix}${from + i}` }));
const push = (worker, token, body) => worker.call("POST", "/v1/sync/push", { token, body });
const pull = (worker, token, query = "") => ok(worker, "GET", `/v1/sync/pull${query}`, { token });
const status = (worker, token, query = "") => ok(worker, "GET", `/v1/sync${query}`, { token });

/** The keys stored in the object named `name` (see `tenant_engine::slot_name`), under `prefix`. */
async function storedKeys(worker, tenant, user, prefix = "") {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const name = user === undefined ? tenant : `\0${tenant.length}\0${tenant}\0${user}`;
  const headers = { "x-memwasm-tenant": tenant };
  if (user !== undefined) headers["x-memwasm-shard"] = encodeURIComponent(user);
  const response = await namespace.get(namespace.idFromName(name)).fetch(`http://memwasm.internal/__do/storage/list?prefix=${encodeURIComponent(prefix)}`, { headers });
  assert.equal(response.status, 200);
  return (await response.json()).keys;
}

for (const shards of ["tenant", "scope"]) {
  const mode = `DO_SHARDS = "${shards}"`;

  test(`${mode}: a push is pulled back in seq order, in the user's own object, apart from the memories`, T, async (t) => {
    const worker = await startSync(t, { DO_SHARDS: shards });
    const first = (await push(worker, tok("alice"), { clientId: "phone", entries: entries(1, 3) })).body;
    assert.equal(typeof first.logId, "string");
    assert.ok(first.logId.length > 0);
    assert.deepEqual({ ...first, logId: undefined }, { logId: undefined, lastN: 3, head: 3, accepted: 3 });
    const all = await pull(worker, tok("alice"));
    assert.deepEqual(all, {
      logId: first.logId, head: 3, floor: 0, more: false, compact: null,
      entries: [1, 2, 3].map((n) => ({ seq: n, clientId: "phone", n, data: `e${n}` })),
    });
    assert.deepEqual((await pull(worker, tok("alice"), "?since=2")).entries.map((e) => e.seq), [3]);
    assert.deepEqual((await pull(worker, tok("alice"), "?since=3")).entries, []);
    // Where the log is: the user's object under scope sharding, the tenant's (under the user's keys) otherwise.
    const keys = shards === "scope" ? await storedKeys(worker, "acme", "alice") : await storedKeys(worker, "acme");
    const synced = keys.filter((key) => key.startsWith("sync/alice/"));
    assert.equal(synced.filter((key) => key.includes("/e/")).length, 3, JSON.stringify(keys));
    assert.deepEqual(keys.filter((key) => key.startsWith("t/")), [], "the sync log is not in the memory engine's keys");
    if (shards === "scope") assert.deepEqual(await storedKeys(worker, "acme", undefined, "sync/"), [], "nothing in the tenant's object");
  });

  test(`${mode}: a retried push is applied once; an overlapping one adds only the new entries`, T, async (t) => {
    const worker = await startSync(t, { DO_SHARDS: shards });
    const body = { clientId: "laptop", entries: entries(1, 2) };
    const first = (await push(worker, tok("bob"), body)).body;
    const again = (await push(worker, tok("bob"), body)).body;
    assert.deepEqual(again, { ...first, accepted: 0 });
    const overlap = (await push(worker, tok("bob"), { clientId: "laptop", entries: entries(1, 4) })).body;
    assert.deepEqual([overlap.accepted, overlap.lastN, overlap.head], [2, 4, 4]);
    const pulled = await pull(worker, tok("bob"));
    assert.deepEqual(pulled.entries.map((e) => [e.seq, e.n, e.data]), [[1, 1, "e1"], [2, 2, "e2"], [3, 3, "e3"], [4, 4, "e4"]]);
    const empty = (await push(worker, tok("bob"), { clientId: "laptop", entries: [] })).body;
    assert.deepEqual(empty, { logId: first.logId, lastN: 4, head: 4, accepted: 0 });
  });

  test(`${mode}: entries out of order, with gaps or repeated are each stored once`, T, async (t) => {
    const worker = await startSync(t, { DO_SHARDS: shards });
    await push(worker, tok("carol"), { clientId: "c1", entries: entries(1, 1) });
    const later = (await push(worker, tok("carol"), { clientId: "c1", entries: [{ n: 3, data: "three" }] })).body;
    assert.deepEqual([later.accepted, later.lastN, later.head], [1, 3, 2], "a gap is allowed: numbers only grow");
    const landed = await push(worker, tok("carol"), { clientId: "c1", entries: [{ n: 2, data: "two" }, { n: 3, data: "three" }, { n: 2, data: "two" }] });
    assert.deepEqual([landed.body.accepted, landed.body.lastN, landed.body.head], [1, 3, 3], "a commit that landed late is stored once");
    const state = await status(worker, tok("carol"));
    assert.deepEqual([state.head, state.entries], [3, 3]);
    assert.deepEqual(state.clients, [{ clientId: "c1", lastN: 3, pulled: 0 }]);
    assert.deepEqual((await pull(worker, tok("carol"))).entries.map((e) => [e.seq, e.n, e.data]), [[1, 1, "e1"], [2, 3, "three"], [3, 2, "two"]]);
  });

  test(`${mode}: two clients' pushes interleave into one total order`, T, async (t) => {
    const worker = await startSync(t, { DO_SHARDS: shards });
    const steps = [["a", 1, 1], ["b", 1, 1], ["a", 2, 2], ["b", 2, 3], ["a", 3, 3]];
    const heads = [];
    for (const [clientId, from, to] of steps) {
      heads.push((await push(worker, tok("dave"), { clientId, entries: entries(from, to, clientId) })).body.head);
    }
    assert.deepEqual(heads, [1, 2, 3, 5, 6]);
    const pulled = await pull(worker, tok("dave"));
    assert.deepEqual(pulled.entries.map((e) => [e.seq, e.clientId, e.n]), [[1, "a", 1], [2, "b", 1], [3, "a", 2], [4, "b", 2], [5, "b", 3], [6, "a", 3]]);
    const state = await status(worker, tok("dave"));
    assert.deepEqual(state.clients, [{ clientId: "a", lastN: 3, pulled: 0 }, { clientId: "b", lastN: 3, pulled: 0 }]);
    const asA = await pull(worker, tok("dave"), "?clientId=a");
    assert.deepEqual(asA.entries.map((e) => [e.clientId, e.data === null]), [["a", true], ["b", false], ["a", true], ["b", false], ["b", false], ["a", true]],
      "a client's own entries come back without their data");
  });

  test(`${mode}: pulls page by limit, say when more follow, and record the client's checkpoint`, T, async (t) => {
    const worker = await startSync(t, { DO_SHARDS: shards });
    await push(worker, tok("erin"), { clientId: "w", entries: entries(1, 7) });
    const pages = [];
    let since = 0;
    for (;;) {
      const page = await pull(worker, tok("erin"), `?since=${since}&limit=3&clientId=r`);
      pages.push([page.entries.map((e) => e.seq), page.more]);
      if (!page.more) break;
      since = page.entries.at(-1).seq;
    }
    assert.deepEqual(pages, [[[1, 2, 3], true], [[4, 5, 6], true], [[7], false]]);
    const state = await status(worker, tok("erin"));
    assert.deepEqual(state.clients, [{ clientId: "r", lastN: 0, pulled: 6 }, { clientId: "w", lastN: 7, pulled: 0 }]);
    await pull(worker, tok("erin"), "?since=7&clientId=r");
    assert.deepEqual((await status(worker, tok("erin"))).clients[0], { clientId: "r", lastN: 0, pulled: 7 });
    for (const query of ["?limit=0", "?limit=1001", "?since=-1", "?since=abc", "?limit=2.5", "?clientId=a%20b", "?cursor=1"]) {
      assertError(await worker.call("GET", `/v1/sync/pull${query}`, { token: tok("erin") }), 400, "INVALID_INPUT");
    }
  });

  test(`${mode}: a wipe starts a new log with a new logId`, T, async (t) => {
    const worker = await startSync(t, { DO_SHARDS: shards });
    const before = (await push(worker, tok("frank"), { clientId: "f", entries: entries(1, 5) })).body;
    const wiped = await ok(worker, "DELETE", "/v1/sync", { token: tok("frank") });
    assert.equal(wiped.deleted, 5);
    assert.notEqual(wiped.logId, before.logId);
    assert.deepEqual(await pull(worker, tok("frank")), { logId: wiped.logId, entries: [], head: 0, floor: 0, more: false, compact: null });
    assert.deepEqual(await status(worker, tok("frank")), { logId: wiped.logId, head: 0, floor: 0, entries: 0, bytes: 0, mode: "relay", clients: [], devices: [] });
    const keys = shards === "scope" ? await storedKeys(worker, "acme", "frank", "sync/") : await storedKeys(worker, "acme", undefined, "sync/frank/");
    assert.deepEqual(keys, ["sync/frank/meta"], "the old log's keys are deleted");
    const again = (await push(worker, tok("frank"), { clientId: "f", entries: entries(1, 1) })).body;
    assert.deepEqual(again, { logId: wiped.logId, lastN: 1, head: 1, accepted: 1 });
    assert.equal((await ok(worker, "DELETE", "/v1/sync", { token: tok("frank") })).deleted, 1);
  });

  test(`${mode}: one user's token never reaches another user's log`, T, async (t) => {
    const worker = await startSync(t, { DO_SHARDS: shards });
    await push(worker, tok("grace"), { clientId: "g", entries: entries(1, 2, "secret") });
    assert.deepEqual((await pull(worker, tok("heidi"))).entries, [], "heidi's own log is empty");
    for (const [method, path, body] of [
      ["GET", "/v1/sync/pull?userId=grace"],
      ["GET", "/v1/sync?userId=grace"],
      ["DELETE", "/v1/sync?userId=grace"],
      ["POST", "/v1/sync/push", { clientId: "h", userId: "grace", entries: entries(3, 3) }],
      ["POST", "/v1/sync/push", { clientId: "g", userId: "grace", entries: entries(1, 5) }],
      ["POST", "/v1/sync/push?userId=grace", { clientId: "h", entries: entries(3, 3) }],
    ]) {
      assertError(await worker.call(method, path, { token: tok("heidi"), body }), 403, "FORBIDDEN");
    }
    // Another tenant's user of the same name reaches its own tenant's log.
    assert.deepEqual((await pull(worker, "tok-initech-alice", "")).entries, []);
    const graces = await pull(worker, tok("grace"), "?userId=grace");
    assert.deepEqual(graces.entries.map((e) => e.data), ["secret1", "secret2"]);
    assert.equal((await status(worker, tok("grace"))).head, 2);
  });

  test(`${mode}: a tenant-wide token names the user; a reader's token is refused`, T, async (t) => {
    const worker = await startSync(t, { DO_SHARDS: shards });
    await push(worker, tok("ivan"), { clientId: "i", entries: entries(1, 1) });
    for (const [method, path, body] of [
      ["GET", "/v1/sync/pull"], ["GET", "/v1/sync"], ["DELETE", "/v1/sync"], ["POST", "/v1/sync/push", { clientId: "x", entries: [] }],
    ]) {
      const refused = await worker.call(method, path, { body });
      assertError(refused, 400, "INVALID_INPUT");
      assert.match(refused.body.error.message, /userId/);
      assertError(await worker.call(method, path, { token: READER, body }), 403, "FORBIDDEN");
    }
    assert.deepEqual((await pull(worker, ACME, "?userId=ivan")).entries.map((e) => e.data), ["e1"]);
    const both = await worker.call("POST", "/v1/sync/push?userId=judy", { body: { clientId: "x", userId: "ivan", entries: [] } });
    assertError(both, 400, "INVALID_INPUT");
    assert.match(both.body.error.message, /userId/);
    const viaQuery = await worker.call("POST", "/v1/sync/push?userId=ivan", { body: { clientId: "q", entries: [] } });
    assert.deepEqual([viaQuery.status, viaQuery.body.head, viaQuery.body.lastN], [200, 1, 0], JSON.stringify(viaQuery.body));
    const pushed = await push(worker, ACME, { clientId: "admin", userId: "ivan", entries: entries(1, 1, "admin") });
    assert.equal(pushed.body.head, 2, JSON.stringify(pushed.body));
    // An admin token with a user of its own defaults to it and may name another.
    assert.equal((await status(worker, ADMIN_CAROL)).head, 0);
    assert.equal((await status(worker, ADMIN_CAROL, "?userId=ivan")).head, 2);
    assertError(await worker.call("GET", "/v1/sync/pull", { token: "tok-nobody" }), 401, "UNAUTHORIZED");
    assertError(await worker.call("GET", "/v1/sync/nothing", { token: tok("ivan") }), 404, "NOT_FOUND");
  });
}

test("bad bodies and fields are 400 with a code, and store nothing", T, async (t) => {
  const worker = await startSync(t, { DO_SHARDS: "scope" });
  const user = tok("judy");
  assertError(await worker.call("POST", "/v1/sync/push", { token: user, raw: "{not json" }), 400, "INVALID_JSON");
  assertError(await worker.call("POST", "/v1/sync/push", { token: ACME, raw: "{not json" }), 400, "INVALID_JSON");
  const cases = [
    [[], /object/],
    [{ entries: [] }, /clientId/],
    [{ clientId: "", entries: [] }, /clientId/],
    [{ clientId: "a b", entries: [] }, /clientId/],
    [{ clientId: "x".repeat(65), entries: [] }, /clientId/],
    [{ clientId: "ok" }, /entries/],
    [{ clientId: "ok", entries: {} }, /entries/],
    [{ clientId: "ok", entries: [{ n: 0, data: "x" }] }, /entries\[0\]\.n/],
    [{ clientId: "ok", entries: [{ n: 1.5, data: "x" }] }, /entries\[0\]\.n/],
    [{ clientId: "ok", entries: [{ n: "1", data: "x" }] }, /entries\[0\]\.n/],
    [{ clientId: "ok", entries: [{ n: 1, data: "" }] }, /entries\[0\]\.data/],
    [{ clientId: "ok", entries: [{ n: 1, data: 7 }] }, /entries\[0\]\.data/],
    [{ clientId: "ok", entries: [{ n: 1, data: "x", extra: 1 }] }, /extra/],
    [{ clientId: "ok", entries: [], more: true }, /more/],
    [{ clientId: "ok", entries: [], userId: 5 }, /userId/],
    [{ clientId: "ok", entries: entries(1, 1001) }, /1000/],
  ];
  for (const [body, field] of cases) {
    const refused = await push(worker, user, body);
    assertError(refused, 400, "INVALID_INPUT");
    assert.match(refused.body.error.message, field, JSON.stringify(body));
  }
  assert.equal((await push(worker, user, { clientId: "ok-_9", entries: entries(1, 1000) })).body.head, 1000);
  assertError(await worker.call("GET", "/v1/sync?since=1", { token: user }), 400, "INVALID_INPUT");
});

test("an entry over SYNC_MAX_ENTRY_BYTES is 413; a log past SYNC_MAX_LOG_BYTES refuses the whole push", T, async (t) => {
  const worker = await startSync(t, { DO_SHARDS: "scope", SYNC_MAX_LOG_BYTES: "600000" });
  const user = tok("mallory");
  const big = "x".repeat(262144);
  const tooBig = await push(worker, user, { clientId: "m", entries: [{ n: 1, data: "a" }, { n: 2, data: big + "y" }] });
  assertError(tooBig, 413, "SYNC_ENTRY_TOO_LARGE");
  assert.match(tooBig.body.error.message, /n=2/);
  assert.equal((await status(worker, user)).head, 0, "nothing of the push is stored");
  // The default limit is 256 KiB: an entry of exactly that is stored and pulled back whole.
  assert.equal((await push(worker, user, { clientId: "m", entries: [{ n: 1, data: big }, { n: 2, data: big }] })).body.head, 2);
  assert.equal((await pull(worker, user, "?since=1")).entries[0].data.length, 262144);
  const full = await push(worker, user, { clientId: "m", entries: [{ n: 3, data: "z".repeat(50000) }, { n: 4, data: "z".repeat(25713) }] });
  assertError(full, 413, "SYNC_LOG_FULL");
  assert.deepEqual([(await status(worker, user)).head, (await status(worker, user)).bytes], [2, 524288]);
  const fits = (await push(worker, user, { clientId: "m", entries: [{ n: 3, data: "z".repeat(75712) }] })).body;
  assert.deepEqual([fits.accepted, fits.head], [1, 3]);
  assertError(await push(worker, user, { clientId: "m", entries: [{ n: 4, data: "z" }] }), 413, "SYNC_LOG_FULL");
});

test("a pull answers about 4 MiB of data at most", T, async (t) => {
  const worker = await startSync(t, { DO_SHARDS: "tenant", SYNC_MAX_ENTRY_BYTES: "1048576", MAX_BODY_BYTES: "8000000" });
  const user = tok("oscar");
  const block = "b".repeat(200 * 1024);
  assert.equal((await push(worker, user, { clientId: "o", entries: entries(1, 25).map((e) => ({ ...e, data: block })) })).body.head, 25);
  const first = await pull(worker, user, "?limit=1000");
  assert.deepEqual([first.entries.length, first.more], [20, true]);
  const rest = await pull(worker, user, "?since=20");
  assert.deepEqual([rest.entries.map((e) => e.seq), rest.more], [[21, 22, 23, 24, 25], false]);
  const mib = "m".repeat(1 << 20);
  const pushed = await push(worker, user, { clientId: "o", entries: entries(26, 30).map((e) => ({ ...e, data: mib })) });
  assert.equal(pushed.body.head, 30, JSON.stringify(pushed.body).slice(0, 300));
  const four = await pull(worker, user, "?since=25");
  assert.deepEqual([four.entries.map((e) => e.seq), four.more], [[26, 27, 28, 29], true]);
  assert.ok(four.entries.every((e) => e.data === mib));
  const refused = await startSync(t, { SYNC_MAX_ENTRY_BYTES: "1048577" });
  assertError(await refused.call("GET", "/v1/sync", { token: user }), 500, "INVALID_CONFIG");
});

test('STORAGE = "kv": every sync route is 501 SYNC_NEEDS_DURABLE_OBJECTS', T, async (t) => {
  const worker = await startSync(t, { STORAGE: "kv" });
  for (const [method, path, body] of [
    ["POST", "/v1/sync/push", { clientId: "a", entries: entries(1, 1) }], ["GET", "/v1/sync/pull"], ["GET", "/v1/sync"], ["DELETE", "/v1/sync"],
  ]) {
    const refused = await worker.call(method, path, { token: tok("alice"), body });
    assertError(refused, 501, "SYNC_NEEDS_DURABLE_OBJECTS");
    assert.match(refused.body.error.message, /STORAGE = "do"/);
  }
});

test("a restarted worker keeps the log, its logId and each client's lastN", T, async (t) => {
  const persist = tempDir(t);
  const server = await startServer();
  t.after(() => server.close());
  const vars = { STORAGE: "do", DO_SHARDS: "scope", MEMORY_TOKENS: JSON.stringify(TOKENS) };
  const first = await startWorker(server, { vars, persist });
  const pushed = (await push(first, tok("alice"), { clientId: "p", entries: entries(1, 3) })).body;
  await pull(first, tok("alice"), "?since=2&clientId=p");
  await first.dispose();
  const second = await startWorker(server, { vars, persist });
  t.after(() => second.dispose());
  const pulled = await pull(second, tok("alice"));
  assert.equal(pulled.logId, pushed.logId);
  assert.deepEqual(pulled.entries.map((e) => e.data), ["e1", "e2", "e3"]);
  assert.deepEqual((await status(second, tok("alice"))).clients, [{ clientId: "p", lastN: 3, pulled: 2 }]);
  const retried = (await push(second, tok("alice"), { clientId: "p", entries: entries(1, 4) })).body;
  assert.deepEqual([retried.accepted, retried.head, retried.logId], [1, 4, pushed.logId]);
});

test("a browser page on another origin may call the sync routes: preflights answer before any token, answers allow any origin", T, async (t) => {
  const worker = await startSync(t);
  const preflight = await worker.call("OPTIONS", "/v1/sync/push", { token: null, headers: { origin: "https://app.example", "access-control-request-method": "POST" } });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
  assert.match(preflight.headers.get("access-control-allow-headers"), /authorization/);
  assert.match(preflight.headers.get("access-control-allow-methods"), /POST/);
  const pulled = await worker.call("GET", "/v1/sync/pull", { token: tok("alice"), headers: { origin: "https://app.example" } });
  assert.equal(pulled.status, 200);
  assert.equal(pulled.headers.get("access-control-allow-origin"), "*");
  const refused = await worker.call("GET", "/v1/sync", { token: "tok-unknown-0000000000", headers: { origin: "https://app.example" } });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("access-control-allow-origin"), "*", "errors are readable too");
  const other = await worker.call("OPTIONS", "/v1/memories/", { token: null });
  assert.notEqual(other.headers.get("access-control-allow-origin"), "*", "other routes are unchanged");
});
