// Using memory in an agent loop (the memory tiers): before each turn, formatForInjection() puts the core
// profile and the most important memories into the system prompt (no query needed); context() keeps the
// conversation within a token budget with a running summary; during the turn the model calls
// search_memory / manage_memory, and runTool executes those calls inside the user's scope; after the turn,
// flush() hands the exchange to the background writer, which extracts facts without making the agent wait.
// At the end of the day, dream() consolidates the journal into the core profile.
//
// Here a scripted OpenAI-compatible server on 127.0.0.1 stands in for the model, so this runs offline
// with no key. For a real model, point `baseUrl` / `apiKey` (and the memory's config) at your host and
// drop the script: the loop is the same.
import { Memory } from "../pkg/index.node.mjs";
import { startScriptedServer } from "../tests/support/scripted-server.mjs";

const llm = await startScriptedServer();
const baseUrl = llm.baseUrl;
const apiKey = "sk-demo";
scriptTheModel(llm);

const memory = new Memory({
  llm: { provider: "openai", config: { baseUrl, apiKey } },
  embedder: { provider: "openai", config: { baseUrl, apiKey, dimensions: 64 } },
  background: { debounceMs: 200 },
});
const alice = { userId: "alice" };
// The tools are bound to Alice's scope here, once: no tool call can read or change anyone else's memories.
const tools = memory.tools(alice);
// The conversation window: at most 3000 tokens, the oldest turns folded into a running summary.
const window = memory.context({ ...alice, maxTokens: 3000 });
memory.on("change", (change) => console.log(`  background: ${change.results.map((e) => `${e.event} ${e.memory}`).join("; ")}`));
memory.on("error", (failure) => console.log(`  background failed: ${failure.error.code}`));

/** One chat completion with the memory tools offered. */
async function chat(messages) {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ model: "gpt-4o-mini", messages, tools: tools.definitions }),
  });
  if (!response.ok) throw new Error(`chat completion failed: HTTP ${response.status}`);
  return (await response.json()).choices[0].message;
}

/** One user turn: inject, window, tools until the model answers (at most 5 steps), then flush. */
async function turn(userText) {
  console.log(`user: ${userText}`);
  const injected = await memory.formatForInjection({ ...alice, maxTokens: 500 });
  if (injected.text) console.log(`  injected (${injected.totalTokens} tokens):\n    ${injected.text.replaceAll("\n", "\n    ")}`);
  const { messages: history } = await window.push([{ role: "user", content: userText }]);
  const messages = [{ role: "system", content: `You are a helpful assistant with long-term memory.\n${injected.text}` }, ...history];
  for (let step = 0; step < 5; step++) {
    const reply = await chat(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) {
      console.log(`assistant: ${reply.content}`);
      await window.push([{ role: "assistant", content: reply.content }]);
      // Returns at once: the background writer extracts facts from the exchange after the debounce.
      await memory.flush([{ role: "user", content: userText }, { role: "assistant", content: reply.content }], alice);
      return reply.content;
    }
    for (const call of reply.tool_calls) {
      // A failed call (bad arguments, unknown id) goes back to the model as data, so it can recover.
      const result = await tools
        .runTool(call.function.name, call.function.arguments)
        .catch((error) => ({ error: error.code, message: error.message }));
      console.log(`  tool ${call.function.name} ${call.function.arguments} -> ${JSON.stringify(result)}`);
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  throw new Error("no answer after 5 steps");
}

await turn("Hi! I'm vegetarian, and I just moved to Lisbon.");
await turn("Can you suggest a place for dinner tonight?");
await memory.idle();

const dreamt = await memory.dream(alice);
console.log(`dream: ${dreamt.reason}\ncore profile:\n  ${dreamt.profile.markdown.replaceAll("\n", "\n  ")}`);
const stored = await memory.getAll(alice);
console.log(`alice's memories: ${stored.results.map((m) => m.memory).join("; ")}`);
console.log(`model calls: ${llm.count("chat")} chat, ${llm.count("embedding")} embedding requests`);
await llm.close();

/** What the stand-in model answers: tool calls first, then a reply that uses their results. */
function scriptTheModel(server) {
  const toolCalls = (...calls) =>
    JSON.stringify({
      id: "chatcmpl-scripted",
      object: "chat.completion",
      created: 0,
      model: "scripted",
      choices: [{
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          tool_calls: calls.map(([name, args], i) => ({
            id: `call_${i + 1}`, type: "function", function: { name, arguments: JSON.stringify(args) },
          })),
        },
      }],
    });
  const EXTRACT = "You are an expert at extracting";
  server.script([
    // The background writer: one extraction per flushed exchange, coalesced by the debounce.
    { kind: "chat", match: [EXTRACT, "place for dinner"], reply: { facts: ["User is looking for dinner places in Lisbon"] } },
    { kind: "chat", match: [EXTRACT], reply: { facts: [] } },
    { kind: "chat", match: ["You are a memory management system", "dinner places"],
      reply: { memory: [{ event: "ADD", text: "User is looking for dinner places in Lisbon" }] } },
    // The dream at the end of the day: the core profile, rewritten from the journal.
    { kind: "chat", match: "You consolidate an AI assistant's memory",
      reply: { profile: "# Alice\n- Vegetarian\n- Lives in Lisbon", facts: [], reason: "New in Lisbon; vegetarian." } },
    // Turn 1: the model stores two facts, then answers once both are stored.
    { kind: "chat", match: "I just moved to Lisbon", times: 1,
      body: toolCalls(
        ["manage_memory", { action: "create", content: "User is vegetarian" }],
        ["manage_memory", { action: "create", content: "User lives in Lisbon" }],
      ) },
    { kind: "chat", match: ["I just moved to Lisbon", '"event":"ADD"'],
      reply: "Welcome to Lisbon! I'll remember that you're vegetarian." },
    // Turn 2: only when recall put both facts in the system prompt does the model search for more, then answer.
    { kind: "chat", match: ["place for dinner", "User is vegetarian", "User lives in Lisbon"], times: 1,
      body: toolCalls(["search_memory", { query: "food allergies or dislikes", limit: 3 }]) },
    { kind: "chat", match: ["place for dinner", '"results"'],
      reply: "Try Ao 26 Vegan Food Project in Chiado: fully vegetarian, and a short walk from the centre of Lisbon." },
  ]);
}
