// Cold start in a real browser (Debian's headless Chromium, driven by playwright-core as the browser tests
// do): a page imports N memories (384-d, with their vectors) into IndexedDB with `importMemories`, then a
// freshly loaded page measures `Memory.open` → the first search result (search by vector, top 10), three
// times (median). Usage: `node bench/browser.mjs [--n 10000,100000]`; needs the package built and the
// browser tests' setup (`bash scripts/test.sh` does both). Prints a table with the targets (`--json`: the rows,
// for bench/run.mjs).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { harness } from "../tests/browser-crash/harness.mjs";
import { unitVector } from "./lib/unit-vector.mjs";

const DIM = 384;
const bench = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const sizes = (args.includes("--n") ? args[args.indexOf("--n") + 1] : "10000,100000").split(",").map(Number);
const TARGETS = { 10_000: 200, 100_000: 1500 };
const IMPORT_TARGET_MS = { 10_000: 1000 };

const vector = (seed) => unitVector(seed, DIM);

/** The export file of `n` memories of user "bench" (written once under bench/.data/, served to the page). */
function exportFile(n) {
  const path = join(bench, ".data", `browser-${n}.jsonl`);
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const now = "2026-01-01T00:00:00.000Z";
  const lines = [JSON.stringify({ kind: "memwasm-export", version: 2, memories: n, history: 0 })];
  for (let i = 0; i < n; i++) {
    const text = `bench memory ${i}`;
    const embedding = Buffer.from(new Float32Array(vector(i + 1)).buffer).toString("base64");
    const hash = createHash("md5").update(text).digest("hex");
    lines.push(JSON.stringify({ kind: "memory", id: `m${i}`, memory: text, hash, metadata: {}, createdAt: now,
      updatedAt: now, userId: "bench", embedding }));
  }
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

const h = await harness();
const rows = [];
try {
  for (const n of sizes) {
    const file = `/bench/.data/browser-${n}.jsonl`;
    exportFile(n);
    const browser = await h.launch(h.profile());
    const config = h.config(`bench-${n}`);
    let page = await h.openPage(browser.context);
    const importMs = await page.evaluate(async ({ file, config }) => {
      const text = await (await fetch(file)).text();
      const memory = await window.memwasm.Memory.open(config);
      const started = performance.now();
      await memory.importMemories(text);
      return performance.now() - started;
    }, { file, config });
    const opens = [];
    for (let round = 0; round < 3; round++) {
      await page.close();
      page = await h.openPage(browser.context);
      opens.push(await page.evaluate(async ({ config, query }) => {
        const started = performance.now();
        const memory = await window.memwasm.Memory.open(config);
        const found = await memory.search({ embedding: query }, { userId: "bench", limit: 10 });
        if (found.results.length !== 10) throw new Error(`${found.results.length} results`);
        return performance.now() - started;
      }, { config, query: vector(999_999) }));
    }
    await browser.kill();
    opens.sort((a, b) => a - b);
    rows.push({ n, importMs, openMs: opens[1] });
    process.stderr.write(`[bench browser] ${n}: import ${importMs.toFixed(0)} ms, open → first search ${opens.map((t) => t.toFixed(0)).join(", ")} ms\n`);
  }
} finally {
  await h.close();
}

if (args.includes("--json")) {
  process.stdout.write(JSON.stringify(rows) + "\n");
  process.exit(0);
}
console.log("\nCold start in headless Chromium (IndexedDB, 384-d, search by vector top 10; median of 3 opens)");
console.log("| memories | importMemories | target | Memory.open → first result | target |\n|---|---|---|---|---|");
for (const { n, importMs, openMs } of rows) {
  const importTarget = IMPORT_TARGET_MS[n] ? `≤ ${IMPORT_TARGET_MS[n]} ms: ${importMs <= IMPORT_TARGET_MS[n] ? "met" : "NOT met"}` : "";
  const openTarget = TARGETS[n] ? `≤ ${TARGETS[n]} ms: ${openMs <= TARGETS[n] ? "met" : "NOT met"}` : "";
  console.log(`| ${n} | ${importMs.toFixed(0)} ms | ${importTarget} | ${openMs.toFixed(0)} ms | ${openTarget} |`);
}
