// memwasm/local-embedder in the Vite app: all-MiniLM-L6-v2 on the device, weights from `weights` (a URL,
// cached with the Cache API), memories on IndexedDB, no LLM.
import { Memory } from "memwasm";
import { createLocalEmbedder, isCached } from "memwasm/local-embedder";

/** Embeds once directly, then adds three facts through Memory and returns the top hit of a semantic query. */
export async function addAndSearch(weights: string, tokenizer: string, dbName: string): Promise<string[]> {
  const embedder = await createLocalEmbedder({ weights, tokenizer });
  const [vector] = await embedder.embed(["User likes Python"]);
  embedder.close();
  const memory = await Memory.open({
    llm: { provider: "none" },
    embedder: { provider: "local", config: { weights, tokenizer } },
    storage: { provider: "indexeddb", config: { dbName } },
  });
  for (const fact of ["User likes Python", "User lives in Berlin", "User is allergic to peanuts"]) {
    await memory.add(fact, { userId: "u", infer: false });
  }
  const found = await memory.search("programming languages", { userId: "u", limit: 1 });
  return [String(vector.length), String(await isCached(weights)), found.results[0]?.memory ?? "nothing found"];
}
