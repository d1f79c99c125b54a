// The cold-start benches' export files (bench/browser.mjs for IndexedDB in Chromium, bench/sqlite.mjs for
// SQLite in Node): `n` memories of user "bench", 384-d, with their vectors, as `importMemories` reads them.
// Written once to bench/.data/browser-<n>.jsonl and reused, so both benches import the same data.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { unitVector } from "./unit-vector.mjs";

export const DIM = 384;
const bench = dirname(dirname(fileURLToPath(import.meta.url)));

/** Memory i's vector (seeds 1..n); the query is `vector(999_999)`. */
export const vector = (seed) => unitVector(seed, DIM);

/** The path of the export file of `n` memories of user "bench" (written on first use). */
export function exportFile(n) {
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
