// `--weights` / `--tokenizer`: the on-device embedder with no LLM (MiniLM from scripts/setup.sh minilm).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { T, call, connect, freshDb, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
before(() => server.ready);
const dir = process.env.MINILM_DIR ?? join(homedir(), ".cache/memwasm/minilm");
const weights = join(dir, "model.safetensors");
const missing = !existsSync(weights) && `no MiniLM weights in ${dir} (bash scripts/setup.sh minilm)`;

test("the on-device embedder: add_memory stores as it is, search_memories ranks by meaning, no model call", { ...T, skip: missing }, async () => {
  const client = await connect(server, freshDb(), ["--weights", weights, "--tokenizer", join(dir, "tokenizer.json")],
    { env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" } });
  try {
    for (const text of ["I adopted a golden retriever puppy", "My favourite band is Radiohead", "I work as a nurse in Leeds"]) {
      await call(client, "add_memory", { text });
    }
    const { results } = await call(client, "search_memories", { query: "what pet do I have?", limit: 1 });
    assert.equal(results[0].memory, "I adopted a golden retriever puppy");
    assert.equal(server.requests().length, 0, "nothing reached a model server");
  } finally {
    await client.close();
  }
});
