// STORAGE = "do": a scope opens from its open image after a restart, with the journal of the commits since
// (test hook `GET /__do/scope-loads`: `image journal=N`, or `full (why)`), and never to less than what the
// memory records say: a torn image is read in full and written again; an add during the image write, two
// requests at once, and workerd SIGKILLed during the image write (`DO_TEST_IMAGE_WRITE = "hold"`) all reopen
// to every memory, each with its newest text; an object going idle after many writes rewrites its image.
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { ACME, T, startServer, startWorker, tempDir } from "./helpers.mjs";
import { spawnWorker } from "./workerd-process.mjs";

const DO = { STORAGE: "do", DO_TEST_HOOKS: "true" };
const FACTS = Array.from({ length: 12 }, (_, i) => `Fact ${i}: the user keeps bird${i} and reads book${i}`);
const HOOK = "http://memwasm.internal/__do/";

/** `method /__do/path` on acme's object (test hooks) → JSON. */
async function hook(worker, path, init = {}) {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const stub = namespace.get(namespace.idFromName("acme"));
  const response = await stub.fetch(`${HOOK}${path}`, { ...init, headers: { "x-memwasm-tenant": "acme" } });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}

const imageHeads = async (worker) => (await hook(worker, "storage/list?prefix=t/acme/imgh/")).keys;
const loads = async (worker) => (await hook(worker, "scope-loads")).loads;

/** Polls until alice's image is stored (a head naming its parts; at most 10 s). */
async function imageWritten(worker) {
  for (let i = 0; i < 200; i++) {
    for (const head of await imageHeads(worker)) {
      if ((await hook(worker, `storage/get?key=${encodeURIComponent(head)}`)).value?.includes(" ")) return;
    }
    await sleep(50);
  }
  assert.fail("no open image was written");
}

const add = (worker, messages) => worker.call("POST", "/v1/memories/", { body: { messages, user_id: "alice", infer: false } });
/** Alice's memories' texts, sorted. */
async function texts(worker) {
  const listed = await worker.call("GET", "/v1/memories/?user_id=alice&limit=100");
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  return listed.body.results.map((m) => m.memory).sort();
}

/** A workerd over fresh persisted storage holding FACTS for alice, its image written; `start()` restarts. */
async function seeded(t) {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const start = async (vars = {}) => {
    const worker = await startWorker(server, { vars: { ...DO, ...vars }, persist });
    t.after(() => worker.dispose().catch(() => {}));
    return worker;
  };
  const seeding = await start();
  const added = await add(seeding, FACTS.map((content) => ({ role: "user", content })));
  assert.equal(added.status, 200, JSON.stringify(added.body));
  assert.deepEqual(await loads(seeding), ["full (no image)"]);
  await imageWritten(seeding);
  await seeding.dispose();
  return { server, persist, start, ids: added.body.results.map((m) => m.id) };
}

test("an object that goes idle after many writes rewrites the image, so the restart after reads it", T, async (t) => {
  const { start } = await seeded(t);
  const busy = await start({ DO_IDLE_SECONDS: "1" });
  assert.deepEqual(await texts(busy), [...FACTS].sort());
  // 70 adds: more memories than a quarter of the 256 the image of 12 may have in its journal.
  const more = Array.from({ length: 70 }, (_, i) => `Later fact ${i}: the user visited city${i}`);
  for (const content of more) assert.equal((await add(busy, [{ role: "user", content }])).status, 200);
  const [head] = await imageHeads(busy);
  const before = (await hook(busy, `storage/get?key=${encodeURIComponent(head)}`)).value;
  for (let i = 0; i < 100 && (await hook(busy, `storage/get?key=${encodeURIComponent(head)}`)).value === before; i++) {
    await sleep(100);
  }
  await busy.dispose();
  const restarted = await start();
  assert.deepEqual(await texts(restarted), [...FACTS, ...more].sort());
  assert.deepEqual(await loads(restarted), ["image journal=0"]);
});

test("after a restart the scope opens from its image, and the journal brings in the commits since", T, async (t) => {
  const { start, ids } = await seeded(t);
  const second = await start();
  assert.deepEqual(await texts(second), [...FACTS].sort());
  assert.deepEqual(await loads(second), ["image journal=0"]);
  assert.equal((await add(second, "The user plays the cello")).status, 200);
  assert.equal((await second.call("PUT", `/v1/memories/${ids[5]}/`, { body: { text: "Fact 5: the user keeps a parrot" } })).status, 200);
  assert.equal((await second.call("DELETE", `/v1/memories/${ids[7]}/`)).status, 200);
  await second.dispose();

  const third = await start();
  const expected = [...FACTS.filter((_, i) => i !== 5 && i !== 7), "Fact 5: the user keeps a parrot", "The user plays the cello"].sort();
  assert.deepEqual(await texts(third), expected);
  assert.deepEqual(await loads(third), ["image journal=3"]);
});

test("a torn image is read in full, with a warning, and written again", T, async (t) => {
  const { start } = await seeded(t);
  const second = await start();
  const [head] = await imageHeads(second);
  const [token] = (await hook(second, `storage/get?key=${encodeURIComponent(head)}`)).value.split(" ");
  const part = `${head.replace("/imgh/", "/imgp/")}${token}/00000`;
  const stored = (await hook(second, `storage/get?bytes=1&key=${encodeURIComponent(part)}`)).bytes;
  assert.ok(stored.length > 100, "the part is a binary value");
  stored[100] ^= 1;
  await hook(second, `storage/put?bytes=1&key=${encodeURIComponent(part)}`, { method: "POST", body: new Uint8Array(stored) });
  assert.deepEqual(await texts(second), [...FACTS].sort());
  assert.match((await loads(second))[0], /^full \(torn or altered/);
  const rewritten = async () => (await hook(second, `storage/get?key=${encodeURIComponent(head)}`)).value.split(" ")[0];
  for (let i = 0; i < 200 && (await rewritten()) === token; i++) await sleep(50);
  assert.notEqual(await rewritten(), token, "a fresh image replaced the torn one");
  await second.dispose();
  const third = await start();
  assert.deepEqual(await texts(third), [...FACTS].sort());
  assert.deepEqual(await loads(third), ["image journal=0"]);
});

test("an add right after the full read and requests at once: the image written meanwhile hides none of them", T, async (t) => {
  const { start, ids } = await seeded(t);
  const second = await start();
  // An unreadable head: the next open reads every memory, and writes the image after its answer, as the
  // writes below land.
  for (const head of await imageHeads(second)) await hook(second, `storage/put?key=${encodeURIComponent(head)}`, { method: "POST", body: "" });
  const listed = await texts(second);
  assert.equal(listed.length, FACTS.length);
  assert.deepEqual(await loads(second), ["full (its head is unreadable)"]);
  const [added, updated, both] = await Promise.all([
    add(second, "The user plays the cello"),
    second.call("PUT", `/v1/memories/${ids[2]}/`, { body: { text: "Fact 2: the user keeps a finch" } }),
    Promise.all([texts(second), add(second, "The user sings in a choir")]),
  ]);
  for (const response of [added, updated, both[1]]) assert.equal(response.status, 200, JSON.stringify(response.body));
  await imageWritten(second);
  await sleep(200);
  await second.dispose();

  const third = await start();
  const expected = [...FACTS.filter((_, i) => i !== 2), "Fact 2: the user keeps a finch", "The user plays the cello", "The user sings in a choir"].sort();
  assert.deepEqual(await texts(third), expected);
  assert.match((await loads(third))[0], /^image journal=\d+$/);
});

/** `method path` to the worker at `url` → `{status, body}`. */
async function call(url, method, path, body) {
  const headers = { authorization: `Bearer ${ACME}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

test("workerd SIGKILLed during the image write reopens to every memory", { timeout: 180_000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const first = await spawnWorker(t, server, { persist, vars: { ...DO, DO_TEST_IMAGE_WRITE: "hold" } });
  const facts = FACTS.map((content) => ({ role: "user", content }));
  const added = await call(first.url, "POST", "/v1/memories/", { messages: facts, user_id: "alice", infer: false });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  await first.waitFor("memwasm test hook: an open image write holds");
  await first.kill();

  const second = await spawnWorker(t, server, { persist, vars: DO });
  const listed = await call(second.url, "GET", "/v1/memories/?user_id=alice&limit=100");
  assert.deepEqual(listed.body.results.map((m) => m.memory).sort(), [...FACTS].sort());
  const updated = await call(second.url, "PUT", `/v1/memories/${added.body.results[0].id}/`, { text: "Fact 0: the user keeps a heron" });
  assert.equal(updated.status, 200);
  await second.kill();

  const third = await spawnWorker(t, server, { persist, vars: DO });
  const again = await call(third.url, "GET", "/v1/memories/?user_id=alice&limit=100");
  const expected = ["Fact 0: the user keeps a heron", ...FACTS.slice(1)].sort();
  assert.deepEqual(again.body.results.map((m) => m.memory).sort(), expected);
});
