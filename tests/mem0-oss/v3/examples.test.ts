// Not a mem0 file: runs mem0's examples, ported beside it in examples/ (mem0ai/mem0 mem0-ts/src/oss/examples at
// 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378, v3 API), against memwasm. Each runs as a program (support/examples.ts) against
// this file's scripted model server, and passes when it runs to its end with every step logged and no error.
/// <reference types="jest" />
import { expectCompleted, runExample, runTestsSteps, scriptExampleModels } from "../support/examples";

jest.setTimeout(120000);

scriptExampleModels("v3");

describe("mem0 examples (v3)", () => {
  // run_examples() (new Memory(), the default config) and main(): the in-memory store with OpenAI, then with
  // Ollama (pgvector, Qdrant, Redis and Neo4j are skipped: their variables are unset), so runTests() 3 times.
  test("examples/basic.ts runs to its end", async () => {
    const run = await runExample("v3", "basic.ts");
    expectCompleted(run, { ...runTestsSteps(3), "Skipping Redis test": 1 });
  });

  test("examples/vector-stores/memory.ts runs to its end", async () => {
    const run = await runExample("v3", "vector-stores/memory.ts");
    expectCompleted(run, runTestsSteps(1));
  });

  // A chat loop on stdin: one message, then "exit", each typed at its "You: " prompt.
  test("examples/local-llms.ts runs to its end", async () => {
    const run = await runExample("v3", "local-llms.ts", { lines: ["I love hiking in the mountains", "exit"] });
    expectCompleted(run, { "Chat with AI": 1, "AI: ": 1, "Goodbye!": 1 });
  });
});
