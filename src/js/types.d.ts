/** A chat message, as in the OpenAI chat format. Any role is accepted (mem0 types it as a string); `system`
 * messages are never remembered. */
export interface Message {
  role: "system" | "user" | "assistant" | (string & {});
  content: string;
  /** The message's id in its source (a chat export's message id), kept as the source of the memories it
   * makes (see `Memory.sources`). Without one, a source is named `"md5:" + md5(role + "\n" + content)`. */
  id?: string;
  /** The conversation it belongs to (`conversation_id` too). */
  conversationId?: string;
  /** When it was said: ISO 8601 with a time zone, or a date `YYYY-MM-DD` (`created_at` too). */
  createdAt?: string;
  /** Who said it: stored as it was said (`infer: false`), its memory keeps it as `metadata.actor_id`, as
   * mem0 does. A non-blank line of at most 256 characters, trimmed. */
  name?: string;
}

/** One message a memory came from (`Memory.sources(memoryId)`, oldest first). */
export interface MemorySource {
  /** The message's `id`, else `"md5:"` and the hex MD5 of its role, a line break and its content. */
  id: string;
  conversationId?: string;
  role: string;
  /** Who said it: the message's `name`, when it had one. */
  name?: string;
  createdAt?: string;
  /** The message's first 200 characters. */
  excerpt: string;
  /** The event of the memory this message caused: an UPDATE keeps the older sources and adds its own. */
  event: "ADD" | "UPDATE";
  /** That event's history record (`history(memoryId)`); absent when history is off. */
  historyId?: string;
  /** When the event was committed (ISO 8601). */
  recordedAt: string;
}

/**
 * Who a memory belongs to. Every call that reads or writes memories needs at least one of these. Every
 * options object is strict: an unknown key (or one the call does not use) rejects with `INVALID_INPUT`
 * naming it. mem0's snake_case `user_id`, `agent_id`, `run_id` are accepted as aliases.
 */
export interface Scope {
  userId?: string;
  agentId?: string;
  runId?: string;
}

/** The scope of a read (`search`, `getAll`, `recall`, `deleteAll`, …): the conversation API's `groupId` names
 * the run a group's memories live under (giving it with a different `runId` is `INVALID_INPUT`), and
 * `"__all__"` (that API's "any") counts as no id. */
export interface ReadScope extends Scope {
  groupId?: string;
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

/**
 * What kind of memory an item is. `add()` routes each new fact: a preference ("prefers", "always",
 * "never", "hate", "favorite", "dislike", "can't stand", …) is `"procedural"`, anything else `"semantic"`,
 * unless the call gives `memoryType`. Recall puts procedural memories first.
 */
export type MemoryType = "semantic" | "episodic" | "procedural" | "working" | "profile" | "foresight" | "event_log";

/** A record's scope ids also by mem0's names (the same values; only the ids the record has). */
export interface Mem0ScopeIds {
  user_id?: string;
  agent_id?: string;
  run_id?: string;
}

/** A stored memory. */
export interface MemoryItem extends Scope, Mem0ScopeIds {
  id: string;
  /** The fact text. */
  memory: string;
  /** MD5 hex digest of `memory`. */
  hash: string;
  metadata: Metadata;
  /** Similarity score, on search results only; with `rerank: true`, the reranker's relevance for the results it
   * scored. */
  score?: number;
  /** `search(…, {rerank: true})`: the ranking's own score of a result the reranker scored. */
  fusedScore?: number;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
  /** See `MemoryType`. Memories written before memory types existed read back as `"semantic"`. */
  memoryType: MemoryType;
  /** In [0, 1]: `0.6 · novelty + 0.4 · salience` at write time unless given; lowered by `decay()`. Recall
   * drops memories below 0.2 (pinned and procedural ones excepted). Older memories read back as 0.5. */
  importance: number;
  /** Pinned memories never decay, are never trimmed by `limits`, skip `importance.minToStore`, and are
   * recalled right after procedural ones. */
  pinned: boolean;
  /** ISO 8601 (UTC). From this instant on the memory is invisible to every read, and purged. */
  expiresAt?: string;
  /** The key it was stored under with `store()` (unique within its scope). */
  key?: string;
  /** ISO 8601: when it was soft-deleted (only seen through `getAll({includeDeleted: true})`). */
  deletedAt?: string;
  /** ISO 8601: when a search last returned it (written with the next `decay()`). */
  lastAccessedAt?: string;
  /** ISO 8601: when `decay()` last lowered its importance. */
  decayedAt?: string;
  /** Whose statement the fact came from (`"user"` / `"assistant"`), when the extraction reply said (mem0 3.x
   * extraction's `attributed_to`). */
  attributedTo?: string;
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

/** Why part of an `add()` was skipped (`LOW_IMPORTANCE`: a new memory below `importance.minToStore`), or,
 * for `store()` and `add(…, {infer: false})`, that a text was stored without a vector (`NOT_EMBEDDED`; it is
 * embedded later). On reads (`search`, `recall`): `EMBEDDING_UNAVAILABLE`, the query could not be embedded
 * (the embedding service failed with a network error, a timeout, 408, 429 or 5xx) and keywords ranked
 * instead; `VECTORS_PENDING`, memories the read ranked have no vector yet, so only keywords find them
 * (docs/degraded-reads.md). A context window's push: `TURN_TRUNCATED`, the newest turn alone was over the
 * budget and was cut. */
export type WarningCode =
  | "EXTRACTION_FAILED"
  | "DECISION_FAILED"
  | "INVALID_DECISION"
  | "EMBEDDING_FAILED"
  | "UNKNOWN_MEMORY_ID"
  | "GRAPH_FAILED"
  | "LOW_IMPORTANCE"
  | "NOT_EMBEDDED"
  | "BOUNDARY_FAILED"
  | "AGENTIC_FAILED"
  | "COMPRESSION_FAILED"
  | "EMBEDDING_UNAVAILABLE"
  | "VECTORS_PENDING"
  | "TURN_TRUNCATED"
  | "EMBEDDING_MODEL_CHANGED"
  | "RERANK_FAILED";

export interface AddWarning {
  code: WarningCode;
  message: string;
  /** The code of the error behind the warning (e.g. `LLM_HTTP` for a model service's 429). */
  cause?: MemoryErrorCode;
  /** The HTTP status behind it, when a model service answered with one. */
  status?: number;
}

export interface AddResult {
  results: MemoryEvent[];
  /** Facts or LLM decisions that were skipped, and why. Empty when everything went through. */
  warnings: AddWarning[];
  /** `true` when this is the result of an earlier `add()` with the same `idempotencyKey` (nothing was done
   * now); absent otherwise. */
  replayed?: boolean;
}

/** How far an `importMemories` call is: `done` of `total` records (memory and history lines) read and
 * checked (`"read"`), then the texts of memories that came without a vector embedded (`"embed"`, `total` is
 * those texts; only when there are some and an embedder is configured), then records written to storage
 * (`"write"`), then memories added to the search index (`"index"`, `total` is the memories). Phases come in
 * this order, `done` never goes back within one, and each ends with `done === total`. */
export interface ImportProgress {
  phase: "read" | "embed" | "write" | "index";
  done: number;
  total: number;
}

/** `importMemories`' options. */
export interface ImportOptions {
  /** Called as the import goes, at most about every 25 ms, and at the end of each phase; what it throws is
   * logged and ignored. */
  onProgress?: (progress: ImportProgress) => void;
  /** Stops the import: it rejects with `ABORTED` and nothing is written (an already aborted signal rejects at
   * once; while embedding, between two requests). Once the write has committed (the `"index"` phase) the import completes. */
  signal?: AbortSignal;
}

/** What `importMemories` wrote. */
export interface ImportResult {
  /** Memories written (new, or replacing the one with the same id). */
  memories: number;
  /** History records added (records already stored are not added twice). */
  history: number;
  /** Present when memories that came without a vector could not be embedded: one `NOT_EMBEDDED` warning.
   * They were imported without a vector (keyword search finds them) and are embedded later. And when the
   * export's vectors come from another embedding model than this memory's: `EMBEDDING_MODEL_CHANGED`
   * (`reembed()` re-embeds them). */
  warnings?: AddWarning[];
}

/** What `reembed()` did. */
export interface ReembedResult {
  /** Memories embedded again with the configured embedder. */
  memories: number;
  /** Present when some memories could not be embedded now: one `NOT_EMBEDDED` warning. They were written
   * without a vector (keyword search finds them) and are embedded later. */
  warnings?: AddWarning[];
}

/** How `search()` ranks memories:
 * - `"hybrid"` (the default when an embedder is configured): `weights.vector · max(cosine, 0) +
 *   weights.keyword · bm25 / best bm25`, conversation turns raised towards their neighbours, in [0, 1];
 * - `"vector"`: cosine similarity of embeddings;
 * - `"keyword"`: BM25 (k1 = 1.2, b = 0.75) over the memory text, English words stemmed, a conversation turn
 *   read with the turn before it;
 * - `"rrf"`: reciprocal rank fusion, the sum of 1 / (60 + rank) over the two rankings;
 * - `"agentic"`: a hybrid search that an LLM judges; when the results fall short, a second call proposes up
 *   to 3 refined queries and every ranking is fused by RRF (at most 2 LLM calls). */
export type SearchMethod = "vector" | "keyword" | "hybrid" | "rrf" | "agentic";

export interface SearchResult {
  results: MemoryItem[];
  /** The method that ranked `results`: always `"keyword"` when no embedder is configured (`"vector"` for a
   * `{embedding}` query). */
  method: SearchMethod;
  /** How many live memories of the scope pass the filters and `memoryTypes`: the candidates `results` were
   * ranked from, whatever the `limit`. */
  totalCount: number;
  /** Graph memory: the relations walked from the entities the query names (absent when graph search is off). */
  relations?: RelationTriple[];
  /** `method: "agentic"`: the queries that ran, the caller's first, then the refined ones. */
  queries?: string[];
  /** `method: "agentic"`: `AGENTIC_FAILED` when it had no LLM or a call failed, and ran a hybrid search
   * instead (`method` then says `"hybrid"`). `EMBEDDING_UNAVAILABLE` when the embedder was unavailable and
   * `hybrid`, `rrf` or `agentic` ranked by keywords (`method` then says `"keyword"`; `"vector"` rejects).
   * `VECTORS_PENDING` when memories it ranked have no vector (only keywords can find them). Absent when empty. */
  warnings?: AddWarning[];
}

/** Graph memory: an entity type. */
export type EntityType = "person" | "organization" | "concept" | "location" | "event" | "technology" | "product";

/** Graph memory: a named entity of one scope; `name` is title case. */
export interface Entity extends Scope {
  name: string;
  type: EntityType;
  description?: string;
  /** Ids of the memories the entity was extracted with. */
  memoryIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** Graph memory: `source —relation→ target`. */
export interface RelationTriple {
  source: string;
  /** Lower snake case, e.g. `works_at`. */
  relation: string;
  target: string;
}

/** Graph memory: a stored relation; removed when the last memory in `memoryIds` is deleted. */
export interface Relation extends RelationTriple, Scope {
  memoryIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** `addToGraph(graph, scope)`: entities and relations an app writes itself (no LLM). Names are merged
 * as `add()`'s extraction merges them (trimmed, title case, case-insensitive); a relation's unknown
 * endpoints become `concept` entities. */
export interface GraphInput {
  entities?: { name: string; type?: EntityType | string; description?: string }[];
  relations?: GraphRelationInput[];
  /** Memories of the scope the records are linked to (`NOT_FOUND` for another): a record goes when the
   * last of them is deleted; one linked to none stays until it is deleted itself. */
  memoryIds?: string[];
}

/** A relation to write or delete: `source —relation→ target`. */
export interface GraphRelationInput {
  source: string;
  relation: string;
  target: string;
}

/** One page of `getAll()`. */
export interface GetAllResult {
  results: MemoryItem[];
  /** How many memories match, over all pages. */
  totalCount: number;
  /** True when a later page (a larger `offset`) has more. */
  hasMore: boolean;
}

/** A search by a vector you computed: cosine similarity to each memory's embedding (its length must match
 * the stored vectors, else `DIMENSION_MISMATCH`). The embedder is not called. */
export interface VectorQuery {
  embedding: number[] | Float32Array;
}

/** The lifecycle of what a write (`add`, `store`) creates. */
export interface WriteLifecycleOptions {
  /** The type of every memory the call creates. Default: routed per fact (see `MemoryType`). */
  memoryType?: MemoryType;
  /** Milliseconds until the new memories expire (a finite number ≥ 0; 0 means never). Not with `expiresAt`. */
  ttl?: number;
  /** When the new memories expire: ISO 8601 with a time zone (`Z` or `±HH:MM`). Not with `ttl`. */
  expiresAt?: string;
  /** Pin the new memories (see `MemoryItem.pinned`). Default `false`. */
  pinned?: boolean;
  /** Their importance, in [0, 1], instead of the computed one. */
  importance?: number;
}

/** `store(key, value, options)`. */
export interface StoreOptions extends Scope, WriteLifecycleOptions {
  /** A precomputed vector, used as is (normalised; its length must match the stored vectors, else
   * `DIMENSION_MISMATCH`). Without it the value is embedded when an embedder is configured. */
  embedding?: number[];
  metadata?: Metadata;
}

/** What `store()` did. */
export interface StoreResult {
  /** The memory's id; the same for every store under one key and scope. */
  id: string;
  /** `"ADD"` for a new key, `"UPDATE"` for an existing one. */
  event: "ADD" | "UPDATE";
  /** `NOT_EMBEDDED` when the value could not be embedded (it is stored, found by keywords only). */
  warnings: AddWarning[];
}

/** `delete(id, options)`. */
export interface DeleteOptions {
  /** Mark the memory deleted (restorable with `restore(id)`) instead of removing it. Default `false`. */
  soft?: boolean;
}

/** `share({from, to, pattern})`: copy the keyed memories of `from` whose key matches `pattern` into `to`. */
export interface ShareOptions {
  from: Scope;
  to: Scope;
  /** A key glob: `*` matches any run of characters (none included), `?` exactly one, anything else itself.
   * 1–256 characters, no control characters. */
  pattern: string;
}

/** `decay(options)`. Without a scope, every memory held (of the types that decay) decays. */
export interface DecayOptions extends Scope {
  /** Days for importance to halve. A positive number; default 30. */
  halfLifeDays?: number;
  /** Memories whose importance ends below this are deleted. In [0, 1]; default 0.2. */
  forgetBelow?: number;
  /** The types that decay; default `["semantic", "procedural", "working"]`. Conversation memories
   * (`episodic`, `profile`, `foresight`, `event_log`) decay only when named here. */
  memoryTypes?: MemoryType[];
}

/** What `decay()` did. */
export interface DecayResult {
  /** Memories whose importance was lowered and kept. */
  decayed: number;
  /** Memories that fell below `forgetBelow` and were deleted. */
  forgotten: number;
}

/** One exact scope's count in `stats()`. */
export interface ScopeCount extends Scope {
  count: number;
  /** How many of them have a key (agent key/value entries). */
  keyed: number;
}

/** What `stats()` counts. */
export interface MemoryStats {
  /** Live memories: neither expired nor soft-deleted. */
  totalEntries: number;
  /** How many of them have a key (agent key/value entries). */
  keyed: number;
  /** Live memories per exact scope (`{userId}` and `{userId, agentId}` are counted apart). */
  byScope: ScopeCount[];
  /** Live memories per type; every type is present. */
  byType: Record<MemoryType, number>;
  /** Live pinned memories. */
  pinned: number;
  /** Expired memories not purged yet. */
  expired: number;
  /** Live memories without a vector while an embedder is configured (their embedding failed or is still
   * due): only keyword ranking finds them. Each instance tries a text 3 times, then leaves it until the next
   * instance (a reopen) tries again. */
  keywordOnly: number;
}

/** `ingest(text, options)`: where the chunks go. A scope (`userId` / `agentId` / `runId`) and `sessionId` are required. */
export interface IngestOptions extends Scope {
  /** The session the document belongs to; every stored chunk carries it as `metadata.sessionId`. */
  sessionId: string;
  /** The type of every chunk. Default: routed per chunk (preference → `procedural`, about now or this
   * session → `working`, a subject–predicate–object fact → `semantic`, else `episodic`). */
  memoryTypeHint?: MemoryType;
}

/** Why `ingest()` did not store a chunk: its importance is below 0.3 (or `importance.minToStore` when higher),
 * or a live memory of the scope (or an earlier chunk of the same text) already holds its text. */
export type IngestDiscardReason = "LOW_IMPORTANCE" | "DUPLICATE";

/** One chunk of an ingested document, and what became of it. */
export interface IngestedChunk {
  /** The chunk: a slice of the cleaned text (paragraphs merged with `\n\n`, code blocks whole). */
  text: string;
  /** Approximate tokens of `text` (¼ per ASCII character, 1 per other character, rounded up). */
  tokens: number;
  /** `0.6 · novelty + 0.4 · salience`, in [0, 1], rounded to 4 decimals. */
  importance: number;
  memoryType: MemoryType;
  /** The new memory's id when stored; for a `DUPLICATE`, the id of the memory holding the text. */
  id?: string;
  stored: boolean;
  /** Set when `stored` is false. */
  reason?: IngestDiscardReason;
}

/** What `ingest()` returns: every chunk in document order; `stored + discarded === chunks.length`. */
export interface IngestResult {
  chunks: IngestedChunk[];
  stored: number;
  discarded: number;
}

/** What `recall()` returns. */
export interface RecallResult {
  /** The memories in `text`, in its order: procedural memories (`memoryType` or `metadata.type` `"procedural"`)
   * first, then pinned ones, then the rest by rank. Memories less important than 0.2 are left out unless
   * pinned or procedural. */
  memories: MemoryItem[];
  /** Approximate tokens of `text` (¼ per ASCII character, 1 per other character, rounded up); never over `tokenBudget`. */
  totalTokens: number;
  /** `totalTokens / tokenBudget`. */
  budgetUsed: number;
  /** `<memory>`, one `[TYPE] text` line per memory (`TYPE` is `metadata.type` upper-cased when set, else the
   * `memoryType`, e.g. `SEMANTIC`, `EVENT_LOG`),
   * `</memory>`; `""` when nothing was recalled. */
  text: string;
  /** The method that ranked the candidates. */
  method: SearchMethod;
  /** `EMBEDDING_UNAVAILABLE` (the query could not be embedded: keywords ranked) or `VECTORS_PENDING`
   * (memories without a vector yet), as `search()` gives them. Absent when empty. */
  warnings?: AddWarning[];
}

/** A JSON Schema object, as tool definitions carry it. */
export type JsonSchema = { [key: string]: JsonValue };

/** A tool definition in OpenAI's function-calling format (the default). */
export interface OpenAiToolDefinition {
  type: "function";
  function: { name: "search_memory" | "manage_memory"; description: string; parameters: JsonSchema };
}

/** A tool definition in Anthropic's format (`tools(scope, {format: "anthropic"})`). */
export interface AnthropicToolDefinition {
  name: "search_memory" | "manage_memory";
  description: string;
  input_schema: JsonSchema;
}

export type ToolDefinition = OpenAiToolDefinition | AnthropicToolDefinition;

export interface ToolsOptions {
  /** Shape of `definitions`. Default `"openai"`. */
  format?: "openai" | "anthropic";
}

/** What `runTool` resolves with: `search_memory` gives `{results: [{id, memory, score}]}`, `manage_memory` gives
 * `{event: "ADD" | "NONE" | "UPDATE" | "DELETE", id, memory?}`. */
export type ToolResult =
  | { results: { id: string; memory: string; score: number }[] }
  | { event: "ADD" | "NONE" | "UPDATE" | "DELETE"; id: string; memory?: string };

/** One entry of a memory's audit trail. */
export interface HistoryRecord extends Scope, Mem0ScopeIds {
  id: string;
  memoryId: string;
  event: "ADD" | "UPDATE" | "DELETE";
  oldValue: string | null;
  newValue: string | null;
  /** ISO 8601. */
  timestamp: string;
  isDeleted: boolean;
}

export interface AddOptions extends Scope, WriteLifecycleOptions {
  /** Attached to every memory this call adds. */
  metadata?: Metadata;
  /** Narrows which existing memories the LLM compares new facts with. */
  filters?: FilterExpression;
  /** Replaces the fact-extraction system prompt for this call. */
  prompt?: string;
  /** `false` stores each non-system message as a memory, with no LLM call. Default: `true` when an LLM is configured. */
  infer?: boolean;
  /** mem0's expiration day, `YYYY-MM-DD` (UTC): after it the memories are hidden from `search` and `getAll` unless
   * `showExpired`, but kept (`get` returns them; `update(id, {expirationDate: null})` brings them back). Stored
   * as `metadata.expiration_date`. `ttl` / `expiresAt` delete instead. */
  expirationDate?: string | null;
  /** This call's pipeline, instead of the config's (see `MemoryConfig.pipeline`). */
  pipeline?: Pipeline;
  /** The time what this call stores refers to, ISO 8601 with a time zone or a date `YYYY-MM-DD`; kept in
   * `metadata.eventTime`. A search that names a time ("in May 2023", "last week") finds these memories by it. */
  eventTime?: string;
  /** Names this call (at most 512 characters; `idempotency_key` too): once an `add()` with this key committed
   * in this scope, another makes no model call and changes nothing; it resolves with the earlier result and
   * `replayed: true`. The key is written in the same commit as the add's memories, also when it stored none. */
  idempotencyKey?: string;
}

/**
 * How an inferring `add()` makes memories. `"fast"` (default of `memwasm`): the conversation's sentences
 * are embedded while the facts are extracted, and the update decision is sent while the facts are embedded —
 * two model round trips; texts the decision rewrites get their vectors right after `add()` resolves (every
 * search waits for them). `"exact"`: extract, embed the facts, show each fact's nearest memories to the
 * decision — three round trips, four with rewrites. `"additive"` (default of `memwasm/mem0`, mem0 v3's add):
 * one LLM call extracts the facts, shown the related memories; every new fact is added (no update or delete),
 * duplicates dropped by md5 and by `nearDuplicate` — one LLM call, then one embedding request.
 */
export type Pipeline = "fast" | "exact" | "additive";

/** `update(memoryId, options)`: what to change; at least one of `text`, `metadata`, `expirationDate`. */
export interface UpdateOptions {
  /** The new text (re-embedded and re-hashed). `""` is a text too, as in mem0. */
  text?: string;
  /** @deprecated mem0's old name of `text` (a console warning says so); `text` wins when both are given. */
  data?: string | null;
  /** Merged into the memory's metadata (scope keys such as `user_id` are left out). */
  metadata?: Metadata | null;
  /** `YYYY-MM-DD`, or `null` to clear it (see `AddOptions.expirationDate`). */
  expirationDate?: string | null;
}

/** The conversation API's time options of a read. */
export interface TimeRangeOptions {
  /** Only memories whose time span (`metadata.startTime`–`endTime`, else `createdAt`) ends at or after this.
   * ISO 8601 with a time zone. */
  startTime?: string;
  /** Only memories whose time span starts at or before this. ISO 8601 with a time zone. */
  endTime?: string;
  /** Show the episodic memories a `compress()` summarised (`metadata.compressed: true`). Default `false`. */
  includeCompressed?: boolean;
}

export interface SearchOptions extends ReadScope, TimeRangeOptions {
  /** Most results. Default 100; with `groupId`, 40 and at most 100. */
  limit?: number;
  /** `limit` by mem0's other name; give one of the two. */
  topK?: number;
  filters?: FilterExpression;
  /** Drop results whose final score (that of `method`) is below this. */
  threshold?: number;
  /** Default `"hybrid"`; without an embedder every method runs as `"keyword"` (`"agentic"` as agentic over
   * keywords). */
  method?: SearchMethod;
  /** Relative weights of a `"hybrid"` search, scaled to sum to 1. Default `{vector: 0.7, keyword: 0.3}`. */
  weights?: { vector?: number; keyword?: number };
  /** Graph-enhanced search (entities named in the query, one hop). Default `true` when graph memory is enabled. */
  graph?: boolean;
  /** Only memories of these types; `"profile"` is not searchable (`INVALID_INPUT`). Default: every type but
   * `"profile"`. */
  memoryTypes?: MemoryType[];
  /** The lowest cosine similarity the vector ranking keeps (vector, hybrid, rrf, agentic), in [0, 1]. Not
   * with `method: "keyword"`. */
  radius?: number;
  /** Foresight memories whose `metadata.validUntil` is before this are left out. ISO 8601 with a time zone. */
  currentTime?: string;
  /** Memories past their `expirationDate` too. Default `false`. */
  showExpired?: boolean;
  /** The memories as they were at this time, read from their history: their text then, memories deleted since
   * included, memories added since left out. ISO 8601 with a time zone. */
  asOf?: string;
  /** The "now" that relative times in the query count from ("last May", "recently", "the week before"):
   * ISO 8601 with a time zone, or a date `YYYY-MM-DD`. Default: now. A time the query names with its year counts
   * the times before it from that one instead ("recently, as mentioned on 3 June 2023"). */
  referenceDate?: string;
  /** Send the first `reranker.config.topK` results (default 20) to the configured `reranker` and return them in
   * its order, its relevance as `score` and the ranking's as `fusedScore`. Needs a `reranker` in the config
   * (else `INVALID_INPUT`); a reranker that fails leaves the ranking's order, with a `RERANK_FAILED` warning.
   * Not with `method: "agentic"`. Default `false`. */
  rerank?: boolean;
}

export interface RecallOptions extends ReadScope, TimeRangeOptions {
  /** Most memories to recall. Default 5. */
  limit?: number;
  /** `limit` by another name; give one of the two. */
  topK?: number;
  /** Most tokens `text` may take. Default 2000. */
  tokenBudget?: number;
  filters?: FilterExpression;
  /** How candidates are ranked. Default `"hybrid"` (`"keyword"` without an embedder). */
  method?: Exclude<SearchMethod, "agentic">;
  /** Only memories of these types (procedural ones are then only recalled when listed). Default: every type. */
  memoryTypes?: MemoryType[];
  /** Foresight memories whose `metadata.validUntil` is before this are left out. ISO 8601 with a time zone. */
  currentTime?: string;
  /** The "now" that relative times in the query count from; see `SearchOptions.referenceDate`. */
  referenceDate?: string;
}

/** `getAll(options)`. With `groupId` or `memoryType` it is the conversation API's fetch by type: one type (default
 * `"episodic"`), 40 per page by default and at most 500. */
export interface GetAllOptions extends ReadScope, TimeRangeOptions {
  /** Most memories (one page). Default 100; with `groupId` or `memoryType`, 40 and at most 500. */
  limit?: number;
  /** `limit` by mem0's other name; give one of the two. */
  topK?: number;
  filters?: FilterExpression;
  /** How many matching memories to skip, oldest first (a whole number ≥ 0). Default 0. */
  offset?: number;
  /** Soft-deleted memories too (they carry `deletedAt`). Default `false`. */
  includeDeleted?: boolean;
  /** Only memories of these types. Default: every type (with `groupId`: `["episodic"]`). Not with `memoryType`. */
  memoryTypes?: MemoryType[];
  /** The conversation API's fetch by type: only memories of this type. Default `"episodic"` once `groupId` is given. */
  memoryType?: MemoryType;
  /** Memories past their `expirationDate` too. Default `false`. */
  showExpired?: boolean;
  /** The memories as they were at this time, read from their history; see `SearchOptions.asOf`. */
  asOf?: string;
}

export interface DeleteAllOptions extends ReadScope {
  /** Delete only the scope's memories that match. Default: all of them. */
  filters?: FilterExpression;
  /** Mark them deleted (each restorable with `restore(id)`) instead of removing them. Default `false`. */
  soft?: boolean;
}

// ---------------------------------------------------------------- message-by-message memory (the conversation API)

/** Who wrote a message: a human (`user`) or an AI (`assistant`). Assistants get no profile. */
export type MessageRole = "user" | "assistant";

/** `addMessage(message)`: one chat message. The snake_case keys (`message_id`, `create_time`, `group_id`,
 * `group_name`, `sender_name`, `refer_list`) are accepted too; any other key is `INVALID_INPUT`. */
export interface MessageInput {
  /** Unique within its group; a message whose id the group has seen (pending, or among its last 1000
   * extracted messages) is ignored (`duplicate: true`). */
  messageId: string;
  /** ISO 8601 with a time zone (`2025-01-15T10:00:00+00:00`, `…Z`); without one it is `INVALID_INPUT`. */
  createTime: string;
  /** The sender's user id. */
  sender: string;
  /** Non-empty. */
  content: string;
  /** The group (chat) it belongs to. Without it, the sender's default group `"default:<sender>"`. */
  groupId?: string | null;
  groupName?: string | null;
  /** Display name; defaults to `sender`. */
  senderName?: string | null;
  role?: MessageRole | null;
  /** Ids of the messages it refers to. */
  referList?: string[] | null;
}

/** A message waiting in its group's buffer. */
export interface PendingMessage {
  messageId: string;
  /** ISO 8601 in UTC, whatever zone it was given in. */
  createTime: string;
  sender: string;
  senderName?: string;
  role?: MessageRole;
  content: string;
  referList?: string[];
}

/** What closed an episode: a pause over `boundary.maxGapMinutes` before the new message (`gap`), the size limits
 * (`maxMessages`, `maxTokens`, with the new message), the LLM's judgement (`llm`, before the new message), or
 * `flushGroup` (`flush`). */
export type BoundaryCause = "gap" | "maxMessages" | "maxTokens" | "llm" | "flush";

/** An episode `addMessage` or `flushGroup` closed and extracted. */
export interface EpisodeReport {
  /** Every memory extracted from it carries this as `metadata.sessionId` (`deleteMemories({eventId})` takes it). */
  sessionId: string;
  cause: BoundaryCause;
  /** The LLM's reason, for `cause: "llm"`. */
  reason?: string;
  /** The first and last `createTime` of its messages. */
  startTime: string;
  endTime: string;
  messageIds: string[];
}

/** What an extraction did to one memory: `add()`'s event plus the memory's type (`episodic`, `event_log`,
 * `foresight` or `profile`). */
export interface ExtractedMemory extends MemoryEvent {
  memoryType: MemoryType;
}

/** What `addMessage` and `flushGroup` return. */
export interface AddMessageResult {
  /** `"extracted"` when at least one episode was closed and its memories stored. */
  status: "accumulated" | "extracted";
  /** The group the message went to (`"default:<sender>"` without `groupId`). */
  groupId: string;
  /** True when the message id was seen before: nothing changed. */
  duplicate: boolean;
  /** Every memory event of the extractions (ADD, UPDATE, DELETE, NONE). */
  memories: ExtractedMemory[];
  /** How many memories were added or updated. */
  count: number;
  episodes: EpisodeReport[];
  /** The group's messages still waiting for a boundary, oldest first. */
  pendingMessages: PendingMessage[];
  /** `BOUNDARY_FAILED` (the message just waits), `EXTRACTION_FAILED` (the messages stay pending), and `add()`'s
   * warnings for the event-log facts. */
  warnings: AddWarning[];
}

/** `assistant` (a user with an AI) or `group_chat`. */
export type ConversationScene = "assistant" | "group_chat";

/** One participant in `userDetails` (keyed by user id); snake_case keys are accepted too. */
export interface UserDetail {
  fullName?: string;
  role?: MessageRole;
  /** Job title or position. */
  customRole?: string;
  extra?: Metadata;
}

/** `saveConversationMeta(meta)`: an upsert for `groupId` (without it: the default config every group without
 * its own falls back to). snake_case keys are accepted too. */
export interface ConversationMetaInput {
  version: string;
  scene: ConversationScene;
  /** E.g. `{description, type}`; `description` is given to the extraction prompt. */
  sceneDesc: Metadata;
  name: string;
  description?: string;
  groupId?: string;
  /** ISO 8601 with a time zone; stored in UTC. */
  createdAt: string;
  defaultTimezone?: string;
  /** Names and roles given to the extraction prompt; `role: "assistant"` participants get no profile. */
  userDetails?: Record<string, UserDetail>;
  tags?: string[];
}

/** Stored conversation metadata. */
export interface ConversationMeta {
  /** Stays the same across saves. */
  id: string;
  /** Absent for the default config. */
  groupId?: string;
  version: string;
  scene: ConversationScene;
  sceneDesc: Metadata;
  name: string;
  description?: string;
  createdAt: string;
  defaultTimezone?: string;
  userDetails: Record<string, UserDetail>;
  tags: string[];
  /** When it was last saved or updated (the memory's clock). */
  updatedAt: string;
  /** True for the default config (also when a group falls back to it). */
  isDefault: boolean;
}

/** `updateConversationMeta(patch)`: only these fields can change (`scene`, `version` and `createdAt` cannot);
 * `userDetails` replaces the whole object. At least one field. */
export interface ConversationMetaPatch {
  /** Whose metadata; without it, the default config's. */
  groupId?: string;
  name?: string;
  description?: string;
  sceneDesc?: Metadata;
  tags?: string[];
  userDetails?: Record<string, UserDetail>;
  defaultTimezone?: string;
}

export type ConversationMetaField = "name" | "description" | "sceneDesc" | "tags" | "userDetails" | "defaultTimezone";

export interface ConversationMetaUpdate extends ConversationMeta {
  /** The fields the patch set. */
  updatedFields: ConversationMetaField[];
}

/** `deleteMemories(filter)`: soft-deletes the live memories matching every filter given. At least one, not blank
 * and not `"__all__"`; snake_case keys are accepted too. */
export interface DeleteMemoriesFilter {
  /** A memory id, or the `sessionId` of an episode (all the memories extracted from it; profiles stay). */
  eventId?: string;
  /** Memories whose `userId` is this (profiles, default groups, `add()` memories of the user). With `groupId`, the
   * user also leaves the group's shared memories that list them as a participant; those stay for the others. */
  userId?: string;
  /** Memories whose `runId` is this group id. */
  groupId?: string;
}

export interface DeleteMemoriesResult {
  /** Memories soft-deleted (each restorable with `restore(id)`). */
  count: number;
  /** The group's shared memories the user was taken off (`userId` with `groupId`), kept for the others; absent
   * when none. */
  left?: number;
  /** The filters that applied. */
  filters: Array<"eventId" | "userId" | "groupId">;
}

/** `boundary` in the config: when `addMessage` closes a group's buffer into an episode. */
export interface BoundaryConfig {
  /** A longer pause between consecutive messages closes the buffer before the later one. Default 30. */
  maxGapMinutes?: number;
  /** A buffer that reaches this many messages closes (with the new one). Default 50. */
  maxMessages?: number;
  /** A buffer that reaches this many estimated tokens closes (with the new one). Default 8000. */
  maxTokens?: number;
  /** Ask the LLM whether a new message starts a new episode (when a buffered message precedes it and no hard rule
   * fired). Default `true`; never without an LLM. */
  llm?: boolean;
}

/** `llm.config.timeoutMs`, which every LLM provider takes. */
export interface LlmTimeoutConfig {
  /** Abort a request with no response after this many ms: `LLM_TIMEOUT`, retried per `retry` like a 5xx. Default
   * 60000 for HTTP providers; a `custom` or `workers-ai` model has none unless set (it is not retried). */
  timeoutMs?: number;
}

/** `embedder.config.timeoutMs`, which every embedder takes. */
export interface EmbedderTimeoutConfig {
  /** Abort a request with no response after this many ms: `EMBEDDING_TIMEOUT`, retried per `retry` like a 5xx.
   * Default 30000 for HTTP providers; a `custom` or `workers-ai` embedder has none unless set (it is not retried). */
  timeoutMs?: number;
}

/** `config.connectTimeoutMs` and `config.coolDownMs`, which every HTTP model provider takes: how its requests
 * find a dead host, and how long one found is left alone (docs/timeouts-and-retries.md). */
export interface HostWatchConfig {
  /** A request with no response after this many ms sends one liveness probe (`GET <origin>/`, no credentials),
   * which must answer within as long: any answer and the request keeps waiting up to `timeoutMs`; none (silence, a
   * refused connection) and it fails at once with `LLM_NETWORK` / `EMBEDDING_NETWORK`, not retried. A request that
   * failed without an answer is probed the same way. Default 5000; 0 sends no probe (a dead host then costs
   * `timeoutMs` per attempt). */
  connectTimeoutMs?: number;
  /** After its host was found down, calls to it (from any `Memory` of this process) fail at once for this many ms
   * with `LLM_UNAVAILABLE` / `EMBEDDING_UNAVAILABLE`, sending nothing; then one call tries again. Default 30000;
   * 0 turns this breaker off. */
  coolDownMs?: number;
}

export interface OpenAiLlmConfig extends NucleusConfig, LlmTimeoutConfig, HostWatchConfig {
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

export interface OpenAiEmbedderConfig extends EmbedderTimeoutConfig, HostWatchConfig {
  /** Default `text-embedding-3-small`. */
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  baseURL?: string;
  /** Sent as `dimensions` when set; every vector must have this length. */
  dimensions?: number;
  /** `dimensions` by mem0's name. */
  embeddingDims?: number;
  /** `dimensions` by mem0's Python name. */
  embedding_dims?: number;
}

/** `dimensions` by mem0's names, which every embedder takes. */
export interface EmbeddingDimsConfig {
  /** mem0's name for `dimensions` (give one of them). */
  embeddingDims?: number;
  /** mem0's Python name for `dimensions`. */
  embedding_dims?: number;
}

/** Sampling options most chat providers share. */
export interface SamplingConfig {
  /** Default 0. */
  temperature?: number;
  /** Longest reply, in tokens. Default 2000. */
  maxTokens?: number;
}

/** Nucleus sampling, which the HTTP chat providers take, and mem0's snake_case spellings. */
export interface NucleusConfig {
  /** Sample from the likeliest tokens whose probabilities add up to this, in [0, 1]: sent as `top_p` (Gemini:
   * `topP`). Anthropic takes `temperature` or `topP`, not both: with both, only `temperature` is sent (as mem0
   * does). Default: not sent. */
  topP?: number;
  /** mem0's spelling of `topP`. */
  top_p?: number;
  /** mem0's spelling of `maxTokens`. */
  max_tokens?: number;
}

/** `topK`, which Anthropic, Gemini and Ollama take (the OpenAI format has none). */
export interface TopKConfig {
  /** Sample from this many likeliest tokens (a whole number ≥ 1). Default: not sent. */
  topK?: number;
  /** mem0's spelling of `topK`. */
  top_k?: number;
}

/** `llm.config` of an OpenAI-compatible host. `model` is required: hosts share no default. */
export interface CompatibleLlmConfig extends SamplingConfig, NucleusConfig, LlmTimeoutConfig, HostWatchConfig {
  model: string;
  /** Bearer token. In Node, the host's own variable (`GROQ_API_KEY`, `TOGETHER_API_KEY`, `OPENROUTER_API_KEY`,
   * `DEEPSEEK_API_KEY`) is used when absent; never `OPENAI_API_KEY`. */
  apiKey?: string;
  /** Required for `openai_compatible`; the other hosts have a default. */
  baseUrl?: string;
  baseURL?: string;
  /** Send `response_format: {type: "json_object"}`. Default `true` (`false` for LM Studio). A host that answers 400
   * is asked once more without it, and from then on gets prompt-only JSON. */
  jsonMode?: boolean;
}

/** `embedder.config` of an OpenAI-compatible host that serves `/embeddings`. */
export interface CompatibleEmbedderConfig extends EmbeddingDimsConfig, EmbedderTimeoutConfig, HostWatchConfig {
  model: string;
  apiKey?: string;
  baseUrl?: string;
  baseURL?: string;
  /** Every vector must have this length; sent as `dimensions` except to Together, whose API takes none. */
  dimensions?: number;
}

/** Where an Azure OpenAI deployment is; mem0 gives these in `modelProperties`. */
export interface AzureOpenAiPlace {
  /** `https://{resource}.openai.azure.com` (a bare host name means https). In Node, `AZURE_OPENAI_ENDPOINT`
   * when absent. */
  endpoint?: string;
  /** Required, here, in `modelProperties` or as `model`. */
  deployment?: string;
  /** Default `2024-10-21` (or `OPENAI_API_VERSION` in Node). */
  apiVersion?: string;
}

/** One Azure OpenAI deployment: `{endpoint}/openai/deployments/{deployment}/…?api-version=…`, key in `api-key`. */
export interface AzureOpenAiTarget extends AzureOpenAiPlace {
  /** In Node, `AZURE_OPENAI_API_KEY` when absent. */
  apiKey?: string;
  /** mem0's shape: `endpoint`, `deployment` and `apiVersion` (each given here or beside `apiKey`, not both). */
  modelProperties?: AzureOpenAiPlace;
  /** The deployment, when neither `deployment` nor `modelProperties.deployment` names one (as openai's
   * `AzureOpenAI` client, which mem0 uses, takes it). */
  model?: string;
}

export interface AzureOpenAiLlmConfig
  extends AzureOpenAiTarget, SamplingConfig, NucleusConfig, LlmTimeoutConfig, HostWatchConfig {
  /** `response_format: {type: "json_object"}`. Default `true`. */
  jsonMode?: boolean;
}

export interface AzureOpenAiEmbedderConfig
  extends AzureOpenAiTarget, EmbeddingDimsConfig, EmbedderTimeoutConfig, HostWatchConfig {
  dimensions?: number;
}

export interface AnthropicLlmConfig
  extends SamplingConfig, NucleusConfig, TopKConfig, LlmTimeoutConfig, HostWatchConfig {
  /** Default `claude-haiku-4-5`. */
  model?: string;
  /** Sent as `x-api-key`. In Node, `ANTHROPIC_API_KEY` when absent. */
  apiKey?: string;
  /** Default `https://api.anthropic.com/v1`. */
  baseUrl?: string;
  baseURL?: string;
  /** The `anthropic-version` header. Default `2023-06-01`. */
  anthropicVersion?: string;
  /** Force the memory's reply shapes through a tool (structured output). Default `true`; `false` reads plain text. */
  toolOutput?: boolean;
  /** Browsers only: sends `anthropic-dangerous-direct-browser-access: true`, which CORS requires. Anyone who can
   * read the page can read the key, so use it with a user's own key, never yours. Default `false`. */
  dangerouslyAllowBrowser?: boolean;
}

export interface GeminiLlmConfig
  extends SamplingConfig, NucleusConfig, TopKConfig, LlmTimeoutConfig, HostWatchConfig {
  /** Default `gemini-2.5-flash`. */
  model?: string;
  /** Sent as `x-goog-api-key`. In Node, `GEMINI_API_KEY` or `GOOGLE_API_KEY` when absent. */
  apiKey?: string;
  /** Default `https://generativelanguage.googleapis.com/v1beta`. */
  baseUrl?: string;
  baseURL?: string;
  /** `responseMimeType: "application/json"` with a `responseSchema`. Default `true`. */
  jsonMode?: boolean;
}

export interface GeminiEmbedderConfig extends EmbeddingDimsConfig, EmbedderTimeoutConfig, HostWatchConfig {
  /** Default `gemini-embedding-001`. */
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  baseURL?: string;
  /** Sent as `outputDimensionality`; every vector must have this length. */
  dimensions?: number;
}

export interface OllamaLlmConfig
  extends SamplingConfig, NucleusConfig, TopKConfig, LlmTimeoutConfig, HostWatchConfig {
  /** Default `llama3.1`. */
  model?: string;
  /** Default `http://localhost:11434`. */
  baseUrl?: string;
  /** mem0's name for `baseUrl` (give one of them). */
  url?: string;
  baseURL?: string;
  /** Bearer token, for Ollama behind an authenticating proxy. */
  apiKey?: string;
  /** `format: "json"`. Default `true`. */
  jsonMode?: boolean;
}

export interface OllamaEmbedderConfig extends EmbeddingDimsConfig, EmbedderTimeoutConfig, HostWatchConfig {
  /** Default `nomic-embed-text`. */
  model?: string;
  baseUrl?: string;
  /** mem0's name for `baseUrl`. */
  url?: string;
  baseURL?: string;
  apiKey?: string;
  dimensions?: number;
}

/** The part of a Workers AI binding (`env.AI`) memwasm uses. */
export interface WorkersAiBinding {
  run(model: string, inputs: Record<string, unknown>): Promise<unknown>;
}

export interface WorkersAiLlmConfig extends SamplingConfig, LlmTimeoutConfig {
  /** Default `@cf/meta/llama-3.1-8b-instruct`. */
  model?: string;
  /** Send `response_format` (JSON mode). Default `true`; dropped after the first refusal. */
  jsonMode?: boolean;
}

export interface WorkersAiEmbedderConfig extends EmbeddingDimsConfig, EmbedderTimeoutConfig {
  /** A `@cf/baai/bge-*` model. Default `@cf/baai/bge-base-en-v1.5` (768 dimensions). */
  model?: string;
  /** Known for the BGE models; required to check the vectors of any other. */
  dimensions?: number;
}

/** What a custom `generate` callback receives. */
export interface GenerateRequest {
  /** The system prompt. */
  system: string;
  /** The user message. */
  user: string;
  /** True when the reply must be JSON. */
  json: boolean;
  /** With `json`: the JSON Schema the reply must match (`name` suits a tool or `response_format` name). */
  schema?: { name: string; description: string; schema: Record<string, JsonValue> };
}

/** The LLM: a discriminated union on `provider`. `"none"` means no LLM: `add()` stores messages as they are. */
export type LlmConfig =
  | { provider: "openai"; config?: OpenAiLlmConfig }
  | { provider: "azure_openai"; config: AzureOpenAiLlmConfig }
  | { provider: OpenAiCompatibleHost; config: CompatibleLlmConfig }
  | { provider: "openai_compatible"; config: CompatibleLlmConfig & { baseUrl: string } }
  | { provider: "anthropic"; config?: AnthropicLlmConfig }
  /** `"google"` is mem0's name for it. */
  | { provider: "gemini" | "google"; config?: GeminiLlmConfig }
  | { provider: "ollama"; config?: OllamaLlmConfig }
  /** Cloudflare Workers AI through the Worker's binding (`env.AI`). */
  | { provider: "workers-ai"; binding: WorkersAiBinding; config?: WorkersAiLlmConfig }
  /** Your own model (WebLLM, transformers.js, a browser's built-in model…). What it throws becomes `LLM_CALLBACK`. */
  | { provider: "custom"; generate: (request: GenerateRequest) => string | Promise<string>; config?: LlmTimeoutConfig }
  | { provider: "none" };

/** The embedder: a discriminated union on `provider`. `"none"` means no vectors. */
export type EmbedderConfig =
  | { provider: "openai"; config?: OpenAiEmbedderConfig }
  | { provider: "azure_openai"; config: AzureOpenAiEmbedderConfig }
  | { provider: OpenAiCompatibleEmbeddingHost; config: CompatibleEmbedderConfig }
  | { provider: "openai_compatible"; config: CompatibleEmbedderConfig & { baseUrl: string } }
  | { provider: "gemini" | "google"; config?: GeminiEmbedderConfig }
  | { provider: "ollama"; config?: OllamaEmbedderConfig }
  | { provider: "workers-ai"; binding: WorkersAiBinding; config?: WorkersAiEmbedderConfig }
  /** Your own embedding model; every vector must have `dimensions` entries. What it throws becomes `EMBEDDING_CALLBACK`. */
  | {
      provider: "custom";
      embed: (texts: string[]) => number[][] | Float32Array[] | Promise<number[][] | Float32Array[]>;
      dimensions: number;
      config?: EmbedderTimeoutConfig;
    }
  | { provider: "none" };

/** Where vectors are stored and searched: the in-RAM index (default) or a Chroma server. */
export type VectorStoreConfig = MemoryVectorStoreConfig | ChromaVectorStoreConfig;

/** Chroma over HTTP (its v2 API): vectors and vector search move there; memories and history stay in
 * `storage`. Failures after the `retry` policy are `VECTOR_STORE_UNAVAILABLE`. */
export interface ChromaVectorStoreConfig {
  provider: "chroma";
  config: {
    /** The server, e.g. `"http://127.0.0.1:8000"`. Required, or given by mem0's `path`, or `host` / `port` / `ssl`. */
    url?: string;
    /** mem0's name for `url` (the chromadb client's). */
    path?: string;
    /** mem0's (the chromadb client's): the server is `http(s)://{host}:{port}`. Default `localhost`. */
    host?: string;
    /** Default 8000. */
    port?: number;
    /** `https`. Default `false`. */
    ssl?: boolean;
    /** Created on first use (cosine space): 3–512 of `a-z A-Z 0-9 . _ -`. */
    collectionName: string;
    /** Default `"default_tenant"`; another one is created on first use. */
    tenant?: string;
    /** Default `"default_database"`; another one is created on first use. */
    database?: string;
    /** Sent as the `x-chroma-token` header. */
    apiKey?: string;
    /** Per request; a request with no answer by then is retried like a network error. Default 10000. */
    timeoutMs?: number;
    /** mem0's vector length: `INVALID_CONFIG` when the embedder's differs. */
    dimension?: number;
  };
}

/** The in-RAM search index. */
export interface MemoryVectorStoreConfig {
  provider: "memory";
  config?: {
    /**
     * `"auto"` (default): f32 vectors plus int8 codes (1.25× the f32 memory); exact f32 scans below 20,000
     * memories, above that an int8 scan whose best candidates are rescored exactly from f32 (exact scores,
     * recall@10 ≥ 0.99). `"none"`: f32 vectors only, exact scans at every size. `"int8"`: one byte per
     * dimension (about 4× less vector memory, a faster scan); the best candidates are rescored from the
     * dequantised codes, so scores are close to, not exactly, the f32 ones, and `exportMemories()` writes
     * the dequantised vectors.
     */
    quantization?: "auto" | "none" | "int8";
    /** mem0's collection: names the storage (the IndexedDB `dbName`, the KV `prefix` + `/`) when
     * `storage.config` names none; with the in-memory store, each `Memory` is its own collection anyway. */
    collectionName?: string;
    /** mem0's vector length: `INVALID_CONFIG` when the embedder's (`dimensions`, or the model's known length)
     * differs. */
    dimension?: number;
    /** mem0's file path: not applicable; accepted and ignored. */
    dbPath?: string;
  };
}

/** `storage.config` of the IndexedDB storage (browsers). */
export interface IndexedDbStorageConfig {
  /** One database per memory: its memories (with embeddings) and their history. */
  dbName: string;
  /** Ask the browser to exempt the site's storage from eviction (`navigator.storage.persist()`). Default `false`. */
  persist?: boolean;
}

/** The part of a Workers KV namespace binding (`env.MEMORY_KV`) memwasm uses. */
export interface KvNamespaceBinding {
  get(key: string): Promise<string | null>;
  get(keys: string[]): Promise<Map<string, string | null>>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  list(options: { prefix?: string; cursor?: string; limit?: number }): Promise<{
    keys: { name: string }[];
    list_complete: boolean;
    cursor?: string;
  }>;
}

/** `storage.config` of the Workers KV storage. */
export interface KvStorageConfig {
  /** Every key starts with it, so several memories can share one namespace. Default `"memwasm/"`. */
  prefix?: string;
}

/** A model call, as `observe` hears of it: once at its start, once at its end (same `id`). */
export interface ModelCallEvent {
  phase: "start" | "end";
  /** Pairs a start with its end. */
  id: number;
  /** `"chat"` for the LLM, `"embeddings"` for the embedder (OpenTelemetry's `gen_ai.operation.name`). */
  kind: "chat" | "embeddings";
  /** The configured provider, e.g. `"openai"`, `"anthropic"`, `"custom"`. */
  provider: string;
  /** The model (Azure: the deployment); empty for `custom`. */
  model: string;
  /** Embeddings: how many texts the call embeds (start only). */
  inputs?: number;
  /** End only: how long the call took, retries included. */
  durationMs?: number;
  /** End only, when the call failed: its error code and message. */
  error?: { code: string; message: string };
}

/** `storage.config` of the SQLite storage (Node). */
export interface SqliteStorageConfig {
  /** The database file; made when missing. One file holds one memory. */
  path: string;
  /** The SQLite library: `"node:sqlite"` (built into Node 22.5 and later) or `"better-sqlite3"` (the npm
   * package). Default: the first of them this Node has. */
  driver?: "node:sqlite" | "better-sqlite3";
  /** How long opening waits for another process (or memory) to release the file before
   * `STORAGE_UNAVAILABLE`, in ms, at most 60000. Default 2000. */
  busyTimeoutMs?: number;
}

/** An open SQLite database as the SQLite storage uses it (what `openSqlite` returns). */
export interface SqliteDatabase {
  exec(sql: string): void;
  run(sql: string, params: unknown[]): number;
  all(sql: string, params: unknown[]): unknown[][];
  close(): void;
}

/** Where memories and history persist. `"memory"` (the default) keeps them for the life of the instance.
 * `"indexeddb"` keeps them in the browser across reloads; open it with `await Memory.open(config)`.
 * `"cloudflare-kv"` keeps them in a Workers KV namespace and loads each scope on its first use.
 * `"sqlite"` keeps them in a database file in Node; open it with `await Memory.open(config)` and
 * `close()` it to release the file. `open` replaces the opener (e.g. to set more pragmas on `openSqlite`'s
 * database). */
export type StorageConfig =
  | { provider: "memory" }
  | { provider: "indexeddb"; config: IndexedDbStorageConfig }
  | { provider: "cloudflare-kv"; binding: KvNamespaceBinding; config?: KvStorageConfig }
  | {
      provider: "sqlite";
      config: SqliteStorageConfig;
      open?: (settings: Required<Pick<SqliteStorageConfig, "path" | "busyTimeoutMs">> & SqliteStorageConfig) => Promise<SqliteDatabase>;
    };

export interface RetryConfig {
  /** Retries after the first attempt, on 408, 429, 5xx, network errors and timeouts. Default 3. The whole budget of
   * one model call: the background writer does not start it over for a batch that failed so. */
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
  /** Graph memory: one extra LLM call per add() extracts entities and relations. Default off. */
  graph?: { enabled?: boolean };
  /** `minToStore` (in [0, 1], default 0): `add()` skips new memories less important than this, with a
   * `LOW_IMPORTANCE` warning; pinned ones are always stored. */
  importance?: { minToStore?: number };
  /** Per-scope limits. A write that leaves a scope over one deletes, in the same transaction and with history,
   * the least important unpinned memories it counts, oldest first among equals; what the write itself adds is
   * never trimmed.
   * - `maxFacts` (default 500; `null` or `false`: no limit): the facts `add()` extracted with the LLM. Conversation
   *   turns (`add(…, {infer: false})`), key/value entries (`store()`), document chunks and conversation memories
   *   (episodes, profiles, plans, event logs) do not count.
   * - `maxMemoriesPerScope` (a whole number ≥ 1; `true`, or left out of `{}`, means 500; `false` no limit): every
   *   memory counts. Default: no limit. */
  limits?: { maxFacts?: number | boolean | null; maxMemoriesPerScope?: number | boolean };
  /** Message-by-message memory (`addMessage`): the boundary rules. */
  boundary?: BoundaryConfig;
  /** The background writer behind `flush()`: debounce and concurrency. */
  background?: BackgroundConfig;
  /**
   * The clock TTL, decay, `lastAccessedAt` and every timestamp read (milliseconds since the epoch, or a
   * `Date`), called each time the memory needs "now". Default: the system clock, which is also used when the
   * function throws or returns no finite time. Lets tests move time instead of sleeping.
   */
  now?: () => number | Date;
  /**
   * Told when each model call starts and ends (the LLM's and the embedder's, background calls included), for
   * tracing or logging; `memwasm/otel` makes OpenTelemetry spans of them. What it throws is logged and ignored.
   */
  observe?: (event: ModelCallEvent) => void;
  /**
   * An exact tokenizer for every token budget (recall, context windows, formatForInjection, chunks), e.g.
   * `(text) => tiktoken.encode(text).length` with npm `js-tiktoken`. Default: the built-in estimate
   * (`countTokens`). A call that throws or returns no whole number ≥ 0 uses the estimate for that text.
   */
  countTokens?: (text: string) => number;
  /** mem0 compatibility (`"v1.1"`, …); ignored. */
  version?: string;
  /** mem0's SQLite history file: not applicable (history lives in `storage`); accepted and ignored. */
  historyDbPath?: string;
  /** mem0's history store settings: not applicable, as `historyDbPath`; accepted and ignored. */
  historyStore?: { provider: string; config?: { [key: string]: JsonValue } };
  /** mem0: keep no history records (`history()` then returns `[]`). Default `false`. */
  disableHistory?: boolean;
  /** `add()`'s pipeline. Default `"fast"` (`"additive"` from `memwasm/mem0`). */
  pipeline?: Pipeline;
  /** The additive pipeline's near-duplicate check: a new fact whose vector has at least this cosine
   * similarity with a live memory of the scope (or an earlier fact of the same `add()`) and states the same
   * numbers, dates and negations is dropped, with no LLM call. A number in (0, 1]; `true` is the default, 0.95; `false` drops exact (md5) duplicates only
   * (the default from `memwasm/mem0`, as mem0 v3 does). */
  nearDuplicate?: number | boolean;
  /** `true`: a call that would resolve with `warnings` (`add`, `search`, `recall`, `store`, `addMessage`,
   * `compress`, `dream`, …) rejects instead, with a `MemoryError` whose `code` is the first warning's, `warnings`
   * all of them and `result` what it would have resolved with. What the call wrote is kept. Default `false`. */
  strict?: boolean;
  /** mem0 2.x: replaces the fact-extraction prompt (as `customPrompts.factExtraction`; not both). */
  customPrompt?: string;
  /** mem0 3.x: instructions added to the fact-extraction prompt. */
  customInstructions?: string;
  /** mem0: `graph.enabled` by its other name (both given must agree). */
  enableGraph?: boolean;
  /** mem0's graph database settings (Neo4j, Memgraph, …): accepted; the graph is kept in `storage`. */
  graphStore?: { provider?: string; config?: { [key: string]: JsonValue }; [key: string]: JsonValue | undefined };
  /** The reranker `search(…, {rerank: true})` sends its first results to (mem0's `reranker`). */
  reranker?: RerankerConfig;
  /** What a config key memwasm does not take does. `"error"` (the default; `"warn"` from `memwasm/mem0`):
   * `INVALID_CONFIG` naming it, which catches typos. `"warn"`: the key is ignored, and a startup warning
   * (`console.warn`) names it, as mem0 ignores the keys it does not read; `strict: true` keeps it an error. */
  unknownKeys?: "error" | "warn";
}

/** mem0's `reranker`: a rerank service (Cohere v2, Jina, Voyage) or the configured LLM asked for scores
 * (`"llm_reranker"`, also `"llm"`); or your own function (`"custom"`). mem0's rerankers that run a model
 * through Python are `INVALID_CONFIG`; in Node and browsers `"local"` runs a cross-encoder on the device. */
export type RerankerConfig = ServiceRerankerConfig | CustomRerankerConfig;

/** A rerank service or the configured LLM. */
export interface ServiceRerankerConfig {
  provider: "cohere" | "jina" | "voyage" | "voyageai" | "llm_reranker" | "llm";
  config?: RerankerOptions;
}

/** Your own reranker: `rerank(query, documents)` resolves to one relevance per document, in their order
 * (higher is more relevant). What it throws becomes `RERANKER_CALLBACK`; another answer `RERANKER_RESPONSE`;
 * either leaves the ranking's order with a `RERANK_FAILED` warning. */
export interface CustomRerankerConfig {
  provider: "custom";
  rerank: (query: string, documents: string[]) => number[] | Float32Array | Promise<number[] | Float32Array>;
  /** `topK` (default 20) and `timeoutMs` (default: none) only. */
  config?: Pick<RerankerOptions, "topK" | "top_k" | "timeoutMs">;
}

/** `reranker.config`. */
export interface RerankerOptions {
  /** The service's key; default the `COHERE_API_KEY` / `JINA_API_KEY` / `VOYAGE_API_KEY` variable in Node. Not for
   * `"llm_reranker"`. */
  apiKey?: string;
  api_key?: string;
  /** Default `"rerank-english-v3.0"` (Cohere), `"jina-reranker-v2-base-multilingual"`, `"rerank-2"` (Voyage). */
  model?: string;
  /** How many of the ranking's first results are reranked. Default 20. */
  topK?: number;
  top_k?: number;
  /** The service's URL, for a proxy or a compatible server (then no key is needed). */
  baseUrl?: string;
  /** Milliseconds before a rerank request is abandoned (default 30000); see `LlmConfig`'s. */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  coolDownMs?: number;
}

/** Stable error codes carried by every error this library throws. */
export type MemoryErrorCode =
  | "SCOPE_REQUIRED"
  | "INVALID_FILTER"
  | "INVALID_CONFIG"
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "EXPIRED"
  | "LLM_HTTP"
  | "LLM_NETWORK"
  | "LLM_TIMEOUT"
  | "LLM_UNAVAILABLE"
  | "LLM_RESPONSE"
  | "EMBEDDING_HTTP"
  | "EMBEDDING_NETWORK"
  | "EMBEDDING_TIMEOUT"
  | "EMBEDDING_UNAVAILABLE"
  | "EMBEDDING_RESPONSE"
  | "RERANKER_HTTP"
  | "RERANKER_NETWORK"
  | "RERANKER_TIMEOUT"
  | "RERANKER_UNAVAILABLE"
  | "RERANKER_RESPONSE"
  | "LLM_CALLBACK"
  | "EMBEDDING_CALLBACK"
  | "RERANKER_CALLBACK"
  | "DIMENSION_MISMATCH"
  | "STORAGE"
  | "STORAGE_QUOTA"
  | "STORAGE_UNAVAILABLE"
  | "VECTOR_STORE_UNAVAILABLE"
  | "NOT_IN_MODULE"
  | "ABORTED"
  | "EMBEDDING_MODEL_CHANGED"
  | "SYNC_ENTRY_INVALID"
  | "SYNC_KEY"
  | "SYNC_HTTP"
  | "SYNC_NETWORK"
  | "IMPORT_FORMAT";

/** The `Error` every failed call rejects with (and `new Memory` throws); `err instanceof MemoryError` works. */
export class MemoryError extends Error {
  constructor(message: string, code: MemoryErrorCode, status?: number);
  readonly name: "MemoryError" | "LLMError";
  code: MemoryErrorCode;
  /** HTTP status, for `LLM_HTTP` and `EMBEDDING_HTTP`. */
  status?: number;
  /** With `strict: true`, a call that had warnings rejects with the first one's code (a `WarningCode`); these
   * are all of them. */
  warnings?: AddWarning[];
  /** With `strict: true`: the result the call would have resolved with (what it wrote is kept). */
  result?: unknown;
}

/** mem0's `LLMError`: what `add()` rejects with when the LLM cannot be reached (an HTTP error such as a 429, the
 * network, no answer within `llm.config.timeoutMs`, a host remembered down, the app's `llm.generate` callback). A
 * `MemoryError` too, with code `LLM_HTTP`, `LLM_NETWORK`, `LLM_TIMEOUT`, `LLM_UNAVAILABLE` or `LLM_CALLBACK`. A reply that cannot be read is not an error: `add()` resolves with an `EXTRACTION_FAILED` /
 * `DECISION_FAILED` warning instead. */
export class LLMError extends MemoryError {
  constructor(message: string, code: MemoryErrorCode, status?: number);
  readonly name: "LLMError";
}

/** `compress(options)`: when the scope holds more than `threshold` uncompressed episodic sessions
 * (episodic memories grouped by `metadata.sessionId`), the oldest `sessionsToCompress` are summarised, one LLM
 * call each, into `semantic` memories; the originals get `metadata.compressed: true` and reads hide them unless
 * `includeCompressed: true`. snake_case keys are accepted too. */
export interface CompressOptions extends ReadScope {
  /** A whole number ≥ 0 (required). */
  threshold: number;
  /** How many of the oldest sessions to summarise: a whole number ≥ 1. Default `threshold / 2` rounded down, at least 1. */
  sessionsToCompress?: number;
}

/** One session `compress()` summarised. */
export interface CompressedSession {
  sessionId: string;
  /** The new `semantic` memory (`metadata.sourceSessionId`, `compressionSource: true`, `sourceMemoryIds`). */
  summaryId: string;
  summary: string;
  /** The episodic memories it replaces in reads (now `metadata.compressed: true`, `compressedInto: summaryId`). */
  memoryIds: string[];
  /** The session's time span. */
  startTime: string;
  endTime: string;
}

/** What `compress()` did. */
export interface CompressResult {
  /** Uncompressed episodic sessions the scope held before the call. */
  sessions: number;
  /** The sessions summarised, oldest first: empty when `sessions` was not above `threshold`. */
  compressed: CompressedSession[];
  /** `COMPRESSION_FAILED` for each session whose summary failed (it stays uncompressed); `NOT_EMBEDDED`,
   * `LOW_IMPORTANCE`. */
  warnings: AddWarning[];
}
