// DO_SHARDS = "scope": one Durable Object per user of a tenant, the tenant's own object as the directory of
// ids and users. Each user's memories live in their object only; routes by id find the holder through the
// directory; reads that name no user visit every user's object; export pages through every user; reset clears
// every user's object and the directory; the cron reaches every user's object; an add without a user answers
// with a coded error.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, T, assertError, startServer, startWorker } from "./helpers.mjs";

const SHARDED = { STORAGE: "do", DO_SHARDS: "scope" };
const USERS = ["alice", "bob", "carol-ü.1"];

/** The name of `user`'s object in `tenant` (as the service names it). */
const objectName = (tenant, user) => (user === undefined ? tenant : `\0${tenant.length}\0${tenant}\0${user}`);

/** The keys stored in `user`'s object of acme (the tenant's own object without a user). */
async function storedKeys(worker, user, prefix = "") {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const stub = namespace.get(namespace.idFromName(objectName("acme", user)));
  const headers = { "x-memwasm-tenant": "acme" };
  if (user !== undefined) headers["x-memwasm-shard"] = encodeURIComponent(user);
  const response = await stub.fetch(`http://memwasm.internal/__do/storage/list?prefix=${encodeURIComponent(prefix)}`, { headers });
  return (await response.json()).keys;
}

const add = (worker, user, texts) =>
  worker.call("POST", "/v1/memories/", { body: { messages: texts.map((content) => ({ role: "user", content })), user_id: user, infer: false } });

async function seeded(t, vars = {}) {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: { ...SHARDED, ...vars } });
  t.after(() => worker.dispose());
  const ids = {};
  for (const [n, user] of USERS.entries()) {
    const texts = Array.from({ length: n + 2 }, (_, i) => `${user} fact ${i}: likes colour ${i}`);
    const added = await add(worker, user, texts);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    ids[user] = added.body.results.map((result) => result.id);
  }
  return { server, worker, ids };
}

async function exported(worker, most = 10) {
  const pages = [];
  let after;
  for (let i = 0; i < most; i++) {
    const response = await worker.call("GET", `/v1/export/${after ? `?after=${after}` : ""}`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.headers.get("content-type"), "application/x-ndjson");
    const text = typeof response.body === "string" ? response.body : JSON.stringify(response.body);
    pages.push(text.split("\n").filter(Boolean).map((line) => JSON.parse(line)));
    after = response.headers.get("x-memwasm-next");
    if (!after) return pages;
  }
  throw new Error("the export never ended");
}

test("each user's memories live in their own object; routes by id find them through the directory", T, async (t) => {
  const { worker, ids } = await seeded(t);
  for (const user of USERS) {
    const keys = await storedKeys(worker, user, "t/acme/mem/");
    assert.equal(keys.length, ids[user].length, `${user}'s object holds exactly their memories`);
    const found = await worker.call("GET", `/v1/memories/search/?q=${encodeURIComponent("likes colour 1")}&user_id=${encodeURIComponent(user)}`);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.ok(found.body.results.length > 0);
    assert.ok(found.body.results.every((item) => item.user_id === user && ids[user].includes(item.id)));
  }
  assert.deepEqual(await storedKeys(worker, undefined, "t/"), [], "the tenant's object holds no memories");
  assert.equal((await storedKeys(worker, undefined, "dir/")).length, 2 + 3 + 4);
  const id = ids.bob[1];
  const got = await worker.call("GET", `/v1/memories/${id}/`);
  assert.equal(got.status, 200, JSON.stringify(got.body));
  assert.equal(got.body.memory, "bob fact 1: likes colour 1");
  const put = await worker.call("PUT", `/v1/memories/${id}/`, { body: { text: "bob likes teal" } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const history = await worker.call("GET", `/v1/memories/${id}/history/`);
  assert.deepEqual(history.body.map((record) => record.event), ["ADD", "UPDATE"]);
  const deleted = await worker.call("DELETE", `/v1/memories/${id}/`);
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  assertError(await worker.call("GET", `/v1/memories/${id}/`), 404, "NOT_FOUND");
  assert.equal((await storedKeys(worker, undefined, "dir/")).length, 2 + 2 + 4, "the delete left the directory");
  assertError(await worker.call("GET", "/v1/memories/no-such-id/"), 404, "NOT_FOUND");
  const scoped = await worker.call("DELETE", `/v1/memories/?user_id=alice`);
  assert.equal(scoped.status, 200, JSON.stringify(scoped.body));
  assert.equal((await storedKeys(worker, undefined, "dir/")).length, 2 + 4, "a scope's delete leaves the directory too");
});

test("a user id is one user however it is spelled: spaces around it route to the object that stores it", T, async (t) => {
  const { worker } = await seeded(t);
  const spellings = [" alice", "alice ", "\u00a0alice", "alice\u3000"];
  const ids = [];
  for (const [i, spelling] of spellings.entries()) {
    const added = await add(worker, spelling, [`spelled ${i}: likes kites`]);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    ids.push(added.body.results[0].id);
  }
  const aliceBefore = 2;
  for (const spelling of ["alice", ...spellings]) {
    const listed = await worker.call("GET", `/v1/memories/?user_id=${encodeURIComponent(spelling)}&limit=100`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.results.length, aliceBefore + spellings.length, `listed as ${JSON.stringify(spelling)}`);
    assert.ok(listed.body.results.every((item) => item.user_id === "alice"));
  }
  const found = await worker.call("POST", "/v1/memories/search/", { body: { query: "kites", user_id: "alice", limit: 10 } });
  const foundIds = found.body.results.map((item) => item.id);
  assert.ok(ids.every((id) => foundIds.includes(id)), JSON.stringify(found.body));
  assert.equal((await storedKeys(worker, "alice", "t/acme/mem/")).length, aliceBefore + spellings.length);
  for (const spelling of spellings) assert.deepEqual(await storedKeys(worker, spelling, "t/"), [], `no object for ${JSON.stringify(spelling)}`);
  for (const id of ids) assert.equal((await worker.call("GET", `/v1/memories/${id}/`)).status, 200);
  const deleted = await worker.call("DELETE", "/v1/memories/?user_id=alice");
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  assert.deepEqual((await worker.call("GET", "/v1/memories/?user_id=%20alice")).body.results, []);
  assert.deepEqual(await storedKeys(worker, "alice", "t/acme/mem/"), [], "the user's delete removed every spelling's memories");
  for (const id of ids) assertError(await worker.call("GET", `/v1/memories/${id}/`), 404, "NOT_FOUND");
  assertError(await add(worker, "al ice", ["a fact"]), 400, "INVALID_INPUT");
  assertError(await worker.call("GET", "/v1/memories/?user_id=al%20ice"), 400, "INVALID_INPUT");
});

test("export pages through every user's memories and history; reset clears every object and the directory", T, async (t) => {
  const { worker, ids } = await seeded(t);
  const pages = await exported(worker);
  assert.equal(pages.length, USERS.length);
  const memories = pages.flatMap((lines) => {
    assert.equal(lines[0].kind, "memwasm-export", "each page is an export of its own");
    return lines.filter((line) => line.kind === "memory");
  });
  assert.deepEqual(memories.map((m) => m.id).sort(), Object.values(ids).flat().sort());
  assert.ok(memories.every((m) => typeof m.embedding === "string" && m.embedding.length > 0));
  assert.equal(pages.flat().filter((line) => line.kind === "history").length, memories.length);
  const reset = await worker.call("POST", "/v1/reset/");
  assert.equal(reset.status, 200, JSON.stringify(reset.body));
  for (const user of USERS) {
    assert.deepEqual(await storedKeys(worker, user, "t/acme/mem/"), [], `${user}'s object is empty`);
  }
  assert.deepEqual(await storedKeys(worker, undefined), [], "the directory is empty");
  assertError(await worker.call("GET", `/v1/memories/${ids.alice[0]}/`), 404, "NOT_FOUND");
  assert.deepEqual(await exported(worker), [[]]);
});

test("an add or entities without a user answer USER_ID_REQUIRED, another family NOT_SHARDED, nothing stored", T, async (t) => {
  const { worker } = await seeded(t);
  const before = await storedKeys(worker, undefined);
  const unnamed = { messages: [{ role: "user", content: "no user" }], agent_id: "helper", infer: false };
  assertError(await worker.call("POST", "/v1/memories/", { body: unnamed }), 400, "USER_ID_REQUIRED");
  assertError(await worker.call("GET", "/v1/entities/?agent_id=helper"), 400, "USER_ID_REQUIRED");
  const anyUser = { messages: [{ role: "user", content: "anyone" }], user_id: "__all__", agent_id: "helper", infer: false };
  assertError(await worker.call("POST", "/v1/memories/", { body: anyUser }), 400, "USER_ID_REQUIRED");
  assertError(await worker.call("POST", "/v1/tiers/flush", { body: { messages: [], user_id: "alice" } }), 501, "NOT_SHARDED");
  assertError(await worker.call("POST", "/v1/storage/migrate"), 501, "NOT_SHARDED");
  assertError(await worker.call("POST", "/v1/memories/", { token: "wrong", body: unnamed }), 401, "UNAUTHORIZED");
  assert.deepEqual(await storedKeys(worker, undefined), before);
  const spoofed = await worker.call("GET", "/v1/memories/?user_id=alice", { headers: { "x-memwasm-shard": "bob" } });
  assert.ok(spoofed.body.results.every((item) => item.user_id === "alice"), "the client cannot pick the object");
});

test("a search, a list and a delete that name no user (or \"__all__\") visit every user's object", T, async (t) => {
  const { worker } = await seeded(t);
  const helper = {};
  for (const user of ["alice", "bob"]) {
    const messages = [1, 2].map((i) => ({ role: "user", content: `${user} asked the helper about kites ${i}` }));
    const added = await worker.call("POST", "/v1/memories/", { body: { messages, user_id: user, agent_id: "helper", infer: false } });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    helper[user] = added.body.results.map((r) => r.id);
  }
  const all = Object.values(helper).flat().sort();
  for (const query of ["agent_id=helper", "user_id=__all__&agent_id=helper"]) {
    const listed = await worker.call("GET", `/v1/memories/?${query}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(listed.body.results.map((m) => m.id).sort(), all);
    const dates = listed.body.results.map((m) => m.created_at);
    assert.deepEqual(dates, [...dates].sort(), "oldest first");
  }
  const found = await worker.call("POST", "/v1/memories/search/", { body: { query: "kites", agent_id: "helper", limit: 3 } });
  assert.equal(found.status, 200, JSON.stringify(found.body));
  assert.equal(found.body.results.length, 3);
  const scores = found.body.results.map((m) => m.score);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a), "best first");
  assert.ok(found.body.results.every((m) => all.includes(m.id)));
  assertError(await worker.call("GET", "/v1/memories/?user_id=__all__"), 400, "SCOPE_REQUIRED");
  const deleted = await worker.call("DELETE", "/v1/memories/?agent_id=helper");
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  assert.deepEqual((await worker.call("GET", "/v1/memories/?agent_id=helper")).body.results, []);
  assert.equal((await storedKeys(worker, undefined, "dir/")).length, 2 + 3 + 4, "only the helper's memories left the directory");
  assert.equal((await worker.call("GET", "/v1/memories/?user_id=alice")).body.results.length, 2);
});

test("the cron reaches every user's object", T, async (t) => {
  const { worker, ids } = await seeded(t);
  const expired = { messages: [{ role: "user", content: "bob's old plan" }], user_id: "bob", infer: false, expires_at: "2000-01-01T00:00:00Z" };
  const added = await worker.call("POST", "/v1/memories/", { body: expired });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  assert.equal((await storedKeys(worker, "bob", "t/acme/mem/")).length, ids.bob.length + 1);
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const tenant = namespace.get(namespace.idFromName("acme"));
  const cron = await tenant.fetch("http://memwasm.internal/__do/cron", {
    method: "POST",
    headers: { "x-memwasm-tenant": "acme", "content-type": "application/json" },
    body: JSON.stringify({ cron: "0 3 * * *", max_scopes: 0 }),
  });
  assert.equal(cron.status, 200);
  assert.equal((await storedKeys(worker, "bob", "t/acme/mem/")).length, ids.bob.length, "the expired memory was purged");
  const left = await worker.call("GET", "/v1/memories/?user_id=bob&limit=100");
  assert.deepEqual(left.body.results.map((m) => m.id).sort(), [...ids.bob].sort());
});

test("GET /v1/export/ with one object per tenant: the whole tenant, or one scope", T, async (t) => {
  const { worker, ids } = await seeded(t, { DO_SHARDS: "tenant" });
  const whole = await worker.call("GET", "/v1/export/", { headers: { "x-memwasm-shard": "bob" } });
  assert.equal(whole.status, 200, JSON.stringify(whole.body));
  assert.equal(whole.headers.get("x-memwasm-next"), null);
  const lines = whole.body.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  const embedder = { provider: "openai", model: "test-embed", dimensions: 64 };
  assert.deepEqual(lines[0], { kind: "memwasm-export", version: 2, memories: 9, history: 9, embedder, side: 9 });
  assert.deepEqual(lines.filter((l) => l.kind === "side").map((l) => l.of), Array(9).fill("sources"), "each memory's sources");
  assert.deepEqual(lines.filter((l) => l.kind === "memory").map((m) => m.id).sort(), Object.values(ids).flat().sort());
  const bob = await worker.call("GET", "/v1/export/?user_id=bob");
  const bobs = bob.body.split("\n").filter(Boolean).map((line) => JSON.parse(line)).filter((l) => l.kind === "memory");
  assert.deepEqual(bobs.map((m) => m.id).sort(), [...ids.bob].sort());
  assertError(await worker.call("GET", "/v1/export/?user_id=bad%20id"), 400, "INVALID_INPUT");
});

test("20,000 memories over 20 users' objects (64-d): each user searched alone, all exported, the isolate under 100 MB", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: { ...SHARDED, EMBEDDER_DIMENSIONS: "64", DO_IDLE_SECONDS: "1" } });
  t.after(() => worker.dispose());
  const users = Array.from({ length: 20 }, (_, u) => `user-${u}`);
  for (const user of users) {
    for (let batch = 0; batch < 2; batch++) {
      const texts = Array.from({ length: 500 }, (_, i) => `${user} fact ${batch * 500 + i}: topic ${i % 37}`);
      const added = await add(worker, user, texts);
      assert.equal(added.status, 200, JSON.stringify(added.body).slice(0, 300));
    }
  }
  for (const user of [users[0], users[13]]) {
    const found = await worker.call("GET", `/v1/memories/search/?q=${encodeURIComponent(`${user} fact 7`)}&user_id=${user}&limit=10`);
    assert.equal(found.body.results.length, 10);
    assert.ok(found.body.results.every((item) => item.user_id === user));
  }
  const pages = await exported(worker, 30);
  assert.equal(pages.length, 20);
  assert.equal(pages.flat().filter((line) => line.kind === "memory").length, 20_000);
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const memory = await namespace.get(namespace.idFromName("acme")).fetch("http://memwasm.internal/__do/memory", { headers: { "x-memwasm-tenant": "acme" } });
  const megabytes = (await memory.json()).wasmBytes / 2 ** 20;
  assert.ok(megabytes < 100, `the isolate's wasm memory (every object's): ${megabytes.toFixed(1)} MB`);
});

/** The isolate's wasm memory in bytes (the front end's and every object's: workerd runs them in one isolate). */
async function wasmBytes(worker) {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const memory = await namespace.get(namespace.idFromName("acme")).fetch("http://memwasm.internal/__do/memory", { headers: { "x-memwasm-tenant": "acme" } });
  return (await memory.json()).wasmBytes;
}

test("an add far over MAX_BODY_BYTES, sent chunked, is 413 and never held whole by the front end", T, async (t) => {
  const MB = 2 ** 20;
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: { ...SHARDED, MAX_BODY_BYTES: String(2 * MB) } });
  t.after(() => worker.dispose());
  assert.equal((await worker.call("GET", "/v1/memories/?user_id=alice")).status, 200);
  const before = await wasmBytes(worker);
  const chunks = 15;
  let sent = 0;
  const head = new TextEncoder().encode('{"user_id": "alice", "messages": "');
  const body = new ReadableStream({
    pull(controller) {
      if (sent === chunks) {
        controller.enqueue(new TextEncoder().encode('"}'));
        return controller.close();
      }
      controller.enqueue(sent === 0 ? head : new Uint8Array(MB).fill(0x78));
      sent += 1;
    },
  });
  assertError(await worker.call("POST", "/v1/memories/", { raw: body }), 413, "PAYLOAD_TOO_LARGE");
  const grown = (await wasmBytes(worker)) - before;
  const what = `the isolate's wasm memory grew by ${(grown / MB).toFixed(1)} MB for a ${chunks - 1} MB body (the limit: 2 MB)`;
  assert.ok(grown < (chunks - 1) * MB / 2, what);
  assert.deepEqual((await worker.call("GET", "/v1/memories/?user_id=alice")).body.results, []);
});

test("DO_SHARDS must be \"tenant\" or \"scope\"", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars: { STORAGE: "do", DO_SHARDS: "users" } });
  t.after(() => worker.dispose());
  const refused = await worker.call("GET", "/v1/memories/?user_id=alice");
  assertError(refused, 500, "INVALID_CONFIG");
  assert.match(refused.body.error.message, /DO_SHARDS: must be "tenant" or "scope", got "users"/);
});
