// `memwasm/mem0`'s Memory: memwasm's Memory with mem0 v3's defaults and words, so mem0 code behaves as on
// mem0 v3. A config without `pipeline` gets the additive one (mem0 v3's add: one LLM call, every new fact
// added) and, without `nearDuplicate`, drops exact duplicates only, as mem0 does; without `unknownKeys`, a key
// memwasm does not take is ignored with a console warning naming it (mem0 ignores the keys it does not read).
// Calls speak mem0's dialect:
// `add()` results carry `metadata.event`; a missing userId/agentId/runId rejects with mem0's message (the code
// stays `SCOPE_REQUIRED`); an `add()` whose extraction call could not reach the LLM rejects with an
// `LLMError`, and one whose memories could not be embedded rejects with the embedding error's code (memwasm's
// own `add()` resolves with an `EXTRACTION_FAILED` or `NOT_EMBEDDED` warning instead); `search()` is mem0's
// (mem0-search.mjs).
//
// Where memories are kept is the entry's choice (`keep`): in RAM, or in storage opened on the first call
// (mem0's `new Memory(config)` is synchronous, memwasm's persistent storage opens asynchronously), shared by
// the Memories of one file (mem0-shared.mjs).
import { LLMError, MemoryError } from "./dist/errors.js";
import { METHODS } from "./dist/memory-methods.js";
import { Lease, configKey } from "./mem0-shared.mjs";
import { mem0Search } from "./mem0-search.mjs";

/** mem0 v3's message for a call without an entity id, by method. */
const SCOPE_MESSAGES = {
  add: "One of the filters: userId, agentId or runId is required!",
  search: "filters must contain at least one of: user_id, agent_id, run_id. Example: filters: { user_id: 'u1' }",
  getAll: "filters must contain at least one of: user_id, agent_id, run_id. Example: filters: { user_id: 'u1' }",
  deleteAll:
    "At least one filter is required to delete all memories. If you want to delete all memories, use the `reset()` method.",
};

/** The causes of an `EXTRACTION_FAILED` warning that mean the LLM could not be reached. */
const UNREACHABLE = new Set(["LLM_HTTP", "LLM_NETWORK", "LLM_TIMEOUT", "LLM_UNAVAILABLE", "LLM_CALLBACK"]);

/** The warnings of an `add()` whose memories could not be embedded (kept keyword-only, or skipped). */
const NOT_EMBEDDED = new Set(["NOT_EMBEDDED", "EMBEDDING_FAILED"]);

/** The methods that answer at once, so a memory still to open cannot forward them. */
const AT_ONCE = ["context", "tools", "on", "off"];

/** Whether `storage` is one memwasm opens asynchronously (`Memory.open`), which a mem0 Memory opens on its first
 * call; the constructor takes the others (in memory, Workers KV) at once. */
export const opensLater = (storage) => storage.provider === "sqlite" || storage.provider === "indexeddb";

/** `config` with mem0 v3's defaults where it names none. */
export function mem0Config(config) {
  const given = config ?? {};
  const lowered = Object.fromEntries(PARTS.filter((part) => given[part]).map((part) => [part, lowerProvider(given[part])]));
  return {
    ...given,
    ...lowered,
    pipeline: given.pipeline ?? "additive",
    nearDuplicate: given.nearDuplicate ?? false,
    unknownKeys: given.unknownKeys ?? "warn",
  };
}

/** The config parts that name a provider: mem0's factories read each name lower-cased (`"OpenAI"` works). */
const PARTS = ["llm", "embedder", "vectorStore", "reranker", "historyStore"];

/** `part` with its `provider` lower-cased, when it is a string. */
function lowerProvider(part) {
  return typeof part?.provider === "string" ? { ...part, provider: part.provider.toLowerCase() } : part;
}

const warned = new Set();

/** Says once per process, on the console, what a config cannot have here (mem0 prints its notices so too). */
export function startupWarning(code, message) {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`memwasm/mem0 [${code}]: ${message}`);
}

/** mem0 v3's `getAll` lists at most `topK` memories, 20 by default: `options` with that default when they name
 * no page size of their own (`topK`, or memwasm's `limit`) and no conversation read (`groupId`, `memoryType`). */
function mem0Listing(options) {
  const own = ["topK", "limit", "groupId", "memoryType"].some((key) => options?.[key] !== undefined);
  return own || options === null || typeof options !== "object" ? options : { ...options, topK: 20 };
}

/** Runs `call`; a `SCOPE_REQUIRED` rejection gets mem0's message for `method`. */
async function inMem0Words(method, call) {
  try {
    return await call();
  } catch (error) {
    if (error?.code === "SCOPE_REQUIRED") error.message = SCOPE_MESSAGES[method];
    throw error;
  }
}

/** `result` of `add()` as mem0 gives it: rejects when a model was unreachable, `metadata.event` set. */
function asMem0Added(result) {
  const warnings = result?.warnings ?? [];
  const failed = warnings.find((w) => w.code === "EXTRACTION_FAILED" && UNREACHABLE.has(w.cause));
  if (failed) throw new LLMError(`LLM extraction failed: ${failed.message}`, failed.cause, failed.status);
  const unembedded = warnings.find((w) => NOT_EMBEDDED.has(w.code));
  if (unembedded) {
    const fix = unembedded.code === "NOT_EMBEDDED"
      ? "it is stored, found by keywords, and embedded when the embedder answers again: do not add it again"
      : "it was not stored: add it again once the embedder answers";
    const why = `embedding failed: ${unembedded.message}; ${fix} (check the embedder's host and key; error.result is what add() wrote)`;
    throw Object.assign(new MemoryError(why, unembedded.cause ?? unembedded.code, unembedded.status), { warnings, result });
  }
  for (const item of result?.results ?? []) item.metadata = { ...item.metadata, event: item.event };
  return result;
}

/** `config` without its `storage` (kept in RAM). */
function withoutStorage({ storage: _, ...config }) {
  return config;
}

function notOpen(method) {
  const why = `${method}() needs this memory's storage open: await a call first, or make it with \`await Memory.open(config)\``;
  return new MemoryError(why, "STORAGE_UNAVAILABLE");
}

/**
 * `Base` (a package entry's Memory) with mem0's defaults and dialect; `instanceof Base` holds. `keep(config)`
 * says where a config's memories are kept: `undefined` when the constructor keeps them (in RAM, or in a
 * storage it opens at once), else `{file, open}` — `open()` resolves with an open `Base` memory on the first
 * call, and `file` (a resolved path, or `undefined`) is shared by every Memory naming it.
 */
export function mem0Memory(Base, keep) {
  class Memory extends Base {
    /** The storage this memory opens on its first call (none in RAM). */
    #lease;
    /** Whether the config names a reranker (mem0's search reranks by default then). */
    #reranker;

    constructor(config) {
      const settings = mem0Config(config);
      const kept = keep(settings);
      // A persistent memory is checked here as memwasm checks a config (INVALID_CONFIG at once, as in mem0),
      // and made on its first call.
      super(kept ? withoutStorage(settings) : settings);
      this.#reranker = Boolean(settings.reranker);
      if (!kept) return;
      Base.prototype.free.call(this);
      this.#lease = new Lease(kept.file, configKey(settings), kept.open);
    }

    static fromConfig(config) {
      return new this(config);
    }

    /** A memory with its storage open. */
    static async open(config) {
      const memory = new this(config);
      await memory.#call("idle", []);
      return memory;
    }

    /** `name(...args)` of memwasm's Memory, on this memory or on its opened storage. */
    #call(name, args) {
      if (!this.#lease) return Base.prototype[name].apply(this, args);
      return this.#lease.run((native) => native[name](...args));
    }

    add(messages, options) {
      return inMem0Words("add", () => this.#call("add", [messages, options])).then(asMem0Added);
    }
    search(query, options) {
      const search = (q, o) => this.#call("search", [q, o]);
      return inMem0Words("search", () => mem0Search(search, query, options, this.#reranker));
    }
    getAll(options) {
      return inMem0Words("getAll", () => this.#call("getAll", [mem0Listing(options)]));
    }
    deleteAll(options) {
      return inMem0Words("deleteAll", () => this.#call("deleteAll", [options]));
    }

    /** Releases the storage (the last memory of a file closes it); later calls reject. */
    close() {
      return this.#lease ? this.#lease.close() : super.close();
    }
    free() {
      return this.#lease ? this.#lease.close() : super.free();
    }

    static {
      if (Symbol.dispose) Memory.prototype[Symbol.dispose] = Memory.prototype.free;
      for (const name of METHODS) {
        if (Object.hasOwn(Memory.prototype, name) || typeof Base.prototype[name] !== "function") continue;
        const atOnce = AT_ONCE.includes(name);
        Object.defineProperty(Memory.prototype, name, {
          value: function (...args) {
            if (!this.#lease || !atOnce) return this.#call(name, args);
            const native = this.#lease.now();
            if (!native) throw notOpen(name);
            return native[name](...args);
          },
          writable: true,
          configurable: true,
        });
      }
    }
  }
  return Memory;
}
