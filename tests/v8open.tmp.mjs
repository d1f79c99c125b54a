import { Memory } from "memwasm";
import { vector, DIM } from "/work/main/bench/lib/export-file.mjs";
const path = process.argv[2];
const config = { llm: { provider: "none" }, embedder: { provider: "custom", dimensions: DIM, embed: async (t) => t.map(() => vector(1)) }, storage: { provider: "sqlite", config: { path } } };
const out = [];
for (let i = 0; i < 2; i++) {
  const t = performance.now();
  const memory = await Memory.open(config);
  await memory.search({ embedding: vector(999_999) }, { userId: "bench", limit: 10 });
  out.push(Math.round(performance.now() - t));
  memory.close(); memory.free();
}
console.log(out.join(" "));
