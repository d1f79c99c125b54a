// Node's SQLite storage beside the browser's IndexedDB, in one run: for each size, a fresh SQLite file gets
// the same export file bench/browser.mjs imports (bench/lib/export-file.mjs: n memories of user "bench",
// 384-d, with their vectors, UUID ids and one history record each) by `importMemories` (timed); then 3
// rounds of `Memory.open` on the file → the first `search({embedding}, {userId: "bench", limit: 10})`
// (median), closing and freeing it after each (as docs/node-storage.md tells a service that opens and
// closes memories); then add()'s write cost: 200 sequential `infer: false` adds (a custom
// embedder's fixed vector, no LLM) on a SQLite file against the same in memory, per add. Then it runs
// `node bench/browser.mjs --json` on the same sizes (headless Chromium, IndexedDB) and prints one table
// with the ratios and the target (open → first result at 10k within 1.2× of a plain scan, the same rows
// read with the same SQLite library, each record parsed and each vector scored, top 10; and ≤ 100 ms). The first open after the import reads every row and writes the store's open image; the median
// of 3 is the opens that read the image. SQLite is node:sqlite on Node 22.5+, else better-sqlite3 (bench/'s
// npm install).
//
// Usage: node bench/sqlite.mjs [--n 10000,100000] [--json] [--indexeddb-json <file or inline JSON>]
// (--indexeddb-json: browser.mjs's --json output to use instead of running it). --json prints
// `{machine, rows, writeCost, browser}` (`browser`: browser.mjs's rows, or null with `browserError`);
// bench/run.mjs prints it with `sqliteTable`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { DIM, exportFile, vector } from "./lib/export-file.mjs";
import { median } from "./lib/stats.mjs";
import { timeAdds } from "./lib/write-cost.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const ADDS = 200;
const SCAN_RATIO_TARGET = 1.2;
const OPEN_MS_TARGET = 100;

const ms = (x) => (x == null ? "–" : `${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)} ms`);
const ratio = (a, b) => (a == null || b == null ? null : a / b);
const times = (x) => (x == null ? "–" : `${x.toFixed(2)}×`);

/** The table of a `--json` result (also bench/run.mjs's). */
export function sqliteTable({ machine, rows, writeCost, browserError }) {
  const idb = browserError ? ` (IndexedDB not measured: ${browserError})` : "";
  const lines = [
    `Cold start and writes: SQLite in Node (${machine.driver}, one file) beside IndexedDB in headless Chromium; ` +
      `384-d, search by vector top 10, median of 3 opens${idb}.`,
    "",
    "| figure | SQLite (Node) | IndexedDB (Chromium) | SQLite ÷ IndexedDB | target |",
    "|---|---|---|---|---|",
  ];
  const scanRows = [];
  for (const r of rows) {
    lines.push(`| ${r.n} memories: importMemories | ${ms(r.sqlite.importMs)} | ${ms(r.indexeddb?.importMs)} | ${times(r.importRatio)} | |`);
    lines.push(`| ${r.n} memories: Memory.open → first result | ${ms(r.sqlite.openMs)} | ${ms(r.indexeddb?.openMs)} | ${times(r.openRatio)} | |`);
    const scanRatio = ratio(r.sqlite.openMs, r.sqlite.plainScanMs);
    const ok = scanRatio != null && scanRatio <= SCAN_RATIO_TARGET && r.sqlite.openMs <= OPEN_MS_TARGET;
    const met = r.n === 10_000 ? ` ≤ ${SCAN_RATIO_TARGET}× and ≤ ${OPEN_MS_TARGET} ms: ${ok ? "met" : "NOT met"}` : "";
    scanRows.push(`| ${r.n} | ${ms(r.sqlite.firstOpenMs)} | ${ms(r.sqlite.openMs)} | ${ms(r.sqlite.textOpenMs)} | ${ms(r.sqlite.plainScanMs)} | ${times(scanRatio)} |${met} |`);
  }
  const cost = (w) => (w ? `${ms(w.writeMs)} (${ms(w.storageMs)} stored − ${ms(w.inMemoryMs)} in memory)` : "–");
  const { sqlite, indexeddb } = writeCost;
  lines.push(`| add() write cost per call (${sqlite.adds} infer: false adds, storage − in memory) | ${cost(sqlite)} | ${cost(indexeddb)} | ` +
    `${times(ratio(sqlite.writeMs, indexeddb?.writeMs))} | |`);
  lines.push("", `Against a plain scan of the same file (${machine.driver}: every row read, its record parsed, its vector ` +
    "scored; top 10), median of 3; the first open after the import reads every row and writes the open image. " +
    "search(text) is the default hybrid search (an instant custom embedder): its keyword index is built on first use.", "",
    "| memories | first open (rows) | open (image) → first result | open (image) → first search(text) | plain scan | open ÷ scan | target |",
    "|---|---|---|---|---|---|---|", ...scanRows);
  return lines.join("\n");
}

/** A plain scan of the file at `path`, as an app would write one: every row read with the SQLite library
 * this Node has, each record parsed, each vector scored against `query`; the top 10. Milliseconds. */
async function plainScan(path, query) {
  const { DatabaseSync } = await import("node:sqlite").catch(() => ({}));
  const started = performance.now();
  const db = DatabaseSync ? new DatabaseSync(path, { readOnly: true }) : new (await import("better-sqlite3")).default(path, { readonly: true });
  const rows = DatabaseSync ? db.prepare("SELECT record, vector FROM memories").all().map(Object.values)
    : db.prepare("SELECT record, vector FROM memories").raw().all();
  const best = [];
  for (const [record, bytes] of rows) {
    const memory = JSON.parse(record);
    if (memory.userId !== "bench" || !bytes) continue;
    const vector = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    let score = 0;
    for (let d = 0; d < vector.length; d++) score += vector[d] * query[d];
    if (best.length < 10 || score > best[9].score) {
      best.push({ score, memory });
      best.sort((a, b) => b.score - a.score);
      best.length = Math.min(best.length, 10);
    }
  }
  db.close();
  if (best.length !== 10) throw new Error(`plain scan: ${best.length} results`);
  return performance.now() - started;
}

/** browser.mjs's --json rows: from `--indexeddb-json` (a file or the JSON itself), else by running it. */
function indexeddbRows(sizes, given) {
  if (given) return JSON.parse(existsSync(given) ? readFileSync(given, "utf8") : given);
  process.stderr.write("[bench sqlite] IndexedDB in headless Chromium (bench/browser.mjs)\n");
  const out = spawnSync(process.execPath, [join(bench, "browser.mjs"), "--json", "--n", sizes.join(",")], {
    cwd: bench, encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "inherit"],
  });
  if (out.status !== 0) throw new Error(`bench/browser.mjs failed with status ${out.status}`);
  return JSON.parse(out.stdout);
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const sizes = (option("--n") ?? "10000,100000").split(",").map(Number);
  const { Memory } = await import("memwasm");
  const driver = await import("node:sqlite").then(() => "node:sqlite", () => "better-sqlite3");
  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, driver, loadAverageAtStart: loadavg()[0] };
  const scratch = mkdtempSync(join(tmpdir(), "memwasm-bench-sqlite-"));
  const config = (path) => ({
    llm: { provider: "none" },
    embedder: { provider: "custom", dimensions: DIM, embed: async (texts) => texts.map(() => vector(1)) },
    storage: { provider: "sqlite", config: { path } },
  });
  const query = vector(999_999);
  const sqlite = [];
  let writeCost;
  try {
    for (const n of sizes) {
      const path = join(scratch, `bench-${n}.sqlite`);
      const text = readFileSync(exportFile(n), "utf8");
      let memory = await Memory.open(config(path));
      let started = performance.now();
      await memory.importMemories(text);
      const importMs = performance.now() - started;
      memory.close();
      memory.free(); // as a service that opens and closes memories is told to (docs/node-storage.md)
      const opens = [];
      for (let round = 0; round < 4; round++) {
        started = performance.now();
        memory = await Memory.open(config(path));
        const found = await memory.search({ embedding: query }, { userId: "bench", limit: 10 });
        if (found.results.length !== 10) throw new Error(`${found.results.length} results`);
        opens.push(performance.now() - started);
        memory.close();
        memory.free();
      }
      // The default search(text): its keyword half builds the keyword index on first use.
      const textOpens = [];
      for (let round = 0; round < 3; round++) {
        started = performance.now();
        memory = await Memory.open(config(path));
        const found = await memory.search("coffee in the morning", { userId: "bench", limit: 10 });
        if (found.results.length !== 10) throw new Error(`${found.results.length} results`);
        textOpens.push(performance.now() - started);
        memory.close();
        memory.free();
      }
      const scans = [];
      for (let round = 0; round < 3; round++) scans.push(await plainScan(path, query));
      sqlite.push({ n, importMs, firstOpenMs: opens[0], openMs: median(opens.slice(1)), opens, plainScanMs: median(scans), textOpenMs: median(textOpens) });
      process.stderr.write(`[bench sqlite] ${n}: import ${importMs.toFixed(0)} ms, open → first search ${opens.map((t) => t.toFixed(0)).join(", ")} ms, plain scan ${sqlite.at(-1).plainScanMs.toFixed(0)} ms\n`);
    }
    writeCost = await timeAdds(Memory, { provider: "sqlite", config: { path: join(scratch, "add.sqlite") } }, ADDS, DIM);
    process.stderr.write(`[bench sqlite] add(): SQLite ${writeCost.storageMs.toFixed(2)} ms, in memory ${writeCost.inMemoryMs.toFixed(2)} ms per add\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  let browser = null;
  let browserError;
  try {
    browser = indexeddbRows(sizes, option("--indexeddb-json"));
  } catch (error) {
    browserError = error.message.split("\n")[0];
    process.stderr.write(`[bench sqlite] IndexedDB not measured: ${browserError}\n`);
  }
  machine.loadAverageAtEnd = loadavg()[0];
  const rows = sqlite.map((s) => {
    const i = browser?.find((b) => b.n === s.n);
    const indexeddb = i ? { importMs: i.importMs, openMs: i.openMs } : null;
    return { n: s.n, sqlite: s, indexeddb, importRatio: ratio(s.importMs, indexeddb?.importMs), openRatio: ratio(s.openMs, indexeddb?.openMs) };
  });
  const result = { machine, rows, writeCost: { sqlite: writeCost, indexeddb: browser?.[0]?.writeCost ?? null }, browser, ...(browserError ? { browserError } : {}) };
  if (args.includes("--json")) {
    process.stdout.write(JSON.stringify(result) + "\n");
    return;
  }
  console.log(`Machine: ${machine.cpus} × ${machine.cpu}, Node ${machine.node}; 1-minute load average ` +
    `${machine.loadAverageAtStart.toFixed(1)} at the start, ${machine.loadAverageAtEnd.toFixed(1)} at the end.\n`);
  console.log(sqliteTable(result));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
