// An export file of n memories whose texts are words (8–19 each, drawn from 8,000 with a log-uniform law, so
// a few words are in most texts and most words in few, as in prose without its stop words), with seeded
// random unit vectors: what keyword and hybrid search meet at scale. 9 memories in 10 belong to user "u0".
import { createHash } from "node:crypto";

import { generator } from "./unit-vector.mjs";

export const VOCABULARY = 8000;

/** `{text, queries}`: the export's lines and `count` three-word queries, each with its own vector. */
export function wordExport(n, dim, { seed = 12345, count = 20 } = {}) {
  const random = generator(seed);
  const word = () => `w${Math.min(VOCABULARY - 1, Math.floor(Math.exp(random() * Math.log(VOCABULARY))) - 1).toString(36)}x`;
  const vector = () => {
    const v = new Float32Array(dim);
    let norm = 0;
    for (let i = 0; i < dim; i++) norm += (v[i] = random() * 2 - 1) ** 2;
    return v.map((x) => x / Math.sqrt(norm));
  };
  const now = "2026-01-01T00:00:00.000Z";
  const lines = [JSON.stringify({ kind: "memwasm-export", version: 2, memories: n, history: 0 })];
  for (let i = 0; i < n; i++) {
    const memory = Array.from({ length: 8 + Math.floor(random() * 12) }, word).join(" ");
    const hash = createHash("md5").update(memory).digest("hex");
    const embedding = Buffer.from(vector().buffer).toString("base64");
    lines.push(JSON.stringify({ kind: "memory", id: `m${i}`, memory, hash, metadata: {}, createdAt: now, updatedAt: now,
      userId: i % 10 === 9 ? "u1" : "u0", embedding }));
  }
  const queries = Array.from({ length: count }, (_, q) => ({ text: `${word()} ${word()} ${word()} q${q}`, vector: vector() }));
  return { text: lines.join("\n") + "\n", queries };
}
