// getAll's paging as a scope grows: for 1k, 10k and 100k memories (bench/lib/word-export.mjs, imported with
// `importMemories`; 9 in 10 are user "u0"'s), the median ms of `getAll({userId: "u0", limit: 10})` at offset
// 0 and at the last page, and the ms to page through all of u0's memories 100 at a time. Runs in its own
// Node process on ../pkg (no npm install needed). Prints a table with the targets, or with --json one JSON
// object; bench/run.mjs calls `listBench()`, which runs it so and returns the table and the figures.
// Usage: node bench/list.mjs [--json] [--quick] (--quick: 1k and 10k only).
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { median } from "./lib/stats.mjs";
import { wordExport } from "./lib/word-export.mjs";

const DIM = 64;
const ROUNDS = 20;
const PAGE = 10;
const WALK = 100;
/** Targets at 100k memories: a page of 10, and paging through the scope 100 at a time. */
const PAGE_TARGET_MS = 2;
const WALK_TARGET_MS = 2000;

const ms = (x) => `${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)} ms`;

/** Median ms of a page of 10 at `offset` (ROUNDS calls, one warm-up). */
async function pageMs(mem, offset) {
  const times = [];
  for (let r = -1; r < ROUNDS; r++) {
    const start = performance.now();
    const page = await mem.getAll({ userId: "u0", limit: PAGE, offset });
    if (r >= 0) times.push(performance.now() - start);
    if (page.results.length === 0) throw new Error(`no page at offset ${offset}`);
  }
  return median(times);
}

/** Ms to read every memory of u0, WALK at a time; checks that each is listed once. */
async function walkMs(mem, total) {
  const seen = new Set();
  const start = performance.now();
  for (let offset = 0; offset < total; offset += WALK) {
    const page = await mem.getAll({ userId: "u0", limit: WALK, offset });
    for (const item of page.results) seen.add(item.id);
  }
  const elapsed = performance.now() - start;
  if (seen.size !== total) throw new Error(`paging listed ${seen.size} memories of ${total}`);
  return elapsed;
}

async function figure(Memory, n) {
  const mem = new Memory({
    llm: { provider: "openai", config: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "bench", model: "bench" } },
    embedder: { provider: "openai", config: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "bench", model: "bench", dimensions: DIM } },
  });
  await mem.importMemories(wordExport(n, DIM, { seed: 5 + n, count: 0 }).text);
  const { totalCount } = await mem.getAll({ userId: "u0", limit: 1 });
  const row = {
    n,
    scope: totalCount,
    firstPageMs: await pageMs(mem, 0),
    lastPageMs: await pageMs(mem, totalCount - PAGE),
    walkMs: await walkMs(mem, totalCount),
  };
  mem.free?.();
  return row;
}

/** The table of a `--json` result, with the targets at 100k. */
export function listTable({ rows, loadAverage }) {
  const lines = [
    `getAll({userId, limit}) paging (bench/list.mjs; 1-minute load average ${loadAverage.map((x) => x.toFixed(1)).join(" → ")}):`,
    "",
    "| memories | of the scope | page of 10, offset 0 | page of 10, last page | paging through the scope, 100 at a time |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.n} | ${r.scope} | ${ms(r.firstPageMs)} | ${ms(r.lastPageMs)} | ${ms(r.walkMs)} |`),
  ];
  const big = rows.find((r) => r.n === 100_000);
  if (big) {
    const met = (ok) => (ok ? "met" : "NOT met");
    const page = Math.max(big.firstPageMs, big.lastPageMs);
    lines.push("", "| target (100k memories) | measured | |", "|---|---|---|");
    lines.push(`| a page of 10 ≤ ${PAGE_TARGET_MS} ms, at offset 0 and at the end | ${ms(page)} | ${met(page <= PAGE_TARGET_MS)} |`);
    lines.push(`| paging through the scope 100 at a time ≤ ${WALK_TARGET_MS / 1000} s | ${ms(big.walkMs)} | ${met(big.walkMs <= WALK_TARGET_MS)} |`);
  }
  return lines.join("\n");
}

/** Runs this file in a Node process of its own: `{table, result}`. */
export function listBench({ quick = false } = {}) {
  const argv = ["--max-old-space-size=8192", fileURLToPath(import.meta.url), "--json", ...(quick ? ["--quick"] : [])];
  const out = spawnSync(process.execPath, argv, { encoding: "utf8", maxBuffer: 1 << 24, stdio: ["ignore", "pipe", "inherit"] });
  if (out.status !== 0) throw new Error(`bench/list.mjs failed with status ${out.status}`);
  const result = JSON.parse(out.stdout);
  return { table: listTable(result), result };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { Memory } = await import("../pkg/index.node.mjs");
  const quick = process.argv.includes("--quick");
  const loadAverage = [loadavg()[0]];
  const rows = [];
  for (const n of [1_000, 10_000, 100_000].filter((n) => !quick || n <= 10_000)) rows.push(await figure(Memory, n));
  loadAverage.push(loadavg()[0]);
  const result = { rows, loadAverage };
  process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(result)}\n` : `${listTable(result)}\n`);
}
