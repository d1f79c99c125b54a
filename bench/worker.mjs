// The Worker bench: `node bench/worker.mjs [--storage kv|do|both] [--sizes 100,1000,5000,10000] [--no-build]`.
// Runs worker/build in local workerd (Miniflare, loopback only), seeds one scope per size (`infer: false`
// adds of 500 messages; embeddings from the scripted server), then measures search p50 per size:
//   cold  — the first search after workerd starts over the persisted data (a fresh isolate and object);
//   wake  — Durable Objects only: the first search after the object evicted its index (idle alarm);
//   warm  — the median of WARM searches that follow.
// Prints a table with ratios to the 100-memory scope, and (with `--load`) the 2,000-request load check
// (concurrency 50, 5 tenants, read-your-writes on every request). Results go to bench/results/worker.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWorker, startServer } from "../worker/tests/helpers.mjs";
import { loadCheck } from "./lib/worker-load.mjs";

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
const BATCH = 500;
const IDLE_SECONDS = 2;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(worker, path) {
  const started = performance.now();
  const response = await worker.call("GET", path);
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return { ms, results: response.body.results.length };
}

const search = (n, i) => `/v1/memories/search/?q=${encodeURIComponent(`topic ${i % 97} item ${i}`)}&user_id=u${n}&limit=10`;

async function seed(worker, n) {
  for (let done = 0; done < n; done += BATCH) {
    const messages = Array.from({ length: Math.min(BATCH, n - done) }, (_, j) => {
      const i = done + j;
      return { role: "user", content: `Bench fact ${i}: the user follows topic ${i % 97} and owns item ${i}` };
    });
    const added = await worker.call("POST", "/v1/memories/", { body: { messages, user_id: `u${n}`, infer: false } });
    if (added.status !== 200 || added.body.results.length !== messages.length) {
      throw new Error(`seeding u${n}: ${added.status} ${JSON.stringify(added.body).slice(0, 300)}`);
    }
  }
}

async function figures(server, storage) {
  const persist = mkdtempSync(join(tmpdir(), `memwasm-bench-${storage}-`));
  const vars = { STORAGE: storage, DO_IDLE_SECONDS: String(IDLE_SECONDS), EMBEDDER_DIMENSIONS: DIMS };
  const start = () => startWorker(server, { vars, persist, storage });
  try {
    let worker = await start();
    for (const n of SIZES) {
      const started = performance.now();
      await seed(worker, n);
      say(`${storage}: seeded ${n} memories in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await worker.dispose();
    const rows = [];
    for (const n of SIZES) {
      worker = await start();
      const cold = await timed(worker, search(n, 0));
      const warm = [];
      for (let i = 1; i <= WARM; i++) warm.push((await timed(worker, search(n, i))).ms);
      let wake;
      if (storage === "do") {
        await sleep(IDLE_SECONDS * 1000 + 1500);
        wake = (await timed(worker, search(n, WARM + 1))).ms;
      }
      rows.push({ storage, n, cold: cold.ms, wake, warm: median(warm), results: cold.results });
      say(`${storage} ${n}: cold ${cold.ms.toFixed(1)} ms, warm p50 ${median(warm).toFixed(1)} ms${wake ? `, wake ${wake.toFixed(1)} ms` : ""}`);
      await worker.dispose();
    }
    return rows;
  } finally {
    rmSync(persist, { recursive: true, force: true });
  }
}

function table(rows) {
  const ms = (x) => (x === undefined ? "—" : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
  const lines = [
    "| storage | memories in the scope | cold (first search after start) | wake (after idle eviction) | warm search p50 | warm ÷ warm at 100 |",
    "|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const base = rows.find((r) => r.storage === row.storage && r.n === SIZES[0]);
    lines.push(`| ${row.storage} | ${row.n.toLocaleString("en")} | ${ms(row.cold)} | ${ms(row.wake)} | ${ms(row.warm)} | ${(row.warm / base.warm).toFixed(2)}× |`);
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
  writeFileSync(join(bench, "results/worker.json"), JSON.stringify({ date: new Date().toISOString(), rows, load }, null, 2));
  console.log(`Search p50 in local workerd (Miniflare), one scope, ${DIMS}-dimension vectors, top 10:\n`);
  console.log(table(rows));
  for (const l of load) console.log(`\nload (${l.storage}): ${JSON.stringify(l)}`);
} finally {
  server.close();
}
