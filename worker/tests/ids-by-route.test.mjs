// Routes by memory id answer the same on Workers KV as on Durable Objects, whatever the id: long ones (KV
// keys hold at most 512 bytes, an object's 2,048), Unicode, percent signs, dots. An id nothing holds is 404
// `NOT_FOUND` on both, never a 5xx; a stored memory is found by its id on both. So do reads and adds of a
// scope whose ids are too long for KV keys (128 emoji: 512 bytes, three times that percent-encoded).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, assertError, startServer, startWorker } from "./helpers.mjs";

const IDS = [
  "a".repeat(600),
  "é".repeat(300),
  "b".repeat(2_100),
  "c".repeat(10_000),
  "%25".repeat(200),
  "..",
  "x".repeat(509),
];

/** Each route by id: method, path of `id` (percent-encoded), body. */
const ROUTES = [
  ["GET", (id) => `/v1/memories/${id}/`],
  ["PUT", (id) => `/v1/memories/${id}/`, { text: "new text" }],
  ["DELETE", (id) => `/v1/memories/${id}/`],
  ["GET", (id) => `/v1/memories/${id}/history/`],
];

let server;
const workers = {};
before(async () => {
  server = await startServer();
  for (const storage of ["kv", "do"]) workers[storage] = await startWorker(server, { storage });
});
after(async () => {
  for (const worker of Object.values(workers)) await worker?.dispose();
  await server?.close();
});

const code = (response) => response.body?.error?.code;

test("every route by id answers an id nothing holds with 404 NOT_FOUND on KV as on Durable Objects", T, async () => {
  for (const id of IDS) {
    for (const [method, path, body] of ROUTES) {
      const at = path(encodeURIComponent(id));
      const [kv, objects] = [await workers.kv.call(method, at, { body }), await workers.do.call(method, at, { body })];
      const what = `${method} ${at.slice(0, 40)}… (${id.length} characters)`;
      const said = (response) => JSON.stringify(response.body).slice(0, 160);
      assert.deepEqual([kv.status, code(kv)], [objects.status, code(objects)], `${what}: KV ${said(kv)}, objects ${said(objects)}`);
      assertError(kv, 404, "NOT_FOUND");
    }
  }
});

test("a stored memory is found by id on both, and its neighbours of long ids are not", T, async () => {
  for (const worker of Object.values(workers)) {
    const added = await worker.call("POST", "/v1/memories/", { body: { messages: "User likes rowing", user_id: "ids", infer: false } });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const [{ id }] = added.body.results;
    assert.equal((await worker.call("GET", `/v1/memories/${id}/`)).body.memory, "User likes rowing");
    assertError(await worker.call("GET", `/v1/memories/${id}${"0".repeat(600)}/`), 404, "NOT_FOUND");
    const history = await worker.call("GET", `/v1/memories/${id}/history/`);
    assert.deepEqual(history.body.map((record) => record.event), ["ADD"]);
  }
});

test("a scope too long for KV keys reads as empty and refuses an add with INVALID_INPUT, on KV as on Durable Objects", T, async () => {
  const user = "😀".repeat(128);
  const calls = [
    ["GET", `/v1/memories/?user_id=${encodeURIComponent(user)}`],
    ["GET", `/v1/memories/search/?q=tea&user_id=${encodeURIComponent(user)}`],
    ["DELETE", `/v1/memories/?user_id=${encodeURIComponent(user)}`],
    ["POST", "/v1/memories/", { messages: "likes tea", user_id: user, infer: false }],
  ];
  for (const [method, path, body] of calls) {
    const [kv, objects] = [await workers.kv.call(method, path, { body }), await workers.do.call(method, path, { body })];
    const said = (response) => JSON.stringify(response.body).slice(0, 160);
    assert.deepEqual([kv.status, code(kv)], [objects.status, code(objects)], `${method} ${path.slice(0, 30)}: KV ${said(kv)}, objects ${said(objects)}`);
    assert.ok(kv.status === 200 || code(kv) === "INVALID_INPUT", said(kv));
  }
});
