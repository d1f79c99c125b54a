// One open memory per database file in this process, shared by every `memwasm/mem0` Memory over that file.
// mem0 apps make a `new Memory(config)` wherever they need one (one per request, say) and mem0 opens its
// SQLite file for each; memwasm's SQLite storage locks its file to one open memory (its in-RAM index must be
// the only writer). So the Memories of one file share one open memory here: opened by the first call of any
// of them, and used by all of them while their configs are the same. A Memory with another config (another
// model, other instructions) takes the file over once the calls running on it have ended: the open memory
// is closed and opened again with that config (reading the file again), and so back when needed.
import { MemoryError } from "./dist/errors.js";

/** The shared files, by key (a resolved path). */
const files = new Map();

/** Identities of the functions in configs (callbacks, clocks), so equal configs give equal keys. */
const functionIds = new WeakMap();
let functionCount = 0;

/** A key equal for configs that open the same memory: their JSON, each function by its identity (a config
 * JSON cannot hold, such as a cyclic one, gets a key of its own). */
export function configKey(config) {
  try {
    return JSON.stringify(config ?? {}, (_, value) => {
      if (typeof value !== "function") return value;
      if (!functionIds.has(value)) functionIds.set(value, ++functionCount);
      return `function#${functionIds.get(value)}`;
    });
  } catch {
    return Symbol("config");
  }
}

/** A file opened by the memories that lease it: the open memory of one config at a time. */
class SharedFile {
  /** The open memory, and the key of the config it was opened with. */
  native = null;
  owner = null;
  /** Calls running on `native`; `drained` wakes those waiting for none. */
  running = 0;
  drained = [];
  /** The open (or hand-over) under way: `{key, done}`. */
  switching = null;
  /** Leases not closed: the file is closed when the last one is. */
  users = 0;

  /** The open memory for `lease`'s config, counted as running until `release()`. */
  async acquire(lease) {
    for (;;) {
      const switching = this.switching;
      if (switching) {
        try {
          await switching.done;
        } catch (error) {
          if (switching.key === lease.key) throw error; // the same open failed: not tried again at once
        }
        continue;
      }
      if (this.native && this.owner === lease.key) {
        this.running += 1;
        return this.native;
      }
      return this.#switch(lease.key, this.#openFor(lease));
    }
  }

  /** Waits for `done` as the switch under way: other calls wait for it too. */
  async #switch(key, done) {
    const switching = { key, done };
    this.switching = switching;
    try {
      return await done;
    } finally {
      if (this.switching === switching) this.switching = null;
    }
  }

  release() {
    this.running -= 1;
    if (this.running === 0) for (const wake of this.drained.splice(0)) wake();
  }

  /** Closes the open memory (once its calls have ended) and opens `lease`'s; counts the caller as running. */
  async #openFor(lease) {
    await this.#close();
    const native = await lease.open();
    [this.native, this.owner] = [native, lease.key];
    this.running += 1;
    return native;
  }

  /** Closes the open memory once its calls and background work have ended. */
  async #close() {
    while (this.running > 0) await new Promise((wake) => this.drained.push(wake));
    const native = this.native;
    [this.native, this.owner] = [null, null];
    if (!native) return;
    await native.idle().catch(() => {});
    native.close();
    native.free();
  }

  /** One lease fewer; the last one closes the file (after its running calls). */
  leave() {
    this.users -= 1;
    if (this.users > 0) return;
    const before = this.switching?.done ?? Promise.resolve();
    this.#switch(undefined, before.catch(() => {}).then(() => this.#close())).catch(() => {});
  }
}

/** A Memory's use of a shared file: `key` names its config, `open()` opens the file with it. */
export class Lease {
  #file;
  #closed = false;

  /** `fileKey`: the file's (a resolved path), or `undefined` for storage nothing shares (each lease its own). */
  constructor(fileKey, key, open) {
    let file = fileKey === undefined ? undefined : files.get(fileKey);
    if (!file) file = new SharedFile();
    if (fileKey !== undefined) files.set(fileKey, file);
    file.users += 1;
    [this.#file, this.key, this.open] = [file, key, open];
  }

  /** Runs `work(native)` on the open memory of this lease's config (opening it first when needed). */
  async run(work) {
    if (this.#closed) throw closed();
    const native = await this.#file.acquire(this);
    try {
      return await work(native);
    } finally {
      this.#file.release();
    }
  }

  /** The open memory, when it is open with this lease's config now (for the methods that cannot wait). */
  now() {
    const file = this.#file;
    return !this.#closed && !file.switching && file.owner === this.key ? file.native : null;
  }

  /** Lets go of the file: calls after this reject; the last lease to close closes the file. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#file.leave();
  }
}

function closed() {
  return new MemoryError("this memory was closed (memory.close()): make a new Memory to use its storage again", "STORAGE_UNAVAILABLE");
}
