// `memory.sync(options)`: one round of sync with the user's log on a memwasm Worker (`/v1/sync/…`) — push the
// outbox (encrypted), then pull and apply what other devices wrote — and `memory.syncLive(options)`, which
// runs a round after every write (debounced), on an interval and when the browser comes back online. The
// protocol: the server orders the entries it receives in one log per user (a sequence number each), stores
// a client's entry once whatever the retries (its client id and number), and hands each device what follows
// its checkpoint. See docs/sync.md. Loaded on a memory's first `sync()` or `syncLive()` (sync.mjs).
import { MemoryError } from "./dist/errors.js";
import { open, seal, syncKey } from "./sync-crypto.mjs";

/** Most bytes of entries in one push request (the Worker takes 1 MiB bodies by default). */
const PUSH_BYTES = 768 * 1024;
const PUSH_ENTRIES = 500;
const PULL_LIMIT = 500;
const OPTIONS = ["url", "token", "key", "passphrase", "salt", "userId", "timeoutMs", "signal", "intervalMs", "writeCheckMs", "onSync", "onError", "fetch", "compact", "curate"];

/** Checks `options` and derives the key once. */
export async function prepare(options) {
  if (options === null || typeof options !== "object") throw invalid("options must be an object {url, token, key?}");
  for (const name of Object.keys(options)) if (!OPTIONS.includes(name)) throw invalid(`\`${name}\` is not an option (the options are ${OPTIONS.join(", ")})`);
  const { url, token } = options;
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) throw invalid("`url` must be the Worker's http(s) URL");
  if (typeof token !== "string" || !token) throw invalid("`token` must be the user's bearer token");
  return { ...options, base: url.replace(/\/+$/, ""), cryptoKey: await syncKey(options), timeoutMs: options.timeoutMs ?? 30_000 };
}

/** One HTTP call to the sync routes; `SYNC_HTTP` with the server's code, `SYNC_NETWORK` when it cannot be reached. */
async function call(config, method, path, body) {
  const signals = [AbortSignal.timeout(config.timeoutMs), config.signal].filter(Boolean);
  const init = { method, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    headers: { authorization: `Bearer ${config.token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined };
  let response;
  try {
    response = await (config.fetch ?? fetch)(`${config.base}${path}`, init);
  } catch (error) {
    if (config.signal?.aborted) throw new MemoryError("sync: stopped by its signal", "ABORTED");
    const why = error?.name === "TimeoutError" ? `no answer within ${config.timeoutMs} ms` : error?.message ?? String(error);
    throw new MemoryError(`sync server unreachable: ${why} (${config.base})`, "SYNC_NETWORK");
  }
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const { code, message } = json?.error ?? {};
    const detail = code ? `${code}: ${message}` : text.slice(0, 200);
    const error = new MemoryError(`sync server answered ${response.status}: ${detail}`, "SYNC_HTTP", response.status);
    error.serverCode = code;
    throw error;
  }
  if (json === undefined) throw new MemoryError(`sync server answered ${response.status} with no JSON`, "SYNC_HTTP", response.status);
  return json;
}

const withUser = (config, params = {}) => new URLSearchParams({ ...params, ...(config.userId ? { userId: config.userId } : {}) });

/** `SYNC_KEY` when this device's key does not open the log's entries: checked on one entry before anything
 * is pushed, so a wrong key never writes entries the other devices cannot read. */
async function checkKey(memory, config) {
  const status = await memory.syncStatus();
  const query = withUser(config, { since: Math.max(0, status.checkpoint - 1), limit: 1 });
  const answer = await call(config, "GET", `/v1/sync/pull?${query}`).catch((error) => {
    if (error.serverCode === "SYNC_COMPACTED") return { entries: [] }; // the pull rebuilds this device
    throw error;
  });
  if (status.logId && answer.logId && answer.logId !== status.logId) return; // a new log: the round rebases
  if (answer.entries[0]) await open(config.cryptoKey, answer.entries[0]);
}

/** Pushes the outbox in requests of about `PUSH_BYTES` (one client's entries each), acknowledging each batch
 * the outbox gave once all of it is stored (a batch cut short is pushed again, and the server keeps each
 * entry once); the server's log id. Stops at once when the server's log is not `followed`. */
async function push(memory, config, report, followed) {
  let logId;
  for (;;) {
    const outbox = await memory.syncOutbox(PUSH_ENTRIES);
    if (outbox.length === 0) return logId;
    const stored = new Map();
    for (let next = 0; next < outbox.length; ) {
      const clientId = outbox[next].clientId;
      const page = [];
      let bytes = 0;
      for (; next < outbox.length && outbox[next].clientId === clientId; next++) {
        const entry = outbox[next];
        const data = await seal(config.cryptoKey, entry.clientId, entry.n, entry.data);
        if (page.length > 0 && bytes + data.length > PUSH_BYTES) break;
        bytes += data.length;
        page.push({ n: entry.n, data });
      }
      const body = { clientId, entries: page, ...(config.userId ? { userId: config.userId } : {}) };
      const answer = await call(config, "POST", "/v1/sync/push", body);
      logId = answer.logId;
      if (followed && followed !== logId) return logId; // a new log: the caller rebases
      stored.set(clientId, [...(stored.get(clientId) ?? []), ...page.map((entry) => entry.n)]);
      report.pushed += answer.accepted;
      report.bytesSent += bytes;
    }
    for (const [clientId, numbers] of stored) await memory.syncAcknowledge(clientId, numbers);
  }
}

/** Pulls and applies what follows the checkpoint, page by page; the server's new log id when it is not the
 * one followed, else its last answer. */
async function pull(memory, config, report) {
  for (;;) {
    const status = await memory.syncStatus();
    const params = { since: status.checkpoint, limit: PULL_LIMIT, clientId: status.clientId, deviceId: status.deviceId };
    let answer;
    try {
      answer = await call(config, "GET", `/v1/sync/pull?${withUser(config, params)}`);
    } catch (error) {
      if (error.serverCode !== "SYNC_COMPACTED") throw error;
      await rebuild(memory, config, report);
      continue;
    }
    if (status.logId && answer.logId !== status.logId) return { newLog: answer.logId };
    const entries = [];
    for (const entry of answer.entries) {
      // This device's own entries come back without their data: it wrote them.
      if (entry.data === null) {
        entries.push(entry);
        continue;
      }
      report.bytesReceived += entry.data.length;
      entries.push({ ...entry, data: await open(config.cryptoKey, entry) });
    }
    const applied = await memory.syncApply(answer.logId, entries);
    report.pulled += applied.entries;
    for (const key of ["memories", "deletes", "history", "graph", "reembedded"]) report.applied[key] += applied[key];
    report.arrived.push(...(applied.arrived ?? []));
    report.warnings.push(...(applied.warnings ?? []));
    if (!answer.more) return { last: answer };
  }
}

/** The log was compacted past this device's checkpoint (it was away longer than the server's device TTL):
 * after pushing what it wrote, it empties its store and rebuilds it from the log's snapshot. */
async function rebuild(memory, config, report) {
  await push(memory, config, report);
  if ((await memory.syncStatus()).pending > 0) throw new MemoryError("sync: the log was compacted past this device, which still has changes to push; sync again", "SYNC_HTTP", 409);
  await memory.reset();
  await memory.syncStart();
  report.rebuilt = true;
}

/** Uploads this store's whole state as the log's snapshot up to `upTo` (the server asked for it: every device
 * has applied that far), in requests of about `PUSH_BYTES`; the entries it replaces are then deleted on the
 * server. Skipped when the snapshot would not fit above the floor, or when another device compacted first. */
async function compact(memory, config, report, { compact: upTo, floor }) {
  // Only a store with nothing left to push: a snapshot holding a change the log never gets would give new
  // devices what the others never see.
  const { deviceId, pending } = await memory.syncStatus();
  if (pending > 0) return;
  const texts = await memory.syncSnapshot();
  if (texts.length === 0 || upTo - texts.length < floor) return;
  const snapshotId = `s${crypto.randomUUID().replaceAll("-", "")}`;
  for (let i = 0; i < texts.length; ) {
    const page = [];
    let bytes = 0;
    for (; i < texts.length; i++) {
      const data = await seal(config.cryptoKey, snapshotId, i + 1, texts[i]);
      if (page.length > 0 && bytes + data.length > PUSH_BYTES) break;
      bytes += data.length;
      page.push({ n: i + 1, data });
    }
    const total = i === texts.length ? { total: texts.length } : {};
    const body = { deviceId, snapshotId, upTo, entries: page, ...total, ...(config.userId ? { userId: config.userId } : {}) };
    try {
      await call(config, "POST", "/v1/sync/compact", body);
    } catch (error) {
      if (error.serverCode === "SYNC_COMPACT_STALE") return; // the log moved on: a later round compacts
      throw error;
    }
    report.bytesSent += bytes;
  }
  report.compacted = { upTo, entries: texts.length };
}

/** The round of sync running on each memory, so that a round asked for meanwhile (a manual `sync()` beside
 * `syncLive`'s) starts after it rather than pushing, applying and curating the same entries beside it. */
const rounds = new WeakMap();

/** One round of sync of `memory` (see the module), after the one running on it. */
export function syncOnce(memory, options, prepared) {
  const round = (rounds.get(memory) ?? Promise.resolve()).catch(() => {}).then(() => roundOf(memory, options, prepared));
  rounds.set(memory, round);
  return round;
}

async function roundOf(memory, options, prepared) {
  const config = prepared ?? (await prepare(options));
  const report = { pushed: 0, pulled: 0, bytesSent: 0, bytesReceived: 0, rebased: false, rebuilt: false, compacted: null,
    applied: { memories: 0, deletes: 0, history: 0, graph: 0, reembedded: 0 }, arrived: [], curated: null, warnings: [] };
  await memory.syncStart();
  for (let round = 0; round < 2; round++) {
    await checkKey(memory, config);
    const followed = (await memory.syncStatus()).logId;
    const pushedTo = await push(memory, config, report, followed);
    const status = await memory.syncStatus();
    const pulled = status.logId && pushedTo && pushedTo !== status.logId ? { newLog: pushedTo } : await pull(memory, config, report);
    if (!pulled.newLog) {
      if (config.curate && report.arrived.length > 0) {
        report.curated = await memory.syncCurate(report.arrived);
        report.warnings.push(...(report.curated.warnings ?? []));
        await push(memory, config, report, followed); // what curation wrote goes out in this round
      }
      if (pulled.last.compact && config.compact !== false) await compact(memory, config, report, pulled.last);
      const done = await memory.syncStatus();
      return { ...report, logId: done.logId, checkpoint: done.checkpoint, pending: done.pending };
    }
    await memory.syncRebase(pulled.newLog); // the server's log was wiped or replaced: it gets everything held here
    report.rebased = true;
  }
  throw new MemoryError("sync: the server's log changed twice during one sync; try again", "SYNC_HTTP", 409);
}

const invalid = (why) => new MemoryError(`sync: ${why}`, "INVALID_CONFIG");
