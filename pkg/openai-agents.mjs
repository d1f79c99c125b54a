// memwasm/openai-agents: an OpenAI Agents SDK `Session` over the memory's context window
// (`memory.context`). The session's text turns go into the window; when it overflows, the oldest turns are
// folded into its running summary and sent to extraction (`memory.flush`), and the items they came with
// leave the session. Other items (tool calls, their results, reasoning) are kept as they were given.
import { MemoryError } from "./dist/errors.js";

const MARKER = { role: "system", content: "(session cleared)" };
const SUMMARY = "Summary of the conversation so far:\n";
const SCOPE_KEYS = ["userId", "agentId", "runId"];

const invalid = (message) => new MemoryError(`openai-agents: ${message}`, "INVALID_INPUT");
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

function clone(item) {
  try {
    return structuredClone(item);
  } catch {
    throw invalid("an item must be plain data (structuredClone failed)");
  }
}

/** The turn a message item gives the window (`{role, content}`), or null for any other item. */
function turnOf(item) {
  if (item.type !== undefined && item.type !== "message") return null;
  const role = item.role === "developer" ? "system" : item.role;
  if (!["user", "assistant", "system"].includes(role)) return null;
  let text = item.content;
  if (Array.isArray(text)) {
    text = text.map((part) => (typeof part?.text === "string" ? part.text : "")).filter(Boolean).join("\n");
  }
  return typeof text === "string" && text.trim() ? { role, content: text } : null;
}

/** A turn the window kept from before this process, as an input item. */
function itemOf({ role, content }) {
  if (role === "assistant") return { role, status: "completed", content: [{ type: "output_text", text: content }] };
  return { role: role === "user" ? "user" : "system", content };
}

const sameTurn = (a, b) => a.role === b.role && a.content === b.content;

export class MemwasmSession {
  #memory; #scope; #sessionId; #windowOptions;
  #epoch = 0; #window = null; #ready = null; #queue = Promise.resolve();
  #summary = null; // the summary as an input item, or null
  #entries = []; // {item, turn}: the items kept, oldest first
  #refs = []; // one per message the window holds: the entry it came from, or null

  constructor(memory, options) {
    if (!memory || typeof memory.context !== "function" || typeof memory.flush !== "function") {
      throw invalid("the first argument must be a memwasm Memory");
    }
    if (!isObject(options)) throw invalid("options must be an object with a scope and maxTokens");
    const { sessionId = globalThis.crypto.randomUUID(), maxTokens, keepLast, ...scope } = options;
    if (typeof sessionId !== "string" || !sessionId.trim()) throw invalid("sessionId must be a non-empty string");
    const unknown = Object.keys(scope).find((key) => !SCOPE_KEYS.includes(key));
    if (unknown) throw invalid(`unknown option "${unknown}"`);
    if (!SCOPE_KEYS.some((key) => scope[key] !== undefined)) {
      throw new MemoryError("openai-agents: a userId, agentId or runId is required", "SCOPE_REQUIRED");
    }
    [this.#memory, this.#scope, this.#sessionId] = [memory, scope, sessionId];
    this.#windowOptions = { maxTokens, ...(keepLast === undefined ? {} : { keepLast }) };
    this.#open(0); // checks the options now: INVALID_INPUT for a bad maxTokens or keepLast
  }

  /** The window of `epoch`: a run of the scope named after the session (and the clears before). */
  #windowOf(epoch) {
    const run = `openai-agents:${this.#scope.runId ?? ""}:${this.#sessionId}${epoch ? `#${epoch}` : ""}`;
    return this.#memory.context({ ...this.#scope, runId: run, ...this.#windowOptions });
  }

  #open(epoch, window = this.#windowOf(epoch)) {
    [this.#epoch, this.#window] = [epoch, window];
  }

  /** Runs `task` after the calls before it, once the stored window was read. */
  #run(task) {
    this.#ready ??= this.#resume().catch((error) => {
      this.#ready = null; // the next call reads the stored window again
      throw error;
    });
    const next = this.#queue.then(() => this.#ready).then(task);
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Continues what storage holds: the last window not cleared (each clear starts one with a marker). */
  async #resume() {
    let state = await this.#windowOf(0).push([]);
    let epoch = 0;
    for (;;) {
      const next = await this.#windowOf(epoch + 1).push([]);
      if (next.messages.length === 0 && next.summary === null) break;
      [state, epoch] = [next, epoch + 1];
    }
    this.#open(epoch);
    this.#take(state);
    this.#refs = this.#turnsOf(state).map((turn) => {
      if (sameTurn(turn, MARKER)) return null;
      const entry = { item: itemOf(turn), turn };
      this.#entries.push(entry);
      return entry;
    });
  }

  #turnsOf(state) {
    const first = state.messages[0];
    return state.summary !== null && first?.role === "system" && first.content === SUMMARY + state.summary
      ? state.messages.slice(1)
      : state.messages;
  }

  /** Sets the summary item from a window result. */
  #take(state) {
    this.#summary = this.#turnsOf(state) !== state.messages ? { ...state.messages[0] } : null;
  }

  async getSessionId() {
    return this.#sessionId;
  }

  /** The summary (once the window overflowed), then the items kept; the last `limit` of them with one. */
  getItems(limit) {
    if (limit !== undefined && !Number.isInteger(limit)) {
      return Promise.reject(invalid("limit must be a whole number"));
    }
    return this.#run(() => {
      const items = [...(this.#summary ? [this.#summary] : []), ...this.#entries.map((e) => e.item)];
      if (limit === undefined) return items.map(clone);
      return limit <= 0 ? [] : items.slice(-limit).map(clone);
    });
  }

  /** Adds items; their text turns go into the window, and turns it folds are sent to extraction. */
  addItems(items) {
    if (!Array.isArray(items) || !items.every(isObject)) {
      return Promise.reject(invalid("addItems takes an array of item objects"));
    }
    let entries;
    try {
      entries = items.map((item) => ({ item: clone(item), turn: turnOf(item) }));
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#run(async () => {
      const pushed = entries.filter((entry) => entry.turn);
      if (pushed.length === 0) {
        this.#entries.push(...entries);
        return;
      }
      const result = await this.#window.push(pushed.map((entry) => entry.turn));
      this.#entries.push(...entries);
      const refs = [...this.#refs, ...pushed];
      const folded = refs.slice(0, result.summarized).filter(Boolean);
      this.#refs = refs.slice(result.summarized);
      this.#take(result);
      if (folded.length > 0) {
        const last = this.#entries.indexOf(folded[folded.length - 1]);
        this.#entries = this.#entries.slice(last + 1);
        const turns = folded.map((entry) => entry.turn).filter((turn) => turn.role !== "system");
        if (turns.length > 0) await this.#memory.flush(turns, this.#scope);
      }
    });
  }

  /** Removes and returns the newest item (the summary when only it is left); undefined when empty. */
  popItem() {
    return this.#run(() => {
      const entry = this.#entries.pop();
      if (!entry) {
        const summary = this.#summary;
        this.#summary = null;
        return summary ?? undefined;
      }
      const at = this.#refs.lastIndexOf(entry);
      if (at >= 0) this.#refs[at] = null; // still in the stored window, never sent to extraction
      return entry.item;
    });
  }

  /** Forgets every item and the summary: later items start a new window. */
  clearSession() {
    return this.#run(async () => {
      const window = this.#windowOf(this.#epoch + 1);
      await window.push([MARKER]);
      this.#open(this.#epoch + 1, window);
      this.#entries = [];
      this.#refs = [null];
      this.#summary = null;
    });
  }
}

/** `new MemwasmSession(memory, options)`. */
export function memorySession(memory, options) {
  return new MemwasmSession(memory, options);
}
