import { Memory } from "memwasm";
import { vector, DIM } from "/work/main/bench/lib/export-file.mjs";
const mode = process.argv[3];
const config = (path) => ({ llm: { provider: "none" }, embedder: { provider: "custom", dimensions: DIM, embed: async (t) => t.map(() => vector(1)) }, storage: { provider: "sqlite", config: { path } } });
if (mode === "warm") {
  const small = await Memory.open(config("/tmp/v8exp/small.sqlite"));
  await small.add("hello there", { userId: "bench", infer: false });
  await small.search({ embedding: vector(3) }, { userId: "bench", limit: 10 });
  small.close(); small.free();
}
if (mode === "grow") {
  const { readFileSync } = await import("node:fs");
  const { exportFile } = await import("/work/main/bench/lib/export-file.mjs");
  const m = new Memory({ llm: { provider: "none" }, embedder: { provider: "custom", dimensions: DIM, embed: async (t) => t.map(() => vector(1)) } });
  await m.importMemories(readFileSync(exportFile(10000), "utf8"));
  m.free();
}
const out = [];
for (let i = 0; i < 2; i++) {
  const t = performance.now();
  const memory = await Memory.open(config(process.argv[2]));
  await memory.search({ embedding: vector(999_999) }, { userId: "bench", limit: 10 });
  out.push(Math.round(performance.now() - t));
  memory.close(); memory.free();
}
console.log(mode, out.join(" "));
