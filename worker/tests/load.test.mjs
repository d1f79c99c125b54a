// A bounded load check on loopback: 2,000 requests, 50 at a time, mixing adds, searches,
// gets, lists and deletes across 5 tenants and 10 users each. No response may be a 5xx, every acknowledged add
// that was not deleted must be listed afterwards (no lost writes), deleted ones must be gone, and p50 / p95 are
// reported. It stops by itself: a fixed number of requests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startServer, startWorker } from "./helpers.mjs";

const REQUESTS = 2000;
const CONCURRENCY = 50;
const TENANTS = 5;
const USERS = 10;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

test("2,000 requests at concurrency 50 across 5 tenants: no 5xx, no lost writes", { timeout: 120_000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const tokens = Object.fromEntries(Array.from({ length: TENANTS }, (_, i) => [`tok-load-${i}-0123456789`, `load-${i}`]));
  const worker = await startWorker(server, { vars: { MEMORY_TOKENS: JSON.stringify(tokens) } });
  t.after(() => worker.dispose());
  const names = Object.keys(tokens);

  const added = new Map(); // id -> {token, user}
  const deleted = new Set();
  const statuses = new Map();
  const latencies = [];
  const job = async (i) => {
    const token = names[i % TENANTS];
    const user = `user-${Math.floor(i / TENANTS) % USERS}`;
    const started = performance.now();
    let response;
    switch (i % 6) {
      case 0:
      case 1: {
        response = await worker.call("POST", "/v1/memories/", { token, body: { messages: `Load fact ${i} of ${user}`, user_id: user, infer: false } });
        if (response.status === 200) for (const event of response.body.results) added.set(event.id, { token, user });
        break;
      }
      case 2:
        response = await worker.call("GET", `/v1/memories/search/?q=load%20fact%20${i - 2}&user_id=${user}&limit=5`, { token });
        break;
      case 3:
        response = await worker.call("GET", `/v1/memories/?user_id=${user}&limit=50`, { token });
        break;
      case 4: {
        const id = [...added].findLast(([id, m]) => m.token === token && !deleted.has(id))?.[0] ?? "not-added-yet";
        response = await worker.call("GET", `/v1/memories/${id}/`, { token });
        break;
      }
      default: {
        const victim = [...added].find(([id, m]) => m.token === token && !deleted.has(id))?.[0];
        response = await worker.call("DELETE", `/v1/memories/${victim ?? "not-added-yet"}/`, { token });
        if (victim && response.status === 200) deleted.add(victim);
      }
    }
    latencies.push(performance.now() - started);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    assert.ok(response.status < 500, `request ${i}: ${response.status} ${JSON.stringify(response.body)}`);
  };

  const started = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) await job(next++);
  }));
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  t.diagnostic(
    `${REQUESTS} requests in ${seconds.toFixed(1)} s; p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(latencies, 95).toFixed(1)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );

  assert.equal(latencies.length, REQUESTS);
  assert.ok(added.size >= (REQUESTS * 2) / 6 - 1, `acknowledged adds: ${added.size}`);
  assert.ok(deleted.size > 0);
  for (const token of names) {
    for (let u = 0; u < USERS; u++) {
      const user = `user-${u}`;
      const expected = [...added].filter(([id, m]) => m.token === token && m.user === user && !deleted.has(id)).map(([id]) => id).sort();
      const listed = await worker.call("GET", `/v1/memories/?user_id=${user}&limit=1000`, { token });
      assert.deepEqual(listed.body.results.map((m) => m.id).sort(), expected, `${token} ${user}: no lost and no revived writes`);
    }
  }
});
