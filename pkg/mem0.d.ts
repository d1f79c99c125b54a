// `memwasm/mem0`: the same package and the same `Memory` class as `memwasm`, typed the way mem0ai's OSS
// `Memory` is, so mem0 TypeScript code type-checks by changing its import from "mem0ai/oss" to "memwasm/mem0".
// mem0's result types are loose (every result is a `SearchResult` of `MemoryItem`s with only `id` and `memory`
// required) and its config takes any provider name; memwasm's own types (from "memwasm") are exact. At run time
// a provider memwasm does not have is still refused with `INVALID_CONFIG`.
import type { Memory as ExactMemory, MemoryConfig as ExactConfig, SearchOptions as ExactSearchOptions } from "./index.js";

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
  /** `search(query, {explain: true})`: how `score` was made. */
  score_details?: ScoreDetails;
  [key: string]: any;
}

/** mem0's `score_details` of a search result (`explain: true`): mem0's formula over memwasm's rankings. */
export interface ScoreDetails {
  /** The cosine similarity to the query (what `threshold` gates). */
  semanticScore: number;
  /** memwasm's BM25, normalised by mem0's sigmoid; 0 when the memory matches no word of the query. */
  bm25Score: number;
  /** Always 0: memwasm keeps no entity store. */
  entityBoost: number;
  rawScore: number;
  /** 2 when some memory matched a word of the query, else 1. */
  maxPossibleScore: number;
  /** `min(rawScore / maxPossibleScore, 1)`: the result's `score`. */
  finalScore: number;
  threshold: number;
}

/** mem0 v3's `SearchMemoryOptions`, over memwasm's: without `method`, mem0's search (at most `topK`, default
 * 20, of the memories whose cosine to the query is at least `threshold`, default 0.1); with `method`,
 * memwasm's own search and defaults. */
export interface SearchOptions extends ExactSearchOptions {
  /** Adds mem0's `score_details` to each result. */
  explain?: boolean;
  /** As in mem0: default `true`, and it reranks only when the config has a reranker memwasm runs (the reranked
   * come first, in its order, its relevance as `score` and mem0's hybrid score as `fusedScore`). */
  rerank?: boolean;
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

/** memwasm's `Memory`, constructed from a mem0 config and kept where mem0 keeps it (a SQLite file in Node,
 * opened on the first call). mem0 code that reaches into mem0's private vector store (`memory["vectorStore"]`,
 * as mem0's own tests do) type-checks as it does against mem0, but there is no such member here: it is
 * `undefined` at run time (the store lives in the `.wasm`). */
export type Memory = Omit<ExactMemory, "search"> & {
  search(query: string | { embedding: number[] | Float32Array }, options: SearchOptions): Promise<SearchResult>;
  readonly vectorStore?: any;
};
export declare const Memory: Omit<typeof ExactMemory, "prototype" | "fromConfig" | "open"> & {
  new (config?: Partial<MemoryConfig>): Memory;
  prototype: Memory;
  fromConfig(config: Record<string, any>): Memory;
  /** `new Memory(config)` with its storage open. */
  open(config?: Partial<MemoryConfig>): Promise<Memory>;
};
