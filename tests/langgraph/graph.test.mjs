// A real LangGraph StateGraph compiled with MemwasmStore as its `store`: its node puts items in one run and
// finds them in the next, with the memory in a SQLite file closed and reopened between the runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Annotation, END, START, StateGraph, getStore } from "@langchain/langgraph";
import { Memory } from "memwasm";
import { MemwasmStore } from "memwasm/langgraph";
import { START as T0, T, config, scriptedServer, tempDir } from "./helpers.mjs";

const server = scriptedServer();

const State = Annotation.Root({
  userId: Annotation(),
  note: Annotation(),
  query: Annotation(),
  found: Annotation(),
});

/** One node: writes the state's note (if any) under the user's namespace, then searches it. */
async function remember(state, runtime) {
  const namespace = ["memories", state.userId];
  if (state.note) await runtime.store.put(namespace, `note-${state.note.length}`, { text: state.note, at: 1 });
  const found = await runtime.store.search(namespace, { query: state.query ?? state.note, limit: 5 });
  return { found: found.map((item) => ({ key: item.key, text: item.value.text, score: item.score })) };
}

const graphWith = (store) => new StateGraph(State).addNode("remember", remember)
  .addEdge(START, "remember").addEdge("remember", END).compile({ store });

async function open(path, clock) {
  const memory = await Memory.open(config(server, clock, { storage: { provider: "sqlite", config: { path } } }));
  return { memory, store: new MemwasmStore(memory, { scope: { userId: "graph-app" }, ttl: { defaultTtl: 60 } }) };
}

test("a graph puts items in run 1 and finds them in run 2, the SQLite memory reopened in between", T, async (t) => {
  const path = join(tempDir(t), "memory.db");
  const clock = { t: T0 };

  const first = await open(path, clock);
  const run1 = await graphWith(first.store).invoke({ userId: "u1", note: "I love pizza with olives" });
  assert.deepEqual(run1.found.map((f) => f.text), ["I love pizza with olives"]);
  await graphWith(first.store).invoke({ userId: "u1", note: "The meeting is on Tuesday" });
  await graphWith(first.store).invoke({ userId: "u2", note: "pizza is u2's secret" });
  first.memory.close();

  clock.t += 30 * 60_000;
  const second = await open(path, clock);
  const run2 = await graphWith(second.store).invoke({ userId: "u1", query: "pizza" });
  assert.deepEqual(run2.found.map((f) => f.text), ["I love pizza with olives", "The meeting is on Tuesday"]);
  assert.ok(run2.found[0].score > run2.found[1].score, JSON.stringify(run2.found));
  const item = await second.store.get(["memories", "u1"], "note-24");
  assert.deepEqual(item.value, { text: "I love pizza with olives", at: 1 });
  assert.equal(item.createdAt.getTime(), T0);
  assert.deepEqual(await second.store.listNamespaces({ prefix: ["memories"] }), [["memories", "u1"], ["memories", "u2"]]);

  clock.t += 30 * 60_000;
  const run3 = await graphWith(second.store).invoke({ userId: "u1", query: "pizza" });
  assert.deepEqual(run3.found, [], "the store's default TTL of 60 minutes has run out");
  second.memory.close();
  await assert.rejects(second.store.put(["memories", "u1"], "late", { text: "after close" }),
    (error) => error.name === "MemoryError" && error.code === "STORAGE_UNAVAILABLE");
});

test("a node reaches the store through getStore() and a bad put fails the run with a MemoryError", T, async () => {
  const memory = new Memory(config(server));
  const store = new MemwasmStore(memory);
  const graph = new StateGraph(State)
    .addNode("write", async (state) => {
      await getStore().put(["profiles"], state.userId, { name: state.note });
      return {};
    })
    .addEdge(START, "write").addEdge("write", END).compile({ store });
  await graph.invoke({ userId: "u9", note: "Ada" });
  assert.deepEqual((await store.get(["profiles"], "u9")).value, { name: "Ada" });
  await assert.rejects(graph.invoke({ userId: "k".repeat(600), note: "too long a key" }), (error) => error.name === "MemoryError" && error.code === "INVALID_INPUT");
});
