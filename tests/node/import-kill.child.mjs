// Child process of import-kill.test.mjs: imports the archive at argv[4] into the SQLite memory at argv[2]
// (models from the scripted server at argv[3]), one message per chunk, printing "chunk <done>" after each
// and "report <json>" at the end, unless the parent kills it first.
import { readFileSync } from "node:fs";
import { Memory } from "memwasm";

const [path, baseUrl, archive] = process.argv.slice(2);
const model = { baseUrl, apiKey: "test-key" };
const memory = await Memory.open({
  llm: { provider: "openai", config: { ...model, model: "test-llm" } },
  embedder: { provider: "openai", config: { ...model, model: "test-embed", dimensions: 64 } },
  storage: { provider: "sqlite", config: { path } },
});
const report = await memory.importConversations(readFileSync(archive), {
  userId: "alice", chunkMessages: 1, onProgress: (p) => p.chunks.done > 0 && process.stdout.write(`chunk ${p.chunks.done}\n`),
});
process.stdout.write(`report ${JSON.stringify(report)}\n`);
memory.close();
