// Type tests for search methods, recall and agent tools in pkg/index.d.ts (each `@ts-expect-error` fails
// the check if its line compiles). Run by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory, MemoryTools } from "../../pkg/index.js";
import type { SearchMethod, RecallResult, ToolDefinition, ToolResult, OpenAiToolDefinition, WarningCode } from "../../pkg/index.js";
import type { AnthropicToolDefinition } from "../../pkg/index.js";

export async function typed(memory: Memory): Promise<string> {
  const found = await memory.search("q", { userId: "u", method: "rrf", weights: { vector: 0.5 }, threshold: 0.01 });
  const method: SearchMethod = found.method;
  const all = await memory.getAll({ userId: "u" });
  // @ts-expect-error getAll has no ranking method
  all.method;
  // @ts-expect-error unknown method
  await memory.search("q", { userId: "u", method: "bm25" });

  const recalled: RecallResult = await memory.recall("q", { userId: "u", topK: 3, tokenBudget: 500, method: "keyword" });
  const total: number = recalled.totalTokens + recalled.budgetUsed + recalled.memories.length;
  const degraded: WarningCode[] = ["EMBEDDING_UNAVAILABLE", "VECTORS_PENDING"];
  const recallWarnings: WarningCode | undefined = recalled.warnings?.[0]?.code;
  // @ts-expect-error tokenBudget is a number
  await memory.recall("q", { userId: "u", tokenBudget: "500" });

  const tools: MemoryTools = memory.tools({ userId: "u" }, { format: "anthropic" });
  const definitions: ToolDefinition[] = tools.definitions;
  const openai = memory.tools({ agentId: "a" }).definitions[0] as OpenAiToolDefinition;
  const result: ToolResult = await tools.runTool(openai.function.name, '{"query": "q"}');
  await tools.runTool("manage_memory", { action: "create", content: "x" });
  // Each format's definitions are typed as that format's; a tool call's arguments may arrive as `unknown`.
  const anthropic: AnthropicToolDefinition[] = memory.tools({ userId: "u" }, { format: "anthropic" }).definitions;
  const openAiByDefault: OpenAiToolDefinition[] = memory.tools({ userId: "u" }).definitions;
  const openAiNamed: OpenAiToolDefinition[] = memory.tools({ userId: "u" }, { format: "openai" }).definitions;
  // @ts-expect-error Anthropic definitions are not OpenAI ones
  const wrong: OpenAiToolDefinition[] = tools.definitions;
  const fromModel: unknown = JSON.parse('{"query": "q"}');
  await tools.runTool("search_memory", fromModel);
  // @ts-expect-error the tool's name is a string
  await tools.runTool(fromModel, fromModel);
  // @ts-expect-error unknown format
  memory.tools({ userId: "u" }, { format: "gemini" });
  // @ts-expect-error the scope of a tools handle cannot be replaced
  tools.scope = { userId: "other" };
  const counts = anthropic.length + openAiByDefault.length + openAiNamed.length + wrong.length;
  return `${counts}${method}${total}${degraded.length}${recallWarnings}${definitions.length}${JSON.stringify(result)}${recalled.text}`;
}
