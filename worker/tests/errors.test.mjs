// Every failure is `{"error": {"code", "message"}}` with its status: 400, 401, 404, 413, 429, 500 (and 502 for
// an upstream model that fails), and bad input changes nothing.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ACME, EXTRACT, T, assertError, seed, startServer, startWorker } from "./helpers.mjs";

let server;
let worker;
before(async () => {
  server = await startServer();
  worker = await startWorker(server, { vars: { MAX_BODY_BYTES: "4096" } });
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

const call = (...args) => worker.call(...args);

test("401 without a token, with an unknown one, or with another scheme", T, async () => {
  for (const [token, headers] of [
    [null, {}],
    ["tok-nobody", {}],
    [ACME.slice(0, -1), {}],
    [null, { authorization: `Basic ${ACME}` }],
    [null, { authorization: "Bearer" }],
    [null, { authorization: "Bearer  " }],
  ]) {
    for (const [method, path] of [
      ["GET", "/v1/memories/?user_id=alice"],
      ["POST", "/v1/memories/"],
      ["POST", "/v1/reset/"],
      ["GET", "/v1/memories/some-id/history/"],
    ]) {
      const response = await call(method, path, { token, headers, body: method === "POST" ? {} : undefined });
      assertError(response, 401, "UNAUTHORIZED");
      assert.equal(response.headers.get("www-authenticate"), "Bearer");
    }
  }
  const lowercase = await call("GET", "/v1/memories/?user_id=alice", { token: null, headers: { authorization: `bearer ${ACME}` } });
  assert.equal(lowercase.status, 200, "the scheme is case-insensitive");
});

test("413 for a body over MAX_BODY_BYTES, whether declared or streamed", T, async () => {
  const big = { messages: "x".repeat(5000), user_id: "alice", infer: false };
  assertError(await call("POST", "/v1/memories/", { body: big }), 413, "PAYLOAD_TOO_LARGE");
  const stream = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("y".repeat(1000)));
      controller.close();
    },
  });
  const streamed = await call("PUT", "/v1/memories/some-id/", { raw: stream, headers: { "content-type": "application/json" } });
  assertError(streamed, 413, "PAYLOAD_TOO_LARGE");
  assert.deepEqual((await call("GET", "/v1/memories/?user_id=alice")).body.results, [], "nothing was stored");
  const fits = await call("POST", "/v1/memories/", { body: { messages: "x".repeat(3000), user_id: "alice", infer: false } });
  assert.equal(fits.status, 200);
  await call("POST", "/v1/reset/");
});

test("malformed JSON is 400 INVALID_JSON; a wrong shape is 400 INVALID_INPUT naming the field", T, async () => {
  for (const raw of ["{bad", "", "[1,", '{"messages": "x",}']) {
    assertError(await call("POST", "/v1/memories/", { raw, headers: { "content-type": "application/json" } }), 400, "INVALID_JSON");
  }
  assertError(await call("POST", "/v1/memories/search/", { raw: "nope" }), 400, "INVALID_JSON");
  assertError(await call("PUT", "/v1/memories/x/", { raw: "{" }), 400, "INVALID_JSON");
  assertError(await call("GET", "/v1/memories/?user_id=a&filters=%7Bnot-json"), 400, "INVALID_JSON");

  assertError(await call("POST", "/v1/memories/", { body: [1, 2] }), 400, "INVALID_INPUT");
  const typo = await call("POST", "/v1/memories/", { body: { messages: "x", userId: "alice" } });
  assertError(typo, 400, "INVALID_INPUT");
  assert.match(typo.body.error.message, /userId/);
  const missing = await call("POST", "/v1/memories/", { body: { user_id: "alice" } });
  assertError(missing, 400, "INVALID_INPUT");
  assert.match(missing.body.error.message, /messages/);
  assertError(await call("POST", "/v1/memories/", { body: { messages: 5, user_id: "a" } }), 400, "INVALID_INPUT");
  assertError(await call("PUT", "/v1/memories/x/", { body: { data: "new" } }), 400, "INVALID_INPUT");
  assertError(await call("GET", "/v1/memories/?user_id=a&limit=ten"), 400, "INVALID_INPUT");
  assertError(await call("GET", "/v1/memories/?user_id=a&limit=0"), 400, "INVALID_INPUT");
  assertError(await call("GET", "/v1/memories/search/?user_id=a"), 400, "INVALID_INPUT");
});

test("scope and filter mistakes are 400 with the library's codes", T, async () => {
  for (const [method, path, body] of [
    ["POST", "/v1/memories/", { messages: "hi" }],
    ["GET", "/v1/memories/"],
    ["GET", "/v1/memories/search/?q=x"],
    ["POST", "/v1/memories/search/", { query: "x", user_id: "" }],
    ["DELETE", "/v1/memories/"],
  ]) {
    assertError(await call(method, path, { body }), 400, "SCOPE_REQUIRED");
  }
  const filters = encodeURIComponent(JSON.stringify({ field: "x", operator: "almost", value: 1 }));
  assertError(await call("GET", `/v1/memories/?user_id=a&filters=${filters}`), 400, "INVALID_FILTER");
});

test("404 for unknown ids and unknown routes", T, async () => {
  for (const [method, path, body] of [
    ["GET", "/v1/memories/no-such-id/"],
    ["PUT", "/v1/memories/no-such-id/", { text: "x" }],
    ["DELETE", "/v1/memories/no-such-id/"],
    ["GET", "/v1/memories/no-such-id/history/"],
    ["GET", "/v1/nothing/"],
    ["PATCH", "/v1/memories/"],
    ["GET", "/"],
  ]) {
    assertError(await call(method, path, { body }), 404, "NOT_FOUND");
  }
});

test("an upstream 429 is 429, another upstream failure 502, and add() degrades to a warning", T, async () => {
  // method=vector: the default (hybrid, the library's) ranks by keywords when the embedder fails (below).
  server.script({ kind: "embedding", match: ["rate-limited query"], status: 429, message: "slow down" });
  const limited = await call("GET", "/v1/memories/search/?q=rate-limited%20query&user_id=alice&method=vector");
  assertError(limited, 429, "EMBEDDING_HTTP");
  server.script({ kind: "embedding", match: ["broken query"], status: 500, message: "boom" });
  assertError(await call("GET", "/v1/memories/search/?q=broken%20query&user_id=alice&method=vector"), 502, "EMBEDDING_HTTP");
  const fallback = await call("GET", "/v1/memories/search/?q=broken%20query&user_id=alice");
  assert.equal(fallback.status, 200, JSON.stringify(fallback.body));

  server.script({ kind: "chat", match: [EXTRACT, "llm is down"], status: 503 });
  const degraded = await call("POST", "/v1/memories/", { body: { messages: "llm is down", user_id: "alice" } });
  assert.equal(degraded.status, 200);
  assert.deepEqual(degraded.body.results, []);
  assert.deepEqual(degraded.body.warnings.map((w) => w.code), ["EXTRACTION_FAILED"]);
});

test("a failed update leaves the memory as it was", T, async () => {
  const [id] = await seed(call, server, ["User likes jazz"], { user_id: "stable" });
  server.script({ kind: "embedding", match: ["User likes opera"], status: 500, times: 1 });
  assertError(await call("PUT", `/v1/memories/${id}/`, { body: { text: "User likes opera" } }), 502, "EMBEDDING_HTTP");
  assert.equal((await call("GET", `/v1/memories/${id}/`)).body.memory, "User likes jazz");
  assert.deepEqual((await call("GET", `/v1/memories/${id}/history/`)).body.map((r) => r.event), ["ADD"]);
});

test("500 INVALID_CONFIG when the service is misconfigured", T, async () => {
  const broken = [
    [{ MEMORY_TOKENS: "" }, /MEMORY_TOKENS/],
    [{ MEMORY_TOKENS: "not json" }, /MEMORY_TOKENS/],
    [{ LLM_BASE_URL: "ftp://nowhere" }, /baseUrl/],
    [{ EMBEDDER_DIMENSIONS: "many" }, /EMBEDDER_DIMENSIONS/],
  ];
  for (const [vars, message] of broken) {
    const misconfigured = await startWorker(server, { vars });
    try {
      const response = await misconfigured.call("GET", "/v1/memories/?user_id=alice");
      assertError(response, 500, "INVALID_CONFIG");
      assert.match(response.body.error.message, message);
    } finally {
      await misconfigured.dispose();
    }
  }
});
