// A model host that is down, from the Worker in workerd (docs/timeouts-and-retries.md): the liveness probe is
// sent from workerd and finds a silent host down in seconds, without retries; the host is then remembered, so
// the next add sends nothing and warns LLM_UNAVAILABLE; a slow host that answers the probe is waited for.
// `LLM_CONFIG` passes the options.
import assert from "node:assert/strict";
import { test } from "node:test";

import { flakyHost } from "../../tests/support/flaky-host.mjs";
import { ACME, DECIDE, EXTRACT, T, startServer, startWorker } from "./helpers.mjs";

const add = (call, messages) => call("POST", "/v1/memories/", { token: ACME, body: { messages, user_id: "u1" } });

test("a silent LLM host is found down by one probe from workerd, then not asked again", T, async (t) => {
  const server = await startServer();
  const host = await flakyHost(server.port);
  const vars = { LLM_BASE_URL: `${host.url}/v1`, LLM_CONFIG: JSON.stringify({ connectTimeoutMs: 300 }), MAX_RETRIES: "3" };
  const worker = await startWorker(server, { vars });
  t.after(() => Promise.all([worker.dispose(), host.close(), server.close()]));

  const first = await add(worker.call, "I like chess");
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const [warning] = first.body.warnings;
  assert.deepEqual([warning.code, warning.cause], ["EXTRACTION_FAILED", "LLM_NETWORK"], warning.message);
  assert.match(warning.message, /no response within 300 ms, and http:\/\/127\.0\.0\.1:\d+ did not answer a liveness probe/);
  assert.equal(host.requests, 2, "the request and its probe; not retried");

  const second = await add(worker.call, "I like chess");
  assert.equal(second.body.warnings[0].cause, "LLM_UNAVAILABLE", second.body.warnings[0].message);
  assert.ok(second.body.warnings[0].message.includes(host.url));
  assert.equal(host.requests, 2, "nothing sent while the host cools down");
});

test("a slow LLM host that answers the probe is waited for", T, async (t) => {
  const server = await startServer();
  const worker = await startWorker(server, { vars: { LLM_CONFIG: JSON.stringify({ connectTimeoutMs: 200 }) } });
  t.after(() => Promise.all([worker.dispose(), server.close()]));
  const facts = ["User likes chess"];
  server.script([
    { kind: "chat", match: [EXTRACT, "I like chess"], reply: { facts }, delayMs: 1_000 },
    { kind: "chat", match: [DECIDE, ...facts], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) } },
  ]);
  const added = await add(worker.call, "I like chess");
  assert.equal(added.status, 200, JSON.stringify(added.body));
  assert.deepEqual([added.body.warnings ?? [], added.body.results.map((r) => r.memory)], [[], ["User likes chess"]]);
  assert.ok(server.requests("/").some((r) => r.method === "GET"), "the probe reached the host");
});

test("a read that cannot fall back answers 503 while its embedder host cools down, 502 when it was found down", T, async (t) => {
  const server = await startServer();
  const host = await flakyHost(server.port);
  const vars = { EMBEDDER_BASE_URL: `${host.url}/v1`, EMBEDDER_CONFIG: JSON.stringify({ connectTimeoutMs: 300 }) };
  const worker = await startWorker(server, { vars });
  t.after(() => Promise.all([worker.dispose(), host.close(), server.close()]));
  const search = () =>
    worker.call("GET", "/api/v1/memories/search?query=chess&user_id=u1&retrieve_method=vector", { token: ACME });

  const first = await search();
  assert.equal(first.status, 502, JSON.stringify(first.body));
  assert.match(first.body.message, /did not answer a liveness probe either/);
  const second = await search();
  assert.equal(second.status, 503, JSON.stringify(second.body));
  assert.match(second.body.message, /has been unreachable since .* so no request was sent/);
  assert.equal(second.headers.get("retry-after"), "30", "the cool-down left, in seconds");
  assert.equal(host.requests, 2, "the first search and its probe; nothing sent while the host cools down");
});
