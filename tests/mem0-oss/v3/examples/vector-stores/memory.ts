// Ported from mem0ai/mem0 mem0-ts/src/oss/examples/vector-stores/memory.ts
// at 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378 (v3 API: mem0ai 3.x, mem0's HEAD when ported).
// Port changes, and nothing else: the import of mem0's sources (now "memwasm/mem0").
// OpenAI's endpoint comes from OPENAI_BASE_URL / OPENAI_API_KEY, which examples.test.ts sets. Everything else is mem0's file as it is.
import { Memory } from "memwasm/mem0";
import { runTests } from "../utils/test-utils";

export async function demoMemoryStore() {
  console.log("\n=== Testing In-Memory Vector Store ===\n");

  const memory = new Memory({
    version: "v1.1",
    embedder: {
      provider: "openai",
      config: {
        apiKey: process.env.OPENAI_API_KEY || "",
        model: "text-embedding-3-small",
      },
    },
    vectorStore: {
      provider: "memory",
      config: {
        collectionName: "memories",
        dimension: 1536,
      },
    },
    llm: {
      provider: "openai",
      config: {
        apiKey: process.env.OPENAI_API_KEY || "",
        model: "gpt-4-turbo-preview",
      },
    },
    historyDbPath: "memory.db",
  });

  await runTests(memory);
}

if (require.main === module) {
  demoMemoryStore();
}
