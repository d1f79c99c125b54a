// vectorStore: {provider: "chroma"} against a real Chroma server on 127.0.0.1: vectors and vector search
// live in Chroma (its collection holds one vector per memory, with the scope ids and metadata), searches
// rank like the in-memory index under every filter operator (those Chroma cannot check are applied here),
// scopes stay apart, deletes and updates reach Chroma, and a custom vector store works end to end.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startChroma } from "../support/chroma-server.mjs";
import { defaultEmbedding } from "../support/scripted-server.mjs";
import { EXTRACT, DECIDE, Memory, T, md5, startServer, testConfig } from "./helpers.mjs";

let server;
let chroma;
let collections = 0;
before(async () => {
  [server, chroma] = await Promise.all([startServer(), startChroma()]);
});
after(async () => {
  await Promise.all([server?.close(), chroma?.close()]);
});

/** A Memory on its own new Chroma collection (returned as `name`). */
function chromaMemory(over = {}) {
  const name = `test-${process.pid}-${++collections}`;
  const vectorStore = { provider: "chroma", config: { url: chroma.url, collectionName: name } };
  return { memory: new Memory(testConfig(server, { vectorStore, ...over })), name };
}

const facts = [
  { text: "likes coffee and jazz", metadata: { category: "food", priority: 1, tags: ["morning", "music"] } },
  { text: "likes tea and chess", metadata: { category: "food", priority: 3, project: { name: "x" } } },
  { text: "plays rock music on guitar", metadata: { category: "music", priority: 2, done: true } },
  { text: "writes rust and python", metadata: { category: "work", priority: 5, tags: ["code"] } },
  { text: "visits paris for jazz", metadata: { priority: 4 } },
  { text: "draft of a jazz essay", metadata: { category: "work", priority: 2.5 } },
];

async function fill(memory) {
  for (const { text, metadata } of facts) {
    await memory.add(text, { userId: "alice", metadata, infer: false });
  }
  await memory.add("likes jazz in another scope", { userId: "bob", infer: false });
}

test("Chroma holds one vector per memory, with the scope ids and flattened metadata", T, async () => {
  const { memory, name } = chromaMemory();
  await fill(memory);
  const stored = await chroma.stored(name);
  const all = (await memory.getAll({ userId: "alice" })).results;
  assert.equal(stored.length, all.length + 1);
  const tea = all.find((m) => m.memory === "likes tea and chess");
  const record = stored.find((s) => s.id === tea.id).metadata;
  assert.deepEqual(record, { user_id: "alice", category: "food", priority: 3, "project.name": "x", role: "user" });
  const coffee = stored.find((s) => s.id === all[0].id).metadata;
  assert.deepEqual(coffee.memwasm_arrays, ["tags"]);
});

test("search ranks like the in-memory index under every filter operator", T, async () => {
  const { memory } = chromaMemory();
  const reference = new Memory(testConfig(server));
  await Promise.all([fill(memory), fill(reference)]);
  const filters = [
    undefined,
    { category: "food" },
    { field: "category", operator: "ne", value: "food" },
    { field: "priority", operator: "gt", value: 2 },
    { field: "priority", operator: "lte", value: 2.5 },
    { field: "category", operator: "in", value: ["music", "work"] },
    { field: "tags", operator: "in", value: ["code", "nothing"] },
    { field: "category", operator: "nin", value: ["food"] },
    { field: "tags", operator: "contains", value: "music" },
    { field: "memory", operator: "icontains", value: "JAZZ" },
    { field: "project.name", operator: "eq", value: "x" },
    { field: "done", operator: "eq", value: true },
    { NOT: { field: "category", operator: "eq", value: "work" } },
    { OR: [{ category: "music" }, { field: "priority", operator: "gte", value: 5 }] },
    { AND: [{ category: "work" }, { field: "memory", operator: "contains", value: "draft" }] },
    { field: "createdAt", operator: "gte", value: "2000-01-01" },
  ];
  for (const query of ["jazz", "coffee music", "rust code"]) {
    for (const f of filters) {
      const options = { userId: "alice", limit: 3, ...(f ? { filters: f } : {}) };
      const [got, want] = await Promise.all([memory.search(query, options), reference.search(query, options)]);
      const label = `${query} ${JSON.stringify(f)}`;
      assert.deepEqual(got.results.map((r) => r.memory).sort(), want.results.map((r) => r.memory).sort(), label);
      got.results.forEach((r, i) => assert.ok(Math.abs(r.score - want.results[i].score) < 1e-4, label));
      assert.equal(got.totalCount, want.totalCount, label);
    }
  }
  const hybrid = await memory.search("jazz", { userId: "alice", method: "hybrid", limit: 2 });
  const expected = await reference.search("jazz", { userId: "alice", method: "hybrid", limit: 2 });
  assert.deepEqual(hybrid.results.map((r) => r.memory), expected.results.map((r) => r.memory));
});

test("two scopes on one collection never see each other's vectors", T, async () => {
  const { memory } = chromaMemory();
  await fill(memory);
  const bob = await memory.search("jazz", { userId: "bob" });
  assert.deepEqual(bob.results.map((r) => r.memory), ["likes jazz in another scope"]);
  const alice = await memory.search("jazz", { userId: "alice", limit: 100 });
  assert.equal(alice.results.length, facts.length);
  assert.ok(alice.results.every((r) => r.userId === "alice"));
  const nobody = await memory.search("jazz", { userId: "carol" });
  assert.deepEqual(nobody.results, []);
});

test("update re-embeds in Chroma; delete, deleteAll and reset remove the vectors", T, async () => {
  const { memory, name } = chromaMemory();
  await fill(memory);
  // method "vector": the score checked is the cosine of the vector Chroma holds (hybrid adds keywords)
  const vector = { userId: "alice", limit: 1, method: "vector" };
  const [first] = (await memory.search("coffee", vector)).results;
  await memory.update(first.id, "collects stamps from japan");
  const [stamps] = (await memory.search("stamps japan", vector)).results;
  assert.equal(stamps.id, first.id);
  // 2 of the new text's 4 words: cosine 2 / sqrt(2 × 4) with the scripted bag-of-words embedding.
  assert.ok(Math.abs(stamps.score - Math.SQRT1_2) < 1e-4, `the new text's vector is in Chroma: ${stamps.score}`);
  await memory.update(first.id, { metadata: { category: "hobby" } });
  const record = (await chroma.stored(name)).find((s) => s.id === first.id).metadata;
  assert.equal(record.category, "hobby");

  await memory.delete(first.id);
  assert.ok(!(await chroma.stored(name)).some((s) => s.id === first.id));
  await memory.deleteAll({ userId: "bob" });
  assert.equal((await chroma.stored(name)).length, facts.length - 1);
  await memory.reset();
  assert.deepEqual(await chroma.stored(name), []);
  assert.deepEqual((await memory.search("jazz", { userId: "alice" })).results, []);
});

test("Memory works with a custom vector store (ChromaDB)", T, async () => {
  const { memory, name } = chromaMemory({ pipeline: "exact" }); // the decision's id "0" is the exact pipeline's
  server.script([
    { kind: "chat", match: [EXTRACT], reply: { facts: ["Name is Alice", "Works at Acme as a data scientist"] } },
    { kind: "chat", match: [DECIDE], reply: { memory: [
      { id: "new-1", text: "Name is Alice", event: "ADD" },
      { id: "new-2", text: "Works at Acme as a data scientist", event: "ADD" },
    ] } },
  ]);
  const added = await memory.add("Hi, I'm Alice. I work at Acme Corp as a data scientist.", { userId: "alice" });
  assert.deepEqual(added.results.map((e) => e.event), ["ADD", "ADD"]);
  assert.equal((await chroma.stored(name)).length, 2);

  const found = await memory.search("Acme data scientist", { userId: "alice", limit: 1 });
  assert.equal(found.results[0].memory, "Works at Acme as a data scientist");
  const id = found.results[0].id;

  server.reset();
  server.script([
    { kind: "chat", match: [EXTRACT], reply: { facts: ["Works at BigTech as a data scientist"] } },
    { kind: "chat", match: [DECIDE], reply: { memory: [
      { id: "0", text: "Works at BigTech as a data scientist", event: "UPDATE", old_memory: "Works at Acme as a data scientist" },
    ] } },
  ]);
  const updated = await memory.add("I moved to BigTech.", { userId: "alice" });
  assert.deepEqual(updated.results.map((e) => [e.event, e.id]), [["UPDATE", id]]);
  const item = await memory.get(id);
  assert.equal(item.memory, "Works at BigTech as a data scientist");
  assert.equal(item.hash, md5(item.memory));
  assert.deepEqual((await memory.history(id)).map((h) => h.event), ["ADD", "UPDATE"]);
  const again = await memory.search("BigTech", { userId: "alice", limit: 1 });
  assert.equal(again.results[0].id, id);
  await memory.delete(id);
  assert.equal((await memory.getAll({ userId: "alice" })).results.length, 1);
  assert.equal((await chroma.stored(name)).length, 1);
});

test("search by vector asks Chroma too", T, async () => {
  const { memory } = chromaMemory();
  const reference = new Memory(testConfig(server));
  await Promise.all([fill(memory), fill(reference)]);
  const [one] = (await reference.getAll({ userId: "alice", limit: 1 })).results;
  const embedding = defaultEmbedding(one.memory, 64).map((x) => x * 3);
  const got = await memory.search({ embedding }, { userId: "alice", limit: 2 });
  assert.equal(got.results[0].memory, one.memory);
  assert.ok(Math.abs(got.results[0].score - 1) < 1e-4);
});

test("bad Chroma configs are INVALID_CONFIG naming the field", T, () => {
  const bad = (config, field) =>
    assert.throws(
      () => new Memory(testConfig(server, { vectorStore: { provider: "chroma", config } })),
      (e) => e.code === "INVALID_CONFIG" && e.message.includes(field),
    );
  bad({ collectionName: "memories" }, "vectorStore.config.url");
  bad({ url: chroma.url }, "vectorStore.config.collectionName");
  bad({ url: chroma.url, collectionName: "x" }, "vectorStore.config.collectionName");
  bad({ url: chroma.url, collectionName: "memories", quantization: "int8" }, "quantization");
  assert.throws(
    () => new Memory(testConfig(server, { vectorStore: { provider: "qdrant", config: {} } })),
    (e) => e.code === "INVALID_CONFIG" && e.message.includes("chroma"),
  );
});
