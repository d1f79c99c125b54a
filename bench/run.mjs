// The benchmark: `npm run bench` (or `node bench/run.mjs`). Builds the npm package and the native
// reference, installs Orama from npm, then runs each figure in a Node process of its own (scan.mjs: every
// contender over the same data, the native reference in a child process, timed in interleaved rounds;
// public.mjs: public search() beside the bare scan and store() as a scope grows; rerank.mjs: search() with
// the reranker stage at 20 and 50 candidates; add.mjs: add() against the
// scripted server; add-quality.mjs: what add()'s fast pipeline shows the update
// decision, against the exact one, over bench/quality/scenarios.json with the on-device MiniLM embedder; then
// LOCOMO retrieval against MiniSearch and dense baselines (locomo/run.mjs); the cold start in headless Chromium (browser.mjs) beside Node's SQLite storage (sqlite.mjs, which runs browser.mjs) and the REST service in local workerd (worker.mjs);
// sync of 10,000 memories between two SQLite devices through the Worker against export + import (sync.mjs); the import of a
// generated 1,000-conversation ChatGPT export (import.mjs)) and
// prints tables of medians with ratios and the targets.
// Results go to bench/results/latest.json. Options: --no-build, --quick (the small figures only).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSize } from "./lib/gzip.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const root = dirname(bench);
const args = new Set(process.argv.slice(2));
const say = (text) => process.stderr.write(`[bench] ${text}\n`);
const run = (cmd, argv, cwd = root, env = {}) =>
  execFileSync(cmd, argv, { cwd, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } });
/** The release package's .wasm size, measured before the bench build replaces it. */
let releaseSize;

const QUERIES = 20;
const SEED = 1;
const ALL = ["memwasm-f32", "memwasm-int8", "memwasm-auto", "js-lean", "js-loop", "js-typical", "orama", "usearch-f32", "usearch-i8"];
/** The public call beside them, where the speed targets name it. */
const PUBLIC = [...ALL, "js-grouped", "public-vector"];
/** Scan figures: data set, rounds of QUERIES searches per contender, contenders. */
const FIGURES = [
  { kind: "random", n: 1_000, dim: 384, rounds: 30, contenders: ALL },
  { kind: "random", n: 10_000, dim: 384, rounds: 10, contenders: PUBLIC },
  { kind: "random", n: 100_000, dim: 384, rounds: 4, contenders: PUBLIC },
  { kind: "clustered", n: 100_000, dim: 384, rounds: 4, contenders: [...PUBLIC, "public-f32", "public-int8"] },
  { kind: "random", n: 10_000, dim: 1536, rounds: 6, contenders: ALL },
  { kind: "random", n: 100_000, dim: 1536, rounds: 3, contenders: ALL },
].filter((f) => !args.has("--quick") || f.n <= 10_000);

function build() {
  say("building the npm package (scripts/build-pkg.sh) and the native reference");
  run("bash", ["scripts/setup.sh", "rust"]);
  run("bash", ["scripts/build-pkg.sh"]);
  releaseSize = size();
  say("rebuilding the package with the `bench` feature (the hidden __BenchIndex export)");
  run("bash", ["scripts/build-pkg.sh"], root, { MEMWASM_FEATURES: "bench" });
  run("cargo", ["build", "--quiet", "--release", "--manifest-path", join(bench, "native", "Cargo.toml")]);
  say("installing Orama 3 and the package (npm install in bench/)");
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], bench);
  say("installing playwright-core for the cold start in Chromium (npm install in tests/browser-crash/)");
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], join(root, "tests", "browser-crash"));
}

function json(cmd, argv) {
  const out = spawnSync(cmd, argv, { cwd: bench, encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "inherit"] });
  if (out.status !== 0) throw new Error(`${cmd} ${argv[0]} failed with status ${out.status}`);
  return JSON.parse(out.stdout);
}

function scanFigure(figure) {
  const spec = {
    binary: join(bench, "native", "target", "release", "memwasm-bench-native"),
    dataDir: join(bench, ".data"),
    queries: QUERIES,
    seed: SEED,
    ...figure,
  };
  const result = json(process.execPath, ["--max-old-space-size=8192", join(bench, "scan.mjs"), JSON.stringify(spec)]);
  return { ...figure, ...result };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const times = (x) => `${x >= 10 ? x.toFixed(0) : x.toFixed(1)}×`;
const label = (f) => `${f.kind} ${f.n >= 1000 ? `${f.n / 1000}k` : f.n}×${f.dim}`;

function scanTable(figures) {
  const lines = [
    "| data (top-10, scope filter) | native Rust f32 | memwasm f32 | memwasm ÷ native | JS loop (top-k) | ÷ memwasm | JS typical store | ÷ memwasm | Orama 3 | ÷ memwasm | memwasm int8 | f32 ÷ int8 | int8 recall@10 | memwasm auto (default) | JS loop ÷ auto | auto recall@10 |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const f of figures) {
    const c = f.contenders;
    const [nat, m, i8, js, ty, or] = [c["native-f32"], c["memwasm-f32"], c["memwasm-int8"], c["js-loop"], c["js-typical"], c.orama];
    const auto = c["memwasm-auto"];
    lines.push(
      `| ${label(f)} | ${fmt(nat.medianMs)} ms | ${fmt(m.medianMs)} ms | ${(m.medianMs / nat.medianMs).toFixed(2)} | ` +
        `${fmt(js.medianMs)} ms | ${times(js.medianMs / m.medianMs)} | ${fmt(ty.medianMs)} ms | ${times(ty.medianMs / m.medianMs)} | ` +
        `${fmt(or.medianMs)} ms | ${times(or.medianMs / m.medianMs)} | ` +
        `${fmt(i8.medianMs)} ms | ${(m.medianMs / i8.medianMs).toFixed(2)}× | ${i8.recall.toFixed(3)} | ` +
        `${fmt(auto.medianMs)} ms | ${times(js.medianMs / auto.medianMs)} | ${auto.recall.toFixed(3)} |`,
    );
  }
  return lines.join("\n");
}

/** The public call against the strongest baselines: the grouped JS loop (and the lean one) and usearch's native exact search. */
function baselinesTable(figures) {
  const lines = [
    "| data (top-10, scope filter) | memwasm search({embedding}) | recall@10 | grouped JS loop | grouped ÷ search() | lean JS loop | lean ÷ search() | usearch exact f32 | ÷ search() | usearch exact i8 | ÷ search() | usearch i8 recall@10 |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const f of figures.filter((f) => f.contenders["public-vector"])) {
    const c = f.contenders;
    const pub = c["public-vector"];
    const [grouped, lean, f32, i8] = [c["js-grouped"], c["js-lean"], c["usearch-f32"], c["usearch-i8"]];
    lines.push(
      `| ${label(f)} | ${fmt(pub.medianMs)} ms | ${pub.recall.toFixed(3)} | ${fmt(grouped.medianMs)} ms | ${times(grouped.medianMs / pub.medianMs)} | ` +
        `${fmt(lean.medianMs)} ms | ${times(lean.medianMs / pub.medianMs)} | ` +
        `${fmt(f32.medianMs)} ms | ${(f32.medianMs / pub.medianMs).toFixed(2)}× | ${fmt(i8.medianMs)} ms | ${(i8.medianMs / pub.medianMs).toFixed(2)}× | ${i8.recall.toFixed(3)} |`,
    );
  }
  return lines.join("\n");
}

function detailTable(f) {
  const lines = ["| contender | median ms/query | recall@10 | build ms | vector MB |", "|---|---|---|---|---|"];
  const mb = (bytes) => (bytes ? (bytes / 1e6).toFixed(1) : "");
  for (const c of Object.values(f.contenders)) {
    lines.push(`| ${c.name} | ${fmt(c.medianMs)} | ${c.recall.toFixed(3)} | ${c.loadMs.toFixed(0)} | ${mb(c.vectorBytes)} |`);
  }
  return lines.join("\n");
}

function addTable(add) {
  const lines = [
    `One bare LLM call through the scripted server (${add.delayMs} ms delay per LLM and embedding call): ${fmt(add.llmMs)} ms.`,
    "",
    "| add() of a 10-fact conversation (pipeline: scenario) | median | ÷ one LLM call | LLM calls | embedding requests | after add() resolves |",
    "|---|---|---|---|---|---|",
  ];
  for (const s of add.scenarios) {
    const after = s.settleRequests ? `${s.settleRequests} (rewrites)` : "0";
    lines.push(`| ${s.name} | ${fmt(s.medianMs)} ms | ${(s.medianMs / add.llmMs).toFixed(2)} | ${s.llmCalls} | ${s.embeddingRequests} | ${after} |`);
  }
  return lines.join("\n");
}

/** bench/add-quality.mjs --json, or `{missing}` when the MiniLM weights are not on the machine. */
function addQuality() {
  const out = spawnSync(process.execPath, [join(bench, "add-quality.mjs"), "--json"], {
    cwd: bench, encoding: "utf8", maxBuffer: 1 << 24, stdio: ["ignore", "pipe", "pipe"],
  });
  if (out.status === 2) return { missing: out.stderr.trim() };
  if (out.status !== 0) throw new Error(`add-quality.mjs failed with status ${out.status}\n${out.stderr}`);
  return JSON.parse(out.stdout);
}

function qualityTable(q) {
  if (q.missing) return `add() quality (bench/add-quality.mjs): not measured: ${q.missing}.`;
  const n = (x) => (x == null ? "–" : x.toFixed(1));
  const lines = [
    `add() quality: ${q.scenarios} update/duplicate/contradiction scenarios embedded by all-MiniLM-L6-v2 (bench/quality/scenarios.json).`,
    "",
    "| scenarios | exact shows the memory to update | fast shows it | fast where exact does | mean shown, exact | mean shown, fast |",
    "|---|---|---|---|---|---|",
  ];
  for (const [name, f] of [...Object.entries(q.byKind), ["all", q]]) {
    const share = f.ratio == null ? "not measured" : `${f.both}/${f.exactHits} = ${f.ratio.toFixed(3)}`;
    lines.push(`| ${name} (${f.scenarios}) | ${f.exactHits} | ${f.fastHits ?? "–"} | ${share} | ${n(f.meanShown.exact)} | ${n(f.meanShown.fast)} |`);
  }
  return lines.join("\n");
}

/** bench/public.mjs: public search() beside the bare scan, and store() per call as a scope grows. */
function publicTable(pub) {
  const lines = [
    "Public calls over the default index (random 384-d vectors, 9 rows in 10 the searched user's, top 10):",
    "",
    "| memories | bare scan | search({embedding}) | ÷ scan | search(text) (+ one local HTTP embedding call) | ÷ scan | the embedding call alone | search(text) beyond it | totalCount |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const f of pub.search) {
    lines.push(
      `| ${f.n / 1000}k | ${fmt(f.scanMs)} ms | ${fmt(f.byVectorMs)} ms | ${(f.byVectorMs / f.scanMs).toFixed(2)} | ` +
        `${fmt(f.publicMs)} ms | ${(f.publicMs / f.scanMs).toFixed(2)} | ${fmt(f.embedMs)} ms | ${fmt(f.publicMs - f.embedMs)} ms | ${f.totalCount} |`,
    );
  }
  lines.push("", "| memories already in the scope | store(key, value, {userId, embedding}) per call | ÷ at 1k |", "|---|---|---|");
  const base = pub.store[0].storeMs;
  for (const f of pub.store) lines.push(`| ${f.n / 1000}k | ${fmt(f.storeMs)} ms | ${(f.storeMs / base).toFixed(2)} |`);
  if (pub.methods?.length) {
    lines.push("", "search(text) by method over texts of words (bench/lib/word-export.mjs; each but keyword pays one local HTTP embedding call):", "");
    lines.push("| memories | hybrid (the default) | vector | keyword | the embedding call alone | hybrid beyond it |", "|---|---|---|---|---|---|");
    for (const f of pub.methods) {
      const beyond = `${fmt(f.hybridMs - f.embedMs)} ms`;
      lines.push(`| ${f.n / 1000}k | ${fmt(f.hybridMs)} ms | ${fmt(f.vectorMs)} ms | ${fmt(f.keywordMs)} ms | ${fmt(f.embedMs)} ms | ${beyond} |`);
    }
  }
  return lines.join("\n");
}

/** The Worker rows: search p50 per storage and size, cold, after an idle eviction (Durable Objects) and warm. */
function workerTable(rows) {
  if (!rows) return "REST service in workerd (bench/worker.mjs): not run (no wrangler setup).";
  const ms = (x) => (x == null ? "–" : `${fmt(x)} ms`);
  const lines = [
    "REST service in local workerd (`GET /v1/memories/search/`, one scope, 384-d, top 10), search p50:",
    "",
    "| storage | memories | cold (fresh isolate) | wake (index evicted) | warm | warm ÷ warm at 100 |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const base = rows.find((b) => b.storage === r.storage && b.n === 100)?.warm;
    lines.push(`| ${r.storage} | ${r.n} | ${ms(r.cold)} | ${ms(r.wake)} | ${ms(r.warm)} | ${base ? (r.warm / base).toFixed(2) : "–"} |`);
  }
  return lines.join("\n");
}

/** The tenant sharded by user: how it was seeded and what it answered. */
function tenantLine(tenant) {
  if (!tenant) return "A tenant sharded by user (bench/worker-tenant.mjs): not run.";
  return `A tenant of ${tenant.memories.toLocaleString("en")} memories over ${tenant.scopes.toLocaleString("en")} users, one Durable Object each (${tenant.dims}-d, local workerd): ` +
    `seeded at ${Math.round(tenant.seedPerSecond).toLocaleString("en")} memories/s; warm search p50 ${fmt(tenant.probeWarm)} ms per user of ${tenant.perScope.toLocaleString("en")} ` +
    `against ${fmt(tenant.big.warm)} ms for the user of 10,000; first search of a user ${fmt(tenant.probeCold)} ms; by id through the directory ${fmt(tenant.byId)} ms; ` +
    `export ${tenant.export.pages} pages, ${tenant.export.megabytes.toFixed(0)} MB in ${tenant.export.seconds.toFixed(0)} s; the largest object's wasm memory ${tenant.largestObjectMb.toFixed(1)} MB alone, every object's together in workerd's one isolate at most ${Math.max(...Object.values(tenant.wasmMb)).toFixed(1)} MB.`;
}

/** Every target of the speed issue, with the measured value and whether it is met. */
function targets(figures, add, wasm, browser, quality, worker, pub, sqlite, tenant, sync, imported) {
  const find = (kind, n, dim) => figures.find((f) => f.kind === kind && f.n === n && f.dim === dim)?.contenders;
  const rows = [];
  const check = (what, value, ok, shown) => rows.push(`| ${what} | ${shown ?? value} | ${ok ? "met" : "NOT met"} |`);
  for (const kind of ["random", "clustered"]) {
    const c = find(kind, 100_000, 384);
    if (!c) continue;
    // The default index ("auto": an int8 scan rescored from f32 at this size) against every JS contender.
    const auto = c["memwasm-auto"].medianMs;
    for (const [key, name] of [["js-loop", "JS loop (top-k)"], ["js-typical", "JS typical store"], ["orama", "Orama"]]) {
      const ratio = c[key].medianMs / auto;
      check(`${kind} 100k×384: ${name} ÷ memwasm default ≥ 10`, times(ratio), ratio >= 10);
    }
    check(`${kind} 100k×384: default index recall@10 ≥ 0.99`, c["memwasm-auto"].recall.toFixed(3), c["memwasm-auto"].recall >= 0.99);
  }
  for (const [kind, n, least] of [["random", 10_000, 5], ["random", 100_000, 10], ["clustered", 100_000, 10]]) {
    const c = find(kind, n, 384);
    if (!c?.["public-vector"]) continue;
    const search = c["public-vector"];
    // The faster of the two plain-JS loops is the one to beat (the grouped one, so far).
    const js = Math.min(c["js-grouped"].medianMs, c["js-lean"].medianMs);
    const jsRatio = js / search.medianMs;
    check(`${kind} ${n / 1000}k×384: fastest JS loop ÷ public search({embedding}) ≥ ${least}`, times(jsRatio), jsRatio >= least,
      `${times(jsRatio)} (${fmt(js)} ms against ${fmt(search.medianMs)} ms)`);
    check(`${kind} ${n / 1000}k×384: public search() recall@10 ≥ 0.99`, search.recall.toFixed(3), search.recall >= 0.99);
    if (n < 100_000) continue;
    // usearch's faster exact search (i8 here) is the one to beat.
    const usearch = Math.min(c["usearch-f32"].medianMs, c["usearch-i8"].medianMs);
    const ratio = usearch / search.medianMs;
    check(`${kind} ${n / 1000}k×384: native usearch exact search (1 thread, its faster dtype) ÷ public search() ≥ 1`, `${ratio.toFixed(2)}×`,
      ratio >= 1, `${ratio.toFixed(2)}× (${fmt(usearch)} ms against ${fmt(search.medianMs)} ms)`);
  }
  const large = pub.search.find((f) => f.n === 100_000);
  const loop = find("random", 100_000, 384)?.["js-grouped"];
  if (large && loop) {
    const beyond = large.publicMs - large.embedMs;
    const ratio = loop.medianMs / beyond;
    check("random 100k×384: fastest JS loop ÷ the default search(text) beyond its embedding call ≥ 5", times(ratio), ratio >= 5,
      `${times(ratio)} (${fmt(loop.medianMs)} ms against ${fmt(beyond)} ms)`);
  }
  if (large) {
    const ratio = large.byVectorMs / large.scanMs;
    check("public search({embedding}) at 100k×384 within 1.2× of the bare scan", `${ratio.toFixed(2)}×`, ratio <= 1.2);
  }
  const keyword = pub.methods?.find((f) => f.n === 100_000);
  if (keyword && loop) {
    const beyond = keyword.hybridMs - keyword.embedMs;
    const ratio = loop.medianMs / beyond;
    check("100k memories of words: fastest JS loop (random 100k×384) ÷ the default search(text) beyond its embedding call ≥ 5", times(ratio),
      ratio >= 5, `${times(ratio)} (${fmt(loop.medianMs)} ms against ${fmt(beyond)} ms)`);
  }
  if (keyword) check("search(text, {method: \"keyword\"}) over 100k memories of words ≤ 3 ms", `${fmt(keyword.keywordMs)} ms`, keyword.keywordMs <= 3);
  const [small, big] = pub.store;
  check("store() per call: 10k memories in the scope within 2× of 1k", `${(big.storeMs / small.storeMs).toFixed(2)}×`, big.storeMs <= 2 * small.storeMs);
  for (const s of add.scenarios.filter((s) => s.pipeline !== "exact")) { // the default pipeline and additive; exact is for reference
    // UPDATEs rewrite texts: one more embedding request; additive makes one LLM call and one embedding request.
    const limit = s.pipeline === "additive" ? 1.15 : /UPDATE/.test(s.name) ? 2.6 : 2.3;
    const ratio = s.medianMs / add.llmMs;
    check(`add(), ${s.name}: ≤ ${limit} × one LLM call`, ratio.toFixed(2), ratio <= limit);
  }
  const first = wasm.core.gzipBytes;
  const download = browser?.[0]?.download;
  const before = download
    ? `; a fresh page downloads ${download.gzipBytes} bytes gzipped of the package before its first search result, ${download.files} files with the .wasm`
    : "";
  check("browser .wasm ≤ 300 KB gzipped (the core module, loaded at import)", first, first <= 300_000,
    `${first} bytes (the full module, fetched on first use: ${wasm.full.gzipBytes}${before})`);
  for (const { n, importMs, openMs } of browser ?? []) {
    const limit = n === 10_000 ? 120 : 800;
    check(`Chromium, a real export of ${n} memories (history, UUID ids) in IndexedDB: Memory.open → first result ≤ ${limit} ms`, `${openMs.toFixed(0)} ms`, openMs <= limit);
    if (n === 10_000) check("Chromium: importMemories of 10k ≤ 600 ms", `${importMs.toFixed(0)} ms`, importMs <= 600);
  }
  if (!browser) rows.push("| browser cold start (bench/browser.mjs) | not run (no Chromium) | NOT met |");
  const open10k = sqlite?.rows.find((r) => r.n === 10_000);
  if (open10k?.sqlite.plainScanMs != null) {
    const { openMs, plainScanMs } = open10k.sqlite;
    const ratio = openMs / plainScanMs;
    check("SQLite (Node), 10k memories: Memory.open → first result ≤ 1.2× a plain scan of the same rows, and ≤ 100 ms", `${ratio.toFixed(2)}×`,
      ratio <= 1.2 && openMs <= 100, `${ratio.toFixed(2)}× (${openMs.toFixed(0)} ms against ${plainScanMs.toFixed(0)} ms)`);
  } else rows.push("| SQLite (Node) cold start against a plain scan (bench/sqlite.mjs) | not run | NOT met |");
  const fastShows = "add() fast pipeline shows the memory to update in ≥ 95% of the scenarios the exact path does";
  if (quality.missing) rows.push(`| ${fastShows} | not measured: weights missing | NOT met |`);
  else if (quality.ratio == null) rows.push(`| ${fastShows} | not measured: this pkg/ has no \`pipeline\` option | NOT met |`);
  else check(fastShows, `${quality.both}/${quality.exactHits} = ${quality.ratio.toFixed(3)}`, quality.ratio >= 0.95);
  const objects = (n) => worker?.find((r) => r.storage === "do" && r.n === n);
  if (objects(100) && objects(10_000)) { // the scale-out issue's targets, reported here
    const ratio = objects(10_000).warm / objects(100).warm;
    check("Worker (Durable Objects): warm search p50 at 10k within 2× of 100", `${ratio.toFixed(2)}×`, ratio <= 2);
    const { restart, wake } = objects(10_000);
    check("Worker (Durable Objects): first search after an isolate restart (image written), 10k scope ≤ 150 ms", `${fmt(restart)} ms`, restart <= 150);
    check("Worker (Durable Objects): first search after a wake (the idle eviction), 10k scope ≤ 150 ms", `${fmt(wake)} ms`, wake <= 150);
  } else rows.push("| Worker (bench/worker.mjs) | not run | NOT met |");
  if (tenant) {
    const at = `${tenant.memories.toLocaleString("en")} memories over ${tenant.scopes.toLocaleString("en")} users' objects`;
    const ratio = tenant.probeWarm / tenant.big.warm;
    check(`Worker (DO_SHARDS = "scope"), ${at}: warm search per user ÷ a 10k tenant's warm search ≤ 1`, `${ratio.toFixed(2)}×`, ratio <= 1,
      `${ratio.toFixed(2)}× (${fmt(tenant.probeWarm)} ms against ${fmt(tenant.big.warm)} ms)`);
    check(`Worker (DO_SHARDS = "scope"), ${at}: the export holds every memory`, `${tenant.export.memories.toLocaleString("en")}`,
      tenant.export.memories === tenant.memories, `${tenant.export.memories.toLocaleString("en")} in ${tenant.export.pages} pages, ${tenant.export.seconds.toFixed(0)} s`);
    const peak = Math.max(...Object.values(tenant.wasmMb));
    check(`Worker (DO_SHARDS = "scope"), ${at}: no object's wasm memory over 100 MB (the largest, the 10k user's, alone in a fresh isolate)`,
      `${tenant.largestObjectMb.toFixed(1)} MB`, tenant.largestObjectMb <= 100,
      `${tenant.largestObjectMb.toFixed(1)} MB (all 1,001 objects in one workerd isolate together: at most ${peak.toFixed(1)} MB)`);
  } else rows.push("| Worker, a tenant sharded by user (bench/worker-tenant.mjs) | not run | NOT met |");
  if (sync) for (const [what, measured, ok] of syncTargets(sync).filter(([what]) => !what.startsWith("("))) check(`Sync (bench/sync.mjs): ${what}`, measured, ok);
  else rows.push("| Sync between devices through the Worker (bench/sync.mjs) | not run | NOT met |");
  if (imported) for (const [what, measured, ok] of importTargets(imported)) check(`Import (bench/import.mjs): ${what}`, measured, ok);
  else rows.push("| Import of a ChatGPT export (bench/import.mjs) | not run | NOT met |");
  return ["| target | measured | |", "|---|---|---|", ...rows].join("\n");
}

/** Both browser modules: `core` (loaded at import) and `full` (fetched on first use; Node and Workers load it). */
function size() {
  const measure = (path) => {
    const file = join(root, "pkg", "dist", path);
    const wasm = readFileSync(file);
    return { rawBytes: wasm.length, gzipBytes: gzipSize(file, wasm) };
  };
  return { core: measure("core/memwasm_bg.wasm"), full: measure("memwasm_bg.wasm") };
}

if (!args.has("--no-build")) build();
// Imported once the build has installed bench/'s packages (MiniSearch, better-sqlite3, the package itself),
// so that a fresh clone's first `npm run bench` gets that far.
const { listBench } = await import("./list.mjs");
const { recallTable, targetsTable: locomoTargets } = await import("./locomo/report.mjs");
const { rerankTable } = await import("./lib/rerank-table.mjs");
const { sqliteTable } = await import("./sqlite.mjs");
const { syncTable, syncTargets } = await import("./sync.mjs");
const { importTable, importTargets } = await import("./import.mjs");
const started = Date.now();
const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  memoryGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  loadAverageAtStart: loadavg()[0],
};
const figures = [];
for (const figure of FIGURES) {
  say(`scan: ${label(figure)} (${figure.contenders.join(", ")})`);
  figures.push(scanFigure(figure));
}
say("add(): scripted server, 200 ms per LLM and embedding call");
const add = json(process.execPath, [join(bench, "add.mjs"), JSON.stringify({ rounds: 5, delayMs: 200 })]);
say("public search() beside the bare scan, store() as a scope grows (bench/public.mjs)");
const pub = json(process.execPath, ["--max-old-space-size=8192", join(bench, "public.mjs"), ...(args.has("--quick") ? ["--quick"] : [])]);
say("search() with the reranker stage, 20 and 50 candidates (bench/rerank.mjs)");
const rerank = json(process.execPath, [join(bench, "rerank.mjs"), ...(args.has("--quick") ? ["--quick"] : [])]);
say("getAll paging as a scope grows (bench/list.mjs)");
const list = listBench({ quick: args.has("--quick") });
say("add() quality: fast pipeline against exact, all-MiniLM-L6-v2 (bench/add-quality.mjs)");
const quality = addQuality();
if (quality.missing) say(`add() quality not measured: ${quality.missing}`);
say("LOCOMO retrieval against MiniSearch and dense baselines (bench/locomo/run.mjs)");
const locomo = (() => {
  const out = spawnSync(process.execPath, [join(bench, "locomo", "run.mjs"), "--json"], {
    cwd: bench, encoding: "utf8", maxBuffer: 1 << 24, stdio: ["ignore", "pipe", "pipe"],
  });
  if (out.status === 2) return { missing: out.stderr.trim() };
  if (out.status !== 0) throw new Error(`locomo/run.mjs failed with status ${out.status}\n${out.stderr}`);
  return JSON.parse(out.stdout);
})();
if (locomo.missing) say(`LOCOMO not measured: ${locomo.missing}`);
say("cold start: SQLite in Node beside IndexedDB in headless Chromium (bench/sqlite.mjs, which runs bench/browser.mjs)");
let browser;
let sqlite;
try {
  sqlite = json(process.execPath, [join(bench, "sqlite.mjs"), "--json"]);
  browser = sqlite.browser ?? undefined;
  if (sqlite.browserError) say(`browser bench skipped: ${sqlite.browserError}`);
} catch (error) {
  say(`sqlite bench skipped: ${error.message.split("\n")[0]}`);
  try {
    browser = json(process.execPath, [join(bench, "browser.mjs"), "--json"]);
  } catch (error) {
    say(`browser bench skipped: ${error.message.split("\n")[0]}`);
  }
}
say("the REST service in local workerd (bench/worker.mjs: KV and Durable Objects, 100 / 1k / 10k memories)");
let worker;
try {
  execFileSync(process.execPath, [join(bench, "worker.mjs"), "--sizes", "100,1000,10000"], { cwd: bench, stdio: ["ignore", "ignore", "inherit"] });
  worker = JSON.parse(readFileSync(join(bench, "results/worker.json"), "utf8")).rows;
} catch (error) {
  say(`worker bench skipped: ${error.message.split("\n")[0]}`);
}
const tenantMemories = args.has("--quick") ? "100000" : "1000000";
say(`a tenant of ${tenantMemories} memories over 1,000 users' objects in local workerd (bench/worker-tenant.mjs)`);
let tenant;
try {
  execFileSync(process.execPath, [join(bench, "worker-tenant.mjs"), "--no-build", "--memories", tenantMemories, "--scopes", "1000"], { cwd: bench, stdio: ["ignore", "ignore", "inherit"] });
  tenant = JSON.parse(readFileSync(join(bench, "results/worker-tenant.json"), "utf8"));
} catch (error) {
  say(`tenant bench skipped: ${error.message.split("\n")[0]}`);
}
say("sync: 10,000 memories to a new device and 10 changes through local workerd, against export + import (bench/sync.mjs)");
let sync;
try {
  sync = json(process.execPath, [join(bench, "sync.mjs"), "--json"]);
} catch (error) {
  say(`sync bench skipped: ${error.message.split("\n")[0]}`);
}
say("import: a generated ChatGPT export of 1,000 conversations into SQLite, scripted models with no delay (bench/import.mjs)");
let imported;
try {
  imported = json(process.execPath, [join(bench, "import.mjs"), "--json"]);
} catch (error) {
  say(`import bench skipped: ${error.message.split("\n")[0]}`);
}
const wasm = releaseSize ?? size();
machine.loadAverageAtEnd = loadavg()[0];
const results = { date: new Date().toISOString(), machine, seconds: (Date.now() - started) / 1000, figures, add, public: pub, rerank, quality, locomo, browser, sqlite: sqlite && { ...sqlite, browser: undefined }, worker, tenant, sync, import: imported, size: wasm };
results.list = list.result;

const report = [
  `Machine: ${machine.cpus} × ${machine.cpu}, ${machine.memoryGb} GB, Node ${machine.node}; 1-minute load average ` +
    `${machine.loadAverageAtStart.toFixed(1)} at the start, ${machine.loadAverageAtEnd.toFixed(1)} at the end. ` +
    `Medians of ${QUERIES} queries × rounds, in ms per query.`,
  "",
  scanTable(figures),
  "",
  "The public call against the strongest baselines (usearch: the searched scope's rows only, one thread):",
  "",
  baselinesTable(figures),
  "",
  ...figures.filter((f) => f.contenders["public-f32"]).flatMap((f) => [`${label(f)}, every contender:`, "", detailTable(f), ""]),
  publicTable(pub),
  "",
  rerankTable(rerank),
  "",
  list.table,
  "",
  addTable(add),
  "",
  qualityTable(quality),
  "",
  locomo.missing ? `LOCOMO retrieval (bench/locomo/run.mjs): not measured: ${locomo.missing}.` : `${recallTable(locomo)}\n\nLOCOMO targets:\n\n${locomoTargets(locomo)}`,
  "",
  `Browser .wasm: the core module ${wasm.core.rawBytes} bytes raw, ${wasm.core.gzipBytes} gzipped (loaded at import); ` +
    `the full module ${wasm.full.rawBytes} raw, ${wasm.full.gzipBytes} gzipped (fetched on first use of graph, conversations, documents, Chroma or KV).`,
  "",
  sqlite ? sqliteTable(sqlite) : "SQLite beside IndexedDB (bench/sqlite.mjs): not run.",
  "",
  workerTable(worker),
  "",
  tenantLine(tenant),
  "",
  sync ? syncTable(sync) : "Sync between devices (bench/sync.mjs): not run.",
  "",
  imported ? importTable(imported) : "Import of a ChatGPT export (bench/import.mjs): not run.",
  "",
  targets(figures, add, wasm, browser, quality, worker, pub, sqlite, tenant, sync, imported),
].join("\n");
process.stdout.write(report + "\n");
mkdirSync(join(bench, "results"), { recursive: true });
writeFileSync(join(bench, "results", "latest.json"), JSON.stringify(results, null, 2) + "\n");
say(`wrote bench/results/latest.json (${results.seconds.toFixed(0)} s)`);
