// Crash safety of IndexedDB storage in real headless Chromium (Debian's, driven over CDP by playwright-core,
// never a downloaded browser). A page starts 50 concurrent `infer: false` adds; after some have resolved,
// either the renderer crashes (CDP `Page.crash`) or the whole browser is SIGKILLed. A fresh page (or a
// fresh browser on the same profile directory, so the same IndexedDB) then scans what is left: the raw
// object stores, `exportMemories`, `getAll` and a search per memory must agree, every memory has its ADD
// and its vector row in the `vectors` store (and every row its memory), no history record is orphaned, and
// no add that had resolved before the crash is lost.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { harness } from "./harness.mjs";

const ADDS = 50;
const USER = "crash";
const COLORS = ["red", "blue", "green", "amber", "violet", "teal", "ochre", "pink", "grey", "navy"];
const ANIMALS = ["otter", "heron", "lynx", "bison", "gecko"];
/** The i-th add's text: distinct words, and a token (`itemN`) no other text has. */
const text = (i) => `the ${COLORS[i % 10]} ${ANIMALS[Math.floor(i / 10) % 5]} keeps item${i}`;
const TEXTS = Array.from({ length: ADDS }, (_, i) => text(i));

let h, llm;

before(async () => {
  h = await harness();
  llm = h.llm;
});

after(() => h?.close());

/** Starts the 50 adds in `page`; `acked(i, id)` is called in Node as each one resolves. */
async function startAdds(page, dbName, acked, failed) {
  await page.exposeFunction("acked", acked);
  await page.exposeFunction("failed", failed);
  await page.evaluate(async ({ config, texts, user }) => {
    const memory = await window.memwasm.Memory.open(config);
    texts.forEach((text, i) =>
      memory.add(text, { userId: user, infer: false }).then(
        (result) => window.acked(i, result.results[0]?.id ?? null),
        (error) => window.failed(i, `${error?.code}: ${error?.message}`),
      ));
  }, { config: h.config(dbName), texts: TEXTS, user: USER });
}

/** Everything a fresh page sees: the raw stores first, then the library's export, getAll and searches. */
function scan(page, dbName) {
  return page.evaluate(async ({ config, dbName, user }) => {
    const raw = await window.readStores(dbName, ["memories", "history", "vectors"], (tx) => {
      const out = {};
      tx.objectStore("vectors").getAll().onsuccess = (e) => (out.vectors = e.target.result.map((c) =>
        ({ chunk: c.chunk, ids: JSON.parse(c.ids), whole: c.vectors.length === JSON.parse(c.ids).length * c.dim && c.dim > 0 })));
      // Vectors live in the `vectors` chunks (schema 5): a record names its chunk, which must hold its row.
      tx.objectStore("memories").getAll().onsuccess = (e) => (out.memories = e.target.result.map((m) =>
        ({ id: m.id, memory: m.memory, inline: m.embedding !== undefined,
          embedded: out.vectors.some((c) => c.chunk === m.chunk && c.whole && c.ids.includes(m.id)) })));
      // History lives in batches (schema 6): each record holds a write's entries as one JSON array.
      tx.objectStore("history").getAll().onsuccess = (e) => (out.history = e.target.result.flatMap((b) =>
        JSON.parse(b.records).map((h) => ({ id: h.id, memoryId: h.memoryId, event: h.event }))));
      return out;
    }, { vectors: [], memories: [], history: [] });
    const warnings = [];
    const warn = console.warn;
    console.warn = (...args) => (warnings.push(args.join(" ")), warn(...args));
    const memory = await window.memwasm.Memory.open(config);
    console.warn = warn;
    const lines = (await memory.exportMemories({})).trim().split("\n").map((line) => JSON.parse(line));
    const all = (await memory.getAll({ userId: user, limit: 1000 })).results;
    const searches = [];
    for (const item of all) {
      const found = (await memory.search(item.memory, { userId: user, limit: 5 })).results;
      searches.push({ id: item.id, top: found[0]?.score, own: found.find((r) => r.id === item.id)?.score });
    }
    const later = await memory.add("written after the crash", { userId: "later", infer: false });
    return { raw, warnings, header: lines[0], exported: lines.slice(1), all: all.map((m) => m.id), searches,
      later: later.results.map((r) => r.event) };
  }, { config: h.config(dbName), dbName, user: USER });
}

/** One run: adds, a crash once `threshold` adds have resolved, a reopen and the full scan. */
async function crashRun(t, mode, threshold) {
  const dbName = `crash-${mode}-${threshold}`;
  const profile = h.profile();
  llm.reset();
  // Slow embeddings (and Chromium's 6 connections per host) spread the 50 commits over ~1 s.
  llm.script({ kind: "embedding", delayMs: 60 });
  const first = await h.launch(profile);
  const page = await h.openPage(first.context);
  const cdp = await first.context.newCDPSession(page);
  const acked = new Map();
  const failures = [];
  await startAdds(page, dbName, (i, id) => acked.set(i, id), (i, why) => failures.push(`add ${i}: ${why}`));

  const deadline = Date.now() + 30_000;
  while (acked.size < threshold && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  const acknowledged = new Map(acked); // what had resolved when the crash was ordered
  assert.ok(acknowledged.size >= threshold, `only ${acknowledged.size} adds resolved in 30 s`);
  let second = first;
  let fresh;
  if (mode === "renderer") {
    const crashed = new Promise((resolve) => page.once("crash", resolve));
    cdp.send("Page.crash").catch(() => {}); // never answers: the renderer is gone
    await crashed;
    fresh = await h.openPage(first.context); // same browser, same IndexedDB backend
  } else {
    await first.kill();
    second = await h.launch(profile); // a new browser on the same profile directory
    fresh = await h.openPage(second.context);
  }
  llm.reset(); // searches embed without the delay
  const seen = await scan(fresh, dbName);
  await second.kill();
  rmSync(profile, { recursive: true, force: true });

  assert.deepEqual(failures, [], "no add rejected before the crash");
  assert.deepEqual(seen.warnings, [], "no record failed to decode on reopen");
  const memories = seen.exported.filter((l) => l.kind === "memory");
  const history = seen.exported.filter((l) => l.kind === "history");
  const ids = new Set(memories.map((m) => m.id));

  // The library's views match the raw stores.
  assert.equal(seen.header.memories, memories.length);
  assert.equal(seen.header.history, history.length);
  assert.deepEqual([...ids].sort(), seen.raw.memories.map((m) => m.id).sort(), "export == raw memories store");
  assert.deepEqual(history.map((r) => r.id).sort(), seen.raw.history.map((r) => r.id).sort(), "export == raw history store");
  assert.deepEqual([...seen.all].sort(), [...ids].sort(), "getAll (the search index) == exported memories");
  assert.ok(seen.raw.memories.every((m) => m.embedded && !m.inline), "every stored memory has its vector in its chunk");
  const rows = seen.raw.vectors.flatMap((c) => c.ids);
  assert.deepEqual([...rows].sort(), [...ids].sort(), "one vector row per stored memory, none left without its record");

  // Whole adds or nothing: each memory is one of the 50 texts, once, with exactly one history record, an ADD.
  const texts = memories.map((m) => m.memory);
  assert.ok(texts.every((x) => TEXTS.includes(x)), "only texts that were added");
  assert.equal(new Set(texts).size, texts.length, "no text stored twice");
  const orphans = history.filter((h) => !ids.has(h.memoryId) && h.event !== "DELETE");
  assert.deepEqual(orphans, [], "no history record points at a missing memory");
  const withoutAdd = memories.filter((m) => !history.some((h) => h.memoryId === m.id && h.event === "ADD"));
  assert.deepEqual(withoutAdd.map((m) => m.memory), [], "every memory has its ADD record");
  assert.equal(history.length, memories.length, "one history record per memory");
  assert.ok(history.every((h) => h.event === "ADD"));

  // Nothing acknowledged is lost.
  const byId = new Map(memories.map((m) => [m.id, m.memory]));
  const lost = [...acknowledged].filter(([i, id]) => byId.get(id) !== TEXTS[i]);
  assert.deepEqual(lost, [], "every add that resolved before the crash is stored");
  assert.ok(memories.length <= ADDS);

  // Search finds each memory by its own text, ranked first (ties only on a hash collision of the embedding).
  for (const s of seen.searches) assert.ok(s.own !== undefined && Math.abs(s.own - s.top) < 1e-6, `search for ${byId.get(s.id)}`);
  assert.deepEqual(seen.later, ["ADD"], "the reopened database takes new writes");
  assert.equal(llm.count("chat"), 0, "infer: false never calls the LLM");

  t.diagnostic(`${mode} crash: ${acknowledged.size} acknowledged, ${memories.length} stored, ` +
    `${ADDS - memories.length} never committed, ${history.length} history records, ${orphans.length} orphans, ${lost.length} lost`);
}

describe("IndexedDB survives a crash mid-write", { timeout: 300_000 }, () => {
  for (const threshold of [5, 20, 35]) {
    test(`renderer crash (Page.crash) after ${threshold} of ${ADDS} adds resolved`, (t) => crashRun(t, "renderer", threshold));
    test(`browser SIGKILL after ${threshold} of ${ADDS} adds resolved`, (t) => crashRun(t, "browser", threshold));
  }
});
