// The add() figure, in one Node process: the scripted OpenAI-compatible server adds DELAY ms to every LLM
// and embedding call; add() of a 10-fact conversation is timed against one bare LLM call, by each pipeline
// ("fast", the default, "exact", and "additive", mem0 v3's one-call add), and the LLM calls and embedding requests each add() makes are counted
// (the fast pipeline embeds rewritten texts after add() resolves: counted apart, as `settleRequests`).
// Prints one JSON object.
//
// Usage: node add.mjs '{"rounds": 5, "delayMs": 200}'
import { performance } from "node:perf_hooks";

import { Memory } from "memwasm";
import { startScriptedServer } from "../tests/support/scripted-server.mjs";
import { median } from "./lib/stats.mjs";

const { rounds = 5, delayMs = 200 } = JSON.parse(process.argv[2] ?? "{}");
const EXTRACT = "You are an expert at extracting structured, atomic facts";
const EXTRACT_ADDITIVE = "You are a memory extractor. From the new messages";
const DECIDE = "You are a memory management system";
const server = await startScriptedServer({ port: 0 });
const config = {
  llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "bench", model: "bench" } },
  embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "bench", model: "bench", dimensions: 64 } },
};

/** One bare chat completion through the same server and delay: the unit of the ratio. */
async function oneLlmCall() {
  server.script({ kind: "chat", match: ["bare call"], reply: "ok", delayMs });
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench" },
      body: JSON.stringify({ model: "bench", messages: [{ role: "user", content: "bare call" }] }),
    });
    await response.json();
    times.push(performance.now() - start);
  }
  return median(times);
}

const topics = ["coffee", "hiking", "jazz", "python", "tokyo", "chess", "cycling", "sushi", "linux", "painting"];

/**
 * Times add() of a 10-fact conversation for `userId`, whose 20 earlier memories make real neighbours.
 * `decide(facts)` is the scripted decision; returns the median time and requests per add().
 */
async function scenario(pipeline, name, userId, decide) {
  // The scripted embedder's hashed vectors make the template facts look alike: additive's near-duplicate
  // check (which costs no request) would drop some, so it is off here.
  const memory = new Memory({ ...config, pipeline, ...(pipeline === "additive" ? { nearDuplicate: false } : {}) });
  const earlier = topics.flatMap((t) => [`User used to like ${t} a bit`, `User once read about ${t} history`]);
  await memory.add(earlier.map((content) => ({ role: "user", content })), { userId, infer: false });
  server.script({ kind: "embedding", match: [], delayMs });
  const times = [];
  let chat = 0;
  let embedding = 0;
  let settle = 0;
  for (let i = 0; i < rounds; i++) {
    const marker = `${name} round ${i}`;
    const facts = topics.map((t) => `User loves ${t} (${marker})`);
    server.script([
      { kind: "chat", match: [pipeline === "additive" ? EXTRACT_ADDITIVE : EXTRACT, marker], reply: { facts }, delayMs, times: 1 },
      ...(decide ? [{ kind: "chat", match: [DECIDE, marker], reply: { memory: decide(facts) }, delayMs, times: 1 }] : []),
    ]);
    const before = { chat: server.count("chat"), embedding: server.count("embedding") };
    const start = performance.now();
    const result = await memory.add(
      topics.map((t) => ({ role: "user", content: `I love ${t}. ${marker}` })),
      { userId },
    );
    times.push(performance.now() - start);
    if (result.results.length < 10) throw new Error(`${name}: add() returned ${JSON.stringify(result)}`);
    chat += server.count("chat") - before.chat;
    const during = server.count("embedding") - before.embedding;
    embedding += during;
    await new Promise((resolve) => setTimeout(resolve, 3 * delayMs)); // vectors settling after add() resolved
    settle += server.count("embedding") - before.embedding - during;
  }
  return {
    name: `${pipeline}: ${name}`,
    pipeline,
    medianMs: median(times),
    llmCalls: chat / rounds,
    embeddingRequests: embedding / rounds,
    settleRequests: settle / rounds,
  };
}

const llmMs = await oneLlmCall();
const mixed = (facts) => [
  ...facts.slice(0, 7).map((text) => ({ text, event: "ADD" })),
  { id: "0", text: `${facts[7]}, merged`, event: "UPDATE" },
  { id: "1", text: `${facts[8]}, merged`, event: "UPDATE" },
  { id: "2", event: "NONE" },
];
const allNew = (facts) => facts.map((text) => ({ text, event: "ADD" }));
const scenarios = [];
for (const pipeline of ["fast", "exact"]) {
  scenarios.push(await scenario(pipeline, "10 new facts", `alice-${pipeline}`, allNew));
  scenarios.push(await scenario(pipeline, "10 facts: 7 ADD, 2 UPDATE, 1 NONE", `bob-${pipeline}`, mixed));
}
// mem0 v3's additive add(): one extraction call, no decision.
scenarios.push(await scenario("additive", "10 new facts", "carol-additive", null));
await server.close();
process.stdout.write(JSON.stringify({ delayMs, llmMs, scenarios }) + "\n");
