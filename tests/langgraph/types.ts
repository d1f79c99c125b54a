// memwasm/langgraph's types (pkg/langgraph.d.ts) as an app uses them: the store is a graph's `store`,
// its calls return LangGraph's types, and wrong options do not type-check.
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import type { BaseStore, Item, SearchItem } from "@langchain/langgraph-checkpoint";
import { Memory } from "memwasm";
import { MemwasmStore, type MemwasmStoreOptions, type TtlPutOperation } from "memwasm/langgraph";

const memory = new Memory({ embedder: { provider: "none" }, llm: { provider: "none" } });
const options: MemwasmStoreOptions = { scope: { userId: "u" }, index: { fields: ["title"] }, ttl: { defaultTtl: 60 }, method: "keyword" };
const store = new MemwasmStore(memory, options);
const base: BaseStore = store;
const State = Annotation.Root({ n: Annotation<number>() });
new StateGraph(State).addNode("a", () => ({ n: 1 })).addEdge(START, "a").addEdge("a", END).compile({ store });

export async function uses(): Promise<void> {
  const item: Item | null = await store.get(["docs"], "a");
  const found: SearchItem[] = await store.search(["docs"], { query: "q", filter: { a: 1 }, limit: 1, offset: 0 });
  await store.put(["docs"], "a", { title: "t" }, ["title"], { ttl: 5 });
  await store.put(["docs"], "b", { title: "t" }, false, { ttl: null });
  const namespaces: string[][] = await store.listNamespaces({ prefix: ["docs"], maxDepth: 1 });
  const op: TtlPutOperation = { namespace: ["docs"], key: "c", value: { x: 1 }, ttl: 10 };
  const [none, got] = await store.batch([op, { namespace: ["docs"], key: "c" }]);
  void [item, found, namespaces, none, got?.value, base];
  // @ts-expect-error: the memory is required
  new MemwasmStore();
  // @ts-expect-error: ttl is minutes in an object
  new MemwasmStore(memory, { ttl: 60 });
  // @ts-expect-error: index is false or {fields}
  new MemwasmStore(memory, { index: ["title"] });
  // @ts-expect-error: a put's ttl is a number or null
  await store.put(["docs"], "a", { title: "t" }, undefined, { ttl: "5" });
}
