// memwasm/ai's declarations (pkg/ai.d.ts) against the installed `ai`: the tools fit generateText's and
// streamText's `tools`, withMemory gives a model, the middleware fits wrapLanguageModel, and wrong calls fail.
import { generateText, stepCountIs, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { Memory } from "memwasm";
import { memoryMiddleware, memoryTools, withMemory, type MemoryToolError, type MemoryToolOutputs } from "memwasm/ai";

export async function usage(memory: Memory) {
  const model = new MockLanguageModelV4();
  const alice = { userId: "alice" };
  const tools = memoryTools(memory, alice);
  const result = await generateText({ model: withMemory(model, memory, alice, { addAfter: true }), tools, prompt: "hi", stopWhen: stepCountIs(3) });
  for (const r of result.steps.flatMap((s) => s.toolResults)) {
    if (!r.dynamic && r.toolName === "searchMemories") {
      const out: MemoryToolOutputs["searchMemories"] | MemoryToolError = r.output;
      if ("error" in out) out.error.code satisfies string;
      else out.results[0]?.score satisfies number | undefined;
    }
  }
  const readOnly = memoryTools(memory, alice, { include: ["searchMemories"] });
  readOnly.searchMemories satisfies object;
  // @ts-expect-error only the included tools exist
  readOnly.addMemory;
  streamText({ model: wrapLanguageModel({ model, middleware: memoryMiddleware(memory, alice, { tokenBudget: 500, onError: () => {} }) }), tools: readOnly, prompt: "x" });
  // @ts-expect-error an unknown tool name
  memoryTools(memory, alice, { include: ["nope"] });
  // @ts-expect-error tokenBudget is a number
  memoryMiddleware(memory, alice, { tokenBudget: "5" });
  // @ts-expect-error the model comes first
  withMemory(memory, alice, model);
}
