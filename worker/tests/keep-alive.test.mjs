// Early answers keep a keep-alive connection usable: a POST with a sizeable body that is refused before its
// body matters (401 bad token, 404 unknown route, 415, 413 over the limit) must not leave the connection
// broken, so the next request on the same socket (one socket per agent here) succeeds instead of ECONNRESET.
// The same with one object per user (`DO_SHARDS = "scope"`), where the front end and the tenant's directory
// answer some requests themselves (an unknown id, a route not sharded, an add without a user).
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { ACME, T, startServer, startWorker } from "./helpers.mjs";
import { USER1, MEMORY_TOKENS } from "./memory-helpers.mjs";

const LIMIT = 200_000;
let server;
const workers = {};
before(async () => {
  server = await startServer();
  const vars = { MEMORY_TOKENS: JSON.stringify(MEMORY_TOKENS), MAX_BODY_BYTES: String(LIMIT) };
  for (const storage of ["do", "kv"]) workers[storage] = await startWorker(server, { vars, storage });
  workers.scope = await startWorker(server, { vars: { ...vars, DO_SHARDS: "scope" }, storage: "do" });
});
after(async () => {
  for (const worker of Object.values(workers)) await worker?.dispose();
  await server?.close();
});

/** `method path` over `agent` to the worker; resolves to `{status, body, headers}` (rejects on a socket error).
 * `chunked` sends the body without a content-length. */
async function send(worker, agent, method, path, { token = ACME, body, headers = {}, chunked = false } = {}) {
  const url = new URL(path, await worker.mf.ready);
  const all = { ...headers };
  if (token) all.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    all["content-type"] ??= "application/json";
    if (!chunked) all["content-length"] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: all, agent }, (response) => {
      let data = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (data += chunk));
      response.on("end", () => resolve({ status: response.statusCode, body: data, headers: response.headers }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** A JSON body of about `bytes` bytes. */
const sizeable = (bytes) => JSON.stringify({ messages: [{ role: "user", content: "x".repeat(bytes) }], user_id: "u" });

/** name, method, path, options, status (and the status with one object per user, where a route it does not
 * shard answers 501 `NOT_SHARDED`, known or not). */
const EARLY = [
  ["401 for a bad token", "POST", "/v1/memories/", { token: "tok-wrong" }, 401],
  ["401 on the memory API", "POST", "/api/v1/memory/agent-1/store", { token: "tok-wrong" }, 401],
  ["401 on the conversations API", "POST", "/api/v1/memories", { token: "tok-wrong" }, 401],
  ["an unknown route (404)", "POST", "/nowhere/at/all", {}, 404, 501],
  ["an unknown /v1 route (404)", "POST", "/v1/nowhere/", {}, 404, 501],
  ["403 for a user token on /v1", "POST", "/v1/memories/", { token: USER1 }, 403],
  ["415 for a body that is not JSON", "POST", "/v1/memories/", { headers: { "content-type": "image/png" } }, 415],
];

/** Answered by the front end or the tenant's directory when each user has an object. */
const SCOPE_EARLY = [
  ["404 from the directory for an unknown id", "PUT", "/v1/memories/no-such-id/", {}, 404],
  ["501 NOT_SHARDED for a route not sharded", "POST", "/v1/tiers/flush", {}, 501],
  ["400 USER_ID_REQUIRED for an add without a user", "POST", "/v1/memories/", { body: JSON.stringify({ messages: "x".repeat(64 * 1024) }) }, 400],
];

for (const storage of ["do", "kv", "scope"]) {
  for (const [name, method, path, options, unsharded, sharded = unsharded] of storage === "scope" ? [...EARLY, ...SCOPE_EARLY] : EARLY) {
    const status = storage === "scope" ? sharded : unsharded;
    test(`${storage}: ${name} with a 64 KB body leaves the keep-alive connection usable`, T, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let round = 0; round < 3; round++) {
          const early = await send(workers[storage], agent, method, path, { body: sizeable(64 * 1024), ...options });
          assert.equal(early.status, status, early.body);
          const parsed = JSON.parse(early.body);
          assert.equal(typeof (parsed.error?.code ?? parsed.code), "string", early.body);
          const next = await send(workers[storage], agent, "GET", "/v1/memories/?user_id=u");
          assert.equal(next.status, 200, next.body);
        }
      } finally {
        agent.destroy();
      }
    });
  }

  for (const chunked of [false, true]) {
    const how = chunked ? "sent chunked (no content-length)" : "with its content-length";
    test(`${storage}: a body over MAX_BODY_BYTES ${how} is 413 and the next request on the agent still succeeds`, T, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let round = 0; round < 2; round++) {
          const big = await send(workers[storage], agent, "POST", "/v1/memories/", { body: sizeable(LIMIT * 2), chunked });
          assert.equal(big.status, 413, big.body);
          assert.equal(JSON.parse(big.body).error.code, "PAYLOAD_TOO_LARGE", big.body);
          const next = await send(workers[storage], agent, "GET", "/v1/memories/?user_id=u");
          assert.equal(next.status, 200, next.body);
          assert.deepEqual(JSON.parse(next.body).results, [], "nothing was stored");
        }
      } finally {
        agent.destroy();
      }
    });
  }
}
