// Types of the whole public API (generated from the Rust crate into dist/).
export * from "./dist/memwasm.js";

import { Memory as CoreMemory, MemoryTools as CoreMemoryTools } from "./dist/memwasm.js";
import type { EmbedderConfig as CoreEmbedderConfig, MemoryConfig as CoreMemoryConfig, RerankerConfig as CoreRerankerConfig } from "./dist/memwasm.js";
import type { AnthropicToolDefinition, OpenAiToolDefinition, Scope, ToolResult } from "./dist/memwasm.js";
import type { LocalEmbedderOptions, LocalRerankerOptions } from "./local-embedder/index.js";

/** The on-device embedder (memwasm/local-embedder, its own .wasm, loaded on the first embedding). Its load
 * errors reach `add()` / `search()` as `EMBEDDING_CALLBACK` with `EMBEDDER_LOAD` in the message. */
export interface LocalEmbedderConfig {
    provider: "local";
    config: LocalEmbedderOptions & {
        /** The vectors' length; default 384 (all-MiniLM-L6-v2). */
        dimensions?: number;
    };
}

/** The embedder: a discriminated union on `provider`, `"local"` included. */
export type EmbedderConfig = CoreEmbedderConfig | LocalEmbedderConfig;

/** The on-device cross-encoder reranker (memwasm/local-embedder, loaded on the first reranked search). Its
 * load errors reach `search(…, {rerank: true})` as a `RERANK_FAILED` warning naming `RERANKER_CALLBACK` and
 * `EMBEDDER_LOAD`; the search keeps the ranking's order. */
export interface LocalRerankerConfig {
    provider: "local";
    config: LocalRerankerOptions & {
        /** How many of the ranking's first results are reranked. Default 20. */
        topK?: number;
        top_k?: number;
        /** Milliseconds before a rerank call is abandoned (default: none). */
        timeoutMs?: number;
    };
}

/** The reranker: a discriminated union on `provider`, `"local"` included. */
export type RerankerConfig = CoreRerankerConfig | LocalRerankerConfig;

/** `new Memory(config)`'s config, with the local embedder and reranker. */
export interface MemoryConfig extends Omit<CoreMemoryConfig, "embedder" | "reranker"> {
    embedder?: EmbedderConfig;
    reranker?: RerankerConfig;
}

/** Fact-based AI memory: `add` conversations, `search` what was learned. */
export declare class Memory extends CoreMemory {
    constructor(config?: MemoryConfig);
    static fromConfig(config?: MemoryConfig): Memory;
    static open(config?: MemoryConfig): Promise<Memory>;
    /** Agent tools bound to `scope`, their `definitions` in `format` (default `"openai"`). Throws
     * `SCOPE_REQUIRED` without a userId, agentId or runId. */
    tools<Format extends ToolFormat = "openai">(scope: Scope, options?: { format?: Format }): MemoryTools<Format>;
    /** One round of sync with the user's log on a memwasm Worker: pushes what was written here (encrypted when
     * a key is given), then pulls and applies what other devices wrote. See docs/sync.md. */
    sync(options: SyncOptions): Promise<SyncReport>;
    /** Syncs after every write, every `intervalMs` and when the browser comes back online, until `stop()`. */
    syncLive(options: LiveSyncOptions): LiveSync;
    /** Imports an export of past conversations (ChatGPT's or Claude's `conversations.json`, or their zip) or of
     * memories (mem0's, this library's): the whole archive is checked first (`IMPORT_FORMAT` naming the
     * conversation; nothing added), then one `add()` per chunk of messages, in time order, with the messages'
     * ids and times and an idempotency key, so importing the same archive again adds only what is missing and
     * makes no model call for the rest. `dryRun: true` counts and estimates the model calls instead. */
    importConversations(source: ImportSource, options: ImportConversationsOptions & { dryRun: true }): Promise<ImportDryRunReport>;
    importConversations(source: ImportSource, options?: ImportConversationsOptions & { dryRun?: false }): Promise<ImportReport>;
    importConversations(source: ImportSource, options?: ImportConversationsOptions): Promise<ImportReport | ImportDryRunReport>;
}

/** The exports `importConversations` reads. */
export type ImportFormat = "chatgpt" | "claude" | "mem0" | "memwasm";

/** An export: its text, its bytes (UTF-8 JSON, or the data export's zip holding `conversations.json`), or its
 * parsed JSON. */
export type ImportSource = string | Uint8Array | ArrayBuffer | Blob | readonly unknown[] | Record<string, unknown>;

/** `memory.importConversations(source, options)`'s options. */
export interface ImportConversationsOptions {
    /** Default `"auto"`: found from the source's shape. */
    format?: "auto" | ImportFormat;
    /** The scope the memories are made in (one is needed for conversations; a mem0 export's memories keep their
     * own without it; a memwasm export always keeps its own). */
    userId?: string;
    agentId?: string;
    runId?: string;
    /** `false`: each message stored as it is, no LLM call. Default: `add()`'s. */
    infer?: boolean;
    /** Check and count only: adds nothing, calls no model. */
    dryRun?: boolean;
    /** Called before the first chunk and after each one; what it throws is ignored. */
    onProgress?: (progress: ImportConversationsProgress) => void;
    /** Stops the import between two chunks (`ABORTED`); what was committed stays, and the same import resumes. */
    signal?: AbortSignal;
    /** Most messages in one `add()`, 1 to 1000; default 20. */
    chunkMessages?: number;
}

/** How far an import is. */
export interface ImportConversationsProgress {
    conversations: { done: number; total: number };
    messages: { done: number; total: number };
    chunks: { done: number; total: number };
    /** Memories added or updated so far by this call. */
    facts: number;
    /** Chunks an earlier import had committed (no model call, no change). */
    replayed: number;
}

/** A conversation (or a mem0 memory) left out, and why. */
export interface ImportSkipped {
    conversationId: string;
    why: string;
}

/** What an import did. */
export interface ImportReport {
    format: ImportFormat;
    /** Conversations with messages to import, their messages, and the chunks (`add()` calls) they made. */
    conversations: number;
    messages: number;
    chunks: number;
    /** Chunks that an earlier import had committed. */
    replayed: number;
    /** Memories added or updated (ADD and UPDATE events) by this call; a memwasm export's memories written. */
    facts: number;
    /** Memories this call's adds deleted (DELETE events): facts a later message contradicted, and the least
     * important, oldest facts over the scope's budget (`limits.maxFacts`, 500 by default). Not for an export. */
    deleted?: number;
    /** Conversations with nothing to import (empty, or only system, tool or hidden messages). */
    skipped: ImportSkipped[];
    /** The model calls this call's chunks were estimated to cost (replayed ones cost none). */
    modelCalls: number;
    /** ChatGPT and Claude: messages left out (system, tool, hidden, to a tool, without text) and parts left out
     * (images, attachments, files, tool and thinking blocks). */
    skippedMessages?: number;
    skippedParts?: number;
    /** A memwasm export: memories and history records written (`importMemories`' answer). */
    memories?: number;
    history?: number;
    warnings?: import("./dist/memwasm.js").AddWarning[];
}

/** What `dryRun: true` found: the counts, and the model calls the import would make. */
export interface ImportDryRunReport {
    dryRun: true;
    format: ImportFormat;
    conversations: number;
    messages: number;
    chunks: number;
    /** 2 per chunk with an LLM (1 with the `"additive"` pipeline), 1 more with graph memory; 0 with `infer: false`
     * or no LLM, and for mem0 and memwasm exports. */
    modelCalls: number;
    skipped: ImportSkipped[];
    memories?: number;
    history?: number;
}

/** Where and how `memory.sync()` syncs. */
export interface SyncOptions {
    /** The memwasm Worker's URL (its `/v1/sync/…` routes). */
    url: string;
    /** The user's bearer token (a tenant-wide token also needs `userId`). */
    token: string;
    /** The end-to-end key: 32 raw bytes (or their base64), or an AES-GCM CryptoKey. Never sent. */
    key?: Uint8Array | string | CryptoKey;
    /** Or a passphrase the key is derived from (PBKDF2-SHA-256, 600,000 iterations, salted with `salt`). */
    passphrase?: string;
    /** The passphrase's salt; default `"memwasm-sync/v1"`. Every device of a user must use the same. */
    salt?: string;
    /** The user whose log this is, with a tenant-wide token. */
    userId?: string;
    /** Milliseconds before a request to the server is abandoned (`SYNC_NETWORK`); default 30,000. */
    timeoutMs?: number;
    signal?: AbortSignal;
    /** The `fetch` to use (default the global one). */
    fetch?: typeof fetch;
    /** Upload this device's state as the log's snapshot when the server asks (every device it knows has applied
     * that far), so the server's storage stays bounded; default `true`. */
    compact?: boolean;
    /** Judge the memories that arrived from other devices against older ones with the LLM, as `add()` judges a
     * new fact, and push what it decided in the same round; default `false`. */
    curate?: boolean;
}

/** What one round of sync did. */
export interface SyncReport {
    /** Entries the server stored from this device, and entries applied here (own ones included). */
    pushed: number;
    pulled: number;
    /** Bytes of entry data sent and received. */
    bytesSent: number;
    bytesReceived: number;
    /** The server's log was wiped or replaced, and this store sent it everything it holds. */
    rebased: boolean;
    /** The log was compacted past this device's checkpoint (it was away longer than the server's device TTL):
     * after pushing its changes, it emptied its store and rebuilt it from the log. */
    rebuilt: boolean;
    /** This device uploaded the log's snapshot up to `upTo` (`entries` of it), or `null`. */
    compacted: { upTo: number; entries: number } | null;
    applied: { memories: number; deletes: number; history: number; graph: number; reembedded: number };
    /** Ids of memories other devices' entries wrote here with a text new here. */
    arrived: string[];
    /** What curation changed (with `curate: true`), or `null`. */
    curated: import("./dist/memwasm.js").SyncCurated | null;
    warnings: import("./dist/memwasm.js").AddWarning[];
    logId: string | null;
    checkpoint: number;
    pending: number;
}

/** `memory.syncLive()`'s options. */
export interface LiveSyncOptions extends SyncOptions {
    /** A full round at least this often; default 30,000 ms. */
    intervalMs?: number;
    /** How often to look for new writes of this instance; default 250 ms. */
    writeCheckMs?: number;
    onSync?: (report: SyncReport) => void;
    onError?: (error: import("./dist/memwasm.js").MemoryError) => void;
}

/** A running `memory.syncLive()`. */
export interface LiveSync {
    status(): { lastSync: string | null; lastError: unknown; rounds: number; running: boolean };
    /** A round now (or after the one running); resolves when it ends. */
    syncNow(): Promise<void>;
    /** Stops syncing; resolves once the round running has ended. */
    stop(): Promise<void>;
}

/** Node only: opens a database file for `storage: {provider: "sqlite"}` as the memory does (WAL,
 * `synchronous = FULL`, locked to this process), for a `storage.open` that adds to it. */
export declare function openSqlite(settings: import("./dist/memwasm.js").SqliteStorageConfig & { busyTimeoutMs: number }): Promise<import("./dist/memwasm.js").SqliteDatabase>;

/** The wire formats of tool definitions. */
export type ToolFormat = "openai" | "anthropic";

/** A tool definition in each format. */
export interface ToolDefinitionOf {
    openai: OpenAiToolDefinition;
    anthropic: AnthropicToolDefinition;
}

/** `search_memory` and `manage_memory` for one scope (`memory.tools(scope, {format})`). */
export interface MemoryTools<Format extends ToolFormat = ToolFormat> extends Omit<CoreMemoryTools, "definitions" | "runTool"> {
    /** The tool definitions in `Format`, ready for the `tools` field of a chat request. */
    readonly definitions: ToolDefinitionOf[Format][];
    /** Runs one tool call. `args` is the call's arguments as the model sent them (an object or its JSON
     * string); anything else rejects with `INVALID_INPUT`, as do an unknown tool and bad arguments.
     * `NOT_FOUND` for an id that does not exist in this scope. */
    runTool(name: string, args: unknown): Promise<ToolResult>;
}
export declare const MemoryTools: typeof CoreMemoryTools;
