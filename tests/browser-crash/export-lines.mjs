// Export files (as `exportMemories` writes them) for the crash tests: `count` memories numbered from `from`,
// ids `${prefix}00042`, texts `fact 42`, unit vectors of `dim` values seeded by the number, `createdAt` a
// second apart from 2026-01-01 (or all at that instant, `spread: false`).
import { createHash } from "node:crypto";

export function exportLines({ from, count, dim, prefix, user, spread = true }) {
  const lines = [JSON.stringify({ kind: "memwasm-export", version: 2, memories: count, history: 0 })];
  for (let i = from; i < from + count; i++) {
    const seed = createHash("sha256").update(`vector ${i}`).digest();
    const raw = Array.from({ length: dim }, (_, d) => seed[d % 32] - 127.5 + Math.floor(d / 32));
    const norm = Math.hypot(...raw);
    const embedding = Buffer.from(Float32Array.from(raw, (x) => x / norm).buffer).toString("base64");
    const text = `fact ${i}`;
    const createdAt = new Date(Date.UTC(2026, 0, 1) + (spread ? i * 1000 : 0)).toISOString();
    lines.push(JSON.stringify({ kind: "memory", id: `${prefix}${String(i).padStart(5, "0")}`, memory: text,
      hash: createHash("md5").update(text).digest("hex"), metadata: {}, createdAt,
      updatedAt: "2026-01-01T00:00:00.000Z", userId: user, embedding }));
  }
  return lines.join("\n") + "\n";
}
