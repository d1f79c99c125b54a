/** A chat message, as in the OpenAI chat format. */
export interface Message {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Who a memory belongs to. Every call that reads or writes memories needs at least one of these. */
export interface Scope {
  userId?: string;
  agentId?: string;
  runId?: string;
}

/** Any JSON value stored in memory metadata. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Metadata = Record<string, JsonValue>;

export type FilterOperator = "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "in" | "nin" | "contains" | "icontains";

/** One comparison. `field` names a metadata key (dotted paths reach nested objects) or a top-level field:
 * `memory`, `hash`, `id`, `createdAt`, `updatedAt`, `userId`, `agentId`, `runId` (snake_case spellings work too). */
export interface FilterCondition {
  field: string;
  operator: FilterOperator;
  value: JsonValue;
}

/** A portable filter: a condition, or AND / OR / NOT of filters. A plain object of `{key: scalar}` pairs
 * (mem0's shorthand) means every key equals its value. */
export type FilterExpression =
  | FilterCondition
  | { AND: FilterExpression[] }
  | { OR: FilterExpression[] }
  | { NOT: FilterExpression }
  | Record<string, string | number | boolean | null>;

/** A stored memory. */
export interface MemoryItem {
  id: string;
  /** The fact text. */
  memory: string;
  /** MD5 hex digest of `memory`. */
  hash: string;
  metadata: Metadata;
  /** Similarity score, on search results only. */
  score?: number;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
  userId?: string;
  agentId?: string;
  runId?: string;
}

export type MemoryEventKind = "ADD" | "UPDATE" | "DELETE" | "NONE";

/** What add() did to one memory. */
export interface MemoryEvent {
  id: string;
  event: MemoryEventKind;
  /** The memory's text after the event (before it, for DELETE). */
  memory: string;
  /** Text before the event (UPDATE, DELETE). */
  oldMemory?: string;
  /** Text after the event (ADD, UPDATE). */
  newMemory?: string;
  metadata?: Metadata;
}

/** Something add() skipped rather than failing the whole call (see `code`). */
export interface AddWarning {
  /** `EXTRACTION_FAILED`, `DECISION_FAILED`, `EMBEDDING_FAILED` or `UNKNOWN_MEMORY_ID`. */
  code: string;
  message: string;
}

export interface AddResult {
  results: MemoryEvent[];
  /** Facts or LLM decisions that were skipped, and why. Empty when everything went through. */
  warnings: AddWarning[];
}

export interface SearchResult {
  results: MemoryItem[];
}

/** One entry of a memory's audit trail. */
export interface HistoryRecord {
  id: string;
  memoryId: string;
  event: "ADD" | "UPDATE" | "DELETE";
  oldValue: string | null;
  newValue: string | null;
  /** ISO 8601. */
  timestamp: string;
  isDeleted: boolean;
  userId?: string;
  agentId?: string;
  runId?: string;
}

export interface AddOptions extends Scope {
  /** Attached to every memory this call adds. */
  metadata?: Metadata;
  /** Narrows which existing memories the LLM compares new facts with. */
  filters?: FilterExpression;
  /** Replaces the fact-extraction system prompt for this call. */
  prompt?: string;
  /** `false` stores each non-system message as a memory, with no LLM call. Default: `true` when an LLM is configured. */
  infer?: boolean;
}

export interface SearchOptions extends Scope {
  /** Default 100. */
  limit?: number;
  filters?: FilterExpression;
  /** Drop results whose score is below this. */
  threshold?: number;
}

export interface GetAllOptions extends Scope {
  /** Default 100. */
  limit?: number;
  filters?: FilterExpression;
}

export interface OpenAiLlmConfig {
  /** Default `gpt-4o-mini`. */
  model?: string;
  /** Sent as `Authorization: Bearer`. In Node, `OPENAI_API_KEY` is used when absent. */
  apiKey?: string;
  /** Default `https://api.openai.com/v1` (or `OPENAI_BASE_URL` in Node). */
  baseUrl?: string;
  /** The OpenAI SDK spelling of `baseUrl`. */
  baseURL?: string;
  /** Default 0. */
  temperature?: number;
  /** Default 2000. */
  maxTokens?: number;
  /** Ask for `response_format: {type: "json_object"}`. Default `true`. */
  jsonMode?: boolean;
}

export interface OpenAiEmbedderConfig {
  /** Default `text-embedding-3-small`. */
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  baseURL?: string;
  /** Sent as `dimensions` when set; every vector must have this length. */
  dimensions?: number;
}

/** The LLM: a discriminated union on `provider`. `"none"` means no LLM: `add()` stores messages as they are. */
export type LlmConfig =
  | { provider: "openai"; config?: OpenAiLlmConfig }
  | { provider: "none" };

/** The embedder: a discriminated union on `provider`. `"none"` means no vectors. */
export type EmbedderConfig =
  | { provider: "openai"; config?: OpenAiEmbedderConfig }
  | { provider: "none" };

export interface VectorStoreConfig {
  provider: "memory";
  config?: Record<string, never>;
}

/** Where memories and history persist. `"memory"` (the default) keeps them for the life of the instance. */
export type StorageConfig = { provider: "memory" };

export interface RetryConfig {
  /** Retries after the first attempt, on 429, 5xx and network errors. Default 3. */
  maxRetries?: number;
  /** First back-off delay; doubles each retry. Default 1000. */
  baseDelayMs?: number;
  /** Upper bound for one delay, including a server's `Retry-After`. Default 30000. */
  maxDelayMs?: number;
}

export interface CustomPrompts {
  /** System prompt for fact extraction; must ask for a JSON list of facts. */
  factExtraction?: string;
  /** System prompt for the update decision; must ask for the `{"memory": [...]}` reply. */
  updateDecision?: string;
}

export interface MemoryConfig {
  llm?: LlmConfig;
  embedder?: EmbedderConfig;
  vectorStore?: VectorStoreConfig;
  storage?: StorageConfig;
  customPrompts?: CustomPrompts;
  retry?: RetryConfig;
  /** mem0 compatibility; ignored. */
  version?: string;
  /** mem0 compatibility; ignored. */
  historyDbPath?: string;
}

/** Stable error codes carried by every error this library throws. */
export type MemoryErrorCode =
  | "SCOPE_REQUIRED"
  | "INVALID_FILTER"
  | "INVALID_CONFIG"
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "LLM_HTTP"
  | "LLM_NETWORK"
  | "LLM_RESPONSE"
  | "EMBEDDING_HTTP"
  | "EMBEDDING_NETWORK"
  | "EMBEDDING_RESPONSE"
  | "DIMENSION_MISMATCH"
  | "STORAGE";

/** The `Error` every failed call rejects with. */
export interface MemoryError extends Error {
  code: MemoryErrorCode;
  /** HTTP status, for `LLM_HTTP` and `EMBEDDING_HTTP`. */
  status?: number;
}
