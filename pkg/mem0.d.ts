// `memwasm/mem0`: the same package and the same `Memory` class as `memwasm`, typed the way mem0ai's OSS
// `Memory` is, so mem0 TypeScript code type-checks by changing its import from "mem0ai/oss" to "memwasm/mem0".
// mem0's result types are loose (every result is a `SearchResult` of `MemoryItem`s with only `id` and `memory`
// required) and its config takes any provider name; memwasm's own types (from "memwasm") are exact. At run time
// a provider memwasm does not have is still refused with `INVALID_CONFIG`.
import type { Memory as ExactMemory, MemoryConfig as ExactConfig } from "./index.js";

export * from "./index.js";

/** mem0's memory item: what `add`, `search`, `getAll` and `get` give, loosely (memwasm's items carry more). */
export interface MemoryItem {
  id: string;
  memory: string;
  hash?: string;
  createdAt?: string;
  updatedAt?: string;
  score?: number;
  metadata?: Record<string, any>;
  attributedTo?: string;
  [key: string]: any;
}

/** mem0's `SearchResult`: the shape of every list result (`add`, `search`, `getAll`). */
export interface SearchResult {
  results: MemoryItem[];
  relations?: any[];
  [key: string]: any;
}

/** mem0's `{provider, config}` parts, with any provider name. */
export interface ProviderPart {
  provider: string;
  config?: Record<string, any>;
  [key: string]: any;
}

/** mem0's `MemoryConfig`: memwasm's keys, with mem0's `{provider: string, config}` parts. */
export type MemoryConfig = Omit<
  ExactConfig,
  "llm" | "embedder" | "vectorStore" | "graphStore" | "historyStore" | "reranker"
> & {
  llm?: ProviderPart;
  embedder?: ProviderPart;
  vectorStore?: ProviderPart;
  graphStore?: ProviderPart;
  historyStore?: ProviderPart;
  reranker?: ProviderPart;
  [key: string]: any;
};

/** mem0's `Message`. */
export interface Message {
  role: string;
  content: string;
}

/** memwasm's `Memory`, constructed from a mem0 config. mem0 code that reaches into mem0's private vector store
 * (`memory["vectorStore"]`, as mem0's own tests do) type-checks as it does against mem0, but there is no such
 * member here: it is `undefined` at run time (the store lives in the `.wasm`). */
export type Memory = ExactMemory & { readonly vectorStore?: any };
export declare const Memory: Omit<typeof ExactMemory, "prototype" | "fromConfig"> & {
  new (config?: Partial<MemoryConfig>): Memory;
  prototype: Memory;
  fromConfig(config: Record<string, any>): Memory;
};
