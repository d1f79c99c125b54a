// User scoping of the agent key/value entries within one tenant: users u-1 and u-2 see their own entries and the system's
// (stored with the old-format token, which has no user), never each other's; only an entry's owner or an
// admin may change it; admins see everything and alone may call stats, decay and share. The /v1 routes act
// on the whole tenant, so they take tenant-wide tokens only.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, assertError, startServer } from "./helpers.mjs";
import { ACME, BOSS, USER1, USER2, as, listedKeys, route, startMemoryWorker, store } from "./memory-helpers.mjs";

let server;
let worker;
let u1;
let u2;
let boss;
let system;
const AGENT = "helper";
before(async () => {
  server = await startServer();
  worker = await startMemoryWorker(server);
  [u1, u2, boss, system] = [USER1, USER2, BOSS, ACME].map((token) => as(worker, token));
  await store(u1, AGENT, "u1-note", "Alpha note of user one");
  await store(u1, AGENT, "reflection:u1", "Alpha reflection of user one");
  await store(u2, AGENT, "u2-note", "Alpha note of user two");
  await store(system, AGENT, "sys-note", "Alpha note of the system");
  await store(system, AGENT, "reflection:sys", "Alpha reflection of the system");
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

const keys = (results) => results.map((r) => r.key).sort();

test("each user sees their own entries and the system's on every read route", T, async () => {
  assert.deepEqual((await listedKeys(u1, AGENT)).sort(), ["reflection:sys", "reflection:u1", "sys-note", "u1-note"]);
  assert.deepEqual((await listedKeys(u2, AGENT)).sort(), ["reflection:sys", "sys-note", "u2-note"]);
  const search = await u2("GET", route(AGENT, "/search?q=note"));
  assert.deepEqual(keys(search.body.results), ["sys-note", "u2-note"]);
  const vector = await u2("POST", route(AGENT, "/vector-search"), { body: { text: "alpha note", threshold: 0 } });
  assert.deepEqual(keys(vector.body.results), ["reflection:sys", "sys-note", "u2-note"]);
  assert.deepEqual(keys((await u2("GET", route(AGENT, "/reflections"))).body.reflections), ["reflection:sys"]);
  assert.equal((await u2("GET", route(AGENT, "/sys-note"))).body.value, "Alpha note of the system");
  assertError(await u2("GET", route(AGENT, "/u1-note")), 403, "FORBIDDEN");
  assertError(await u1("GET", route(AGENT, "/u2-note")), 403, "FORBIDDEN");
});

test("only the owner (or an admin) may overwrite, delete or pin an entry", T, async () => {
  for (const [call, key] of [[u2, "u1-note"], [u1, "sys-note"]]) {
    assertError(await call("POST", route(AGENT, "/store"), { body: { key, value: "hijacked" } }), 403, "FORBIDDEN");
    assertError(await call("DELETE", route(AGENT, `/${key}`)), 403, "FORBIDDEN");
    assertError(await call("POST", route(AGENT, `/${key}/pin`), { body: { pinned: true } }), 403, "FORBIDDEN");
  }
  assert.equal((await u1("GET", route(AGENT, "/u1-note"))).body.value, "Alpha note of user one");
  assert.equal((await system("GET", route(AGENT, "/sys-note"))).body.value, "Alpha note of the system");
  assert.deepEqual((await u1("POST", route(AGENT, "/u1-note/pin"), { body: { pinned: true } })).body, {
    status: "ok",
    pinned: true,
  });
});

test("an admin sees every entry and changes any, keeping its owner", T, async () => {
  assert.deepEqual((await listedKeys(boss, AGENT)).sort(), [
    "reflection:sys",
    "reflection:u1",
    "sys-note",
    "u1-note",
    "u2-note",
  ]);
  assert.equal((await boss("GET", route(AGENT, "/u2-note"))).body.value, "Alpha note of user two");
  await store(boss, AGENT, "u2-note", "Edited by the admin");
  assert.equal((await u2("GET", route(AGENT, "/u2-note"))).body.value, "Edited by the admin", "u-2 still owns it");
  assert.deepEqual((await boss("POST", route(AGENT, "/u2-note/pin"), { body: { pinned: true } })).body.pinned, true);
  await store(boss, AGENT, "boss-note", "Written by the admin");
  assertError(await u1("GET", route(AGENT, "/boss-note")), 403, "FORBIDDEN");
  assert.deepEqual((await boss("DELETE", route(AGENT, "/boss-note"))).body, { status: "ok" });
});

test("clear deletes only the caller's own entries; an admin's clears the agent", T, async () => {
  await store(u1, "cleaning", "mine", "u-1's");
  await store(u2, "cleaning", "theirs", "u-2's");
  await store(system, "cleaning", "shared", "the system's");
  assert.deepEqual((await u1("DELETE", route("cleaning", "/clear"))).body, { status: "ok", deleted: 1 });
  assert.deepEqual((await listedKeys(boss, "cleaning")).sort(), ["shared", "theirs"]);
  assert.deepEqual((await boss("DELETE", route("cleaning", "/clear"))).body, { status: "ok", deleted: 2 });
  assert.deepEqual(await listedKeys(boss, "cleaning"), []);
});

test("stats, decay and share are admin-only: users get 403", T, async () => {
  for (const call of [u1, u2]) {
    assertError(await call("GET", "/api/v1/memory/stats"), 403, "FORBIDDEN");
    assertError(await call("POST", "/api/v1/memory/decay"), 403, "FORBIDDEN");
    const share = { from: AGENT, to: "copy", pattern: "*" };
    assertError(await call("POST", "/api/v1/memory/share", { body: share }), 403, "FORBIDDEN");
  }
});

test("stats counts the tenant's memories", T, async () => {
  const { status, body } = await boss("GET", "/api/v1/memory/stats");
  assert.equal(status, 200, JSON.stringify(body));
  assert.ok(body.total_entries >= 5, JSON.stringify(body));
  assert.ok(body.total_agents >= 1 && body.total_users >= 2, JSON.stringify(body));
  assert.ok(body.pinned >= 2, JSON.stringify(body));
  assert.equal(body.vector_search_enabled, true);
  assert.equal(typeof body.by_type, "object");
  assert.equal((await system("GET", "/api/v1/memory/stats")).status, 200, "old-format tokens are admins");
});

test("share copies the keys matching a glob to another agent, each keeping its owner", T, async () => {
  const { status, body } = await boss("POST", "/api/v1/memory/share", {
    body: { from: AGENT, to: "shared-agent", pattern: "reflection:*" },
  });
  assert.equal(status, 200, JSON.stringify(body));
  assert.deepEqual(body, { status: "ok", copied: 2 });
  assert.deepEqual(await listedKeys(u2, "shared-agent"), ["reflection:sys"]);
  assert.deepEqual((await listedKeys(u1, "shared-agent")).sort(), ["reflection:sys", "reflection:u1"]);
  assertError(await u2("GET", route("shared-agent", "/reflection:u1")), 403, "FORBIDDEN");
  const bad = (body) => boss("POST", "/api/v1/memory/share", { body });
  assertError(await bad({ from: AGENT, to: AGENT, pattern: "*" }), 400, "INVALID_INPUT");
  assertError(await bad({ from: AGENT, to: "x", pattern: "" }), 400, "INVALID_INPUT");
  assertError(await bad({ from: "a".repeat(129), to: "x", pattern: "*" }), 400, "INVALID_INPUT");
  assertError(await bad({ from: AGENT, to: "x" }), 400, "INVALID_INPUT");
});

test("decay by an admin forgets unpinned entries and keeps pinned ones", T, async () => {
  await store(u1, "decaying", "fading", "Fades away");
  await store(u1, "decaying", "kept", "Stays pinned");
  await u1("POST", route("decaying", "/kept/pin"), { body: { pinned: true } });
  assertError(await boss("POST", "/api/v1/memory/decay", { body: { half_life_days: 0 } }), 400, "INVALID_INPUT");
  assertError(await boss("POST", "/api/v1/memory/decay", { body: { forget: 1 } }), 400, "INVALID_INPUT");
  const defaults = await boss("POST", "/api/v1/memory/decay");
  assert.equal(defaults.status, 200, JSON.stringify(defaults.body));
  assert.equal(defaults.body.forgotten, 0, "a 30-day half-life forgets nothing fresh");
  const steep = await boss("POST", "/api/v1/memory/decay", { body: { half_life_days: 1e-12, forget_below: 0.2 } });
  assert.equal(steep.status, 200, JSON.stringify(steep.body));
  assert.equal(steep.body.status, "ok");
  assert.ok(steep.body.forgotten >= 1, JSON.stringify(steep.body));
  assert.deepEqual(await listedKeys(u1, "decaying"), ["kept"]);
  assert.ok((await listedKeys(boss, AGENT)).includes("u1-note"), "pinned earlier");
});

test("the /v1 routes take tenant-wide tokens only: user tokens get 403", T, async () => {
  for (const call of [u1, u2]) {
    assertError(await call("GET", "/v1/memories/?user_id=u-1"), 403, "FORBIDDEN");
    assertError(await call("POST", "/v1/reset/"), 403, "FORBIDDEN");
  }
  assert.equal((await system("GET", "/v1/memories/?agent_id=helper")).status, 200);
  assert.equal((await boss("GET", "/v1/memories/?agent_id=helper")).status, 200);
});
