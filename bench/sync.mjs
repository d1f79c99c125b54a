// The sync bench: `node bench/sync.mjs [--n 10000] [--rounds 3] [--changes 10] [--json]`. Not a test: it measures.
// The Worker (worker/build) runs in local workerd (Miniflare, Durable Objects persisted to a temp directory,
// as bench/worker.mjs starts it); the devices are Node memories on SQLite files of their own, syncing over
// real HTTP with a 32-byte key (end-to-end encryption on, as users run it). Device A gets n memories of user
// "bench" (384-d unit vectors, one history record each) by `importMemories` of bench/lib/export-file.mjs's
// export, then:
//   push        — A's first `sync()`: its whole store queued and pushed (time, `bytesSent`);
//   first sync  — a new, empty device B's first `sync()`: the whole log pulled, decrypted and applied (time
//                 from the call to its return, `bytesReceived`); `rounds` new devices, the median;
//   incremental — A updates `changes` memories (each re-embedded by an in-process embedder), then A's `sync()`
//                 and B's `sync()` (bytes sent by A, received by B, times); `rounds` rounds, the median;
//   baseline    — what a user would do instead, through the same Worker: A's `exportMemories()`, the export
//                 uploaded, downloaded on a new device and `importMemories()` into a new SQLite file. The
//                 Worker has no route that takes a whole export (`GET /v1/export/` only answers one), so the
//                 export's text goes as opaque chunks of at most 240 KB (whole lines) through the same
//                 `/v1/sync/push` (bodies up to 900 KB) into a log of its own per round (user relay-<round>),
//                 unencrypted (the stronger baseline: sync pays for AES-GCM and base64), and back by `/v1/sync/pull`.
// A's first sync also pulls the log after its push, its own entries included: its row says what came back.
// Each sync figure also says where its time went: the HTTP calls (request to the body read), the store's
// `syncOutbox` / `syncApply` / other sync calls (timed by wrapping the instance's methods), and the rest (AES-GCM,
// base64, JSON on the device). Prints a table and the targets (the incremental sync under 5 KB for 10 changes;
// B's first sync no slower than the baseline's export + upload + download + import), or with `--json` every
// figure as one JSON object (bench/run.mjs prints it with `syncTable`).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { DIM, exportFile, readExport, vector } from "./lib/export-file.mjs";
import { median } from "./lib/stats.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const TOKEN = "tok-bench-sync-0123456789";
/** The baseline's relay: a log of its own per round (user relay-<round>), so no round reads another's. */
const relayToken = (round) => `tok-bench-relay-${round}-0123456789`;
const MAX_ROUNDS = 10;
const TOKENS = { [TOKEN]: { tenant: "acme", user: "bench" } };
for (let round = 0; round < MAX_ROUNDS; round++) TOKENS[relayToken(round)] = { tenant: "acme", user: `relay-${round}` };
const CHUNK_BYTES = 240_000;
const BODY_BYTES = 900_000;
const INCREMENTAL_BYTES_TARGET = 5_000;
const INCREMENTAL_FOR = 10;

const ms = (x) => (x == null ? "–" : `${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)} ms`);
const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} KB`);
const part = (b) => `HTTP ${ms(b.httpMs)}, ${b.storeCalls.map(([name, t, calls]) => `${name} ${ms(t)} (${calls}×)`).join(", ")}, ` +
  `AES-GCM ${ms(b.aesMs)}, the rest (base64, JSON, the loop) ${ms(b.restMs)}`;

/** The table and targets of a `--json` result (also bench/run.mjs's). */
export function syncTable(r) {
  const lines = [
    `Sync through the Worker in local workerd (bench/sync.mjs): ${r.n.toLocaleString("en")} memories of ${r.dims}-d on SQLite (Node), ` +
      `AES-256-GCM on; medians of ${r.rounds} (${r.date.slice(0, 16)}Z, load average ${r.machine.loadAverageAtStart.toFixed(1)} → ${r.machine.loadAverageAtEnd.toFixed(1)}).`,
    "",
    "| figure | time | bytes | entries | where the time went |",
    "|---|---|---|---|---|",
    `| A's first push (whole store) | ${ms(r.push.ms)} | ${kb(r.push.bytesSent)} sent${r.push.bytesReceived ? `, ${kb(r.push.bytesReceived)} received (${r.push.pulledBack} entries pulled back)` : ""} | ${r.push.pushed} | ${part(r.push.breakdown)} |`,
    `| first sync of a new device B (pull, decrypt, apply) | ${ms(r.first.ms)} | ${kb(r.first.bytesReceived)} received | ${r.first.pulled} | ${part(r.first.breakdown)} |`,
    `| A's push + B's first sync | ${ms(r.push.ms + r.first.ms)} | | | |`,
    `| incremental, ${r.incremental.changes} updates: A's sync | ${ms(r.incremental.pushMs)} | ${kb(r.incremental.bytesSent)} sent | ${r.incremental.pushed} | |`,
    `| incremental: B's sync | ${ms(r.incremental.pullMs)} | ${kb(r.incremental.bytesReceived)} received | ${r.incremental.pulled} | |`,
    `| baseline: A's exportMemories() | ${ms(r.baseline.exportMs)} | ${kb(r.baseline.bytes)} | | |`,
    `| baseline: upload (${r.baseline.chunks} chunks in ${r.baseline.pushes} pushes) | ${ms(r.baseline.uploadMs)} | ${kb(r.baseline.bytes)} sent | | |`,
    `| baseline: download (${r.baseline.pulls} pulls) | ${ms(r.baseline.downloadMs)} | ${kb(r.baseline.bytes)} received | | |`,
    `| baseline: importMemories() on a new device | ${ms(r.baseline.importMs)} | | | |`,
    `| baseline: export + upload + download + import | ${ms(r.baseline.totalMs)} | | | |`,
    "",
    `Baseline: ${r.baseline.how}${r.baseline.retries ? ` ${r.baseline.retries} relay call(s) were sent again after their connection closed.` : ""}`,
    "",
    ...syncTargets(r).map(([what, measured, ok]) => `- ${what}: ${measured}: ${ok ? "met" : "NOT met"}`),
  ];
  return lines.join("\n");
}

/** `[what, measured, met]` of each target. */
export function syncTargets(r) {
  const { incremental: inc, first, baseline } = r;
  const bytes = Math.max(inc.bytesSent, inc.bytesReceived);
  return [
    [`incremental sync of ${inc.changes} changes moves < ${INCREMENTAL_BYTES_TARGET / 1000} KB each way`,
      `${bytes.toLocaleString("en")} bytes (${inc.bytesSent.toLocaleString("en")} sent, ${inc.bytesReceived.toLocaleString("en")} received)`,
      inc.changes === INCREMENTAL_FOR && bytes < INCREMENTAL_BYTES_TARGET],
    [`first sync of ${r.n.toLocaleString("en")} to a new device ≤ export + upload + download + import`,
      `${ms(first.ms)} against ${ms(baseline.totalMs)} (${(first.ms / baseline.totalMs).toFixed(2)}×)`, first.ms <= baseline.totalMs],
    ["(for reference) A's push + B's first sync ≤ the same baseline",
      `${ms(r.push.ms + first.ms)} against ${ms(baseline.totalMs)} (${((r.push.ms + first.ms) / baseline.totalMs).toFixed(2)}×)`,
      r.push.ms + first.ms <= baseline.totalMs],
  ];
}

/** A fetch that times each call until its body is read, adding to `clock.httpMs`. */
const timedFetch = (clock) => async (input, init) => {
  const started = performance.now();
  const response = await fetch(input, init);
  const body = await response.arrayBuffer();
  clock.httpMs += performance.now() - started;
  return new Response(body, { status: response.status, headers: response.headers });
};

const STORE_CALLS = ["syncOutbox", "syncApply", "syncAcknowledge", "syncStatus", "syncStart"];

/** Wraps `memory`'s sync calls so each adds its time to `clock.store[name]`. */
function instrument(memory, clock) {
  for (const name of STORE_CALLS) {
    const inner = memory[name].bind(memory);
    memory[name] = async (...args) => {
      const started = performance.now();
      try {
        return await inner(...args);
      } finally {
        const [t, calls] = clock.store[name] ?? [0, 0];
        clock.store[name] = [t + performance.now() - started, calls + 1];
      }
    };
  }
}

/** WebCrypto's AES-GCM calls, timed into `aes.ms` once `timeAes()` ran (sync-crypto.mjs calls `crypto.subtle` each time). */
const aes = { ms: 0 };
function timeAes() {
  for (const name of ["encrypt", "decrypt"]) {
    const inner = crypto.subtle[name].bind(crypto.subtle);
    crypto.subtle[name] = async (...args) => {
      const started = performance.now();
      try {
        return await inner(...args);
      } finally {
        aes.ms += performance.now() - started;
      }
    };
  }
}

/** One timed `sync()` of `memory`: its report, the time and where it went. */
async function timedSync(memory, options, clock) {
  clock.httpMs = 0;
  clock.store = {};
  aes.ms = 0;
  const started = performance.now();
  const report = await memory.sync({ ...options, fetch: timedFetch(clock) });
  const total = performance.now() - started;
  const storeCalls = Object.entries(clock.store).filter(([, [t]]) => t >= 0.5).sort((a, b) => b[1][0] - a[1][0]).map(([name, [t, calls]]) => [name, t, calls]);
  const storeMs = Object.values(clock.store).reduce((sum, [t]) => sum + t, 0);
  return { report, ms: total, breakdown: { httpMs: clock.httpMs, storeCalls, aesMs: aes.ms, restMs: total - clock.httpMs - storeMs - aes.ms } };
}

/** Worker calls of the baseline's relay, over HTTP like sync's; a call whose connection closes under it (a
 * kept-alive socket the server closed) is sent once more, as a user's script would (pushes are idempotent). */
const relay = { retries: 0 };
async function relayCall(url, round, method, path, body) {
  const init = {
    method, headers: { authorization: `Bearer ${relayToken(round)}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  };
  const response = await fetch(`${url}${path}`, init).catch(() => {
    relay.retries++;
    return fetch(`${url}${path}`, init);
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The export's text as chunks of whole lines, each at most CHUNK_BYTES bytes. */
function chunks(text) {
  const out = [];
  let current = [];
  let size = 0;
  for (const line of text.split(/(?<=\n)/)) {
    const bytes = Buffer.byteLength(line);
    if (size + bytes > CHUNK_BYTES && current.length) {
      out.push(current.join(""));
      current = [];
      size = 0;
    }
    current.push(line);
    size += bytes;
  }
  if (current.length) out.push(current.join(""));
  return out;
}

/** One baseline round: export on A, upload, download, import on a new device. */
async function baselineRound(a, openDevice, url, round) {
  let started = performance.now();
  const text = await a.exportMemories();
  const exportMs = performance.now() - started;

  started = performance.now();
  const clientId = `export-${round}`;
  const parts = chunks(text);
  let pushes = 0;
  for (let i = 0; i < parts.length;) {
    const entries = [];
    let size = 0;
    while (i < parts.length) {
      const entry = { n: i + 1, data: parts[i] };
      const bytes = Buffer.byteLength(JSON.stringify(entry));
      if (entries.length && size + bytes > BODY_BYTES) break;
      entries.push(entry);
      size += bytes;
      i++;
    }
    await relayCall(url, round, "POST", "/v1/sync/push", { clientId, entries });
    pushes++;
  }
  const uploadMs = performance.now() - started;

  started = performance.now();
  const received = [];
  let since = 0;
  let pulls = 0;
  for (;;) {
    const answer = await relayCall(url, round, "GET", `/v1/sync/pull?since=${since}&limit=1000&clientId=import-${round}`);
    pulls++;
    for (const entry of answer.entries) received.push(entry.data);
    since = answer.entries.at(-1)?.seq ?? since;
    if (!answer.more) break;
  }
  const downloaded = received.join("");
  const downloadMs = performance.now() - started;
  if (downloaded !== text) throw new Error("baseline: the downloaded export is not the uploaded one");

  const c = await openDevice(`import-${round}`);
  started = performance.now();
  await c.importMemories(downloaded);
  const importMs = performance.now() - started;
  const check = round === 0 ? (await c.exportMemories()) === text : undefined;
  c.close();
  return { exportMs, uploadMs, downloadMs, importMs, totalMs: exportMs + uploadMs + downloadMs + importMs,
    bytes: Buffer.byteLength(text), chunks: parts.length, pushes, pulls, sameExport: check };
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const n = Number(option("--n", "10000"));
  const rounds = Math.min(MAX_ROUNDS, Number(option("--rounds", "3")));
  const changes = Number(option("--changes", String(INCREMENTAL_FOR)));
  const say = (text) => process.stderr.write(`[bench sync] ${text}\n`);
  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageAtStart: loadavg()[0] };

  timeAes();
  const { Memory } = await import("memwasm");
  const { startServer, startWorker } = await import("../worker/tests/helpers.mjs");
  const scratch = mkdtempSync(join(tmpdir(), "memwasm-bench-sync-"));
  const server = await startServer();
  const worker = await startWorker(server, {
    vars: { MEMORY_TOKENS: JSON.stringify(TOKENS), EMBEDDER_DIMENSIONS: String(DIM) },
    persist: join(scratch, "worker"),
    storage: "do",
  });
  const opened = [];
  try {
    const url = String(await worker.mf.ready).replace(/\/$/, "");
    let embedded = 0;
    const openDevice = async (name) => {
      const memory = await Memory.open({
        llm: { provider: "none" },
        // An embedder that answers at once: updates re-embed without a network call.
        embedder: { provider: "custom", dimensions: DIM, embed: async (texts) => texts.map(() => vector(1_000_000 + ++embedded)) },
        storage: { provider: "sqlite", config: { path: join(scratch, `${name}.db`) } },
      });
      opened.push(memory);
      return memory;
    };
    const key = crypto.getRandomValues(new Uint8Array(32));
    const options = { url, token: TOKEN, key };

    const a = await openDevice("a");
    let started = performance.now();
    await a.importMemories(readFileSync(exportFile(n), "utf8"));
    const seedMs = performance.now() - started;
    say(`A: imported ${n} memories in ${ms(seedMs)}`);
    const clockA = {};
    instrument(a, clockA);
    const push = await timedSync(a, options, clockA);
    say(`A's first push: ${ms(push.ms)}, ${push.report.pushed} entries, ${kb(push.report.bytesSent)} (${part(push.breakdown)})`);
    if (push.report.pending !== 0) throw new Error(`A still has ${push.report.pending} entries pending`);

    const firsts = [];
    let b;
    const clockB = {};
    for (let round = 0; round < rounds; round++) {
      const device = await openDevice(`b-${round}`);
      instrument(device, clockB);
      const first = await timedSync(device, options, clockB);
      firsts.push(first);
      say(`B${round}'s first sync: ${ms(first.ms)}, ${first.report.pulled} entries, ${kb(first.report.bytesReceived)} (${part(first.breakdown)})`);
      if (first.report.applied.reembedded) throw new Error(`B re-embedded ${first.report.applied.reembedded} memories`);
      if (round === 0) {
        b = device;
        if ((await b.exportMemories()) !== (await a.exportMemories())) throw new Error("B's export after its first sync is not A's");
      } else device.close();
    }

    const { memories } = readExport(n);
    const incremental = [];
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < changes; i++) {
        const m = memories[((round * changes + i) * 997) % n];
        await a.update(m.id, `${m.memory} (changed in round ${round})`);
      }
      const out = await timedSync(a, options, clockA);
      const back = await timedSync(b, options, clockB);
      incremental.push({ pushMs: out.ms, pullMs: back.ms, bytesSent: out.report.bytesSent, bytesReceived: back.report.bytesReceived,
        pushed: out.report.pushed, pulled: back.report.pulled, pushBreakdown: out.breakdown, pullBreakdown: back.breakdown });
      say(`incremental ${round}: A ${ms(out.ms)} ${out.report.pushed} entries ${out.report.bytesSent} bytes; B ${ms(back.ms)} ${back.report.pulled} entries ${back.report.bytesReceived} bytes`);
    }
    if ((await b.exportMemories()) !== (await a.exportMemories())) throw new Error("B's export after the incremental syncs is not A's");

    const baselines = [];
    for (let round = 0; round < rounds; round++) {
      const base = await baselineRound(a, openDevice, url, round);
      baselines.push(base);
      say(`baseline ${round}: export ${ms(base.exportMs)}, upload ${ms(base.uploadMs)}, download ${ms(base.downloadMs)}, import ${ms(base.importMs)}: ${ms(base.totalMs)}`);
    }

    const mid = (list, key) => median(list.map((x) => x[key]));
    const firstMid = firsts.slice().sort((x, y) => x.ms - y.ms)[Math.floor(firsts.length / 2)];
    machine.loadAverageAtEnd = loadavg()[0];
    const result = {
      date: new Date().toISOString(), machine, n, dims: DIM, rounds, seedMs,
      push: { ms: push.ms, bytesSent: push.report.bytesSent, pushed: push.report.pushed, pulledBack: push.report.pulled,
        bytesReceived: push.report.bytesReceived, breakdown: push.breakdown },
      first: { ms: median(firsts.map((f) => f.ms)), runsMs: firsts.map((f) => f.ms), bytesReceived: firstMid.report.bytesReceived,
        pulled: firstMid.report.pulled, applied: firstMid.report.applied, breakdown: firstMid.breakdown },
      incremental: { changes, pushMs: mid(incremental, "pushMs"), pullMs: mid(incremental, "pullMs"),
        bytesSent: Math.max(...incremental.map((x) => x.bytesSent)), bytesReceived: Math.max(...incremental.map((x) => x.bytesReceived)),
        pushed: incremental[0].pushed, pulled: incremental[0].pulled, rounds: incremental },
      baseline: {
        how: "A's exportMemories(), its text in chunks of at most 240 KB (whole lines) pushed unencrypted through the Worker's " +
          "/v1/sync/push into a log of another user's (the Worker has no route that takes a whole export), pulled back by " +
          "/v1/sync/pull and importMemories() into a new SQLite file; bytes are the export's.",
        exportMs: mid(baselines, "exportMs"), uploadMs: mid(baselines, "uploadMs"), downloadMs: mid(baselines, "downloadMs"),
        importMs: mid(baselines, "importMs"), totalMs: mid(baselines, "totalMs"), bytes: baselines[0].bytes, chunks: baselines[0].chunks,
        pushes: baselines[0].pushes, pulls: baselines[0].pulls, sameExport: baselines[0].sameExport, retries: relay.retries, rounds: baselines,
      },
    };
    result.targets = syncTargets(result).map(([what, measured, met]) => ({ what, measured, met }));
    if (args.includes("--json")) process.stdout.write(JSON.stringify(result) + "\n");
    else console.log(`Machine: ${machine.cpus} × ${machine.cpu}, Node ${machine.node}.\n\n${syncTable(result)}`);
  } finally {
    for (const memory of opened) {
      try {
        memory.close();
      } catch {}
    }
    await worker.dispose();
    server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
