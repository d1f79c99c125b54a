// Type checks only (tsc --noEmit, never bundled): agent tools as a user wires them to a model's reply.
import type { Memory, AnthropicToolDefinition, OpenAiToolDefinition, ToolResult } from "memwasm";

/** Anthropic-format definitions are typed as Anthropic's; a tool call's arguments arrive as `unknown`. */
export async function anthropicLoop(memory: Memory, call: { name: string; input: unknown }): Promise<ToolResult> {
  const tools = memory.tools({ userId: "u" }, { format: "anthropic" });
  const definitions: AnthropicToolDefinition[] = tools.definitions;
  const names = definitions.map((definition) => definition.input_schema);
  return names.length > 0 ? tools.runTool(call.name, call.input) : { results: [] };
}

/** The default format is OpenAI's; the arguments string of a tool call goes in as it came. */
export async function openAiLoop(memory: Memory, call: { function: { name: string; arguments: string } }): Promise<ToolResult> {
  const tools = memory.tools({ userId: "u" });
  const definitions: OpenAiToolDefinition[] = tools.definitions;
  const named: OpenAiToolDefinition[] = memory.tools({ agentId: "a" }, { format: "openai" }).definitions;
  return definitions.length + named.length > 0 ? tools.runTool(call.function.name, call.function.arguments) : { results: [] };
}
