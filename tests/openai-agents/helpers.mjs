// Shared set-up for the OpenAI Agents SDK session tests: the scripted OpenAI-compatible server the memory's
// own model calls go to, and a scripted Agents SDK `Model` (the SDK's own interface) for the agent's calls.
import { Usage, setTracingDisabled } from "@openai/agents";
import { Memory } from "memwasm";
export { scriptedServer } from "../support/server-per-file.mjs";

setTracingDisabled(true);

export const T = { timeout: 30_000 };
export const EXTRACT = "You are an expert at extracting structured, atomic facts";
export const DECIDE = "You are a memory management system";
export const SUMMARY = "You keep the running summary";


export function testConfig(server) {
  return {
    llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-llm" } },
    embedder: {
      provider: "openai",
      config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-embed", dimensions: 64 },
    },
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    background: { debounceMs: 0 },
  };
}

export const makeMemory = (server, over = {}) => new Memory({ ...testConfig(server), ...over });

/** The memory's chat calls whose system prompt starts with `prefix`. */
export const chatCalls = (server, prefix) =>
  server.requests("chat").filter((r) => String(r.body?.messages?.[0]?.content ?? "").startsWith(prefix));

/** An assistant output message, as the Responses API models give it. */
export const said = (text, id = `msg_${text.length}_${text.charCodeAt(0)}`) => ({
  id, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }],
});

/**
 * A scripted Agents SDK model: each call takes the next reply (an array of output items, or a string for an
 * assistant message; a function gets the request) and records the request's input.
 */
export class ScriptedModel {
  constructor(replies) {
    this.replies = [...replies];
    this.inputs = [];
  }

  async getResponse(request) {
    this.inputs.push(structuredClone(request.input));
    if (this.replies.length === 0) throw new Error("the scripted model has no reply left");
    let reply = this.replies.shift();
    if (typeof reply === "function") reply = reply(request);
    const output = typeof reply === "string" ? [said(reply, `msg_${this.inputs.length}`)] : reply;
    return { usage: new Usage(), output, responseId: `resp_${this.inputs.length}` };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse() {
    throw new Error("not scripted");
  }
}

/** `fn()` rejects (or throws) a MemoryError with `code`. */
export async function rejectsWith(assert, fn, code) {
  await assert.rejects(async () => fn(), (error) => {
    assert.equal(error.name, "MemoryError", String(error));
    assert.equal(error.code, code, error.message);
    return true;
  });
}
