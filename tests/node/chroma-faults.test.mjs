// Faults of a real Chroma server on 127.0.0.1: its data survives a restart on the same path; while it is
// down (stopped mid-run) or hangs, writes that carry vectors and vector searches reject with
// VECTOR_STORE_UNAVAILABLE after the retries and keep nothing, local reads keep working, and a delete made
// meanwhile reaches Chroma before the next write once it is back, also from the next instance (it stays
// pending in storage). The vectors live in Chroma, not in this process: a write-back (pin, a metadata
// change) reads its vector back from Chroma so that storage (KV here) keeps it.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, test } from "node:test";

import { startChroma } from "../support/chroma-server.mjs";
import { memoryKv } from "./conversations-helpers.mjs";
import { Memory, T, startServer, testConfig } from "./helpers.mjs";

let server;
let chroma;
before(async () => {
  [server, chroma] = await Promise.all([startServer(), startChroma()]);
});
after(async () => {
  await Promise.all([server?.close(), chroma?.close()]);
});

const SLOW = { timeout: 120_000 };
const unavailable = (e) => e.code === "VECTOR_STORE_UNAVAILABLE";

const retry = { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 };

function chromaMemory(name, config = {}) {
  const vectorStore = { provider: "chroma", config: { url: chroma.url, collectionName: name, ...config } };
  return new Memory(testConfig(server, { vectorStore, retry }));
}

/** A Memory on the KV namespace `kv`, its vectors in Chroma collection `name` (none: in RAM). */
function memoryOn(kv, name) {
  const storage = { provider: "cloudflare-kv", binding: kv };
  const vectorStore = name && { provider: "chroma", config: { url: chroma.url, collectionName: name } };
  return new Memory(testConfig(server, { storage, retry, ...(vectorStore ? { vectorStore } : {}) }));
}

test("vectors survive a restart of the server on the same path", SLOW, async () => {
  const memory = chromaMemory("restart-test");
  for (const text of ["likes coffee", "likes tea", "plays chess"]) {
    await memory.add(text, { userId: "alice", infer: false });
  }
  const before = (await chroma.stored("restart-test")).map((s) => s.id).sort();
  await chroma.stop();
  await chroma.start();
  assert.deepEqual((await chroma.stored("restart-test")).map((s) => s.id).sort(), before);
  const found = await memory.search("coffee", { userId: "alice", limit: 1 });
  assert.equal(found.results[0].memory, "likes coffee");
  await memory.add("likes jazz", { userId: "alice", infer: false });
  const [jazz] = (await memory.search("likes jazz", { userId: "alice", limit: 1 })).results;
  assert.equal(jazz.memory, "likes jazz");
  assert.ok(Math.abs(jazz.score - 1) < 1e-4);
});

test("Chroma stopped mid-run: the add fails whole, reads stay local, a delete is replayed", SLOW, async () => {
  const memory = chromaMemory("outage-test");
  await memory.add("likes coffee", { userId: "alice", infer: false });
  const tea = (await memory.add("likes tea", { userId: "alice", infer: false })).results[0];
  await chroma.stop();
  try {
    await assert.rejects(memory.add("likes jazz", { userId: "alice", infer: false }), unavailable);
    server.script({ kind: "chat", match: ["extracting"], reply: { facts: ["Likes rock"] } });
    await assert.rejects(memory.add("I like rock", { userId: "alice" }), unavailable, "inferring add: neighbours");
    await assert.rejects(memory.search("coffee", { userId: "alice" }), unavailable);
    const all = await memory.getAll({ userId: "alice" });
    assert.deepEqual(all.results.map((m) => m.memory), ["likes coffee", "likes tea"], "nothing of the failed add");
    const keyword = await memory.search("coffee", { userId: "alice", method: "keyword" });
    assert.equal(keyword.results[0].memory, "likes coffee");
    await memory.delete(tea.id); // storage first; Chroma's copy is deleted when it is back
    assert.equal(await memory.get(tea.id), null);
    const coffee = all.results[0];
    await memory.update(coffee.id, { metadata: { mood: "calm" } }).catch((e) => assert.ok(unavailable(e)));
    await memory.pin(coffee.id); // a write-back of an unchanged vector needs no Chroma
  } finally {
    await chroma.start();
  }
  assert.ok((await chroma.stored("outage-test")).some((s) => s.id === tea.id), "still in Chroma while pending");
  const jazz = await memory.add("likes jazz", { userId: "alice", infer: false });
  const ids = (await chroma.stored("outage-test")).map((s) => s.id);
  assert.ok(!ids.includes(tea.id), "the pending delete was replayed before the write");
  assert.ok(ids.includes(jazz.results[0].id));
  const found = await memory.search("likes", { userId: "alice", limit: 10 });
  assert.deepEqual(found.results.map((r) => r.memory).sort(), ["likes coffee", "likes jazz"]);
  assert.deepEqual((await memory.history(jazz.results[0].id)).map((h) => h.event), ["ADD"]);
});

test("a server that never answers times out into VECTOR_STORE_UNAVAILABLE", SLOW, async () => {
  const sockets = new Set();
  const silent = createServer((socket) => sockets.add(socket));
  await new Promise((resolve) => silent.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${silent.address().port}`;
    const vectorStore = { provider: "chroma", config: { url, collectionName: "silent", timeoutMs: 200 } };
    const memory = new Memory(testConfig(server, { vectorStore, retry: { maxRetries: 1, baseDelayMs: 5 } }));
    const started = Date.now();
    await assert.rejects(memory.add("likes coffee", { userId: "alice", infer: false }), (e) => {
      assert.equal(e.code, "VECTOR_STORE_UNAVAILABLE");
      assert.match(e.message, /Chroma/);
      return true;
    });
    assert.ok(Date.now() - started < 5_000, "two attempts of 200 ms, not a hang");
    assert.deepEqual((await memory.getAll({ userId: "alice" })).results, []);
  } finally {
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => silent.close(resolve));
  }
});

test("memories stored before the switch to Chroma are uploaded as their scope loads, once", T, async () => {
  const kv = memoryKv();
  const storage = { provider: "cloudflare-kv", binding: kv };
  const earlier = new Memory(testConfig(server, { storage }));
  await earlier.add("likes sailing in Norway", { userId: "old", infer: false });
  await earlier.add("likes tea in Kyoto", { userId: "old", infer: false });
  const vectorStore = { provider: "chroma", config: { url: chroma.url, collectionName: `backfill-${process.pid}` } };
  const switched = new Memory(testConfig(server, { storage, vectorStore }));
  const found = await switched.search("sailing in Norway", { userId: "old", limit: 1 });
  assert.equal(found.results[0]?.memory, "likes sailing in Norway", "found through Chroma after the upload");
  const count = async () => (await chroma.stored(`backfill-${process.pid}`)).length;
  assert.equal(await count(), 2);
  const again = new Memory(testConfig(server, { storage, vectorStore }));
  await again.search("tea", { userId: "old" });
  assert.equal(await count(), 2, "a second load uploads nothing new");
});

test("write-backs keep the vector in storage, read back from Chroma", T, async () => {
  const kv = memoryKv();
  const name = `handover-${process.pid}`;
  const memory = memoryOn(kv, name);
  const tea = (await memory.add("likes green tea", { userId: "alice", infer: false })).results[0];
  await memory.add("walks the dog", { userId: "alice", infer: false });
  const [held] = (await chroma.stored(name)).filter((s) => s.id === tea.id);
  await memory.pin(tea.id);
  await memory.update(tea.id, { metadata: { mood: "calm" } });
  assert.equal((await chroma.stored(name)).find((s) => s.id === tea.id).metadata.mood, "calm");

  const withoutChroma = memoryOn(kv); // the same KV, searched in RAM: the vectors must be there
  const found = await withoutChroma.search("likes green tea", { userId: "alice", limit: 1 });
  assert.equal(found.results[0].memory, "likes green tea");
  assert.ok(Math.abs(found.results[0].score - 1) < 1e-4, "the stored vector is the one Chroma held");
  const exported = (await memory.exportMemories({ userId: "alice" })).split("\n").filter(Boolean).map(JSON.parse);
  const line = exported.find((l) => l.id === tea.id && "embedding" in l);
  const vector = new Float32Array(new Uint8Array(Buffer.from(line.embedding, "base64")).buffer);
  assert.equal(vector.length, held.embedding.length, "export carries the vector read from Chroma");
  vector.forEach((x, i) => assert.ok(Math.abs(x - held.embedding[i]) < 1e-6));
});

test("a delete made while Chroma is down is replayed by the next instance", SLOW, async () => {
  const kv = memoryKv();
  const name = `pending-${process.pid}`;
  const first = memoryOn(kv, name);
  const tea = (await first.add("likes tea", { userId: "alice", infer: false })).results[0];
  await first.add("walks the dog", { userId: "alice", infer: false });
  await chroma.stop();
  try {
    await first.delete(tea.id);
  } finally {
    await chroma.start();
  }
  assert.ok((await chroma.stored(name)).some((s) => s.id === tea.id), "still in Chroma while pending");

  const second = memoryOn(kv, name); // a new instance: the pending delete comes from storage
  await second.add("plays chess", { userId: "alice", infer: false });
  assert.ok(!(await chroma.stored(name)).some((s) => s.id === tea.id), "replayed before the next write");
  const found = await second.search("likes tea", { userId: "alice" });
  assert.ok(!found.results.some((m) => m.id === tea.id));
});
