// MemwasmStore behaves as LangGraph's InMemoryStore does (the cases of @langchain/langgraph-checkpoint's own
// store tests, run here against the real BaseStore), over a memwasm Memory.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BaseStore } from "@langchain/langgraph-checkpoint";
import { MemwasmStore } from "memwasm/langgraph";
import { T, clockedMemory, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const fresh = (options) => {
  const { memory, clock } = clockedMemory(server);
  return { store: new MemwasmStore(memory, options), memory, clock };
};
const strip = (items) => items.map(({ createdAt, updatedAt, ...rest }) => rest);

test("a LangGraph BaseStore: get returns the Item put, with Dates; delete and put null remove it", T, async () => {
  const { store, clock } = fresh();
  assert.ok(store instanceof BaseStore);
  await store.put(["test"], "123", { value: 1 });
  const item = await store.get(["test"], "123");
  assert.deepEqual(item, { value: { value: 1 }, key: "123", namespace: ["test"], createdAt: new Date(clock.t), updatedAt: new Date(clock.t) });
  clock.t += 1000;
  await store.put(["test"], "123", { value: 2 });
  const updated = await store.get(["test"], "123");
  assert.deepEqual([updated.value, updated.createdAt.getTime(), updated.updatedAt.getTime()], [{ value: 2 }, clock.t - 1000, clock.t]);
  await store.delete(["test"], "123");
  assert.equal(await store.get(["test"], "123"), null);
  await store.put(["test"], "456", { value: 3 });
  await store.batch([{ namespace: ["test"], key: "456", value: null }]);
  assert.equal(await store.get(["test"], "456"), null);
  await store.delete(["test"], "never-there");
});

test("values come back exactly: nested objects, arrays, unicode, numbers, key order", T, async () => {
  const { store } = fresh();
  const value = { z: 1, a: [1, 2.5, -0.125, "x", null, true, { deep: { er: ["ü", "漢字", "😀"] } }], "": "", big: 2 ** 53 - 1 };
  await store.put(["docs", "u1"], "k:with:colons and spaces", value);
  const item = await store.get(["docs", "u1"], "k:with:colons and spaces");
  assert.deepEqual(item.value, value);
  assert.deepEqual(Object.keys(item.value), Object.keys(value));
});

test("search: items under a namespace prefix, oldest first, with filter, limit and offset", T, async () => {
  const { store } = fresh();
  await store.put(["test"], "123", { value: 1 });
  await store.put(["test"], "456", { value: 2 });
  await store.put(["test", "sub"], "789", { value: 3, color: "red" });
  await store.put(["testing"], "x", { value: 4 });
  const found = await store.search(["test"]);
  assert.deepEqual(strip(found), [
    { value: { value: 1 }, key: "123", namespace: ["test"], score: undefined },
    { value: { value: 2 }, key: "456", namespace: ["test"], score: undefined },
    { value: { value: 3, color: "red" }, key: "789", namespace: ["test", "sub"], score: undefined },
  ]);
  assert.equal((await store.search([])).length, 4);
  assert.deepEqual((await store.search(["test"], { limit: 1, offset: 1 })).map((i) => i.key), ["456"]);
  assert.deepEqual((await store.search(["test"], { filter: { color: "red" } })).map((i) => i.key), ["789"]);
  assert.deepEqual((await store.search([], { filter: { value: { $gte: 2, $lt: 4 } } })).map((i) => i.key), ["456", "789"]);
  assert.deepEqual((await store.search([], { filter: { value: { $in: [1, 4] } } })).map((i) => i.key), ["123", "x"]);
  assert.deepEqual((await store.search([], { filter: { value: { $ne: 1 }, color: { $nin: ["red"] } } })).map((i) => i.key), ["456", "x"]);
  assert.deepEqual(await store.search(["nothing"]), []);
});

test("search with a query ranks by the memory's search and gives scores; filters still apply", T, async () => {
  const { store } = fresh();
  await store.put(["mem", "u1"], "a", { text: "I love pizza with olives" });
  await store.put(["mem", "u1"], "b", { text: "The meeting is on Tuesday", kind: "work" });
  await store.put(["mem", "u2"], "c", { text: "pizza night every friday", kind: "food" });
  await store.put(["mem", "u1"], "d", { text: "pizza is private" }, false);
  const ranked = await store.search(["mem", "u1"], { query: "pizza" });
  assert.deepEqual(ranked.map((i) => i.key), ["a", "b", "d"]);
  assert.ok(ranked[0].score > ranked[1].score, JSON.stringify(ranked));
  assert.equal(ranked[2].score, undefined, "an item put with index: false is listed after the ranked ones, unscored");
  const all = await store.search(["mem"], { query: "pizza friday", limit: 1 });
  assert.deepEqual(all.map((i) => i.key), ["c"]);
  assert.deepEqual((await store.search(["mem"], { query: "pizza", filter: { kind: "work" } })).map((i) => i.key), ["b"]);
  assert.deepEqual((await store.search(["mem"], { query: "pizza", offset: 3 })).map((i) => i.key), ["d"]);
});

test("method: the memory's search method ranks queries; two stores of one memory with other scopes stay apart", T, async () => {
  const { memory } = fresh();
  const keyword = new MemwasmStore(memory, { method: "keyword", scope: { userId: "one" } });
  const other = new MemwasmStore(memory, { scope: { userId: "two" } });
  await keyword.put(["n"], "a", { text: "green tea" });
  await keyword.put(["n"], "b", { text: "black coffee" });
  await other.put(["n"], "a", { text: "someone else's tea" });
  const ranked = await keyword.search(["n"], { query: "coffee" });
  assert.deepEqual(ranked.map((i) => [i.key, i.value.text]), [["b", "black coffee"], ["a", "green tea"]]);
  assert.ok(ranked[0].score > 0, JSON.stringify(ranked));
  assert.equal(ranked[1].score, undefined, "no keyword in common: not ranked, listed after");
  assert.deepEqual((await other.search(["n"])).map((i) => i.value.text), ["someone else's tea"]);
});

test("index fields: only those fields' text is ranked; the value stays whole", T, async () => {
  const { store, memory } = fresh({ index: { fields: ["title"] } });
  await store.put(["docs"], "1", { title: "gardening tips", body: "volcano lava rocks" });
  await store.put(["docs"], "2", { title: "volcano tour", body: "plants" });
  await store.put(["docs"], "3", { chapters: [{ text: "lava" }, { text: "ash" }] }, ["chapters[*].text"]);
  const ranked = await store.search(["docs"], { query: "volcano" });
  assert.equal(ranked[0].key, "2");
  const stored = await memory.getByKey("docs:3", { agentId: "langgraph" });
  assert.equal(stored.memory, "lava\nash");
  assert.deepEqual((await store.get(["docs"], "1")).value, { title: "gardening tips", body: "volcano lava rocks" });
});

test("listNamespaces: prefix, suffix, wildcards, maxDepth, limit and offset, sorted", T, async () => {
  const { store } = fresh();
  await store.put(["a", "b", "c"], "1", { value: 1 });
  await store.put(["a", "b", "d"], "2", { value: 2 });
  await store.put(["a", "c", "e"], "3", { value: 3 });
  await store.put(["x", "y", "z"], "4", { value: 4 });
  await store.put(["x", "y", "z"], "5", { value: 5 });
  assert.deepEqual(await store.listNamespaces(), [["a", "b", "c"], ["a", "b", "d"], ["a", "c", "e"], ["x", "y", "z"]]);
  assert.deepEqual(await store.listNamespaces({ prefix: ["a"] }), [["a", "b", "c"], ["a", "b", "d"], ["a", "c", "e"]]);
  assert.deepEqual(await store.listNamespaces({ suffix: ["d"] }), [["a", "b", "d"]]);
  assert.deepEqual(await store.listNamespaces({ maxDepth: 2 }), [["a", "b"], ["a", "c"], ["x", "y"]]);
  assert.deepEqual(await store.listNamespaces({ limit: 2, offset: 1 }), [["a", "b", "d"], ["a", "c", "e"]]);
  assert.deepEqual(await store.listNamespaces({ prefix: ["a"], suffix: ["c"], maxDepth: 2 }), [["a", "b"]]);
  assert.deepEqual(await store.listNamespaces({ prefix: ["a", "*", "c"] }), [["a", "b", "c"]]);
  assert.deepEqual(await store.listNamespaces({ suffix: ["*", "z"] }), [["x", "y", "z"]]);
  assert.deepEqual(await store.listNamespaces({ prefix: ["non", "existent"] }), []);
  await store.delete(["a", "c", "e"], "3");
  assert.deepEqual(await store.listNamespaces({ prefix: ["a", "c"] }), []);
});

test("batch: results in order; reads see the state before the batch's puts; the last put of a key wins", T, async () => {
  const { store } = fresh();
  await store.put(["n"], "k", { v: 0 });
  const results = await store.batch([
    { namespace: ["n"], key: "k", value: { v: 1 } },
    { namespace: ["n"], key: "k" },
    { namespacePrefix: ["n"], limit: 10, offset: 0 },
    { matchConditions: undefined, limit: 10, offset: 0 },
    { namespace: ["n"], key: "k", value: { v: 2 } },
  ]);
  assert.equal(results.length, 5);
  assert.deepEqual([results[0], results[1].value, results[2].map((i) => i.value), results[3], results[4]], [undefined, { v: 0 }, [{ v: 0 }], [["n"]], undefined]);
  assert.deepEqual((await store.get(["n"], "k")).value, { v: 2 });
  await store.batch([{ namespace: ["langgraph", "foo"], key: "bar", value: { ok: true } }]);
  assert.deepEqual((await store.search(["langgraph", "foo"]))[0].value, { ok: true });
});

test("TTL in minutes, by the memory's clock: per put, the store's default, null for never", T, async () => {
  const { store, clock } = fresh({ ttl: { defaultTtl: 10 } });
  await store.put(["s"], "short", { v: 1 }, undefined, { ttl: 1 });
  await store.put(["s"], "default", { v: 2 });
  await store.put(["s"], "forever", { v: 3 }, undefined, { ttl: null });
  await store.batch([{ namespace: ["s"], key: "op", value: { v: 4 }, ttl: 5 }]);
  clock.t += 60_000 - 1;
  assert.equal((await store.search(["s"])).length, 4);
  clock.t += 1;
  assert.equal(await store.get(["s"], "short"), null);
  assert.deepEqual((await store.search(["s"])).map((i) => i.key), ["default", "forever", "op"]);
  clock.t += 9 * 60_000;
  assert.deepEqual((await store.search(["s"], { query: "v" })).map((i) => i.key), ["forever"]);
  assert.deepEqual(await store.listNamespaces(), [["s"]]);
  await store.put(["s"], "default", { v: 5 });
  assert.deepEqual((await store.get(["s"], "default")).value, { v: 5 }, "an expired key can be put again");
});
