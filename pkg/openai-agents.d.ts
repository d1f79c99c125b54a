// memwasm/openai-agents: an OpenAI Agents SDK `Session` over the memory's context window.
import type { AgentInputItem, Session } from "@openai/agents";
import type { Memory, Scope } from "./index.js";

/** A session's scope (at least one id), its id and its window's budget. */
export interface MemwasmSessionOptions extends Scope {
  /** The session's id (`getSessionId()`); a random UUID by default. */
  sessionId?: string;
  /** Most tokens the session's text turns and summary take (a whole number ≥ 1): the window's `maxTokens`. */
  maxTokens: number;
  /** Newest turns never folded into the summary (a whole number ≥ 1). Default 6. */
  keepLast?: number;
}

/**
 * A `Session` for `run(agent, input, {session})`: the text turns of user, assistant and system messages go
 * into the memory's context window for `(scope, sessionId)`; when it overflows, its oldest turns are folded into
 * the running summary, sent to extraction (`memory.flush(turns, scope)`) and leave the session with the items
 * between them. `getItems()` is the summary (a system message, once there is one), then the items kept, as
 * they were added. Bad input rejects with a `MemoryError` (`INVALID_INPUT`); the constructor throws
 * `INVALID_INPUT` or `SCOPE_REQUIRED`; a failed summary call rejects `addItems` with the model's code and
 * changes nothing.
 */
export declare class MemwasmSession implements Session {
  constructor(memory: Memory, options: MemwasmSessionOptions);
  getSessionId(): Promise<string>;
  /** The summary, then the items kept; with `limit`, the last `limit` of them (none for `limit ≤ 0`). */
  getItems(limit?: number): Promise<AgentInputItem[]>;
  addItems(items: AgentInputItem[]): Promise<void>;
  /** Removes and returns the newest item (the summary when only it is left); `undefined` when empty. */
  popItem(): Promise<AgentInputItem | undefined>;
  /** Forgets the items and the summary; later items start a new window. */
  clearSession(): Promise<void>;
}

/** `new MemwasmSession(memory, options)`. */
export declare function memorySession(memory: Memory, options: MemwasmSessionOptions): MemwasmSession;
