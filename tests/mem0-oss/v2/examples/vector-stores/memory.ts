// Ported from mem0ai/mem0 mem0-ts/src/oss/examples/vector-stores/memory.ts
// at c239d8a483120143707c42e459b48fb3c7261afb (v2 API: mem0ai 2.4.6).
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
