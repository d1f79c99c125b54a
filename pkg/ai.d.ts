// memwasm/ai: Vercel AI SDK (`ai` 7) tools and middleware over a Memory.
import type { LanguageModelMiddleware, Tool, wrapLanguageModel } from "ai";
import type { Memory, MemoryError, MemoryErrorCode, MemoryEventKind, Scope, WarningCode } from "./index.js";

/** The names of the tools `memoryTools` makes. */
export type MemoryToolName = "searchMemories" | "addMemory" | "updateMemory" | "deleteMemory";
export declare const MEMORY_TOOL_NAMES: readonly MemoryToolName[];

/** What a tool resolves with when its call failed: the `MemoryError` code (`INVALID_INPUT` for bad input,
 * `NOT_FOUND` for an id outside the scope, …) and message, sent back to the model as the tool's result. */
export interface MemoryToolError {
    error: { code: MemoryErrorCode; message: string };
}

/** One memory a write tool changed. */
export interface MemoryToolEvent {
    event: MemoryEventKind;
    id: string;
    memory?: string;
}

export interface MemoryToolInputs {
    searchMemories: { query: string; limit?: number };
    addMemory: { content: string };
    updateMemory: { id: string; content: string };
    deleteMemory: { id: string };
}

export interface MemoryToolOutputs {
    searchMemories: { results: { id: string; memory: string; score: number }[] };
    /** `warnings` (with `infer: true`): why facts were skipped, e.g. `EXTRACTION_FAILED`; absent when none. */
    addMemory: { results: MemoryToolEvent[]; warnings?: { code: WarningCode; message: string }[] };
    updateMemory: MemoryToolEvent;
    deleteMemory: MemoryToolEvent;
}

export interface MemoryToolsOptions<Names extends MemoryToolName = MemoryToolName> {
    /** The tools to make. Default: all four. */
    include?: readonly Names[];
    /** `addMemory` runs `memory.add()` (facts extracted by the memory's LLM and merged with what is known)
     * instead of storing the text as given. Default `false`. */
    infer?: boolean;
}

export type MemoryToolSet<Names extends MemoryToolName = MemoryToolName> = {
    [Name in Names]: Tool<MemoryToolInputs[Name], MemoryToolOutputs[Name] | MemoryToolError>;
};

/** AI SDK tools over `memory`, bound to `scope` (for `generateText` / `streamText`'s `tools`). Throws
 * `SCOPE_REQUIRED` without a userId, agentId or runId, `INVALID_INPUT` for bad arguments. */
export declare function memoryTools<Names extends MemoryToolName = MemoryToolName>(
    memory: Memory,
    scope: Scope,
    options?: MemoryToolsOptions<Names>,
): MemoryToolSet<Names>;

export interface MemoryMiddlewareOptions {
    /** Most tokens of the `<memory>` block (recall's `tokenBudget`). Default 2000. */
    tokenBudget?: number;
    /** Most memories recalled (recall's `topK`). Default 5. */
    topK?: number;
    /** The line put before the `<memory>` block; `""` for none. */
    preamble?: string;
    /** After a call whose answer has no tool calls, keep the last user message and the answer with
     * `memory.flush()` (the background writer). Default `false`. */
    addAfter?: boolean;
    /** Called with a failed `recall()` / `flush()`, and the model call goes on without memory. Without it the
     * error rejects the call. */
    onError?: (error: MemoryError | Error) => void;
}

/** A language-model middleware that puts `recall()`'s `<memory>` block for the last user message at the head
 * of the system prompt before each call. */
export declare function memoryMiddleware(memory: Memory, scope: Scope, options?: MemoryMiddlewareOptions): LanguageModelMiddleware;

/** `wrapLanguageModel({model, middleware: memoryMiddleware(memory, scope, options)})`. */
export declare function withMemory(
    model: Parameters<typeof wrapLanguageModel>[0]["model"],
    memory: Memory,
    scope: Scope,
    options?: MemoryMiddlewareOptions,
): ReturnType<typeof wrapLanguageModel>;
