// Quickstart: memory that learns from a conversation, then answers a search.
// A real app points `baseUrl`/`apiKey` at OpenAI (or any OpenAI-compatible host). Here a scripted
// OpenAI-compatible server on 127.0.0.1 stands in for the model, so this runs offline with no key.
import { Memory } from "../pkg/index.node.mjs";
import { startScriptedServer } from "../tests/support/scripted-server.mjs";

const llm = await startScriptedServer();
/** The id under which the decision prompt lists `text`, read as a model reads it. */
const idIn = (prompt, text) =>
  JSON.parse(prompt.split("Existing memories:\n")[1].split("\n")[0]).find((m) => m.text === text).id;

llm.script([
  { kind: "concept", words: ["work", "job", "works"] },
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
  embedder: { provider: "openai", config: { baseUrl: llm.baseUrl, apiKey: "sk-demo", dimensions: 64 } },
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

const found = await memory.search("Which company does the user work for?", { userId: "alice", limit: 2 });
console.log('search "Which company does the user work for?":');
for (const m of found.results) console.log(`  ${m.score.toFixed(2)}  ${m.memory}`);

const updated = second.results.find((e) => e.event === "UPDATE");
console.log("history of the job memory:");
for (const h of await memory.history(updated.id)) console.log(`  ${h.event.padEnd(6)} ${h.oldValue ?? "∅"} -> ${h.newValue}`);

console.log(`model calls: ${llm.count("chat")} chat, ${llm.count("embedding")} embedding requests`);
await llm.close();
