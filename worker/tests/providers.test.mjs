// The service with non-OpenAI models, configured by vars alone (LLM_PROVIDER, EMBEDDER_PROVIDER, …): Anthropic
// and Gemini wire formats against the scripted server, in workerd. Each reply shape is enforced the wire's
// way (a forced tool, a responseSchema), also for a per-call custom prompt.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, DECIDE, EXTRACT, T, startServer, startWorker } from "./helpers.mjs";

const CUSTOM = "Only keep facts about drinks.";

/** Vars for `llm` and `embedder` wires; the OpenAI defaults of serviceVars are overridden. */
function vars(server, { llm, embedder }) {
  const models = {
    anthropic: { PROVIDER: "anthropic", BASE_URL: `${server.url}/v1`, API_KEY: "sk-ant-test", MODEL: "claude-haiku-4-5" },
    gemini: { PROVIDER: "gemini", BASE_URL: `${server.url}/v1beta`, API_KEY: "g-key", MODEL: "gemini-2.5-flash" },
    openai: { PROVIDER: "openai", BASE_URL: server.baseUrl, API_KEY: "test-key", MODEL: "test-embed" },
  };
  const prefixed = (prefix, values) => Object.fromEntries(Object.entries(values).map(([k, v]) => [`${prefix}_${k}`, v]));
  const embedderVars = prefixed("EMBEDDER", { ...models[embedder], MODEL: embedder === "gemini" ? "gemini-embedding-001" : "test-embed" });
  return { ...prefixed("LLM", models[llm]), ...embedderVars };
}

/** Scripts one add on `wire`: the extraction (by `system`) returns `facts` and the decision ADDs them. */
function script(server, wire, system, input, facts) {
  server.script([
    { kind: "chat", wire, match: [system, input], reply: { facts }, times: 1 },
    { kind: "chat", wire, match: [DECIDE, ...facts], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) }, times: 1 },
  ]);
}

/** Adds through the REST API and returns the added memories' texts. */
async function add(call, body) {
  const { status, body: result } = await call("POST", "/v1/memories/", { token: ACME, body });
  assert.equal(status, 200, JSON.stringify(result));
  assert.deepEqual(result.warnings ?? [], []);
  return result.results.map((event) => event.memory);
}

for (const [llm, embedder, forced] of [
  ["anthropic", "openai", (request) => request.body.tool_choice?.name],
  ["gemini", "gemini", (request) => request.body.generationConfig?.responseSchema?.required?.[0]],
]) {
  test(`the service runs on ${llm} (embeddings: ${embedder}) configured by vars`, T, async (t) => {
    const server = await startServer();
    t.after(() => server.close());
    const worker = await startWorker(server, { vars: vars(server, { llm, embedder }) });
    t.after(() => worker.dispose());

    script(server, llm, EXTRACT, "I drink green tea", ["User drinks green tea"]);
    assert.deepEqual(await add(worker.call, { messages: "I drink green tea", user_id: "u1" }), ["User drinks green tea"]);
    script(server, llm, CUSTOM, "I like oolong", ["User likes oolong"]);
    const custom = { messages: "I like oolong", user_id: "u1", prompt: CUSTOM };
    assert.deepEqual(await add(worker.call, custom), ["User likes oolong"]);

    const chats = server.requests("chat");
    assert.equal(chats.length, 4, "two LLM calls per add, all on the configured wire");
    assert.ok(chats.every((request) => request.wire === llm), "no chat request went to another wire");
    assert.ok(chats.every((request) => !request.invalid), JSON.stringify(chats.map((r) => r.invalid)));
    // The reply shape is enforced on every call, the custom prompt's included.
    const shapes = chats.map(forced);
    assert.deepEqual(shapes, llm === "anthropic"
      ? ["record_facts", "record_memory_operations", "record_facts", "record_memory_operations"]
      : ["facts", "memory", "facts", "memory"]);
    assert.ok(chats[2].system.startsWith(CUSTOM) || chats[2].text.includes(CUSTOM));
    assert.ok(server.requests(embedder).some((request) => request.kind === "embedding"), "embeddings on their wire");

    const found = await worker.call("GET", "/v1/memories/search/?q=green%20tea&user_id=u1&limit=1");
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.equal(found.body.results.length, 1);
  });
}

test("a provider the service cannot build, or a bad LLM_CONFIG, is a coded 500", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  for (const [over, field] of [
    [{ LLM_PROVIDER: "custom" }, "LLM_PROVIDER"],
    [{ LLM_PROVIDER: "nope" }, "llm.provider"],
    [{ LLM_CONFIG: "[1]" }, "LLM_CONFIG"],
    [{ LLM_PROVIDER: "workers-ai", LLM_BASE_URL: "", LLM_MODEL: "" }, "binding AI"],
  ]) {
    const worker = await startWorker(server, { vars: over });
    const { status, body } = await worker.call("GET", "/v1/memories/?user_id=u1");
    await worker.dispose();
    assert.equal(status, 500, JSON.stringify(body));
    assert.equal(body.error.code, "INVALID_CONFIG");
    assert.ok(body.error.message.includes(field), `${body.error.message} names ${field}`);
  }
});
