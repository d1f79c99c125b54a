// Child process of sqlite-crash.test.mjs: opens the SQLite memory at argv[2] (embeddings from the scripted
// server at argv[3]), or reports how opening failed; then makes 50 concurrent adds, printing "ack <id> <n>"
// as each one resolves, until the parent kills it.
import { Memory } from "memwasm";

const [path, baseUrl, mode] = process.argv.slice(2);
const config = {
  llm: { provider: "none" },
  embedder: { provider: "openai", config: { baseUrl, apiKey: "test-key", model: "test-embed", dimensions: 64 } },
  storage: { provider: "sqlite", config: { path, busyTimeoutMs: 50 } },
};
let memory;
try {
  memory = await Memory.open(config);
} catch (error) {
  process.stdout.write(`failed ${error.code} ${error.message}\n`);
  process.exit(0);
}
if (mode === "open-only") {
  process.stdout.write("opened\n");
  process.exit(0);
}
process.stdout.write("ready\n");
await Promise.all(
  Array.from({ length: 50 }, async (_, n) => {
    const added = await memory.add(`crash note ${n} about topic ${n}`, { userId: "alice", infer: false });
    process.stdout.write(`ack ${added.results[0].id} ${n}\n`);
  }),
);
process.stdout.write("done\n");
