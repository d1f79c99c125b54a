// Cold start in a real browser (Debian's headless Chromium, driven by playwright-core as the browser tests
// do): a page imports N memories (384-d, with their vectors) into IndexedDB with `importMemories`, then a
// freshly loaded page measures `Memory.open` → the first search result (search by vector, top 10), three
// times (median); then add()'s write cost: 200 sequential `infer: false` adds on IndexedDB against the same
// on the in-memory storage (per add). Usage: `node bench/browser.mjs [--n 10000,100000]`; needs the package built and the
// browser tests' setup (`bash scripts/test.sh` does both). Prints a table with the targets (`--json`: the rows,
// for bench/run.mjs and bench/sqlite.mjs: `{n, importMs, openMs, writeCost}`, writeCost the same on every row).
import { harness } from "../tests/browser-crash/harness.mjs";
import { DIM, exportFile, vector } from "./lib/export-file.mjs";
import { timeAdds } from "./lib/write-cost.mjs";

const args = process.argv.slice(2);
const sizes = (args.includes("--n") ? args[args.indexOf("--n") + 1] : "10000,100000").split(",").map(Number);
const TARGETS = { 10_000: 200, 100_000: 1500 };
const IMPORT_TARGET_MS = { 10_000: 1000 };
const ADDS = 200;

const h = await harness();
const rows = [];
/** add() per call on IndexedDB against in memory (ms), measured once; every --json row carries it. */
let writeCost;
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
  // add() write cost: ADDS sequential `infer: false` adds (a fixed vector from a custom embedder, no LLM) on
  // IndexedDB and on the in-memory storage, in one page of a fresh profile (20 untimed in-memory adds first).
  const browser = await h.launch(h.profile());
  const page = await h.openPage(browser.context);
  const storage = { provider: "indexeddb", config: { dbName: "bench-add" } };
  writeCost = await page.evaluate(`(${timeAdds})(window.memwasm.Memory, ${JSON.stringify(storage)}, ${ADDS}, ${DIM})`);
  await browser.kill();
  process.stderr.write(`[bench browser] add(): IndexedDB ${writeCost.storageMs.toFixed(2)} ms, in memory ${writeCost.inMemoryMs.toFixed(2)} ms per add\n`);
} finally {
  await h.close();
}

if (args.includes("--json")) {
  process.stdout.write(JSON.stringify(rows.map((row) => ({ ...row, writeCost }))) + "\n");
  process.exit(0);
}
console.log("\nCold start in headless Chromium (IndexedDB, 384-d, search by vector top 10; median of 3 opens)");
console.log("| memories | importMemories | target | Memory.open → first result | target |\n|---|---|---|---|---|");
for (const { n, importMs, openMs } of rows) {
  const importTarget = IMPORT_TARGET_MS[n] ? `≤ ${IMPORT_TARGET_MS[n]} ms: ${importMs <= IMPORT_TARGET_MS[n] ? "met" : "NOT met"}` : "";
  const openTarget = TARGETS[n] ? `≤ ${TARGETS[n]} ms: ${openMs <= TARGETS[n] ? "met" : "NOT met"}` : "";
  console.log(`| ${n} | ${importMs.toFixed(0)} ms | ${importTarget} | ${openMs.toFixed(0)} ms | ${openTarget} |`);
}
console.log(`\nadd() write cost (${writeCost.adds} sequential infer: false adds, fixed 384-d vector, no LLM): ` +
  `IndexedDB ${writeCost.storageMs.toFixed(2)} ms per add, in memory ${writeCost.inMemoryMs.toFixed(2)} ms, ` +
  `write cost ${writeCost.writeMs.toFixed(2)} ms`);
