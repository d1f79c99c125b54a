// Using memory in an agent loop: before each turn, recall() puts what is known about the user into the
// system prompt; during the turn the model calls search_memory / manage_memory, and runTool executes
// those calls inside the user's scope. The loop itself is plain fetch to an OpenAI-compatible
// /chat/completions endpoint.
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
});
// The tools are bound to Alice's scope here, once: no tool call can read or change anyone else's memories.
const tools = memory.tools({ userId: "alice" });

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

/** One user turn: recall, then let the model call tools until it answers (at most 5 steps). */
async function turn(userText) {
  console.log(`user: ${userText}`);
  const recalled = await memory.recall(userText, { userId: "alice", tokenBudget: 500 });
  if (recalled.text) console.log(`  recalled (${recalled.totalTokens} tokens):\n    ${recalled.text.replaceAll("\n", "\n    ")}`);
  const messages = [
    { role: "system", content: `You are a helpful assistant with long-term memory.\n${recalled.text}` },
    { role: "user", content: userText },
  ];
  for (let step = 0; step < 5; step++) {
    const reply = await chat(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) {
      console.log(`assistant: ${reply.content}`);
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

const stored = await memory.getAll({ userId: "alice" });
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
  server.script([
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
