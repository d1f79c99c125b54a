// A sync test's device: a Node memory on its own SQLite file with the scripted server's embedder and LLM,
// closed after the test.
import { join } from "node:path";
import { Memory } from "memwasm";
import { tempDir } from "./helpers.mjs";

/** A device named `name` for test `t`, on the models of `server`. */
export async function device(t, server, name) {
  const memory = await Memory.open({
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "k", model: "test-embed", dimensions: 64 } },
    llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "k", model: "test-llm" } },
    storage: { provider: "sqlite", config: { path: join(tempDir(t), `${name}.db`) } },
  });
  t.after(() => memory.close());
  return memory;
}
