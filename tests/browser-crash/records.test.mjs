// Memory and history records as IndexedDB stores them (a commit encodes them in batches, see
// src/platform/indexeddb/records.rs and history.rs): every field of an export line comes back after a reopen, whatever
// the metadata holds, and metadata with an integer a JS number cannot hold is refused with nothing written.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { harness } from "./harness.mjs";
import { seededUuid } from "../../bench/lib/export-file.mjs";

let h;
before(async () => (h = await harness()));
after(() => h?.close());

const at = "2026-02-03T04:05:06.789Z";
const embedding = Buffer.from(new Float32Array([0.6, 0.8, 0, 0]).buffer).toString("base64");
const memory = (i, fields) => ({ kind: "memory", id: seededUuid(`records ${i}`), memory: `fact ${i}`,
  hash: createHash("md5").update(`fact ${i}`).digest("hex"),
  createdAt: at, updatedAt: at, userId: "u", embedding, ...fields });
const history = (m) => ({ kind: "history", id: seededUuid(`history of ${m.id}`), memoryId: m.id, event: "ADD", oldValue: null,
  newValue: m.memory, timestamp: at, isDeleted: false, userId: "u" });
const file = (memories) => [{ kind: "memwasm-export", version: 2, memories: memories.length, history: memories.length },
  ...memories, ...memories.map(history)].map((line) => JSON.stringify(line)).join("\n") + "\n";

const config = (dbName) => ({ ...h.config(dbName), embedder: { provider: "none" } });

test("every field of memory and history lines comes back after a reopen", { timeout: 60_000 }, async () => {
  const rich = memory(0, {
    metadata: { nested: { list: [1, -2.5, "ü ✓ \u0000", null, true], deep: { safe: 9007199254740991 } }, empty: {}, tiny: 5e-324 },
    agentId: "a", runId: "r", memoryType: "procedural", importance: 0.25, pinned: true, expiresAt: "2030-01-01T00:00:00.000Z",
    key: "k", lastAccessedAt: at, decayedAt: at, attributedTo: "assistant",
  });
  const plain = memory(1, { metadata: {}, memoryType: "semantic", importance: 0.6, pinned: false });
  const deleted = memory(2, { metadata: { role: "user" }, memoryType: "episodic", importance: 0.1, pinned: false, deletedAt: at });
  const text = file([rich, plain, deleted]);
  const browser = await h.launch(h.profile());
  let page = await h.openPage(browser.context);
  await page.evaluate(async ({ config, text }) => (await window.memwasm.Memory.open(config)).importMemories(text), { config: config("records"), text });
  await page.close();
  page = await h.openPage(browser.context);
  const exported = await page.evaluate(async (config) => (await window.memwasm.Memory.open(config)).exportMemories({}), config("records"));
  const parse = (jsonl) => jsonl.trim().split("\n").map((line) => JSON.parse(line));
  const byId = (lines) => lines.sort((a, b) => `${a.kind}${a.id}`.localeCompare(`${b.kind}${b.id}`));
  assert.deepEqual(byId(parse(exported)), byId(parse(text)));
  await browser.kill();
});

test("metadata with an integer a JS number cannot hold is refused, nothing written", { timeout: 60_000 }, async () => {
  const ok = memory(3, { metadata: {} });
  const big = memory(4, { metadata: { n: 1 } });
  const text = file([ok, big]).replace('"metadata":{"n":1}', '"metadata":{"n":18446744073709551615}');
  const browser = await h.launch(h.profile());
  const page = await h.openPage(browser.context);
  const outcome = await page.evaluate(async ({ config, text }) => {
    const memory = await window.memwasm.Memory.open(config);
    const error = await memory.importMemories(text).then(() => null, (error) => ({ code: error.code, message: error.message }));
    return { error, exported: await memory.exportMemories({}) };
  }, { config: config("records-big"), text });
  assert.equal(outcome.error?.code, "STORAGE", JSON.stringify(outcome.error));
  assert.equal(outcome.exported, JSON.stringify({ kind: "memwasm-export", version: 2, memories: 0, history: 0 }) + "\n");
  await browser.kill();
});
