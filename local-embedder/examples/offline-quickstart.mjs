// Offline semantic memory: memwasm with the on-device embedder (all-MiniLM-L6-v2 in its own .wasm) and no
// LLM (`infer: false` stores each text as it is). No key, no network: the weights are read from MINILM_DIR
// (default ~/.cache/memwasm/minilm, filled by `bash scripts/setup.sh minilm`). Run by scripts/quickstart.sh.
import { homedir } from "node:os";
import { join } from "node:path";
import { Memory } from "../../pkg/index.node.mjs";

const dir = process.env.MINILM_DIR ?? join(homedir(), ".cache/memwasm/minilm");
const memory = new Memory({
  llm: { provider: "none" },
  embedder: {
    provider: "local",
    config: { model: "all-MiniLM-L6-v2", weights: join(dir, "model.safetensors"), tokenizer: join(dir, "tokenizer.json") },
  },
});

const facts = [
  "User likes Python",
  "User lives in Berlin",
  "User is allergic to peanuts",
  "User has two cats named Miso and Tofu",
  "User is training for a marathon in October",
];
const started = performance.now();
for (const fact of facts) await memory.add(fact, { userId: "alice", infer: false });
console.log(`offline: stored ${facts.length} memories with all-MiniLM-L6-v2 on this machine (${Math.round(performance.now() - started)} ms, model load included)`);

for (const query of ["programming languages", "pets", "food she cannot eat", "which city is home?", "sport"]) {
  const semantic = await memory.search(query, { userId: "alice", limit: 1 });
  const keyword = await memory.search(query, { userId: "alice", limit: 1, method: "keyword" });
  const best = semantic.results[0];
  console.log(`search "${query}":`);
  console.log(`  semantic  ${best.score.toFixed(2)}  ${best.memory}`);
  console.log(`  keyword   ${keyword.results[0]?.memory ?? "(no match)"}`);
}
