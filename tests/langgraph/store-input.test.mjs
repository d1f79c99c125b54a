// MemwasmStore refuses bad input with MemoryError codes, and answers as LangGraph's own InMemoryStore does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { MemoryError } from "memwasm";
import { MemwasmStore } from "memwasm/langgraph";
import { T, clockedMemory, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const fresh = (options) => {
  const { memory, clock } = clockedMemory(server);
  return { store: new MemwasmStore(memory, options), memory, clock };
};

test("bad input rejects with a MemoryError code and writes nothing", T, async () => {
  const { store } = fresh();
  const code = (c) => (error) => error instanceof MemoryError && error.code === c;
  for (const namespace of [[], ["the", "thing.about"], ["some", "fun", ""], ["langgraph", "foo"], ["a:b"], "ns", [1], null]) {
    await assert.rejects(store.put(namespace, "foo", { foo: "bar" }), code("INVALID_INPUT"), JSON.stringify(namespace));
  }
  await assert.rejects(store.put(["ok"], "k", "text"), code("INVALID_INPUT"));
  await assert.rejects(store.put(["ok"], "k", [1, 2]), code("INVALID_INPUT"));
  await assert.rejects(store.put(["ok"], "k", { n: 1n }), code("INVALID_INPUT"));
  await assert.rejects(store.put(["ok"], 7, { n: 1 }), code("INVALID_INPUT"));
  await assert.rejects(store.put(["ok"], "k", { n: 1 }, "title"), code("INVALID_INPUT"));
  await assert.rejects(store.put(["ok"], "k", { n: 1 }, undefined, { ttl: -1 }), code("INVALID_INPUT"));
  await assert.rejects(store.put(["ok"], "k".repeat(600), { n: 1 }), code("INVALID_INPUT"));
  await assert.rejects(store.put(["ok"], "line\nbreak", { n: 1 }), code("INVALID_INPUT"));
  await assert.rejects(store.get([], "k"), code("INVALID_INPUT"));
  await assert.rejects(store.get(["ok"], "tab\tkey"), code("INVALID_INPUT"));
  await assert.rejects(store.search(["ok"], { limit: -1 }), code("INVALID_INPUT"));
  await assert.rejects(store.search(["ok"], { query: 5 }), code("INVALID_INPUT"));
  await assert.rejects(store.search(["ok"], { filter: "x" }), code("INVALID_INPUT"));
  await assert.rejects(store.search("ok"), code("INVALID_INPUT"));
  await assert.rejects(store.listNamespaces({ maxDepth: 0 }), code("INVALID_INPUT"));
  await assert.rejects(store.listNamespaces({ prefix: "a" }), code("INVALID_INPUT"));
  await assert.rejects(store.batch("ops"), code("INVALID_INPUT"));
  await assert.rejects(store.batch([null]), code("INVALID_INPUT"));
  await assert.rejects(store.batch([{ namespace: ["ok"], key: "a", value: { v: 1 } }, { namespace: ["ok"], key: "b", value: 3 }]), code("INVALID_INPUT"));
  await assert.rejects(store.batch([{ namespace: ["ok"], key: "a", value: { v: 1 } }, { namespace: ["ok"], key: "é".repeat(510), value: {} }]), code("INVALID_INPUT"));
  assert.deepEqual(await store.search([]), [], "a batch with a bad put writes none of its puts");
  assert.throws(() => new MemwasmStore({}), code("INVALID_CONFIG"));
  assert.throws(() => new MemwasmStore(fresh().memory, { index: { fields: "title" } }), code("INVALID_CONFIG"));
  assert.throws(() => new MemwasmStore(fresh().memory, { ttl: { defaultTtl: 0 } }), code("INVALID_CONFIG"));
  assert.throws(() => new MemwasmStore(fresh().memory, { namespace: ["x"] }), code("INVALID_CONFIG"));
  for (const scope of [{}, { user: "u" }, { userId: "" }, "u"]) {
    assert.throws(() => new MemwasmStore(fresh().memory, { scope }), code("INVALID_CONFIG"), JSON.stringify(scope));
  }
  assert.throws(() => new MemwasmStore(fresh().memory, { method: "cosine" }), code("INVALID_CONFIG"));
});

test("the same calls give what InMemoryStore gives (without a query)", T, async () => {
  const ours = fresh().store;
  const theirs = new InMemoryStore();
  for (const store of [ours, theirs]) {
    await store.put(["users", "u1"], "prefs", { theme: "dark", size: 3 });
    await store.put(["users", "u2"], "prefs", { theme: "light", size: 5 });
    await store.put(["users", "u1"], "prefs", { theme: "dim", size: 4 });
    await store.put(["docs"], "d", { title: "x" });
  }
  const calls = [
    (s) => s.get(["users", "u1"], "prefs"),
    (s) => s.search(["users"], { filter: { size: { $gt: 3 } } }),
    (s) => s.search([], { limit: 2, offset: 1 }),
    (s) => s.listNamespaces({ maxDepth: 1 }),
    (s) => s.listNamespaces({ prefix: ["users"], limit: 1, offset: 1 }),
  ];
  for (const call of calls) {
    const [a, b] = [await call(ours), await call(theirs)];
    const plain = (r) => JSON.parse(JSON.stringify(r, (k, v) => (k === "createdAt" || k === "updatedAt" ? undefined : v)));
    assert.deepEqual(plain(a), plain(b), call.toString());
  }
});
