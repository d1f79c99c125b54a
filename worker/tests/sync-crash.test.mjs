// Sync through a Worker whose workerd is SIGKILLed mid-sync (its whole process group, as a power loss would),
// once while a device pushes and once while another pulls: after a restart on the same storage, the next
// sync of each device converges, with every memory and history record once.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { Memory } from "memwasm";
import { startServer, tempDir } from "./helpers.mjs";
import { spawnWorker } from "./workerd-process.mjs";

const TOKEN = "tok-alice-0123456789";
const VARS = { STORAGE: "do", MEMORY_TOKENS: JSON.stringify({ [TOKEN]: { tenant: "acme", user: "alice" } }) };
const KEY = new Uint8Array(32).fill(3);

async function device(t, server, folder, name) {
  const memory = await Memory.open({
    llm: { provider: "none" },
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "k", model: "test-embed", dimensions: 64 } },
    storage: { provider: "sqlite", config: { path: join(folder, `${name}.db`) } },
  });
  t.after(() => memory.close());
  return memory;
}

/** A `fetch` that SIGKILLs `worker` while the first request to `route` is on its way, then fails it. */
function killingDuring(worker, route) {
  let armed = true;
  return async (input, init) => {
    if (!armed || !String(input).includes(route)) return fetch(input, init);
    armed = false;
    const sent = fetch(input, init).catch((error) => error);
    await new Promise((resolve) => setTimeout(resolve, 2));
    await worker.kill();
    const answer = await sent;
    throw answer instanceof Error ? answer : new TypeError("fetch failed: the worker was killed");
  };
}

test("workerd SIGKILLed during a push and during a pull: the next syncs converge with nothing lost or doubled", { timeout: 240_000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const folder = tempDir(t);
  const [laptop, phone] = [await device(t, server, folder, "laptop"), await device(t, server, folder, "phone")];
  const facts = Array.from({ length: 24 }, (_, i) => `Alice's fact number ${i}: she keeps bird${i}`);
  for (const fact of facts.slice(0, 12)) await laptop.add(fact, { userId: "alice", infer: false });

  const first = await spawnWorker(t, server, { persist, vars: VARS });
  await laptop.sync({ url: first.url, token: TOKEN, key: KEY });
  for (const fact of facts.slice(12)) await laptop.add(fact, { userId: "alice", infer: false });
  await assert.rejects(laptop.sync({ url: first.url, token: TOKEN, key: KEY, fetch: killingDuring(first, "/v1/sync/push") }), { code: "SYNC_NETWORK" });

  const second = await spawnWorker(t, server, { persist, vars: VARS });
  const pushed = await laptop.sync({ url: second.url, token: TOKEN, key: KEY });
  assert.equal(pushed.pending, 0);
  await assert.rejects(phone.sync({ url: second.url, token: TOKEN, key: KEY, fetch: killingDuring(second, "/v1/sync/pull") }), { code: "SYNC_NETWORK" });

  const third = await spawnWorker(t, server, { persist, vars: VARS });
  await phone.sync({ url: third.url, token: TOKEN, key: KEY });
  await laptop.sync({ url: third.url, token: TOKEN, key: KEY });
  const held = async (memory) => (await memory.getAll({ userId: "alice", limit: 100 })).results;
  const texts = (await held(phone)).map((m) => m.memory).sort();
  assert.deepEqual(texts, [...facts].sort(), "every memory once");
  for (const memory of await held(phone)) assert.equal((await phone.history(memory.id)).length, 1, `${memory.memory}: one ADD`);
  assert.equal(await phone.exportMemories(), await laptop.exportMemories(), "both devices export the same");
  const log = await (await fetch(`${third.url}/v1/sync`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
  const numbers = new Set();
  for (let since = 0; ; ) {
    const page = await (await fetch(`${third.url}/v1/sync/pull?since=${since}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    for (const entry of page.entries) {
      const place = `${entry.clientId}/${entry.n}`;
      assert.ok(!numbers.has(place), `entry ${place} is stored once`);
      numbers.add(place);
      since = entry.seq;
    }
    if (!page.more) break;
  }
  assert.equal(numbers.size, log.entries);
});
