// A bounded load check on loopback: 500 requests, 20 at a time, mixing adds, searches, lists and gets across
// 10 users and two tenants. No response may be a 5xx, and every memory added must be found afterwards.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, INITECH, startServer, startWorker } from "./helpers.mjs";

const REQUESTS = 500;
const CONCURRENCY = 20;
const USERS = 10;

test("500 requests at concurrency 20: no 5xx, every added memory found", { timeout: 300_000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server);
  t.after(() => worker.dispose());

  const added = []; // {token, user, id, text}
  const statuses = new Map();
  const jobs = Array.from({ length: REQUESTS }, (_, i) => async () => {
    const token = Math.floor(i / USERS) % 2 ? ACME : INITECH;
    const user = `user-${i % USERS}`;
    let response;
    switch (i % 5) {
      case 0:
      case 1: {
        const text = `Load fact number ${i} for ${user}`;
        response = await worker.call("POST", "/v1/memories/", { token, body: { messages: text, user_id: user, infer: false } });
        if (response.status === 200) {
          for (const event of response.body.results) added.push({ token, user, id: event.id, text: event.memory });
        }
        break;
      }
      case 2:
        response = await worker.call("GET", `/v1/memories/search/?q=load%20fact%20${i - 2}&user_id=${user}&limit=5`, { token });
        break;
      case 3:
        response = await worker.call("GET", `/v1/memories/?user_id=${user}`, { token });
        break;
      default: {
        const known = added.find((memory) => memory.token === token);
        const id = known?.id ?? "not-added-yet";
        response = await worker.call("GET", `/v1/memories/${id}/`, { token });
      }
    }
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    assert.ok(response.status < 500, `request ${i}: ${response.status} ${JSON.stringify(response.body)}`);
  });

  const started = Date.now();
  let next = 0;
  const runners = Array.from({ length: CONCURRENCY }, async () => {
    while (next < jobs.length) await jobs[next++]();
  });
  await Promise.all(runners);
  const seconds = (Date.now() - started) / 1000;
  t.diagnostic(`${REQUESTS} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);

  assert.equal([...statuses.values()].reduce((a, b) => a + b, 0), REQUESTS);
  assert.equal(added.length, REQUESTS * 2 / 5, "every add stored its one message");
  for (const token of [ACME, INITECH]) {
    for (let u = 0; u < USERS; u++) {
      const user = `user-${u}`;
      const expected = added.filter((m) => m.token === token && m.user === user).map((m) => m.id).sort();
      const listed = await worker.call("GET", `/v1/memories/?user_id=${user}&limit=1000`, { token });
      assert.deepEqual(listed.body.results.map((m) => m.id).sort(), expected, `${token} ${user}`);
    }
  }
  for (const memory of added.filter((_, i) => i % 10 === 0)) {
    const query = `/v1/memories/search/?q=${encodeURIComponent(memory.text)}&user_id=${memory.user}&limit=5`;
    const found = await worker.call("GET", query, { token: memory.token });
    assert.ok(found.body.results.some((r) => r.id === memory.id), memory.text);
  }
});
