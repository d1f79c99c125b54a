// STORAGE = "do": an object woken by a list or an add (not only by a search) leaves the scope ready to
// search, so the next search does no loading of its own: the keyword index holds every loaded text (test hook
// `GET /__do/search-index`: `unindexed` is what the next search would have to index first). At the seams:
// two requests at once on a cold object, a write while the index is built, a restart in between.
import assert from "node:assert/strict";
import { test } from "node:test";
import { T, startServer, startWorker, tempDir } from "./helpers.mjs";

const DO = { STORAGE: "do" };
const FACTS = Array.from({ length: 12 }, (_, i) => `Fact ${i}: the user keeps bird${i} and reads book${i}`);

/** The object's search index of acme (test hook): `{warm, unindexed}`. */
async function searchIndex(worker) {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const stub = namespace.get(namespace.idFromName("acme"));
  const response = await stub.fetch("http://memwasm.internal/__do/search-index", { headers: { "x-memwasm-tenant": "acme" } });
  return response.json();
}

/** Asks the hook until nothing waits for the keyword index (at most `tries` times); the last answer. */
async function settled(worker, tries = 40) {
  let index = await searchIndex(worker);
  for (let i = 1; i < tries && index.unindexed !== 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    index = await searchIndex(worker);
  }
  return index;
}

const add = (worker, messages) => worker.call("POST", "/v1/memories/", { body: { messages, user_id: "alice", infer: false } });
const list = (worker) => worker.call("GET", "/v1/memories/?user_id=alice&limit=100");
/** The texts a keyword search finds (messages are stored as turns, each searched with the turn before it, so a
 * search may also find a word's next turn: the tests ask what is found, or not, among them). */
const keywordSearch = async (worker, q) => {
  const found = await worker.call("GET", `/v1/memories/search/?q=${encodeURIComponent(q)}&user_id=alice&method=keyword&limit=100`);
  assert.equal(found.status, 200, JSON.stringify(found.body));
  return found.body.results.map((m) => m.memory).sort();
};

/** A workerd over fresh persisted storage holding FACTS for alice, restarted: its object is cold. */
async function coldWorker(t) {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const start = () => startWorker(server, { vars: DO, persist });
  const seeding = await start();
  const added = await add(seeding, FACTS.map((content) => ({ role: "user", content })));
  assert.equal(added.status, 200, JSON.stringify(added.body));
  await seeding.dispose();
  const worker = await start();
  t.after(() => worker.dispose().catch(() => {})); // a test may have stopped it already (a restart)
  return { worker, start, ids: added.body.results.map((m) => m.id) };
}

test("a list that wakes the object leaves the scope's keyword index built for the next search", T, async (t) => {
  const { worker } = await coldWorker(t);
  const listed = await list(worker);
  assert.equal(listed.status, 200);
  assert.equal(listed.body.results.length, FACTS.length);
  assert.deepEqual(await settled(worker), { warm: true, unindexed: 0 });
  assert.ok((await keywordSearch(worker, "bird3")).includes(FACTS[3]));
});

test("an add that wakes the object leaves the scope's keyword index built, the new memory in it", T, async (t) => {
  const { worker } = await coldWorker(t);
  assert.equal((await add(worker, "The user plays the cello")).status, 200);
  assert.deepEqual(await settled(worker), { warm: true, unindexed: 0 });
  assert.ok((await keywordSearch(worker, "cello")).includes("The user plays the cello"));
  assert.ok((await keywordSearch(worker, "book7")).includes(FACTS[7]));
});

test("a list, an add and an update at once on a cold object: the index ends with the newest of each", T, async (t) => {
  const { worker, ids } = await coldWorker(t);
  const [listed, added, updated] = await Promise.all([
    list(worker),
    add(worker, "The user plays the cello"),
    worker.call("PUT", `/v1/memories/${ids[5]}/`, { body: { text: "Fact 5: the user keeps a parrot" } }),
  ]);
  for (const response of [listed, added, updated]) assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.deepEqual(await settled(worker), { warm: true, unindexed: 0 });
  assert.ok((await keywordSearch(worker, "cello")).includes("The user plays the cello"));
  assert.ok((await keywordSearch(worker, "parrot")).includes("Fact 5: the user keeps a parrot"));
  assert.ok(!(await keywordSearch(worker, "bird5")).includes(FACTS[5]), "the text before the update is gone");
  assert.equal((await list(worker)).body.results.length, FACTS.length + 1);
});

test("writes sent while the waking list is answered are searched at once", T, async (t) => {
  const { worker, ids } = await coldWorker(t);
  const listing = list(worker); // not awaited: the writes reach the object while it wakes
  const added = await add(worker, "The user plays the cello");
  const deleted = await worker.call("DELETE", `/v1/memories/${ids[2]}/`);
  assert.equal((await listing).status, 200);
  assert.equal(added.status, 200, JSON.stringify(added.body));
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  assert.ok((await keywordSearch(worker, "cello")).includes("The user plays the cello"));
  assert.ok(!(await keywordSearch(worker, "bird2")).includes(FACTS[2]), "the deleted memory is gone");
  assert.deepEqual(await settled(worker), { warm: true, unindexed: 0 });
});

test("a restart between the waking list and the search: the new object loads what the old one stored", T, async (t) => {
  const { worker, start } = await coldWorker(t);
  assert.equal((await list(worker)).status, 200);
  assert.equal((await add(worker, "The user plays the cello")).status, 200);
  await worker.dispose();
  const again = await start();
  t.after(() => again.dispose());
  assert.ok((await keywordSearch(again, "cello")).includes("The user plays the cello"));
  assert.ok((await keywordSearch(again, "book10")).includes(FACTS[10]));
  assert.deepEqual(await settled(again), { warm: true, unindexed: 0 });
});
