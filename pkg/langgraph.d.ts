// memwasm/langgraph: a LangGraph store over a memwasm Memory (needs @langchain/langgraph-checkpoint).
import { BaseStore } from "@langchain/langgraph-checkpoint";
import type { Item, Operation, OperationResults, PutOperation, SearchItem } from "@langchain/langgraph-checkpoint";
import type { Memory, Scope, SearchMethod } from "./index.js";

/** `new MemwasmStore(memory, options)`'s options. */
export interface MemwasmStoreOptions {
  /** The memory scope every item lives in. Default `{agentId: "langgraph"}`. */
  scope?: Scope;
  /** The value fields whose text a query ranks (LangGraph paths: `"$"`, `"a.b"`, `"list[*].text"`), joined into
   * one text per item. Default `{fields: ["$"]}`, the whole value. `false`: queries rank nothing. */
  index?: false | { fields?: string[] };
  /** Minutes until a new or rewritten item expires, unless its put gives `ttl`. Default: never. */
  ttl?: { defaultTtl?: number | null };
  /** How queries rank (the memory's `search` method). Default: the memory's default (`"hybrid"`). */
  method?: SearchMethod;
}

/** A put with a time to live: `ttl` in minutes, `null` for never (LangGraph Python's `ttl`). */
export interface TtlPutOperation extends PutOperation {
  ttl?: number | null;
}

/** LangGraph's `BaseStore` over a memwasm `Memory`: pass it as a graph's `store`. Bad input rejects with a
 * `MemoryError` (`INVALID_INPUT`; `INVALID_CONFIG` from the constructor). */
export declare class MemwasmStore extends BaseStore {
  constructor(memory: Memory, options?: MemwasmStoreOptions);
  batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>>;
  get(namespace: string[], key: string): Promise<Item | null>;
  search(
    namespacePrefix: string[],
    options?: { filter?: Record<string, any>; limit?: number; offset?: number; query?: string },
  ): Promise<SearchItem[]>;
  /** `options.ttl`: minutes until the item expires (`null`: never), else `ttl.defaultTtl`. */
  put(
    namespace: string[],
    key: string,
    value: Record<string, any>,
    index?: false | string[],
    options?: { ttl?: number | null },
  ): Promise<void>;
  delete(namespace: string[], key: string): Promise<void>;
  listNamespaces(options?: {
    prefix?: string[];
    suffix?: string[];
    maxDepth?: number;
    limit?: number;
    offset?: number;
  }): Promise<string[][]>;
}
