// importMemories in a real browser (headless Chromium, IndexedDB): 10,000 memories with their vectors go in
// while the page stays responsive (no long task over 100 ms, seen by a PerformanceObserver('longtask')), with
// progress reports that count up to their totals; an import aborted midway leaves the store as it was, also
// after a reload; vectors of another dimension than the embedder's are refused before anything is written.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { harness } from "./harness.mjs";
import { unitVector } from "../../bench/lib/unit-vector.mjs";

const N = 10_000;
const DIM = 384;
const USER = "importer";
const PHASES = ["read", "write", "index"];

let h;
before(async () => (h = await harness()));
after(() => h?.close());

/** An export of `n` memories (ids `${prefix}0…`) with `dim`-dimensional unit vectors. */
function exportText(n, prefix, dim = DIM) {
  const now = "2026-01-01T00:00:00.000Z";
  const lines = [JSON.stringify({ kind: "memwasm-export", version: 2, memories: n, history: 0 })];
  for (let i = 0; i < n; i++) {
    const text = `${prefix} memory number ${i} about topic ${i % 97}`;
    const embedding = Buffer.from(new Float32Array(unitVector(i + 1, dim)).buffer).toString("base64");
    const hash = createHash("md5").update(text).digest("hex");
    lines.push(JSON.stringify({ kind: "memory", id: `${prefix}${i}`, memory: text, hash, metadata: {}, createdAt: now,
      updatedAt: now, userId: USER, embedding }));
  }
  return lines.join("\n") + "\n";
}

/** The embedder's dimension is configured, so the import can check the vectors against it. */
const config = (dbName) => {
  const base = h.config(dbName);
  return { ...base, embedder: { ...base.embedder, config: { ...base.embedder.config, embeddingDims: DIM } } };
};

/** Opens the memory on the page (as window.memory) and starts collecting long tasks (window.longTasks). */
const open = (page, config) => page.evaluate(async (config) => {
  window.memory = await window.memwasm.Memory.open(config);
  window.longTasks = [];
  new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => ({ start: e.startTime, ms: e.duration }))))
    .observe({ type: "longtask" });
}, config);

const count = (page) => page.evaluate(async (user) => (await window.memory.getAll({ userId: user, limit: 100_000 })).results.length, USER);

/** Imports `text` on the page; `abortAt`: stops the import in that phase. In "read", at the first progress
 * report past half way; in "write", as a Cancel button would: in the task after the phase's first report, when
 * the import next waits (how many reports a write makes depends on the machine's speed: a fast one issues
 * the second half of 10,000 memories in one turn, reporting nothing until it has committed).
 * The text is handed over first, on its own: receiving it is a long task of the test, not of the import. */
const importOnPage = async (page, text, abortAt) => {
  await page.evaluate((text) => void (window.text = text), text);
  return page.evaluate(async (abortAt) => {
    const reports = [];
    const controller = new AbortController();
    let stopping = false;
    const onProgress = (report) => {
      reports.push({ ...report, at: performance.now() });
      if (report.phase !== abortAt || stopping) return;
      if (abortAt === "write") setTimeout(() => controller.abort(), 0);
      else if (report.done > report.total / 2) controller.abort();
      else return;
      stopping = true;
    };
    await new Promise((resolve) => setTimeout(resolve, 100)); // the observer delivers earlier long tasks
    window.longTasks.length = 0;
    const started = performance.now();
    let result, error;
    try {
      result = await window.memory.importMemories(window.text, { onProgress, signal: controller.signal });
    } catch (thrown) {
      error = { code: thrown.code, message: thrown.message };
    }
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50)); // lets the observer deliver the last entries
    const longest = window.longTasks.reduce((a, b) => (b.ms > a.ms ? b : a), { start: 0, ms: 0 });
    const during = reports.findLast((r) => r.at <= longest.start);
    const where = during ? `after ${during.phase} ${during.done}/${during.total}` : "before the first report";
    return { result, error, ms, reports, longest: longest.ms, where, longTasks: window.longTasks.length };
  }, abortAt);
};

test(`importing ${N} memories into IndexedDB keeps the page responsive, reports progress, can be aborted`, { timeout: 300_000 }, async (t) => {
  const browser = await h.launch(h.profile());
  let page = await h.openPage(browser.context);
  await open(page, config("import"));

  const first = await importOnPage(page, exportText(N, "a"));
  t.diagnostic(`import of ${N}: ${first.ms.toFixed(0)} ms, longest long task ${first.longest.toFixed(0)} ms (${first.where}; ${first.longTasks} long tasks), ${first.reports.length} progress reports`);
  assert.equal(first.error, undefined, first.error?.message);
  assert.deepEqual(first.result, { memories: N, history: 0 });
  assert.ok(first.longest <= 100, `longest task ${first.longest} ms, ${first.where}`);
  let last = { phase: 0, done: -1 };
  for (const report of first.reports) {
    const phase = PHASES.indexOf(report.phase);
    assert.ok(phase >= 0, `phase ${report.phase}`);
    assert.ok(report.done <= report.total, JSON.stringify(report));
    assert.ok(phase > last.phase || (phase === last.phase && report.done >= last.done), "progress never goes back");
    last = { phase, done: report.done };
  }
  for (const phase of PHASES) {
    assert.ok(first.reports.some((r) => r.phase === phase && r.done === r.total && r.total === N), `${phase} reaches ${N}`);
  }
  assert.ok(first.reports.length > 6, "reports along the way, not only at the ends");
  assert.equal(await count(page), N);

  for (const phase of ["read", "write"]) {
    const aborted = await importOnPage(page, exportText(N, `b${phase}`), phase);
    assert.equal(aborted.error?.code, "ABORTED", JSON.stringify(aborted.error));
    assert.ok(aborted.longest <= 100, `longest task ${aborted.longest} ms, ${aborted.where}`);
    assert.equal(await count(page), N, `aborted in ${phase}: nothing written`);
  }

  const mismatched = await importOnPage(page, exportText(10, "c", 64));
  assert.equal(mismatched.error?.code, "DIMENSION_MISMATCH");
  assert.match(mismatched.error.message, /import line 2: the embedding has 64 dimensions, but 384 are expected/);
  assert.equal(await count(page), N, "a mismatched import writes nothing");

  await page.close();
  page = await h.openPage(browser.context);
  await open(page, config("import"));
  assert.equal(await count(page), N, "after a reload: the first import only");
  const found = await page.evaluate((user) => window.memory.search("a memory number 7 about topic 7", { userId: user, limit: 3 }), USER);
  assert.equal(found.results.length, 3);
  await browser.kill();
});
