// `memory.sync(options)` and `memory.syncLive(options)` on the Memory class: one round of sync with the
// user's log on a memwasm Worker, or rounds after every write, on an interval and when the browser comes
// back online. The protocol and its encryption (sync-round.mjs, sync-crypto.mjs) load on a memory's first
// round, so a page that never syncs never fetches them. See docs/sync.md.
import { onFirstUse } from "./lazy.mjs";
import { withConfig } from "./with-config.mjs";

/** The protocol's module (`NOT_IN_MODULE` when it cannot be fetched; the next round tries again). */
const protocol = onFirstUse(() => import("./sync-round.mjs"), "the sync protocol (sync-round.mjs)");

/** Runs `syncOnce` after writes (debounced), every `intervalMs` and on `online`, one round at a time; `stop()`
 * ends it. `onSync(report)` and `onError(error)` follow each round; `status()` says where it stands. */
export function syncLive(memory, options) {
  let prepared;
  let running;
  let again = false;
  let stopped = false;
  const state = { lastSync: null, lastError: null, rounds: 0 };
  const round = async () => {
    if (stopped) return;
    if (running) return void (again = true);
    running = (async () => {
      try {
        const { prepare, syncOnce } = await protocol();
        prepared ??= await prepare(options);
        const report = await syncOnce(memory, options, prepared);
        Object.assign(state, { lastSync: new Date().toISOString(), lastError: null, rounds: state.rounds + 1 });
        options.onSync?.(report);
      } catch (error) {
        state.lastError = error;
        options.onError?.(error);
      } finally {
        running = undefined;
        if (again && !stopped) {
          again = false;
          round();
        }
      }
    })();
    return running;
  };
  // Every write of this instance is recorded in its outbox: a changed count starts a round.
  let seen;
  const watch = setInterval(async () => {
    const recorded = await memory.syncRecorded().catch(() => seen);
    if (seen !== undefined && recorded !== seen) round();
    seen = recorded;
  }, options.writeCheckMs ?? 250);
  const timer = setInterval(round, options.intervalMs ?? 30_000);
  globalThis.addEventListener?.("online", round);
  round();
  return {
    status: () => ({ ...state, running: Boolean(running) }),
    syncNow: () => round().then(() => running),
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(watch);
      globalThis.removeEventListener?.("online", round);
      await running;
    },
  };
}

/** `Base` (a Memory class) with `sync()` and `syncLive()`; the module's own classes stay as they are. */
export function withSync(Base) {
  const Synced = withConfig(Base, (config) => config);
  Synced.prototype.sync = function sync(options) {
    return protocol().then(({ syncOnce }) => syncOnce(this, options));
  };
  Synced.prototype.syncLive = function live(options) {
    return syncLive(this, options);
  };
  return Synced;
}
