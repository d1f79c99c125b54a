// A user's Node script: memories embedded on the device (all-MiniLM-L6-v2, weights from the dir given as the
// first argument), no LLM; then a memory tool called the way a model's tool call arrives. Prints JSON.
import { join } from "node:path";
import { Memory, MemoryError } from "memwasm";
import { createLocalEmbedder } from "memwasm/local-embedder";

const [weights, tokenizer] = ["model.safetensors", "tokenizer.json"].map((file) => join(process.argv[2], file));
const embedder = await createLocalEmbedder({ weights, tokenizer });
const [vector] = await embedder.embed(["User likes Python"]);
embedder.close();

const memory = new Memory({ llm: { provider: "none" }, embedder: { provider: "local", config: { weights, tokenizer } } });
for (const fact of ["User likes Python", "User lives in Berlin", "User is allergic to peanuts"]) {
  await memory.add(fact, { userId: "u", infer: false });
}
const found = await memory.search("programming languages", { userId: "u", limit: 1 });

const tools = memory.tools({ userId: "u" });
const viaTool = await tools.runTool("search_memory", '{"query": "which city", "limit": 1}');
let refused;
try {
  await tools.runTool("search_memory", 42);
} catch (error) {
  refused = error instanceof MemoryError ? error.code : String(error);
}
console.log(JSON.stringify({ dimensions: vector.length, top: found.results[0]?.memory, viaTool: viaTool.results?.[0]?.memory, refused }));
