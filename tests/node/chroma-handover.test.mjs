// With vectorStore: {provider: "chroma"} the vectors live in Chroma, not in this process: a write-back of
// a memory (pin, a metadata change) reads its vector back from Chroma so that storage (KV here) keeps it,
// and a delete made while Chroma is down stays pending in storage, so the next instance replays it.
import assert from "node:assert/strict";
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
const retry = { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 };

function memoryOn(kv, name) {
  const storage = { provider: "cloudflare-kv", binding: kv };
  const vectorStore = name && { provider: "chroma", config: { url: chroma.url, collectionName: name } };
  return new Memory(testConfig(server, { storage, retry, ...(vectorStore ? { vectorStore } : {}) }));
}

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
