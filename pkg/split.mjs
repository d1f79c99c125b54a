// The browser's `Memory` over two modules: the core one (loaded at import) and the full one (graph memory,
// conversations, documents and `compress`, Chroma, Workers KV), loaded on first use (docs/size.md).
//
// A memory starts in the core module, unless its config needs the full one: the core module then refuses
// it with `NOT_IN_MODULE` and the memory is made by the full module instead. The first call of a method
// only the full module has moves the memory there: an in-memory one carries everything it holds
// (memories, vectors, history, summaries, journals) in a snapshot, a persistent one is opened again from
// its storage. Calls made meanwhile wait for the move; calls already running finish first. Listeners
// (`on`), contexts (`context`) and tools (`tools`) follow the memory.
//
// Its methods are those of the full module's Memory, listed at build time from both modules' classes
// (dist/memory-methods.js, made by scripts/build-pkg.sh): nothing here names them. The class writes a few
// itself and forwards the others, moving the memory into the full module first when the core one lacks
// the method.
import { MemoryError } from "./dist/errors.js";
import { METHODS } from "./dist/memory-methods.js";
import { onFirstUse } from "./lazy.mjs";

const OPENING = Symbol("opening");

const needsFull = (error) => error?.code === "NOT_IN_MODULE";

/**
 * The `Memory` class over `core` (the core module's glue, initialised) and `loadFull` (resolves with the
 * full module's glue, initialised; called once, again after a failure).
 */
export function splitMemory(core, loadFull) {
  let full; // the full module, once loaded
  const fullModule = onFirstUse(() => loadFull().then((module) => (full = module)), "the full module");

  class Memory {
    /** The native memory calls go to, once there is one. */
    #now;
    /** Resolves with the native memory (at once, or when the full module has made it). */
    #ready;
    /** Set while the memory moves to the full module. */
    #moving;
    #config;
    #listeners = [];
    /** Calls running on the native memory: a move waits for them. */
    #calls = new Set();

    constructor(config) {
      if (config === OPENING) return;
      this.#config = config;
      try {
        this.#use(new core.Memory(config));
      } catch (error) {
        if (!needsFull(error)) throw error;
        if (full) this.#use(new full.Memory(config));
        else this.#ready = fullModule().then((module) => this.#use(new module.Memory(config)));
        this.#ready.catch(() => {}); // reported by the first call instead
      }
    }

    static fromConfig(config) {
      return new Memory(config);
    }

    static async open(config) {
      let native;
      try {
        native = await core.Memory.open(config);
      } catch (error) {
        if (!needsFull(error)) throw error;
        native = await (await fullModule()).Memory.open(config);
      }
      const memory = new Memory(OPENING);
      memory.#config = config;
      memory.#use(native);
      return memory;
    }

    #use(native) {
      for (const [event, handler] of this.#listeners) native.on(event, handler);
      this.#now = native;
      this.#ready = Promise.resolve(native);
      return native;
    }

    /** The native memory once no move is under way. */
    async #settled() {
      for (;;) {
        if (this.#moving) await this.#moving.catch(() => {});
        const native = await this.#ready;
        if (!this.#moving) return native;
      }
    }

    /** `call` (a native memory's promise), counted as running until it settles. */
    #track(call) {
      this.#calls.add(call);
      const done = () => this.#calls.delete(call);
      call.then(done, done);
      return call;
    }

    #call(name, args) {
      const now = this.#now;
      if (now && !this.#moving && typeof now[name] === "function") return this.#track(now[name](...args));
      return this.#later(name, args);
    }

    async #later(name, args) {
      let native = await this.#settled();
      if (typeof native[name] !== "function") {
        await this.#move();
        native = await this.#settled();
      }
      return this.#track(native[name](...args));
    }

    /** Moves the memory into the full module (once; again after a failure, which leaves it where it was). */
    #move() {
      this.#moving ??= (async () => {
        const old = await this.#ready;
        const module = await fullModule();
        await Promise.allSettled([...this.#calls]);
        await old.idle();
        const snapshot = await old.__snapshot();
        const native = snapshot === null
          ? await module.Memory.open(this.#config)
          : await module.Memory.__restore(this.#config, snapshot);
        this.#use(native);
        old.free();
      })().finally(() => {
        this.#moving = undefined;
      });
      return this.#moving;
    }

    /** Calls `handler` on every `"change"` or `"error"` of the background writer. */
    on(event, handler) {
      if (this.#now) this.#now.on(event, handler);
      else if (event !== "change" && event !== "error") {
        throw new MemoryError(`invalid input: event: "change" or "error", not ${JSON.stringify(event)}`, "INVALID_INPUT");
      }
      this.#listeners.push([event, handler]);
    }

    /** Stops calling `handler` for `event`. */
    off(event, handler) {
      this.#now?.off(event, handler);
      this.#listeners = this.#listeners.filter(([e, h]) => e !== event || h !== handler);
    }

    /** A context window (see `MemoryContext`), made again in the full module after a move. */
    context(options) {
      const bound = this.#bound((native) => native.context(options));
      return { push: (turns) => bound((context) => context.push(turns)), free: bound.free };
    }

    /** Agent tools bound to `scope` (see `MemoryTools`), made again in the full module after a move. */
    tools(scope, options) {
      const bound = this.#bound((native) => native.tools(scope, options));
      // Both are fixed when the tools are made: read once, from the first native tools object. While the
      // full module is still making this memory there is none yet, and reading them throws NOT_IN_MODULE.
      let fixed;
      const read = () => {
        if (!fixed) {
          const tools = bound.now() ?? notYet();
          fixed = { definitions: tools.definitions, scope: tools.scope };
        }
        return fixed;
      };
      if (this.#now) read();
      return {
        get definitions() {
          return read().definitions;
        },
        get scope() {
          return read().scope;
        },
        runTool: (name, args) => bound((tools) => tools.runTool(name, args)),
        free: bound.free,
      };
    }

    /**
     * `make(native)` for the current native memory (made at once when there is one, so bad arguments
     * throw here), made again after a move. Returns `(use) => use(object)` run as a tracked call, with
     * `now()` (the object for the current native memory, if any) and `free()`.
     */
    #bound(make) {
      let owner;
      let object;
      const current = (native) => {
        if (native !== owner) {
          const made = make(native);
          object?.free();
          [owner, object] = [native, made];
        }
        return object;
      };
      const bound = async (use) => this.#track(use(current(await this.#settled())));
      bound.now = () => (this.#now ? current(this.#now) : undefined);
      bound.free = () => {
        object?.free();
        [owner, object] = [undefined, undefined];
      };
      bound.now();
      return bound;
    }

    /** Frees the native memory (wasm-bindgen's `free`). */
    free() {
      this.#now?.free();
      this.#now = undefined;
    }

    /** Lets go of what the storage holds open (nothing does in a browser: IndexedDB closes with the page). */
    close() {
      this.#now?.close();
    }

    static {
      if (Symbol.dispose) Memory.prototype[Symbol.dispose] = Memory.prototype.free;
      // The methods not written above (those are the synchronous ones and those returning bound objects).
      for (const name of METHODS) {
        if (Object.hasOwn(Memory.prototype, name)) continue;
        Object.defineProperty(Memory.prototype, name, {
          value: function (...args) {
            return this.#call(name, args);
          },
          writable: true,
          configurable: true,
        });
      }
    }
  }
  return Memory;
}

function notYet() {
  const why = "the full module is still loading: await a call of this memory (or use `await Memory.open(config)`) first";
  throw new MemoryError(why, "NOT_IN_MODULE");
}

