// Shared setup of the memwasm/ai tests: the scripted OpenAI-compatible server (the memory's LLM and embedder),
// a memory pointed at it, and scripted AI SDK model turns (tool calls, text) for MockLanguageModelV4.
import { Memory } from "memwasm";
import { convertArrayToReadableStream } from "ai/test";
export { scriptedServer } from "../support/server-per-file.mjs";

export const T = { timeout: 30_000 };

/** Start of memwasm's fact-extraction and update-decision system prompts. */
const EXTRACT = "You are an expert at extracting structured, atomic facts";
const DECIDE = "You are a memory management system";


/** A memory whose LLM and embedder are the scripted server; flushed turns are added at once. */
export function makeMemory(server) {
  return new Memory({
    llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-llm" } },
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-embed", dimensions: 64 } },
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    background: { debounceMs: 0 },
  });
}

/** Rules making the memory's add() of a text containing `match` store `facts` (extraction, then ADD). */
export function addRules(match, facts) {
  return [
    { kind: "chat", match: [EXTRACT, match], reply: { facts }, times: 1 },
    { kind: "chat", match: [DECIDE, ...facts], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) }, times: 1 },
  ];
}

/** The memory texts of a scope, sorted. */
export async function memoryTexts(memory, scope) {
  return (await memory.getAll(scope)).results.map((m) => m.memory).sort();
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

let calls = 0;
/** A model turn (doGenerate's result) that calls `toolName` with `input`. */
export function callTool(toolName, input) {
  return {
    content: [{ type: "tool-call", toolCallId: `call-${++calls}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

/** A model turn that answers `text`. */
export function answer(text) {
  return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
}

/** A streamed model turn (doStream's result) from the parts of a generate turn. */
export function streamed({ content, finishReason }) {
  const parts = [{ type: "stream-start", warnings: [] }];
  for (const part of content) {
    if (part.type === "text") {
      parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text }, { type: "text-end", id: "t" });
    } else parts.push(part);
  }
  parts.push({ type: "finish", finishReason, usage });
  return { stream: convertArrayToReadableStream(parts) };
}

/** The text of every message of a language-model prompt (system text, user and tool parts), joined. */
export function promptText(prompt) {
  return prompt
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? JSON.stringify(p.output ?? p.input ?? "")).join("\n")))
    .join("\n");
}

/** The tool results a prompt sends back to the model, as `[toolName, value]`. */
export function toolResults(prompt) {
  return prompt.filter((m) => m.role === "tool").flatMap((m) => m.content.map((p) => [p.toolName, p.output?.value]));
}
