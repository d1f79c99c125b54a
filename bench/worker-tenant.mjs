// A tenant larger than one Durable Object: `node bench/worker-tenant.mjs [--memories 1000000] [--scopes 1000]
// [--dims 64] [--lanes 4] [--no-build]`. Runs worker/build in local workerd (Miniflare, loopback only) with
// `DO_SHARDS = "scope"` (one object per user, the tenant's object as the directory), seeds `--memories`
// memories spread evenly over `--scopes` users (`infer: false` adds of 500 messages, `--lanes` users at a
// time; embeddings from the scripted server), plus one user of 10,000 memories: what one object holding a
// 10k tenant serves. Then measures, in the same run:
//   per-user search — the first search of 20 users after the seeding, and the median warm search of each;
//   the 10k user's warm search, the baseline the target names ("the same warm latency as a 10k tenant");
//   by id — GET /v1/memories/{id}/ through the directory;
//   export — every page of GET /v1/export/, counting the memories;
//   wasm memory — the isolate's, after the seeding, the searches and the export (workerd runs every object
//   of the class in one isolate, so that is every object's together), and the largest object's alone: the
//   10k user's, searched and exported in a fresh workerd over the same storage.
// Results go to bench/results/worker-tenant.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, startWorker } from "../worker/tests/helpers.mjs";
import { median, seedUser, timed, wasmBytes } from "./lib/worker-calls.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const say = (text) => process.stderr.write(`[bench:worker-tenant] ${new Date().toISOString().slice(11, 19)} ${text}\n`);
const MEMORIES = Number(option("--memories", "1000000"));
const SCOPES = Number(option("--scopes", "1000"));
const DIMS = option("--dims", "64");
const LANES = Number(option("--lanes", "4"));
const BIG = 10_000;
const BATCH = 500;
const WARM = 20;
const PROBES = 20;
const OBJECT_LIMIT_MB = 100;
const MB = 1024 * 1024;

const userOf = (scope) => `user-${String(scope).padStart(5, "0")}`;
const wasmMegabytes = async (worker) => (await wasmBytes(worker)) / MB;
const seedFacts = (worker, user, n) =>
  seedUser(worker, user, n, (i) => `Fact ${i} of ${user}: follows topic ${i % 97} and owns item ${i}`, BATCH);

const searchPath = (user, i) => `/v1/memories/search/?q=${encodeURIComponent(`topic ${i % 97} item ${i}`)}&user_id=${user}&limit=10`;

async function warmSearch(worker, user) {
  const cold = (await timed(worker, "GET", searchPath(user, 0))).ms;
  const warm = [];
  for (let i = 1; i <= WARM; i++) warm.push((await timed(worker, "GET", searchPath(user, i))).ms);
  return { cold, warm: median(warm) };
}

if (!argv.includes("--no-build")) {
  say("building worker/ (sh worker/build.sh)");
  execFileSync("sh", [join(bench, "../worker/build.sh")], { stdio: ["ignore", "inherit", "inherit"] });
}
const persist = mkdtempSync(join(tmpdir(), "memwasm-bench-tenant-"));
const server = await startServer();
const vars = { STORAGE: "do", DO_SHARDS: "scope", DO_IDLE_SECONDS: "2", EMBEDDER_DIMENSIONS: DIMS, DO_TEST_HOOKS: "true" };
let worker = await startWorker(server, { vars, persist, storage: "do" });
try {
  const perScope = Math.floor(MEMORIES / SCOPES);
  const started = performance.now();
  const firstIds = new Array(SCOPES);
  let next = 0;
  let peakDuringSeed = 0;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < SCOPES) {
        const scope = next++;
        firstIds[scope] = await seedFacts(worker, userOf(scope), perScope);
        if (scope % 50 === 49) {
          const seconds = (performance.now() - started) / 1000;
          peakDuringSeed = Math.max(peakDuringSeed, await wasmMegabytes(worker));
          say(`seeded ${((scope + 1) * perScope).toLocaleString("en")} memories in ${seconds.toFixed(0)} s (${Math.round(((scope + 1) * perScope) / seconds)}/s), isolate wasm ${peakDuringSeed.toFixed(1)} MB`);
        }
      }
    }),
  );
  const seedSeconds = (performance.now() - started) / 1000;
  await seedFacts(worker, "big-10k", BIG);
  const seededMb = await wasmMegabytes(worker);
  say(`seeded ${(perScope * SCOPES).toLocaleString("en")} + ${BIG.toLocaleString("en")} memories; isolate wasm ${seededMb.toFixed(1)} MB`);

  const big = await warmSearch(worker, "big-10k");
  const probes = [];
  for (let p = 0; p < PROBES; p++) probes.push(await warmSearch(worker, userOf(Math.floor((p * SCOPES) / PROBES))));
  const byId = [];
  for (let p = 0; p < PROBES; p++) byId.push((await timed(worker, "GET", `/v1/memories/${firstIds[Math.floor((p * SCOPES) / PROBES) + 1] ?? firstIds[0]}/`)).ms);

  const beforeExportMb = await wasmMegabytes(worker);
  const exportStarted = performance.now();
  let after;
  let pages = 0;
  let exportedMemories = 0;
  let exportedBytes = 0;
  do {
    const { response } = await timed(worker, "GET", `/v1/export/${after ? `?after=${after}` : ""}`);
    const text = typeof response.body === "string" ? response.body : JSON.stringify(response.body);
    exportedBytes += text.length;
    exportedMemories += text.split("\n").filter((line) => line.startsWith('{"kind":"memory"')).length;
    pages++;
    after = response.headers.get("x-memwasm-next");
  } while (after);
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  const endMb = await wasmMegabytes(worker);

  // The largest object alone: a fresh workerd (a fresh isolate) over the same storage, where only the
  // 10k user's object wakes, searches and exports.
  await worker.dispose();
  worker = await startWorker(server, { vars, persist, storage: "do" });
  const freshMb = await wasmMegabytes(worker);
  await warmSearch(worker, "big-10k");
  await timed(worker, "GET", "/v1/export/?user_id=big-10k");
  const largestObjectMb = await wasmMegabytes(worker);

  const total = perScope * SCOPES + BIG;
  const probeWarm = median(probes.map((p) => p.warm));
  const probeCold = median(probes.map((p) => p.cold));
  const ratio = probeWarm / big.warm;
  const peakMb = Math.max(peakDuringSeed, seededMb, beforeExportMb, endMb);
  const met = (ok) => (ok ? "met" : "NOT met");
  const result = {
    date: new Date().toISOString(), dims: DIMS, memories: total, scopes: SCOPES + 1, perScope, load: loadavg(),
    seedSeconds, seedPerSecond: (perScope * SCOPES) / seedSeconds, big, probeWarm, probeCold, byId: median(byId),
    export: { pages, memories: exportedMemories, megabytes: exportedBytes / MB, seconds: exportSeconds }, wasmMb: { peakDuringSeed, seededMb, beforeExportMb, endMb }, largestObjectMb, freshMb,
  };
  mkdirSync(join(bench, "results"), { recursive: true });
  writeFileSync(join(bench, "results/worker-tenant.json"), JSON.stringify(result, null, 2));
  console.log(`A tenant of ${total.toLocaleString("en")} memories over ${(SCOPES + 1).toLocaleString("en")} users, one Durable Object each (DO_SHARDS = "scope"), ${DIMS}-d, local workerd (${result.date.slice(0, 16)}Z, load average ${loadavg().map((x) => x.toFixed(2)).join(", ")}):\n`);
  console.log("| figure | measured |\n|---|---|");
  console.log(`| seeding (\`infer: false\` adds of 500, ${LANES} users at a time) | ${Math.round(result.seedPerSecond).toLocaleString("en")} memories/s (${(seedSeconds / 60).toFixed(1)} min) |`);
  console.log(`| warm search p50, one user of ${perScope.toLocaleString("en")} (median of ${PROBES} users) | ${probeWarm.toFixed(1)} ms |`);
  console.log(`| warm search p50, the user of ${BIG.toLocaleString("en")} (one object holding a 10k tenant) | ${big.warm.toFixed(1)} ms |`);
  console.log(`| first search of a user after the seeding (median of ${PROBES}) | ${probeCold.toFixed(1)} ms |`);
  console.log(`| GET by id through the directory (median of ${PROBES}) | ${result.byId.toFixed(1)} ms |`);
  console.log(`| export: ${pages.toLocaleString("en")} pages, ${exportedMemories.toLocaleString("en")} memories, ${result.export.megabytes.toFixed(0)} MB | ${exportSeconds.toFixed(1)} s |`);
  console.log(`| the isolate's wasm memory (every object of the class): after seeding / after the searches / after the export | ${seededMb.toFixed(1)} / ${beforeExportMb.toFixed(1)} / ${endMb.toFixed(1)} MB |`);
  console.log(`| the largest object (the 10k user) alone in a fresh isolate, after a search and its export (the fresh isolate before it) | ${largestObjectMb.toFixed(1)} MB (${freshMb.toFixed(1)} MB) |`);
  console.log(`\nwarm search per user ÷ the 10k tenant's: ${ratio.toFixed(2)}×, target ≤ 1× ("the same warm latency"): ${met(ratio <= 1)}`);
  console.log(`export holds every memory: ${exportedMemories.toLocaleString("en")} of ${total.toLocaleString("en")}: ${met(exportedMemories === total)}`);
  console.log(`no object's wasm memory over ${OBJECT_LIMIT_MB} MB: the largest object's ${largestObjectMb.toFixed(1)} MB: ${met(largestObjectMb <= OBJECT_LIMIT_MB)} (every object of the isolate together: at most ${peakMb.toFixed(1)} MB)`);
} finally {
  await worker.dispose();
  server.close();
  rmSync(persist, { recursive: true, force: true });
}
