// The cold-start benches' export files (bench/browser.mjs for IndexedDB in Chromium, bench/sqlite.mjs for
// SQLite in Node): `n` memories of user "bench", 384-d, with their vectors, shaped as `exportMemories`
// writes them: UUID v4 ids (seeded, so every run has the same file), the fields an `infer: false` add
// stores (metadata `{role: "user", source}`, memoryType, importance, pinned), and one `ADD` history record
// per memory. Written once to bench/.data/export-<n>.jsonl and reused, so both benches import the same data.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { benchSentences } from "./sentences.mjs";
import { unitVector } from "./unit-vector.mjs";

export const DIM = 384;
const bench = dirname(dirname(fileURLToPath(import.meta.url)));
const SOURCES = ["chat", "import", "note"];

/** Memory i's vector (seeds 1..n); the query is `vector(999_999)`. */
export const vector = (seed) => unitVector(seed, DIM);

/** A UUID v4 derived from `seed` (the same every run). */
export function seededUuid(seed) {
  const hex = createHash("sha256").update(seed).digest("hex");
  const variant = "89ab"[parseInt(hex[16], 16) & 3];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The export file's name for `n` memories (under bench/.data/, served as /bench/.data/<name>). */
export const exportName = (n) => `export-${n}.jsonl`;

/** The path of the export file of `n` memories of user "bench" (written on first use). */
export function exportFile(n) {
  const path = join(bench, ".data", exportName(n));
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const sentences = benchSentences();
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  const memories = [];
  const history = [];
  for (let i = 0; i < n; i++) {
    const id = seededUuid(`memory ${n} ${i}`);
    const text = `${sentences[i % sentences.length]} (note ${i})`;
    const at = new Date(start + i * 1000).toISOString();
    const embedding = Buffer.from(new Float32Array(vector(i + 1)).buffer).toString("base64");
    const hash = createHash("md5").update(text).digest("hex");
    const metadata = { role: "user", source: SOURCES[i % SOURCES.length] };
    memories.push(JSON.stringify({ kind: "memory", id, memory: text, hash, metadata, createdAt: at, updatedAt: at,
      userId: "bench", memoryType: "semantic", importance: 0.6, pinned: false, embedding }));
    history.push(JSON.stringify({ kind: "history", id: seededUuid(`history ${n} ${i}`), memoryId: id, event: "ADD",
      oldValue: null, newValue: text, timestamp: at, isDeleted: false, userId: "bench" }));
  }
  const header = JSON.stringify({ kind: "memwasm-export", version: 2, memories: n, history: n });
  writeFileSync(path, [header, ...memories, ...history].join("\n") + "\n");
  return path;
}

/** The export file of `n` memories, read: its text and its memory and history lines. */
export function readExport(n) {
  const text = readFileSync(exportFile(n), "utf8");
  const lines = text.trim().split("\n").map((line) => JSON.parse(line));
  return { text, memories: lines.filter((line) => line.kind === "memory"), history: lines.filter((line) => line.kind === "history") };
}
