// The Worker bench: `node bench/worker.mjs [--storage kv|do|both] [--sizes 100,1000,5000,10000] [--no-build]`.
// Runs worker/build in local workerd (Miniflare, loopback only), seeds one scope per size (`infer: false`
// adds of 500 messages; embeddings from the scripted server), then measures search p50 per size:
//   cold  — the first search after workerd starts over the persisted data (a fresh isolate and object);
//   wake  — Durable Objects only: the first search after the object evicted its index (idle alarm), the
//           median of ROUNDS wakes (as is restart's);
//   warm  — the median of WARM searches that follow;
//   restart — Durable Objects only: the first search after workerd starts again, once the object wrote the
//           scope's open image (the cold search read every memory: seeding's adds left a long journal).
// Each Durable Objects figure says how the scope loaded (`image journal=N` or `full (why)`).
// Durable Objects also report the isolate's wasm memory after each size's searches (test hook `/__do/memory`),
// hence the memory per 1,000 memories and, from it, the largest tenant that fits one object's 128 MB isolate.
// Prints a table with ratios to the 100-memory scope, the targets met or not, and (with `--load`) the 2,000-request load check
// (concurrency 50, 5 tenants, read-your-writes on every request). Results go to bench/results/worker.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWorker, startServer } from "../worker/tests/helpers.mjs";
import { loadCheck } from "./lib/worker-load.mjs";
import { median, scopeLoads, seedUser, timed, wasmBytes } from "./lib/worker-calls.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
};
const say = (text) => process.stderr.write(`[bench:worker] ${text}\n`);
const SIZES = option("--sizes", "100,1000,5000,10000").split(",").map(Number);
const STORAGES = option("--storage", "both") === "both" ? ["kv", "do"] : [option("--storage")];
const DIMS = option("--dims", "384");
const WARM = 30;
/** Wakes and restarts per Durable Objects size, reported as their medians: one figure alone is noise. */
const ROUNDS = 3;
const BATCH = 500;
const IDLE_SECONDS = 2;
/// One object's isolate limit, and what is left for the JS heap, the request and the runtime.
const ISOLATE_MB = 128;
const HEADROOM_MB = 32;
const MB = 1024 * 1024;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const search = (n, i) => `/v1/memories/search/?q=${encodeURIComponent(`topic ${i % 97} item ${i}`)}&user_id=u${n}&limit=10`;

/** A search, timed, and how many results it gave. */
async function timedSearch(worker, path) {
  const { ms, response } = await timed(worker, "GET", path);
  return { ms, results: response.body.results.length };
}

const seed = (worker, n) =>
  seedUser(worker, `u${n}`, n, (i) => `Bench fact ${i}: the user follows topic ${i % 97} and owns item ${i}`, BATCH);

async function figures(server, storage) {
  const persist = mkdtempSync(join(tmpdir(), `memwasm-bench-${storage}-`));
  const vars = { STORAGE: storage, DO_IDLE_SECONDS: String(IDLE_SECONDS), EMBEDDER_DIMENSIONS: DIMS, DO_TEST_HOOKS: "true" };
  const start = () => startWorker(server, { vars, persist, storage });
  try {
    let worker = await start();
    for (const n of SIZES) {
      const started = performance.now();
      await seed(worker, n);
      say(`${storage}: seeded ${n} memories in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const seededWasm = storage === "do" ? await wasmBytes(worker) : undefined;
    await worker.dispose();
    const rows = [];
    for (const n of SIZES) {
      worker = await start();
      const cold = await timedSearch(worker, search(n, 0));
      const warm = [];
      for (let i = 1; i <= WARM; i++) warm.push((await timedSearch(worker, search(n, i))).ms);
      let wake, wasm, restart, loads;
      if (storage === "do") {
        wasm = await wasmBytes(worker);
        const coldLoad = await scopeLoads(worker);
        const [wakes, restarts] = [[], []];
        let wakeLoad, restartLoad;
        for (let round = 0; round < ROUNDS; round++) {
          await sleep(IDLE_SECONDS * 1000 + 1500);
          wakes.push((await timedSearch(worker, search(n, WARM + 1 + 2 * round))).ms);
          wakeLoad = await scopeLoads(worker);
          await sleep(1000);
          await worker.dispose();
          worker = await start();
          restarts.push((await timedSearch(worker, search(n, WARM + 2 + 2 * round))).ms);
          restartLoad = await scopeLoads(worker);
        }
        [wake, restart] = [median(wakes), median(restarts)];
        loads = { cold: coldLoad, wake: wakeLoad, restart: restartLoad, wakes: wakes.map(Math.round), restarts: restarts.map(Math.round) };
      }
      rows.push({ storage, n, cold: cold.ms, wake, restart, loads, warm: median(warm), results: cold.results, wasm, seededWasm });
      say(`${storage} ${n}: cold ${cold.ms.toFixed(1)} ms, warm p50 ${median(warm).toFixed(1)} ms${wake ? `, wake ${wake.toFixed(1)} ms, restart ${restart.toFixed(1)} ms ${JSON.stringify(loads)}` : ""}`);
      await worker.dispose();
    }
    return rows;
  } finally {
    rmSync(persist, { recursive: true, force: true });
  }
}

/** The targets, each "met" or "NOT met", and the memory figures of the Durable Objects rows. */
function targets(rows) {
  const lines = [];
  const met = (ok) => (ok ? "met" : "NOT met");
  const dos = rows.filter((r) => r.storage === "do");
  const [small, large] = [dos[0], dos.at(-1)];
  if (!large || small === large) return lines;
  const at = `${large.n.toLocaleString("en")} (Durable Objects)`;
  lines.push(`restart at ${at}: ${Math.round(large.restart)} ms, target ≤ 150 ms: ${met(large.restart <= 150)}`);
  lines.push(`wake at ${at}: ${Math.round(large.wake)} ms, target ≤ 150 ms: ${met(large.wake <= 150)}`);
  const ratio = large.warm / small.warm;
  lines.push(`warm at ${large.n.toLocaleString("en")} ÷ warm at ${small.n}: ${ratio.toFixed(2)}×, target ≤ 2×: ${met(ratio <= 2)}`);
  const per1k = ((large.wasm - small.wasm) / MB / (large.n - small.n)) * 1000;
  lines.push(`wasm memory at ${DIMS}-d: ${(small.wasm / MB).toFixed(1)} MB with ${small.n} memories, ${(large.wasm / MB).toFixed(1)} MB with ${large.n.toLocaleString("en")}: ${per1k.toFixed(2)} MB per 1,000 memories`);
  const seeded = dos.reduce((sum, r) => sum + r.n, 0);
  const seedPer1k = ((large.seededWasm - small.wasm) / MB / seeded) * 1000;
  lines.push(`wasm memory of the isolate that seeded ${seeded.toLocaleString("en")} memories (its adds): ${(large.seededWasm / MB).toFixed(1)} MB, ${seedPer1k.toFixed(2)} MB per 1,000`);
  const budget = ISOLATE_MB - HEADROOM_MB;
  const fits = Math.floor(((budget - small.wasm / MB) / Math.max(per1k, seedPer1k)) * 1000);
  const peak = Math.max(large.wasm, large.seededWasm) / MB;
  lines.push(`largest tenant at ${DIMS}-d in one ${ISOLATE_MB} MB object, ${HEADROOM_MB} MB left for the JS heap and runtime: about ${fits.toLocaleString("en")} memories by the larger figure per 1,000; measured peak at ${large.n.toLocaleString("en")}: ${peak.toFixed(1)} MB, ${peak <= budget ? "within" : "NOT within"} ${budget} MB`);
  return lines;
}

function table(rows) {
  const ms = (x) => (x === undefined ? "—" : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
  const lines = [
    "| storage | memories in the scope | cold (first search after start) | wake (after idle eviction) | restart (image written) | warm search p50 | warm ÷ warm at 100 |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const base = rows.find((r) => r.storage === row.storage && r.n === SIZES[0]);
    lines.push(`| ${row.storage} | ${row.n.toLocaleString("en")} | ${ms(row.cold)} | ${ms(row.wake)} | ${ms(row.restart)} | ${ms(row.warm)} | ${(row.warm / base.warm).toFixed(2)}× |`);
  }
  return lines.join("\n");
}

if (!argv.includes("--no-build")) {
  say("building worker/ (sh worker/build.sh)");
  execFileSync("sh", [join(bench, "../worker/build.sh")], { stdio: ["ignore", "inherit", "inherit"] });
}
const server = await startServer();
try {
  const rows = [];
  for (const storage of STORAGES) rows.push(...(await figures(server, storage)));
  const load = [];
  if (argv.includes("--load")) for (const storage of STORAGES) load.push({ storage, ...(await loadCheck(server, storage)) });
  mkdirSync(join(bench, "results"), { recursive: true });
  writeFileSync(join(bench, "results/worker.json"), JSON.stringify({ date: new Date().toISOString(), dims: DIMS, load: (await import("node:os")).loadavg(), rows, loadCheck: load }, null, 2));
  const loadAverage = (await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(", ");
  console.log(`Search p50 in local workerd (Miniflare), one scope, ${DIMS}-dimension vectors, top 10 (${new Date().toISOString().slice(0, 16)}Z, load average ${loadAverage}):\n`);
  console.log(table(rows));
  console.log(`\n${targets(rows).join("\n")}`);
  for (const l of load) console.log(`\nload (${l.storage}): ${JSON.stringify(l)}`);
} finally {
  server.close();
}
