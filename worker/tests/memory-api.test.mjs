// The memory API (agent key/value entries) route by route, as one user of one tenant: the shapes, defaults and status
// codes of store, get, delete, search, vector-search, list, clear, pin and reflections.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { defaultEmbedding } from "../../tests/support/scripted-server.mjs";
import { T, assertError, startServer } from "./helpers.mjs";
import { USER1, as, listedKeys, route, sleep, startMemoryWorker, store } from "./memory-helpers.mjs";

let server;
let worker;
let call;
before(async () => {
  server = await startServer();
  worker = await startMemoryWorker(server);
  call = as(worker, USER1);
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

const LESSON = "Always validate input before processing in Erlang";

test("store, then get answers {key, value, created_at} with created_at in epoch milliseconds", T, async () => {
  const before = Date.now();
  const stored = await store(call, "agent-get", "lesson_learned_42", LESSON, { ttl: 86_400_000 });
  assert.deepEqual(stored.body, { status: "ok" });
  const got = await call("GET", route("agent-get", "/lesson_learned_42"));
  assert.equal(got.status, 200);
  assert.deepEqual(Object.keys(got.body).sort(), ["created_at", "key", "value"]);
  assert.equal(got.body.key, "lesson_learned_42");
  assert.equal(got.body.value, LESSON);
  assert.ok(Number.isInteger(got.body.created_at) && got.body.created_at >= before - 1000);
  assert.ok(got.body.created_at <= Date.now() + 1000);

  await store(call, "agent-get", "lesson_learned_42", "Validate input first");
  const updated = await call("GET", route("agent-get", "/lesson_learned_42"));
  assert.deepEqual(updated.body, { ...got.body, value: "Validate input first" }, "an update keeps created_at");
});

test("404 for an unknown or deleted key, 410 once an entry's ttl ran out", T, async () => {
  assertError(await call("GET", route("agent-ttl", "/nothing-here")), 404, "NOT_FOUND");
  await store(call, "agent-ttl", "gone", "deleted soon");
  assert.deepEqual((await call("DELETE", route("agent-ttl", "/gone"))).body, { status: "ok" });
  assertError(await call("GET", route("agent-ttl", "/gone")), 404, "NOT_FOUND");
  assertError(await call("DELETE", route("agent-ttl", "/gone")), 404, "NOT_FOUND");

  await store(call, "agent-ttl", "forever", "ttl 0 never expires", { ttl: 0 });
  await store(call, "agent-ttl", "brief", "expires at once", { ttl: 1 }); // reads of the agent purge it once expired
  await sleep(20);
  assertError(await call("GET", route("agent-ttl", "/brief")), 410, "EXPIRED");
  assertError(await call("GET", route("agent-ttl", "/brief")), 404, "NOT_FOUND"); // purged by the first read
  assert.equal((await call("GET", route("agent-ttl", "/forever"))).status, 200);
  assert.deepEqual(await listedKeys(call, "agent-ttl"), ["forever"]);
});

test("search ranks entries by keywords and honours limit (default 20)", T, async () => {
  const agent = "agent-search";
  await store(call, agent, "tea", "User drinks green tea every morning");
  await store(call, agent, "chess", "User plays chess on Sundays");
  await store(call, agent, "tea2", "Green tea with lemon is the favourite tea");
  const found = await call("GET", route(agent, "/search?q=green%20tea"));
  assert.equal(found.status, 200);
  assert.deepEqual(found.body.results.map((r) => r.key), ["tea2", "tea"]);
  assert.deepEqual(Object.keys(found.body.results[0]).sort(), ["created_at", "key", "value"]);
  const one = await call("GET", route(agent, "/search?q=green%20tea&limit=1"));
  assert.deepEqual(one.body.results.map((r) => r.key), ["tea2"]);
  assert.deepEqual((await call("GET", route(agent, "/search?q=nothing%20matches"))).body, { results: [] });
  assertError(await call("GET", route(agent, "/search")), 400, "INVALID_INPUT");
  assertError(await call("GET", route(agent, "/search?q=tea&limit=0")), 400, "INVALID_INPUT");
  assertError(await call("GET", route(agent, "/search?q=tea&top=3")), 400, "INVALID_INPUT");
});

test("vector-search by text or by embedding, with threshold (default 0.75) and limit", T, async () => {
  const agent = "agent-vector";
  await store(call, agent, "lesson", LESSON);
  await store(call, agent, "other", "Bananas are yellow fruit");
  const byText = await call("POST", route(agent, "/vector-search"), {
    body: { text: "always validate input before processing" },
  });
  assert.equal(byText.status, 200, JSON.stringify(byText.body));
  assert.deepEqual(byText.body.results.map((r) => r.key), ["lesson"]);
  assert.deepEqual(Object.keys(byText.body.results[0]).sort(), ["key", "similarity", "value"]);
  assert.ok(byText.body.results[0].similarity >= 0.75 && byText.body.results[0].similarity <= 1.0001);

  const embedding = defaultEmbedding("bananas yellow fruit");
  const byVector = await call("POST", route(agent, "/vector-search"), { body: { embedding, threshold: 0.5 } });
  assert.deepEqual(byVector.body.results.map((r) => r.key), ["other"]);
  const all = await call("POST", route(agent, "/vector-search"), { body: { embedding, threshold: 0, limit: 10 } });
  assert.deepEqual(all.body.results.map((r) => r.key).sort(), ["lesson", "other"]);
  const limited = await call("POST", route(agent, "/vector-search"), { body: { embedding, threshold: 0, limit: 1 } });
  assert.deepEqual(limited.body.results.map((r) => r.key), ["other"]);

  const own = Array.from({ length: 64 }, (_, i) => (i === 3 ? 1 : 0));
  await store(call, agent, "given", "stored with its own vector", { embedding: own });
  const exact = await call("POST", route(agent, "/vector-search"), { body: { embedding: own } });
  assert.deepEqual(exact.body.results.map((r) => [r.key, Math.round(r.similarity * 1000) / 1000]), [["given", 1]]);

  const bad = (body) => call("POST", route(agent, "/vector-search"), { body });
  assertError(await bad({}), 400, "INVALID_INPUT");
  assertError(await bad({ text: "x", embedding }), 400, "INVALID_INPUT");
  assertError(await bad({ text: "x", threshold: 1.5 }), 400, "INVALID_INPUT");
  assertError(await bad({ embedding: [0.1, 0.2, 0.3, 0.4] }), 400, "DIMENSION_MISMATCH");
  const short = await call("POST", route(agent, "/store"), { body: { key: "k", value: "v", embedding: [1, 2] } });
  assertError(short, 400, "DIMENSION_MISMATCH");
});

test("list pages entries oldest first with limit (default 50) and offset", T, async () => {
  const agent = "agent-list";
  for (let i = 0; i < 5; i++) await store(call, agent, `k${i}`, `value number ${i}`);
  const all = await call("GET", route(agent, "/list"));
  assert.deepEqual(all.body.entries.map((e) => e.key), ["k0", "k1", "k2", "k3", "k4"]);
  assert.deepEqual(Object.keys(all.body.entries[0]).sort(), ["created_at", "key", "value"]);
  assert.equal(all.body.total, 5);
  const page = await call("GET", route(agent, "/list?limit=2&offset=2"));
  assert.deepEqual(page.body.entries.map((e) => e.key), ["k2", "k3"]);
  assert.equal(page.body.has_more, true);
  const last = await call("GET", route(agent, "/list?limit=2&offset=4"));
  assert.deepEqual([last.body.entries.map((e) => e.key), last.body.has_more], [["k4"], false]);
  assertError(await call("GET", route(agent, "/list?offset=-1")), 400, "INVALID_INPUT");
  assertError(await call("GET", route(agent, "/list?limit=abc")), 400, "INVALID_INPUT");
});

test("clear deletes the agent's entries; other agents keep theirs", T, async () => {
  await store(call, "agent-clear", "a", "first");
  await store(call, "agent-clear", "b", "second");
  await store(call, "agent-kept", "c", "third");
  assert.deepEqual((await call("DELETE", route("agent-clear", "/clear"))).body, { status: "ok", deleted: 2 });
  assert.deepEqual(await listedKeys(call, "agent-clear"), []);
  assert.deepEqual(await listedKeys(call, "agent-kept"), ["c"]);
});

test("pin and unpin answer {status, pinned}", T, async () => {
  await store(call, "agent-pin", "keep", "pinned fact");
  const pin = (pinned) => call("POST", route("agent-pin", "/keep/pin"), { body: { pinned } });
  assert.deepEqual((await pin(true)).body, { status: "ok", pinned: true });
  assert.deepEqual((await pin(false)).body, { status: "ok", pinned: false });
  assertError(await pin("yes"), 400, "INVALID_INPUT");
  assertError(await call("POST", route("agent-pin", "/missing/pin"), { body: { pinned: true } }), 404, "NOT_FOUND");
});

test("reflections lists the entries whose key starts with reflection:", T, async () => {
  const agent = "agent-reflect";
  await store(call, agent, "reflection:session_42", "The user prefers concise explanations");
  await store(call, agent, "lesson_1", "Not a reflection");
  await store(call, agent, "reflection:session_43", "The user works late");
  const { status, body } = await call("GET", route(agent, "/reflections"));
  assert.equal(status, 200);
  assert.deepEqual(body, {
    reflections: [
      { key: "reflection:session_42", value: "The user prefers concise explanations" },
      { key: "reflection:session_43", value: "The user works late" },
    ],
  });
  const got = await call("GET", route(agent, "/reflection:session_42"));
  assert.equal(got.body.value, "The user prefers concise explanations");
});

test("a key named like a route is reached by percent-encoding one of its characters", T, async () => {
  await store(call, "agent-names", "list", "a key named list");
  await store(call, "agent-names", "a/b c", "a key with a slash and a space");
  assert.deepEqual((await call("GET", route("agent-names", "/li%73t"))).body.value, "a key named list");
  assert.equal((await call("GET", route("agent-names", "/a%2Fb%20c"))).body.value, "a key with a slash and a space");
  assert.deepEqual((await call("GET", route("agent-names", "/list"))).body.entries.length, 2);
});

test("an empty agent segment is agent \"default\"; agent ids over 128 characters are 400", T, async () => {
  await store(call, "", "k", "in the default agent");
  assert.equal((await call("GET", route("default", "/k"))).body.value, "in the default agent");
  assert.equal((await call("GET", "/api/v1/memory//k")).body.value, "in the default agent");

  const longest = "a".repeat(128);
  await store(call, longest, "k", "longest agent id");
  assert.equal((await call("GET", route(longest, "/k"))).status, 200);
  const tooLong = "a".repeat(129);
  const requests = [
    ["POST", "/store", { key: "k", value: "v" }],
    ["GET", "/k"],
    ["DELETE", "/k"],
    ["GET", "/search?q=x"],
    ["POST", "/vector-search", { text: "x" }],
    ["GET", "/list"],
    ["DELETE", "/clear"],
    ["POST", "/k/pin", { pinned: true }],
    ["GET", "/reflections"],
  ];
  for (const [method, rest, body] of requests) {
    assertError(await call(method, route(tooLong, rest), { body }), 400, "INVALID_INPUT");
  }
  assertError(await call("GET", "/api/v1/memory/%20/k"), 400, "INVALID_INPUT");
  assertError(await call("GET", "/api/v1/memory/%ZZ/k"), 400, "INVALID_INPUT");
});

test("malformed bodies and unknown routes are coded errors", T, async () => {
  const post = (body, raw) => call("POST", route("agent-bad", "/store"), { body, raw });
  assertError(await post(undefined, "{not json"), 400, "INVALID_JSON");
  assertError(await post({ value: "no key" }), 400, "INVALID_INPUT");
  assertError(await post({ key: "k", value: 42 }), 400, "INVALID_INPUT");
  assertError(await post({ key: "k", value: "v", metadata: {} }), 400, "INVALID_INPUT");
  assertError(await post({ key: "k", value: "v", ttl: -5 }), 400, "INVALID_INPUT");
  assertError(await post({ key: "", value: "v" }), 400, "INVALID_INPUT");
  assertError(await call("PUT", route("agent-bad", "/k")), 404, "NOT_FOUND");
  assertError(await call("GET", "/api/v1/memory/agent-bad/k/extra"), 404, "NOT_FOUND");
  assertError(await call("GET", "/api/v1/memory"), 404, "NOT_FOUND");
  assertError(await worker.call("GET", route("agent-bad", "/k"), { token: null }), 401, "UNAUTHORIZED");
});

test("MEMORY_API_ENABLED = \"false\" answers 503 on every memory route; the /v1 routes still work", T, async (t) => {
  const off = await startMemoryWorker(server, { MEMORY_API_ENABLED: "false" });
  t.after(() => off.dispose());
  assertError(await off.call("GET", route("a", "/k"), { token: USER1 }), 503, "MEMORY_DISABLED");
  assertError(await off.call("POST", route("a", "/store"), { token: USER1, body: { key: "k", value: "v" } }), 503, "MEMORY_DISABLED");
  assertError(await off.call("GET", "/api/v1/memory/stats"), 503, "MEMORY_DISABLED");
  assert.equal((await off.call("GET", "/v1/memories/?user_id=alice")).status, 200);
  const typo = await startMemoryWorker(server, { MEMORY_API_ENABLED: "yes" });
  t.after(() => typo.dispose());
  assertError(await typo.call("GET", route("a", "/k"), { token: USER1 }), 500, "INVALID_CONFIG");
});
