// A MEMORY_TOKENS grant with neither a user nor `admin` ({"tenant": "acme"}, or a blank user) is the least
// privileged caller of the memory API: it reads the system's entries, and owns nothing — it may not overwrite,
// delete, pin or clear the system's (admin's) entries, nor anyone else's, nor write new ones. User and admin
// grants keep their rights.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, assertError, startServer, startWorker } from "./helpers.mjs";
import { ACME, BOSS, MEMORY_TOKENS, USER1, as, listedKeys, route, store } from "./memory-helpers.mjs";

const READER = "tok-acme-reader-0123456789";
const BLANK = "tok-acme-blank-user-0123456789";
const AGENT = "helper";

let server;
let worker;
let reader;
let blank;
let system;
let boss;
let u1;
before(async () => {
  server = await startServer();
  const tokens = { ...MEMORY_TOKENS, [READER]: { tenant: "acme" }, [BLANK]: { tenant: "acme", user: " ", admin: false } };
  worker = await startWorker(server, { vars: { MEMORY_TOKENS: JSON.stringify(tokens) } });
  [reader, blank, system, boss, u1] = [READER, BLANK, ACME, BOSS, USER1].map((token) => as(worker, token));
  await store(system, AGENT, "sys-note", "Alpha note of the system");
  await store(boss, AGENT, "boss-note", "Alpha note of the admin");
  await store(u1, AGENT, "u1-note", "Alpha note of user one");
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

test("a grant without user and admin cannot overwrite, delete or pin the system's or others' entries", T, async () => {
  for (const call of [reader, blank]) {
    for (const key of ["sys-note", "boss-note", "u1-note"]) {
      const hijack = await call("POST", route(AGENT, "/store"), { body: { key, value: "hijacked" } });
      assertError(hijack, 403, "FORBIDDEN");
      assert.equal((await call("DELETE", route(AGENT, `/${key}`))).status, 403);
      assert.equal((await call("POST", route(AGENT, `/${key}/pin`), { body: { pinned: true } })).status, 403);
    }
  }
  assert.equal((await system("GET", route(AGENT, "/sys-note"))).body.value, "Alpha note of the system");
  assert.equal((await boss("GET", route(AGENT, "/boss-note"))).body.value, "Alpha note of the admin");
  assert.equal((await u1("GET", route(AGENT, "/u1-note"))).body.value, "Alpha note of user one");
});

test("a grant without user and admin cannot clear an agent nor write new entries", T, async () => {
  for (const call of [reader, blank]) {
    assertError(await call("DELETE", route(AGENT, "/clear")), 403, "FORBIDDEN");
    assertError(await call("POST", route(AGENT, "/store"), { body: { key: "fresh", value: "x" } }), 403, "FORBIDDEN");
  }
  assert.deepEqual((await listedKeys(boss, AGENT)).sort(), ["boss-note", "sys-note", "u1-note"]);
});

test("a grant without user and admin still reads the system's entries, and only those", T, async () => {
  for (const call of [reader, blank]) {
    assert.equal((await call("GET", route(AGENT, "/sys-note"))).body.value, "Alpha note of the system");
    assert.deepEqual(await listedKeys(call, AGENT), ["sys-note"]);
    const found = await call("GET", route(AGENT, "/search?q=alpha"));
    assert.deepEqual(found.body.results.map((r) => r.key), ["sys-note"]);
    assertError(await call("GET", route(AGENT, "/u1-note")), 403, "FORBIDDEN");
    assertError(await call("GET", "/api/v1/memory/stats"), 403, "FORBIDDEN");
    assertError(await call("GET", "/v1/memories/?agent_id=helper"), 403, "FORBIDDEN");
  }
});

test("user and admin grants keep their rights", T, async () => {
  await store(u1, "rights", "mine", "u-1's");
  await store(u1, "rights", "mine", "u-1's, again");
  await store(system, "rights", "shared", "the system's");
  await store(system, "rights", "shared", "the system's, again");
  await store(boss, "rights", "mine", "edited by the admin");
  assert.equal((await u1("GET", route("rights", "/mine"))).body.value, "edited by the admin");
  assertError(await u1("POST", route("rights", "/store"), { body: { key: "shared", value: "x" } }), 403, "FORBIDDEN");
  assert.deepEqual((await u1("DELETE", route("rights", "/clear"))).body, { status: "ok", deleted: 1 });
  assert.deepEqual((await system("DELETE", route("rights", "/clear"))).body, { status: "ok", deleted: 1 });
  assert.deepEqual(await listedKeys(boss, "rights"), []);
});
